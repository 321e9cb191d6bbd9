"""The API's response types, as they appear in the OpenAPI document. The statistics rows are built from the
columns ``cribstats stats`` and ``standings`` write, so the API's fields are theirs by construction."""

from __future__ import annotations

from datetime import date as Date
from typing import Any, Generic, TypeVar

import polars as pl
from pydantic import BaseModel, Field, create_model

T = TypeVar("T")


def _schemas() -> tuple[Any, Any]:
    """The columns and types of ``stats`` and ``standings``, as the library computes them (over an empty store)."""
    from cribstats.stats import compute_standings, compute_stats
    from cribstats.store.db import make_engine, upgrade

    engine = make_engine("sqlite://")
    upgrade(engine)
    try:
        return compute_stats(engine).schema, compute_standings(engine).schema
    finally:
        engine.dispose()


def _row_model(name: str, schema: Any, doc: str) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for column, dtype in schema.items():
        kind: Any = str if dtype == pl.String else (float | None if dtype.is_float() else int | None)
        fields[column] = (kind, ...)
    return create_model(name, __doc__=doc, **fields)


def _club_schemas() -> dict[str, Any]:
    """The columns and types of ``night``, ``season``, ``head-to-head``, ``rating`` and ``discards``, as the
    library computes them (over an empty store)."""
    from datetime import date

    from cribstats.stats.club import head_to_head_table, ratings_tables
    from cribstats.stats.discards import discard_summary, worst_discards
    from cribstats.stats.frames import StatsFilter
    from cribstats.stats.night import load_night
    from cribstats.stats.results import load_night_totals
    from cribstats.stats.season import season_standings
    from cribstats.store.db import make_engine, upgrade

    engine = make_engine("sqlite://")
    upgrade(engine)
    try:
        with engine.connect() as conn:
            found = {
                "night": load_night(conn, "", date(2000, 1, 1)).placings.schema,
                "season": season_standings(load_night_totals(conn, StatsFilter())).schema,
                "discards": discard_summary(conn).schema,
                "worst": worst_discards(conn).schema,
            }
        found["head_to_head"] = head_to_head_table(engine, StatsFilter()).schema
        rating, steps = ratings_tables(engine, StatsFilter(), history=True)
        found["rating"] = rating.schema
        found["rating_history"] = steps.schema  # type: ignore[union-attr]
        return found
    finally:
        engine.dispose()


def _nullable_row_model(name: str, schema: Any, doc: str) -> type[BaseModel]:
    """A row of a club table: every column of the frame, null where the command writes null."""
    fields: dict[str, Any] = {}
    for column, dtype in schema.items():
        if dtype == pl.String:
            kind: Any = str | None
        elif dtype == pl.Date:
            kind = Date | None
        elif dtype == pl.Boolean:
            kind = bool | None
        elif dtype.is_float():
            kind = float | None
        else:
            kind = int | None
        fields[column] = (kind, ...)
    return create_model(name, __doc__=doc, **fields)


_STATS_SCHEMA, _STANDINGS_SCHEMA = _schemas()
_CLUB = _club_schemas()
StatsRow = _row_model("StatsRow", _STATS_SCHEMA, "One row of `cribstats stats --format json`.")
StandingsRow = _row_model("StandingsRow", _STANDINGS_SCHEMA, "One row of `cribstats standings --format json`.")
NightRow = _nullable_row_model("NightRow", _CLUB["night"], "One placing of `cribstats night --format json`.")
SeasonRow = _nullable_row_model("SeasonRow", _CLUB["season"], "One row of `cribstats season --format json`.")
HeadToHeadRow = _nullable_row_model("HeadToHeadRow", _CLUB["head_to_head"],
                                    "One row of `cribstats head-to-head --format json`.")  # fmt: skip
RatingRow = _nullable_row_model("RatingRow", _CLUB["rating"], "One row of `cribstats rating --format json`.")
RatingStep = _nullable_row_model("RatingStep", _CLUB["rating_history"],
                                 "One row of `cribstats rating --history --format json`.")  # fmt: skip
DiscardRow = _nullable_row_model("DiscardRow", _CLUB["discards"],
                                 "One row of `cribstats discards --format json`.")  # fmt: skip
WorstDiscard = _nullable_row_model("WorstDiscard", _CLUB["worst"], "One of the costliest discards.")


class Page(BaseModel, Generic[T]):
    """One page of a sorted list: ``total`` items match, these are ``offset`` onwards."""

    total: int
    limit: int
    offset: int
    items: list[T]


