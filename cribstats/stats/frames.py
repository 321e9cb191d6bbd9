"""Stored facts as polars frames: the database adds up, polars divides and ranks.

:class:`StatsFilter` names the games a figure is about (a player, an event, a date range, a variant).
:func:`load_frames` runs one grouped query per frame, filtered in the database, so that what polars reads is a
few rows per player however many games are stored:

==================== ===========================================================================================
frame                columns (one row per group)
==================== ===========================================================================================
``player_totals``    player_id, player, name_key: the sums of ``game_player_totals`` over the covered games
                     (see :data:`PLAYER_TOTALS_SCHEMA`): everyone who sat in a covered game
``finding_totals``   player_id, kind, phase: findings, gap (the sum of ``due - claimed``)
``missed_totals``    player_id, phase: missed (points due less claimed of ``missed`` findings, completed deals)
``game_totals``      games, deals, first, last (of the covered games; one row)
``game_results``     date, game_skunk: games (decided games)
``hand_totals``      hand_size, points: hands (hands shown, by the cards kept and the points due)
``side_totals``      player_id, partner_id, player, name_key: the results per side (:mod:`cribstats.stats.sides`):
                     a player, or in four-player games a partnership (``player`` is "Abe & Cal")
==================== ===========================================================================================

``player_totals`` is all ``standings`` reads, and ``cribstats stats`` reads it and ``missed_totals`` (the points
missed by phase, for ``accuracy``): ``player_totals`` is one grouped query over the per game and player totals
that the store writes with each game (:mod:`cribstats.store.totals`), ``missed_totals`` one over the findings.
The other frames serve the charts and the report only: ``load_frames(..., detail=False)`` leaves them out (None),
and ``missed_totals`` too with ``missed=False``. ``game_skunk`` is the
highest skunk level of a game's players (the winner's skunk).

With a player filter, results are those of every game that player sat in (the other players' results make the
spread: the totals hold them already) and only that player's rows are kept; so are finding totals.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     frames = load_frames(conn, StatsFilter(variant="six-card"))
>>> frames.player_totals.collect().height, frames.player_totals.collect_schema()["games"]
(0, Int64)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date as Date
from typing import Any

import polars as pl
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.names import event_key
from cribstats.store import tables as t
from cribstats.store.tables import name_key
from cribstats.store.totals import misdealt_deals
from cribstats.variants import find_variant


@dataclass(frozen=True, slots=True)
class StatsFilter:
    """Which games (and whose rows) the statistics cover. Dates include both ends; when either is given, undated
    games are left out. ``event`` ignores case and Unicode form (:attr:`event_key`); ``player`` matches any
    spelling that folds to the same name (:attr:`player_key`), or an alias.

    >>> StatsFilter(event="Tuesday League").describe()
    'event Tuesday League'
    """

    player: str | None = None
    event: str | None = None
    since: Date | None = None
    until: Date | None = None
    variant: str | None = None
    #: ``(player as typed, as stored)`` once :meth:`as_stored` found him; what the filter covers is the same
    stored_spelling: tuple[str, str] | None = field(default=None, compare=False, repr=False)

    def as_stored(self, conn: Connection) -> StatsFilter:
        """The filter that names its player, in :meth:`describe`, as the store spells him (found by any spelling
        or alias, :func:`cribstats.store.players.stored_player`); as it is when the store has no such player, so
        that the words say what was asked for. It covers the same games."""
        from cribstats.store.players import stored_player

        if not self.player:
            return self
        found = stored_player(conn, self.player)
        return self if found is None else replace(self, stored_spelling=(self.player, found[1]))

    def describe(self) -> str:
        """The filter in words, for titles: ``'all games'`` when there is none. The player as stored once
        :meth:`as_stored` found him (``player Zoë`` for ``--player ZOÉ``), else as typed."""
        parts = []
        if self.player:
            stored = self.stored_spelling  # (as typed, as stored): of this player, not one replace() put back
            parts.append(f"player {stored[1] if stored and stored[0] == self.player else self.player}")
        if self.event:
            parts.append(f"event {self.event}")
        if self.variant:
            parts.append(f"variant {self.variant}")
        if self.since and self.since == self.until:
            parts.append(f"on {self.since.isoformat()}")
        else:
            parts += [f"{w} {d.isoformat()}" for w, d in (("since", self.since), ("until", self.until)) if d]
        return ", ".join(parts) or "all games"

    @property
    def player_key(self) -> str | None:
        return name_key(self.player) if self.player else None

    @property
    def event_key(self) -> str | None:
        """The event as events are compared (:func:`cribstats.names.event_key`), or None for no event filter."""
        return None if self.event is None else event_key(self.event)


@dataclass(slots=True)
class StatsFrames:
    """The totals a set of statistics reads, as lazy frames (see the module notes for the columns).

    Every frame but ``player_totals`` and ``missed_totals`` is None when the frames were read without detail;
    ``missed_totals`` is None when they were read with ``missed=False``.
    """

    player_totals: pl.LazyFrame
    filters: StatsFilter
    finding_totals: pl.LazyFrame | None = None
    missed_totals: pl.LazyFrame | None = None
    game_totals: pl.LazyFrame | None = None
    game_results: pl.LazyFrame | None = None
    hand_totals: pl.LazyFrame | None = None
    side_totals: pl.LazyFrame | None = None


SKUNK_NAMES: dict[int, str] = {1: "skunks", 2: "double_skunks", 3: "triple_skunks"}
SUMMED = (
    "game_points", "spread", "deals", "deals_as_dealer", "deals_as_pone", "pegged_due_dealer",
    "pegged_deals_dealer", "pegged_due_pone", "pegged_deals_pone", "hand_due_dealer", "hand_deals_dealer",
    "hand_due_pone", "hand_deals_pone", "crib_due", "crib_deals", "heels_due", "points_missed",
    "points_overclaimed", "missed_completed", "illegal_plays",
)  # fmt: skip
"""The columns of ``game_player_totals`` that ``player_totals`` adds up as they are."""
PLAYER_TOTALS_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64, "player": pl.String, "name_key": pl.String, "games": pl.Int64, "wins": pl.Int64,
    "first_dealer_games": pl.Int64, "first_dealer_wins": pl.Int64,
    **{f"{name}_won": pl.Int64 for name in SKUNK_NAMES.values()},
    **{f"{name}_lost": pl.Int64 for name in SKUNK_NAMES.values()},
    **dict.fromkeys(SUMMED, pl.Int64),
}  # fmt: skip
FINDING_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64, "kind": pl.String, "phase": pl.String, "findings": pl.Int64, "gap": pl.Int64,
}  # fmt: skip
MISSED_SCHEMA: dict[str, Any] = {"player_id": pl.Int64, "phase": pl.String, "missed": pl.Int64}
GAME_TOTALS_SCHEMA: dict[str, Any] = {"games": pl.Int64, "deals": pl.Int64, "first": pl.Date, "last": pl.Date}
GAME_RESULTS_SCHEMA: dict[str, Any] = {"date": pl.Date, "game_skunk": pl.Int64, "games": pl.Int64}
HAND_SCHEMA: dict[str, Any] = {"hand_size": pl.Int64, "points": pl.Int64, "hands": pl.Int64}


# --- which games ------------------------------------------------------------------------------------------------


def game_conditions(filters: StatsFilter) -> list[sa.ColumnElement[bool]]:
    """WHERE conditions on ``game`` (joined to ``event``) for the event, date and variant filters."""
    g, e = t.game_table, t.event_table
    conditions: list[sa.ColumnElement[bool]] = []
    if filters.event is not None:
        conditions.append(e.c.name_key == filters.event_key)
    if filters.since is not None:
        conditions.append(g.c.date >= filters.since)
    if filters.until is not None:
        conditions.append(g.c.date <= filters.until)
    if filters.variant is not None:
        conditions.append(g.c.variant == find_variant(filters.variant).name)
    return conditions


def _player_id(filters: StatsFilter) -> sa.ScalarSelect[Any]:
    """The filter's player: by name key, or by an alias from ``cribstats players merge`` or ``rename``."""
    from cribstats.store.players import player_id_query

    return player_id_query(filters.player_key or "")


