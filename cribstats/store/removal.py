"""Taking games out of the store: ``cribstats delete GAME...`` and ``cribstats delete --import RUN``.

A game goes with every row made from it: its seats, deals, deal facts, play events, findings and per game
totals. Players and events that no stored game names any more go too (a player merged into another keeps the
other's aliases). Everything happens in the caller's transaction, so a delete is whole or not at all.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.begin() as conn:
...     delete_games(conn, [])
Removed(games=0, deals=0, findings=0, players=0, events=0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.store import tables as t

CHUNK = 300  # ids per IN list: under SQLite's oldest limit of bound values


@dataclass(frozen=True, slots=True)
class Removed:
    """What a delete took out of the store."""

    games: int
    deals: int
    findings: int
    players: int
    events: int


def _chunks(ids: Sequence[int]) -> list[Sequence[int]]:
    return [ids[at : at + CHUNK] for at in range(0, len(ids), CHUNK)]


def _count(conn: Connection, table: sa.Table, chunk: Sequence[int]) -> int:
    query = sa.select(sa.func.count()).select_from(table).where(table.c.game_id.in_(chunk))
    return conn.execute(query).scalar_one()


def delete_games(conn: Connection, game_ids: Sequence[int]) -> Removed:
    """Delete these stored games and every row made from them, in the caller's transaction."""
    ids = sorted(set(game_ids))
    deals = findings = 0
    for chunk in _chunks(ids):
        deals += _count(conn, t.deal_table, chunk)
        findings += _count(conn, t.finding_table, chunk)
        for table in (t.deal_player_table, t.finding_table, t.game_player_totals_table, t.game_player_table,
                      t.deal_table):
            conn.execute(sa.delete(table).where(table.c.game_id.in_(chunk)))
        conn.execute(sa.delete(t.game_table).where(t.game_table.c.id.in_(chunk)))
    players = _delete_unused_players(conn) if ids else 0
    events = _delete_unused_events(conn) if ids else 0
    return Removed(games=len(ids), deals=deals, findings=findings, players=players, events=events)


def _delete_unused_players(conn: Connection) -> int:
    p, gp = t.player_table, t.game_player_table
    unused = sa.select(p.c.id).where(~sa.exists().where(gp.c.player_id == p.c.id))
    ids = list(conn.execute(unused).scalars())
    for chunk in _chunks(ids):
        conn.execute(sa.delete(t.player_alias_table).where(t.player_alias_table.c.player_id.in_(chunk)))
        conn.execute(sa.delete(p).where(p.c.id.in_(chunk)))
    return len(ids)


def _delete_unused_events(conn: Connection) -> int:
    e, g = t.event_table, t.game_table
    result = conn.execute(sa.delete(e).where(~sa.exists().where(g.c.event_id == e.c.id)))
    return result.rowcount or 0


def games_of_import(conn: Connection, run: int) -> list[tuple[int, str]]:
    """The ids and keys of the stored games that import ``run`` stored (a game stored again by a later import
    belongs to the later)."""
    g = t.game_table
    query = sa.select(g.c.id, g.c.game_key).where(g.c.import_id == run).order_by(g.c.id)
    return [(r.id, r.game_key) for r in conn.execute(query)]
