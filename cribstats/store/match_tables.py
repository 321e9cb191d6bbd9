"""The store's tables of matches (docs/match.md) and of the service's keys: part of the store's ``metadata``
(:mod:`cribstats.store.tables` names them all)."""

from datetime import date as Date
from datetime import datetime as DateTime

import sqlalchemy as sa
from sqlmodel import Field

from cribstats.store.table_base import StoreTable, count_column, fk


class Match(StoreTable, table=True):
    """A match (docs/match.md): its record as given, and the result its stored games give.

    ``source_id`` is the match id (the record's ``id``, which its games carry as ``match``). ``rules`` is the
    rules' JSON object form; ``side1``/``side2`` the JSON lists of each side's names. ``content_hash`` is the
    record's (:func:`cribstats.match.model.match_hash`), null while the match is known only from games that carry
    its id. ``recorded_winner`` and ``recorded_points1``/``2`` are what the record says; ``winner_side`` (1, 2 or
    null while unfinished), ``points1``/``points2`` and ``ended_after_game`` are replayed from the stored games.
    """

    __tablename__ = "match"
    __table_args__ = (sa.Index("ix_match_date", "date"), sa.Index("ix_match_event_id", "event_id"))

    id: int | None = Field(default=None, primary_key=True)
    source_id: str = Field(sa_column=sa.Column(sa.Text, nullable=False, unique=True))
    content_hash: str | None = Field(default=None, sa_column=sa.Column(sa.String(64), nullable=True))
    event_id: int | None = Field(default=None, sa_column=fk("event.id", nullable=True, ondelete="SET NULL"))
    date: Date | None = Field(default=None, sa_column=sa.Column(sa.Date, nullable=True))
    round: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    site: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    rules: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    first_to: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    count_by: str = Field(sa_column=sa.Column(sa.String(6), nullable=False))
    side1: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    side2: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    winner_side: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    recorded_winner: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    recorded_points1: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    recorded_points2: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    points1: int = Field(default=0, sa_column=count_column())
    points2: int = Field(default=0, sa_column=count_column())
    ended_after_game: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    finding_count: int = Field(default=0, sa_column=count_column())
    source_file: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    source_place: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    imported_at: DateTime = Field(sa_column=sa.Column(sa.DateTime, nullable=False))


class MatchPlayer(StoreTable, table=True):
    """A player's side in a match (1 or 2): what head-to-head and match statistics join on."""

    __tablename__ = "match_player"
    __table_args__ = (
        sa.UniqueConstraint("match_id", "player_id", name="uq_match_player_player"),
        sa.Index("ix_match_player_player_id", "player_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(sa_column=fk("match.id"))
    player_id: int = Field(sa_column=fk("player.id", ondelete=None))
    side: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))


class MatchGame(StoreTable, table=True):
    """Game ``number`` (1-based) of a match. ``game_source_id`` is the game's key (its ``id``, else its content
    hash's first 16 hex digits); ``game_id`` is null until that game is stored. ``winner_side`` (1, 2, or null
    when no side finished or the game is not stored), ``match_points`` (what it gave the winner's side) and
    ``counted`` (false for a game begun after the match was decided) are replayed."""

    __tablename__ = "match_game"
    __table_args__ = (
        sa.UniqueConstraint("match_id", "number", name="uq_match_game_number"),
        sa.Index("ix_match_game_game_id", "game_id"),
        sa.Index("ix_match_game_game_source_id", "game_source_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(sa_column=fk("match.id"))
    game_id: int | None = Field(default=None, sa_column=fk("game.id", nullable=True, ondelete="SET NULL"))
    game_source_id: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    number: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    counted: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False))
    winner_side: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    match_points: int = Field(default=0, sa_column=count_column())


class MatchFinding(StoreTable, table=True):
    """A finding about a match (``match-result``, ``match-dealer``, ``match-after-end``: ``match_id`` set,
    ``game_key`` the game concerned or null) or a club night's scorecards (``scorecard``: ``match_id`` null, the
    night's ``date``, ``event_id`` and ``round``, ``finding_hash`` naming it so a sheet read again adds
    nothing, and ``pair_key`` the two players whose cards disagree, so that their corrected cards retire it).
    Fields as in findings version 1 (docs/findings.md)."""

    __tablename__ = "match_finding"
    __table_args__ = (
        sa.Index("ix_match_finding_match_id", "match_id"),
        sa.Index("ix_match_finding_kind", "kind"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int | None = Field(default=None, sa_column=fk("match.id", nullable=True))
    seq: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    game_key: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    kind: str = Field(sa_column=sa.Column(sa.String(20), nullable=False))
    phase: str = Field(sa_column=sa.Column(sa.String(10), nullable=False))
    player_id: int | None = Field(default=None, sa_column=fk("player.id", nullable=True, ondelete="SET NULL"))
    claimed: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    due: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    message: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    date: Date | None = Field(default=None, sa_column=sa.Column(sa.Date, nullable=True))
    event_id: int | None = Field(default=None, sa_column=fk("event.id", nullable=True, ondelete="SET NULL"))
    round: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    finding_hash: str | None = Field(default=None, sa_column=sa.Column(sa.String(64), nullable=True, unique=True))
    #: a scorecard finding's two players, their name keys sorted, as a JSON array (null for a match's findings,
    #: and for scorecard findings stored before migration 0014)
    pair_key: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))


class ApiKey(StoreTable, table=True):
    """A key that may write through ``cribstats serve``: its name, role (``recorder`` or ``admin``) and the
    SHA-256 of the key. The key itself is shown once when made and never stored; a revoked key keeps its row."""

    __tablename__ = "api_key"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=sa.Column(sa.Text, nullable=False, unique=True))
    role: str = Field(sa_column=sa.Column(sa.String(10), nullable=False))
    key_hash: str = Field(sa_column=sa.Column(sa.String(64), nullable=False, unique=True))
    created_at: DateTime = Field(sa_column=sa.Column(sa.DateTime, nullable=False))
    revoked_at: DateTime | None = Field(default=None, sa_column=sa.Column(sa.DateTime, nullable=True))


match_table: sa.Table = Match.__table__  # type: ignore[attr-defined]
match_player_table: sa.Table = MatchPlayer.__table__  # type: ignore[attr-defined]
match_game_table: sa.Table = MatchGame.__table__  # type: ignore[attr-defined]
match_finding_table: sa.Table = MatchFinding.__table__  # type: ignore[attr-defined]
api_key_table: sa.Table = ApiKey.__table__  # type: ignore[attr-defined]
