"""Stored facts as polars frames: one ``pl.read_database`` query per table, filtered in the database.

:class:`StatsFilter` names the games a figure is about (a player, an event, a date range, a variant).
:func:`load_frames` reads the four tables the statistics use into :class:`StatsFrames`:

=================== ============================================================================================
frame               columns
=================== ============================================================================================
``games``           game_id, game_key, date, variant, target, player_count, deal_count, event
``game_players``    game_id, player_id, player, name_key, team, won, skunk_level, final_score_claimed
``deal_players``    player_id, role, completed, pegged_due, hand_due, crib_due, heels_due, hand_size
``findings``        game_id, player_id, kind, phase, claimed, due, completed (of the finding's deal)
=================== ============================================================================================

With a player filter, ``games`` and ``game_players`` hold every game that player sat in (the other players'
results are needed for the spread); ``deal_players`` and ``findings`` hold that player's rows only.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     frames = load_frames(conn, StatsFilter(variant="six-card"))
>>> frames.games.collect().height, frames.deal_players.collect_schema()["completed"]
(0, Boolean)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date as Date
from typing import Any

import polars as pl
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.store import tables as t
from cribstats.store.tables import name_key
from cribstats.variants import find_variant


@dataclass(frozen=True, slots=True)
class StatsFilter:
    """Which games (and whose rows) the statistics cover. Dates include both ends; when either is given, undated
    games are left out. ``event`` ignores case; ``player`` matches any spelling that folds to the same name.

    >>> StatsFilter(event="Tuesday League").describe()
    'event Tuesday League'
    """

    player: str | None = None
    event: str | None = None
    since: Date | None = None
    until: Date | None = None
    variant: str | None = None

    def describe(self) -> str:
        """The filter in words, for titles: ``'all games'`` when there is none."""
        parts = []
        if self.player:
            parts.append(f"player {self.player}")
        if self.event:
            parts.append(f"event {self.event}")
        if self.variant:
            parts.append(f"variant {self.variant}")
        if self.since and self.until and self.since == self.until:
            parts.append(f"on {self.since.isoformat()}")
        else:
            if self.since:
                parts.append(f"since {self.since.isoformat()}")
            if self.until:
                parts.append(f"until {self.until.isoformat()}")
        return ", ".join(parts) or "all games"

    @property
    def player_key(self) -> str | None:
        return name_key(self.player) if self.player else None


@dataclass(slots=True)
class StatsFrames:
    """The stored facts a set of statistics reads, as lazy frames (see the module notes for the columns)."""

    games: pl.LazyFrame
    game_players: pl.LazyFrame
    deal_players: pl.LazyFrame
    findings: pl.LazyFrame
    filters: StatsFilter


GAME_SCHEMA: dict[str, Any] = {
    "game_id": pl.Int64,
    "game_key": pl.String,
    "date": pl.Date,
    "variant": pl.String,
    "target": pl.Int64,
    "player_count": pl.Int64,
    "deal_count": pl.Int64,
    "event": pl.String,
}
GAME_PLAYER_SCHEMA: dict[str, Any] = {
    "game_id": pl.Int64,
    "player_id": pl.Int64,
    "player": pl.String,
    "name_key": pl.String,
    "team": pl.Int64,
    "won": pl.Int8,
    "skunk_level": pl.Int64,
    "final_score_claimed": pl.Int64,
}
DEAL_PLAYER_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64,
    "role": pl.String,
    "completed": pl.Int8,
    "pegged_due": pl.Int64,
    "hand_due": pl.Int64,
    "crib_due": pl.Int64,
    "heels_due": pl.Int64,
    "hand_size": pl.Int64,
}
FINDING_SCHEMA: dict[str, Any] = {
    "game_id": pl.Int64,
    "player_id": pl.Int64,
    "kind": pl.String,
    "phase": pl.String,
    "claimed": pl.Int64,
    "due": pl.Int64,
    "completed": pl.Int8,
}


def game_conditions(filters: StatsFilter) -> list[sa.ColumnElement[bool]]:
    """WHERE conditions on ``game`` (joined to ``event``) for the event, date and variant filters."""
    g, e = t.game_table, t.event_table
    conditions: list[sa.ColumnElement[bool]] = []
    if filters.event is not None:
        conditions.append(sa.func.lower(e.c.name) == filters.event.strip().lower())
    if filters.since is not None:
        conditions.append(g.c.date >= filters.since)
    if filters.until is not None:
        conditions.append(g.c.date <= filters.until)
    if filters.variant is not None:
        conditions.append(g.c.variant == find_variant(filters.variant).name)
    return conditions


def _player_id(filters: StatsFilter) -> sa.ScalarSelect[Any]:
    p = t.player_table
    return sa.select(p.c.id).where(p.c.name_key == filters.player_key).scalar_subquery()


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


def _as_int(column: sa.ColumnElement[Any], label: str) -> sa.Label[Any]:
    """Booleans read as 0/1 on every backend."""
    return sa.cast(column, sa.Integer).label(label)


def games_query(filters: StatsFilter) -> sa.Select[Any]:
    g, e = t.game_table, t.event_table
    query = sa.select(
        g.c.id.label("game_id"),
        g.c.game_key,
        g.c.date,
        g.c.variant,
        g.c.target,
        g.c.player_count,
        g.c.deal_count,
        e.c.name.label("event"),
    ).select_from(g.outerjoin(e, g.c.event_id == e.c.id))
    ids = game_ids(filters)
    if ids is not None:
        query = query.where(g.c.id.in_(ids))
    return query


def game_players_query(filters: StatsFilter) -> sa.Select[Any]:
    gp, p = t.game_player_table, t.player_table
    query = sa.select(
        gp.c.game_id,
        gp.c.player_id,
        p.c.name.label("player"),
        p.c.name_key,
        gp.c.team,
        _as_int(gp.c.won, "won"),
        gp.c.skunk_level,
        gp.c.final_score_claimed,
    ).select_from(gp.join(p, gp.c.player_id == p.c.id))
    ids = game_ids(filters)
    if ids is not None:
        query = query.where(gp.c.game_id.in_(ids))
    return query


def deal_players_query(filters: StatsFilter) -> sa.Select[Any]:
    """The fact table, narrowed to what the measures read. ``hand_size`` is the cards kept (dealt less discards,
    from the card lists' lengths: three characters a card), so that no join to ``game`` is needed."""
    dp = t.deal_player_table
    hand_size = (sa.func.length(dp.c.dealt) - sa.func.length(dp.c.discards)) // 3
    query = sa.select(
        dp.c.player_id,
        dp.c.role,
        _as_int(dp.c.completed, "completed"),
        dp.c.pegged_due,
        dp.c.hand_due,
        dp.c.crib_due,
        dp.c.heels_due,
        hand_size.label("hand_size"),
    )
    ids = game_ids(replace(filters, player=None))
    if ids is not None:
        query = query.where(dp.c.game_id.in_(ids))
    if filters.player is not None:
        query = query.where(dp.c.player_id == _player_id(filters))
    return query


def findings_query(filters: StatsFilter) -> sa.Select[Any]:
    f, d = t.finding_table, t.deal_table
    query = sa.select(
        f.c.game_id,
        f.c.player_id,
        f.c.kind,
        f.c.phase,
        f.c.claimed,
        f.c.due,
        _as_int(d.c.completed, "completed"),
    ).select_from(f.outerjoin(d, sa.and_(d.c.game_id == f.c.game_id, d.c.number == f.c.deal_number)))
    game_filter = game_ids(replace(filters, player=None))
    if game_filter is not None:
        query = query.where(f.c.game_id.in_(game_filter))
    if filters.player is not None:
        query = query.where(f.c.player_id == _player_id(filters))
    return query


def read_frame(conn: Connection, query: sa.Select[Any], schema: dict[str, Any]) -> pl.DataFrame:
    """One query into a frame with a fixed schema (so that an empty result has the right column types)."""
    frame = pl.read_database(query, conn, schema_overrides=schema, infer_schema_length=None)
    if frame.width == 0 or frame.height == 0:
        return pl.DataFrame(schema=schema)
    return frame.select([pl.col(name).cast(dtype) for name, dtype in schema.items()])


def load_frames(conn: Connection, filters: StatsFilter | None = None) -> StatsFrames:
    """Read the games, results, deal facts and findings the filter covers: one query per table.

    :raises VariantError: for an unknown variant in the filter.
    """
    filters = filters or StatsFilter()
    games = read_frame(conn, games_query(filters), GAME_SCHEMA)
    game_players = read_frame(conn, game_players_query(filters), GAME_PLAYER_SCHEMA)
    deal_players = read_frame(conn, deal_players_query(filters), DEAL_PLAYER_SCHEMA)
    findings = read_frame(conn, findings_query(filters), FINDING_SCHEMA)
    return StatsFrames(
        games=games.lazy(),
        game_players=game_players.lazy().with_columns(pl.col("won").cast(pl.Boolean)),
        deal_players=deal_players.lazy().with_columns(pl.col("completed").cast(pl.Boolean)),
        findings=findings.lazy().with_columns(pl.col("completed").fill_null(0).cast(pl.Boolean)),
        filters=filters,
    )


WORST_KINDS: tuple[str, ...] = ("missed", "overclaim", "muggins-call")


def worst_findings_query(filters: StatsFilter, limit: int) -> sa.Select[Any]:
    """The findings with the biggest gap between claimed and due (missed, over-claimed and muggins calls), then
    the oldest first: game key and date, deal, kind, phase, player, claimed, due, message."""
    f, g, p = t.finding_table, t.game_table, t.player_table
    gap = sa.func.abs(sa.func.coalesce(f.c.due, 0) - sa.func.coalesce(f.c.claimed, 0))
    query = (
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
        .where(f.c.kind.in_(WORST_KINDS))
        .order_by(gap.desc(), g.c.date.is_(None), g.c.date, g.c.id, f.c.seq)
        .limit(limit)
    )
    game_filter = game_ids(replace(filters, player=None))
    if game_filter is not None:
        query = query.where(f.c.game_id.in_(game_filter))
    if filters.player is not None:
        query = query.where(f.c.player_id == _player_id(filters))
    return query


WORST_SCHEMA: dict[str, Any] = {
    "game_key": pl.String,
    "date": pl.Date,
    "deal": pl.Int64,
    "kind": pl.String,
    "phase": pl.String,
    "player": pl.String,
    "claimed": pl.Int64,
    "due": pl.Int64,
    "points": pl.Int64,
    "message": pl.String,
}


def load_worst_findings(conn: Connection, filters: StatsFilter | None = None, limit: int = 15) -> pl.DataFrame:
    """The ``limit`` worst findings the filter covers (see :func:`worst_findings_query`)."""
    return read_frame(conn, worst_findings_query(filters or StatsFilter(), limit), WORST_SCHEMA)