def game_ids(filters: StatsFilter) -> sa.Select[Any] | None:
    """The ids of the games the filter covers, as a subquery; None when it covers every game."""
    g, e, gp = t.game_table, t.event_table, t.game_player_table
    conditions = game_conditions(filters)
    if filters.player is not None:
        conditions.append(g.c.id.in_(sa.select(gp.c.game_id).where(gp.c.player_id == _player_id(filters))))
    if not conditions:
        return None
    source = g.outerjoin(e, g.c.event_id == e.c.id) if filters.event is not None else g
    return sa.select(g.c.id).select_from(source).where(*conditions)


def _in_games(column: sa.ColumnElement[Any], filters: StatsFilter) -> list[sa.ColumnElement[bool]]:
    """``column`` (a game id) among the covered games: no condition when every game is covered."""
    ids = game_ids(filters)
    return [] if ids is None else [column.in_(ids)]


def _own_rows(table: sa.Table, filters: StatsFilter) -> list[sa.ColumnElement[bool]]:
    """Rows of ``table`` (with game_id and player_id) in the covered games, and with a player filter that
    player's only."""
    conditions = _in_games(table.c.game_id, replace(filters, player=None))
    if filters.player is not None:
        conditions.append(table.c.player_id == _player_id(filters))
    return conditions


