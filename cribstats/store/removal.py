"""Taking games out of the store: ``cribstats delete GAME...`` and ``cribstats delete --import RUN``.

A game goes with every row made from it: its seats, deals, deal facts, play events, findings and per game
totals. Players and events that nothing stored names any more go too (:func:`remove_unused`, which an import
with ``--replace`` calls as well): a player no stored game seats, who is on no stored match's side, is named by
no match finding and has no alias (a spelling renamed or merged into him); an event no stored game, match or
match finding names. Everything happens in the caller's transaction, so a delete is whole or not at all.

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
from typing import Any

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
    unused = remove_unused(conn) if ids else Unused()
    return Removed(games=len(ids), deals=deals, findings=findings, players=len(unused.players),
                   events=len(unused.events))


@dataclass(frozen=True, slots=True)
class Unused:
    """The ids of the players and events :func:`remove_unused` took out."""

    players: tuple[int, ...] = ()
    events: tuple[int, ...] = ()


def _keeping(first: sa.Column[Any]) -> list[sa.Column[Any]]:
    """The columns whose rows keep the player or event ``first`` refers to stored: ``first`` (a game's seat, a
    game's event), then every column that refers to the same table from rows not made from a game (a game's
    own row, deals, facts, findings and totals name only players seated in it, and go with it). Read from the
    tables' foreign keys, so that a table added later keeps its players and events without being listed here.

    >>> [f"{c.table.name}.{c.name}" for c in _keeping(t.game_player_table.c.player_id)]
    ['game_player.player_id', 'player_alias.player_id', 'match_finding.player_id', 'match_player.player_id']
    >>> [f"{c.table.name}.{c.name}" for c in _keeping(t.game_table.c.event_id)]
    ['game.event_id', 'match.event_id', 'match_finding.event_id']
    """
    (target,) = {fk.column.table.name for fk in first.foreign_keys}

    def of_a_game(table: sa.Table) -> bool:
        return table.name == "game" or any(
            fk.column.table.name == "game" and not fk.parent.nullable for fk in table.foreign_keys)

    return [first] + [
        column
        for table in t.metadata.sorted_tables
        if table.name != target and not of_a_game(table)
        for column in table.columns
        if any(fk.column.table.name == target for fk in column.foreign_keys)
    ]


def _unused(table: sa.Table, first: sa.Column[Any]) -> list[sa.ColumnElement[bool]]:
    """The rows of ``table`` (players, events) that no row of :func:`_keeping` refers to, as a condition."""
    return [~sa.exists().where(column == table.c.id) for column in _keeping(first)]


def remove_unused(conn: Connection) -> Unused:
    """Delete the players and events that nothing stored names any more, in the caller's transaction: what a
    delete leaves behind, and the spelling a replaced game had (one definition for both).

    A player stays while a stored game seats him, a stored match has him on a side, a match finding names him,
    or he has an alias (a rename or merge, the user's own word, which a later import of the old spelling
    follows). An event stays while a stored game, match or match finding names it. The delete asks again (a
    concurrent import into PostgreSQL may have seated a player since he was found).
    """
    found: list[tuple[int, ...]] = []
    kinds = ((t.player_table, t.game_player_table.c.player_id), (t.event_table, t.game_table.c.event_id))
    for table, first in kinds:
        unused = _unused(table, first)
        ids = tuple(conn.execute(sa.select(table.c.id).where(*unused).order_by(table.c.id)).scalars())
        for chunk in _chunks(ids):
            conn.execute(sa.delete(table).where(table.c.id.in_(chunk), *unused))
        found.append(ids)
    return Unused(players=found[0], events=found[1])


def games_of_import(conn: Connection, run: int) -> list[tuple[int, str]]:
    """The ids and keys of the stored games that import ``run`` stored (a game stored again by a later import
    belongs to the later)."""
    g = t.game_table
    query = sa.select(g.c.id, g.c.game_key).where(g.c.import_id == run).order_by(g.c.id)
    return [(r.id, r.game_key) for r in conn.execute(query)]
