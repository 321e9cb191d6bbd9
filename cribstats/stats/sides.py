"""The sides of the standings: a player on their own, or the two partners of a four-player game as one side.

Partners share a team (``game_player.team``; in the other variants every seat is its own team), so a seat's
partner is the other seat of its game with the same team. A side's results are those of either partner's per
game totals (partners share the side's result, game points and spread), counted once.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     read_side_totals(conn, StatsFilter()).columns[:4]
['player_id', 'partner_id', 'player', 'name_key']
"""

from __future__ import annotations

from typing import Any

import polars as pl
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.stats.frames import SKUNK_NAMES, StatsFilter, _own_rows
from cribstats.store import tables as t

SIDE_RESULTS = ("game_points", "spread")
SIDE_TOTALS_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64,
    "partner_id": pl.Int64,
    "player": pl.String,
    "name_key": pl.String,
    "games": pl.Int64,
    "wins": pl.Int64,
    **{f"{name}_won": pl.Int64 for name in SKUNK_NAMES.values()},
    **{f"{name}_lost": pl.Int64 for name in SKUNK_NAMES.values()},
    **dict.fromkeys(SIDE_RESULTS, pl.Int64),
}
PARTNERS = " & "
"""How a partnership's two names are joined in the standings."""


def side_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Per side of the covered games, their results added up: a player on their own, or the two partners of a
    four-player game as one side (partners share a team; in the other variants every seat is its own team).
    A partnership is counted once, on the row of its lower player id (with a player filter: that player's)."""
    gt, gp, p, q = t.game_player_totals_table, t.game_player_table, t.player_table, t.player_table.alias("mate")
    mate = t.game_player_table.alias("partner")
    won, lost, level = gt.c.won, sa.not_(gt.c.won), gt.c.skunk_level

    def times(when: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
        return sa.func.sum(sa.case((when, 1), else_=0))

    once = [] if filters.player is not None else [
        sa.or_(mate.c.player_id.is_(None), gt.c.player_id < mate.c.player_id)]
    per_side = (
        sa.select(
            gt.c.player_id,
            mate.c.player_id.label("partner_id"),
            sa.func.count(gt.c.won).label("games"),
            times(won).label("wins"),
            *[times(sa.and_(won, level == n)).label(f"{name}_won") for n, name in SKUNK_NAMES.items()],
            *[times(sa.and_(lost, level == n)).label(f"{name}_lost") for n, name in SKUNK_NAMES.items()],
            *[sa.func.sum(gt.c[name]).label(name) for name in SIDE_RESULTS],
        )
        .select_from(
            gt.join(gp, sa.and_(gp.c.game_id == gt.c.game_id, gp.c.player_id == gt.c.player_id)).outerjoin(
                mate,
                sa.and_(mate.c.game_id == gp.c.game_id, mate.c.team == gp.c.team,
                        mate.c.player_id != gp.c.player_id),
            )
        )
        .where(*_own_rows(gt, filters), *once)
        .group_by(gt.c.player_id, mate.c.player_id)
        .subquery("per_side")
    )
    return sa.select(
        per_side.c.player_id,
        per_side.c.partner_id,
        p.c.name.label("player"),
        p.c.name_key,
        q.c.name.label("partner"),
        q.c.name_key.label("partner_key"),
        *[per_side.c[name] for name in list(SIDE_TOTALS_SCHEMA)[4:]],
    ).select_from(per_side.join(p, p.c.id == per_side.c.player_id).outerjoin(q, q.c.id == per_side.c.partner_id))


def read_side_totals(conn: Connection, filters: StatsFilter) -> pl.DataFrame:
    """:func:`side_totals_query` as a frame of :data:`SIDE_TOTALS_SCHEMA`, a partnership named by its two
    players in name order."""
    rows = []
    for r in conn.execute(side_totals_query(filters)):
        name, key = r.player, r.name_key
        if r.partner_id is not None:
            pair = _pair(r)
            name, key = PARTNERS.join(n for _, n in pair), PARTNERS.join(k for k, _ in pair)
        rows.append((r.player_id, r.partner_id, name, key, *r[6:]))
    return pl.DataFrame(rows, schema=SIDE_TOTALS_SCHEMA, orient="row")


def read_partnerships(conn: Connection, filters: StatsFilter) -> dict[str, tuple[str, str]]:
    """The partnerships of the covered games: each side's name in the standings and its two players, in the
    order the name gives them."""
    found = {}
    for r in conn.execute(side_totals_query(filters)):
        if r.partner_id is not None:
            pair = _pair(r)
            found[PARTNERS.join(n for _, n in pair)] = (pair[0][1], pair[1][1])
    return found


def _pair(r: Any) -> list[tuple[str, str]]:
    """A side's two players as (name key, name), in name order."""
    return sorted([(r.name_key, r.player), (r.partner_key, r.partner)])