def games_query(filters: StatsFilter) -> sa.Select[Any]:
    """The covered games: id, date and number of deals."""
    g = t.game_table
    return sa.select(g.c.id.label("game_id"), g.c.date, g.c.deal_count).where(*_in_games(g.c.id, filters))


# --- the queries ------------------------------------------------------------------------------------------------


def player_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Per player, the per game totals of the covered games added up: games (decided), wins, the decided games
    the player dealt first in and the wins among them, skunks won and lost by level, and the sums of
    :data:`SUMMED`; with the player's name. One row per player who sat in a covered game (with a player filter:
    that player only)."""
    gt, p = t.game_player_totals_table, t.player_table
    won, lost, level = gt.c.won, sa.not_(gt.c.won), gt.c.skunk_level

    def times(when: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
        return sa.func.sum(sa.case((when, 1), else_=0))

    per_player = (
        sa.select(
            gt.c.player_id,
            sa.func.count(gt.c.won).label("games"),
            times(won).label("wins"),
            times(sa.and_(gt.c.won.is_not(None), gt.c.first_dealer == 1)).label("first_dealer_games"),
            times(sa.and_(won, gt.c.first_dealer == 1)).label("first_dealer_wins"),
            *[times(sa.and_(won, level == n)).label(f"{name}_won") for n, name in SKUNK_NAMES.items()],
            *[times(sa.and_(lost, level == n)).label(f"{name}_lost") for n, name in SKUNK_NAMES.items()],
            *[sa.func.sum(gt.c[name]).label(name) for name in SUMMED],
        )
        .where(*_own_rows(gt, filters))
        .group_by(gt.c.player_id)
        .subquery("per_player")
    )
    return sa.select(
        per_player.c.player_id,
        p.c.name.label("player"),
        p.c.name_key,
        *[per_player.c[name] for name in list(PLAYER_TOTALS_SCHEMA)[3:]],
    ).select_from(per_player.join(p, p.c.id == per_player.c.player_id))


def finding_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Findings per player (null for game-level findings), kind and phase: how many, and the sum of
    ``due - claimed`` (findings without both count for nothing in it)."""
    f = t.finding_table
    return (
        sa.select(
            f.c.player_id,
            f.c.kind,
            f.c.phase,
            sa.func.count().label("findings"),
            sa.func.sum(f.c.due - f.c.claimed).label("gap"),
        )
        .where(*_own_rows(f, filters))
        .group_by(f.c.kind, f.c.player_id, f.c.phase)
    )