class GameItem(BaseModel):
    """One line of `cribstats games --format json`."""

    id: int
    game: str
    date: Date | None
    event: str | None
    round: str | None
    variant: str
    players: list[str]
    scores: list[int | None]
    winners: list[str]
    deals: int
    findings: int
    source: str | None


class FindingOut(BaseModel):
    """A finding as the findings contract gives it (``game`` is null for a scorecard finding)."""

    game: str | None
    deal: int | None
    event: int | None
    kind: str
    phase: str
    player: str | None
    claimed: int | None
    due: int | None
    message: str


class StoredFinding(FindingOut):
    date: Date | None


class ScorecardFinding(BaseModel):
    """Two players' cards of a club night's game that disagree (a ``scorecard`` finding), with the night."""

    date: Date | None
    event: str | None
    round: str | None
    player: str | None
    claimed: int | None
    due: int | None
    message: str


class PlayerDeal(BaseModel):
    player: str
    seat: int
    role: str
    dealt: list[str]
    discards: list[str]
    pegged_due: int | None
    pegged_claimed: int | None
    hand_due: int | None
    hand_claimed: int | None
    crib_due: int | None
    crib_claimed: int | None
    heels_due: int
    heels_claimed: int
    muggins_gained: int
    muggins_lost: int


class PlayEvent(BaseModel):
    index: int
    player: str
    card: str | None = Field(description="The card laid, or null for a go.")
    count: int
    due: int
    claimed: int | None
    after_end: bool


class Show(BaseModel):
    player: str
    phase: str
    cards: list[str]
    starter: str
    due: int
    claimed: int
    after_end: bool


class DealOut(BaseModel):
    number: int
    dealer: str
    starter: str
    completed: bool
    after_end: bool
    players: list[PlayerDeal]
    play: list[PlayEvent]
    show: list[Show]
    scores_claimed: dict[str, int]
    scores_due: dict[str, int]


class GameDetail(BaseModel):
    """A stored game replayed: its deals, play, show and findings."""

    id: int
    game: str
    content_hash: str
    source: str | None
    date: Date | None
    event: str | None
    round: str | None
    site: str | None
    variant: str
    target: int
    players: list[str]
    scores_claimed: dict[str, int]
    scores_due: dict[str, int]
    winners: list[str]
    winners_due: list[str]
    skunk_level: int
    ended_in_deal: int | None
    deals: list[DealOut]
    findings: list[FindingOut]


class PlayerItem(BaseModel):
    name: str
    games: int


class PlayerDetail(BaseModel):
    """A player's statistics (their row of `cribstats stats --player NAME`) and recent games."""

    name: str
    stats: StatsRow | None  # type: ignore[valid-type]
    recent_games: list[GameItem]


class Refused(BaseModel):
    file: str
    place: str | None
    reason: str
    game: str | None


class UploadedGame(BaseModel):
    """A game of the upload that is in the store: newly ``imported`` or already ``present``."""

    game: str
    id: int
    file: str
    place: str | None
    status: str
    findings: list[FindingOut]


class SheetCheck(FindingOut):
    """A finding made while reading, with the rows it is about: two scorecards of one game that disagree."""

    file: str
    place: str


class UploadSummary(BaseModel):
    """The import summary of `cribstats import`, with each refused game's place and each stored game's
    findings."""

    files: int
    imported: int
    present: int
    replaced: int
    refused_count: int
    conflict_count: int
    findings: int
    deals: int
    refused: list[Refused]
    conflicts: list[Refused]
    games: list[UploadedGame]
    games_listed_all: bool = Field(description="False when the upload held more distinct games than are listed "
                                               "(a game sent twice is listed once, where it first came).")
    checks: list[SheetCheck] = Field(description="Scorecards that disagree, with their rows.")
    match_records: int = Field(description="Match records stored.")


class UploadProblem(BaseModel):
    """A problem (RFC 9457) with the upload's summary: what was refused, and what was stored all the same."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[dict[str, Any]] = Field(default_factory=list)
    summary: UploadSummary | None = Field(default=None, description="What the upload did (when it was read).")


class MatchGame(BaseModel):
    number: int
    game: str
    stored: bool
    winner_side: int | None
    match_points: int
    counted: bool


class MatchItem(BaseModel):
    """A stored match: its sides, rules, games and result as replayed from the stored games, beside what its
    record says, and its findings."""

    match: str
    event: str | None
    date: Date | None
    round: str | None
    site: str | None
    rules: dict[str, Any]
    sides: list[list[str]]
    points: list[int]
    winner: list[str] | None
    finished: bool
    ended_after_game: int | None
    recorded_winner: str | None
    recorded_points: list[int | None]
    has_record: bool
    games: list[MatchGame]
    findings: list[FindingOut]