def missed_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Points missed (``due - claimed`` of ``missed`` findings) in completed deals that are not misdealt, per
    player and phase."""
    f, d = t.finding_table, t.deal_table
    return (
        sa.select(f.c.player_id, f.c.phase, sa.func.sum(f.c.due - f.c.claimed).label("missed"))
        .select_from(f.join(d, sa.and_(d.c.game_id == f.c.game_id, d.c.number == f.c.deal_number)))
        .where(f.c.kind == "missed", d.c.completed, d.c.id.not_in(misdealt_deals()), *_own_rows(f, filters))
        .group_by(f.c.player_id, f.c.phase)
    )


def game_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """The covered games: how many, their deals, the first and last date."""
    games = games_query(filters).subquery()
    return sa.select(  # type: ignore[return-value]  # count() is typed int; the other queries' columns are Any
        sa.func.count().label("games"),
        sa.func.sum(games.c.deal_count).label("deals"),
        sa.func.min(games.c.date).label("first"),
        sa.func.max(games.c.date).label("last"),
    )


def game_results_query(filters: StatsFilter) -> sa.Select[Any]:
    """Decided games per date (null for undated) and game skunk level (the winner's, in the per game totals)."""
    g, gt = t.game_table, t.game_player_totals_table
    winners = (
        sa.select(gt.c.game_id, sa.func.max(gt.c.skunk_level).label("game_skunk"))
        .where(gt.c.won, *_in_games(gt.c.game_id, filters))
        .group_by(gt.c.game_id)
        .subquery("winners")
    )
    return (
        sa.select(g.c.date, winners.c.game_skunk, sa.func.count().label("games"))
        .select_from(winners.join(g, g.c.id == winners.c.game_id))
        .group_by(g.c.date, winners.c.game_skunk)
    )


def hand_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Hands shown in deals that are not misdealt, per hand size and points due. The hand size is the cards
    kept (dealt less discards, from the card lists' lengths: three characters a card), so that no join to
    ``game`` is needed."""
    dp = t.deal_player_table
    hand_size = ((sa.func.length(dp.c.dealt) - sa.func.length(dp.c.discards)) // 3).label("hand_size")
    return (
        sa.select(hand_size, dp.c.hand_due.label("points"), sa.func.count().label("hands"))
        .where(dp.c.hand_due.is_not(None), dp.c.deal_id.not_in(misdealt_deals()), *_own_rows(dp, filters))
        .group_by(hand_size, dp.c.hand_due)
    )


def read_frame(conn: Connection, query: sa.Select[Any], schema: dict[str, Any]) -> pl.DataFrame:
    """One query into a frame with a fixed schema (so that an empty result has the right column types).
    Booleans arrive as 0/1."""
    raw = {name: pl.Int8 if dtype == pl.Boolean else dtype for name, dtype in schema.items()}
    frame = pl.DataFrame([tuple(row) for row in conn.execute(query)], schema=raw, orient="row")
    return frame.cast(schema)  # type: ignore[arg-type]


def load_frames(
    conn: Connection,
    filters: StatsFilter | None = None,
    *,
    detail: bool = True,
    sides: bool = False,
    missed: bool = True,
) -> StatsFrames:
    """Read the totals the filter covers: one grouped query per frame. Without ``detail``, only
    ``player_totals`` and ``missed_totals`` are read (all ``stats`` needs), and ``side_totals`` with ``sides``
    (``standings``); the frames the charts and the report read are left out. ``missed=False`` (with ``detail``
    False) leaves ``missed_totals`` out too: ``standings`` does not read it. ``frames.filters`` names the player
    as stored (:meth:`StatsFilter.as_stored`), for the charts' titles.

    :raises VariantError: for an unknown variant in the filter.
    """
    filters = (filters or StatsFilter()).as_stored(conn)
    frames = StatsFrames(
        player_totals=read_frame(conn, player_totals_query(filters), PLAYER_TOTALS_SCHEMA).lazy(), filters=filters
    )
    if detail or sides:
        from cribstats.stats.sides import read_side_totals

        frames.side_totals = read_side_totals(conn, filters).lazy()
    if detail or missed:
        frames.missed_totals = read_frame(conn, missed_totals_query(filters), MISSED_SCHEMA).lazy()
    if detail:
        frames.finding_totals = read_frame(conn, finding_totals_query(filters), FINDING_SCHEMA).lazy()
        frames.game_totals = read_frame(conn, game_totals_query(filters), GAME_TOTALS_SCHEMA).lazy()
        frames.game_results = read_frame(conn, game_results_query(filters), GAME_RESULTS_SCHEMA).lazy()
        frames.hand_totals = read_frame(conn, hand_totals_query(filters), HAND_SCHEMA).lazy()
    return frames


# --- the worst findings (the report) ----------------------------------------------------------------------------

WORST_KINDS: tuple[str, ...] = ("missed", "overclaim", "muggins-call")


def worst_findings_query(filters: StatsFilter, limit: int) -> sa.Select[Any]:
    """The findings with the biggest gap between claimed and due (missed, over-claimed and muggins calls), then
    the oldest first: game key and date, deal, kind, phase, player, claimed, due, message."""
    f, g, p = t.finding_table, t.game_table, t.player_table
    gap = sa.func.abs(sa.func.coalesce(f.c.due, 0) - sa.func.coalesce(f.c.claimed, 0))
    return (
        sa.select(
            g.c.game_key,
            g.c.date,
            f.c.deal_number.label("deal"),
            f.c.kind,
            f.c.phase,
            p.c.name.label("player"),
            f.c.claimed,
            f.c.due,
            gap.label("points"),
            f.c.message,
        )
        .select_from(f.join(g, f.c.game_id == g.c.id).outerjoin(p, f.c.player_id == p.c.id))
        .where(f.c.kind.in_(WORST_KINDS), *_own_rows(f, filters))
        .order_by(gap.desc(), g.c.date.is_(None), g.c.date, g.c.id, f.c.seq)
        .limit(limit)
    )


WORST_SCHEMA: dict[str, Any] = {
    "game_key": pl.String, "date": pl.Date, "deal": pl.Int64, "kind": pl.String, "phase": pl.String,
    "player": pl.String, "claimed": pl.Int64, "due": pl.Int64, "points": pl.Int64, "message": pl.String,
}  # fmt: skip


def load_worst_findings(conn: Connection, filters: StatsFilter | None = None, limit: int = 15) -> pl.DataFrame:
    """The ``limit`` worst findings the filter covers (see :func:`worst_findings_query`)."""
    return read_frame(conn, worst_findings_query(filters or StatsFilter(), limit), WORST_SCHEMA)
