"""The stored value of every discard (``deal_player``'s value columns), worked out from the dealt cards and
discards of each player's deal by :mod:`cribstats.discards.analysis`.

:func:`add_discard_values` fills the values of some stored games from their stored rows (the importer needs it
not: it values each discard where the game is replayed, :mod:`cribstats.store.rows`, with the same function,
:func:`cribstats.discards.values.many_discard_values`); :func:`fill_discard_values` fills a whole store, game by
game in batches that each commit whole (``cribstats analyse --store``: stores imported before values were kept, or
after a new crib table with ``again``). A deal whose cards cannot be judged (a discard of cards not dealt, the
wrong number of cards) keeps no value: the audit reports it (and ``analyse --store`` looks at its game again
each time, to find it still cannot be judged).

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> fill_discard_values(engine)
(0, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from cribstats.cards import format_card, parse_cards
from cribstats.discards.analysis import DiscardError
from cribstats.discards.values import Discard, many_discard_values
from cribstats.errors import CribstatsError
from cribstats.store import tables as t
from cribstats.store.db import atomic, writer
from cribstats.store.rows import VALUE_FIELDS
from cribstats.store.totals import id_runs
from cribstats.store.version import bump_store_version
from cribstats.variants import find_variant

BATCH_GAMES = 500
RUNS_PER_STATEMENT = 200

Progress = Callable[[int], None]
"""Told how many more games are done."""


CANONICAL: dict[str, int] = {format_card(c): c for c in range(52)}


def _cards(text: str) -> list[int]:
    """A stored card list (canonical spellings, one space apart), read fast; anything else the slow way."""
    try:
        return [CANONICAL[word] for word in text.split(" ")]
    except KeyError:
        return parse_cards(text)


def _in_runs(column: sa.ColumnElement[Any], runs: Sequence[tuple[int, int]]) -> sa.ColumnElement[bool]:
    """``column`` within one of the runs of ids."""
    return sa.or_(*(column.between(first, last) for first, last in runs))


VALUE_COLUMNS: tuple[str, ...] = VALUE_FIELDS
"""The columns of ``deal_player`` that hold a discard's value, in the order of
:data:`cribstats.discards.values.DiscardValues` (the last fields of the importer's rows)."""


def discard_values_of(conn: Connection, game_ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """The values of the discards of some stored games, worked out from their ``deal_player`` rows: each the
    row's id and :data:`VALUE_COLUMNS`, for the discards that can be judged (none of a giveaway game)."""
    dp, g = t.deal_player_table, t.game_table
    out: list[tuple[Any, ...]] = []
    runs = id_runs(game_ids)
    for start in range(0, len(runs), RUNS_PER_STATEMENT):
        part = runs[start : start + RUNS_PER_STATEMENT]
        giveaway = _giveaway_games(conn, part)
        query = (
            sa.select(dp.c.id, dp.c.game_id, dp.c.role, dp.c.dealt, dp.c.discards, g.c.variant)
            .select_from(dp.join(g, g.c.id == dp.c.game_id))
            .where(_in_runs(dp.c.game_id, part), dp.c.discards != "")
        )
        ids: list[int] = []
        discards: list[Discard] = []
        for row_id, game_id, role, dealt, thrown, variant in conn.execute(query):
            if game_id in giveaway:
                continue
            try:
                discards.append((_cards(dealt), _cards(thrown), find_variant(variant), role))
            except (CribstatsError, ValueError):
                continue
            ids.append(row_id)
        values = many_discard_values(discards)
        out += [(i, *v) for i, v in zip(ids, values, strict=True) if not isinstance(v, DiscardError)]
    return out


def add_discard_values(conn: Connection, game_ids: Sequence[int]) -> int:
    """Work out and store the discard values of some stored games; how many discards were valued."""
    if not game_ids:
        return 0
    rows = discard_values_of(conn, game_ids)
    if rows:
        dp = t.deal_player_table
        update = (
            sa.update(dp)
            .where(dp.c.id == sa.bindparam("row_id"))
            .values({c: sa.bindparam(f"new_{c}") for c in VALUE_COLUMNS})
        )
        names = ("row_id", *(f"new_{c}" for c in VALUE_COLUMNS))
        conn.execute(update, [dict(zip(names, row, strict=True)) for row in rows])
    return len(rows)


def games_to_analyse(conn: Connection, *, again: bool = False) -> list[int]:
    """Ids of the stored games with discards to value: those with a discard not valued (every one with
    ``again``), giveaway games left out (their discards are never valued, so they are never left to do)."""
    dp = t.deal_player_table
    query = sa.select(dp.c.game_id).where(dp.c.discards != "").distinct()
    if not again:
        query = query.where(dp.c.expected.is_(None))
    ids = sorted(row[0] for row in conn.execute(query))
    runs = id_runs(ids)
    giveaway: set[int] = set()
    for start in range(0, len(runs), RUNS_PER_STATEMENT):
        giveaway |= _giveaway_games(conn, runs[start : start + RUNS_PER_STATEMENT])
    return [i for i in ids if i not in giveaway]


def _giveaway_games(conn: Connection, runs: Sequence[tuple[int, int]]) -> set[int]:
    """The giveaway games among the ids in ``runs`` (first and last id of each), each game looked at once, not
    once a row."""
    g = t.game_table
    return set(conn.execute(sa.select(g.c.id).where(_in_runs(g.c.id, runs), t.is_giveaway(g))).scalars())


def fill_discard_values(
    engine: Engine, *, again: bool = False, progress: Progress | None = None,
    started: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Value the discards of every stored game with a discard not valued (with ``again``: of every game,
    replacing what is there), in batches of :data:`BATCH_GAMES` games that each commit whole. ``started(n)`` is
    told how many games there are to do, ``progress(k)`` of each batch done. Returns (games, discards valued)."""
    with engine.connect() as conn:
        todo = games_to_analyse(conn, again=again)
    if started is not None:
        started(len(todo))
    rows = 0
    with engine.connect() as raw:
        conn = writer(raw)
        for start in range(0, len(todo), BATCH_GAMES):
            batch = todo[start : start + BATCH_GAMES]
            with atomic(conn):
                rows += add_discard_values(conn, batch)
                bump_store_version(conn)  # the service's figures include the discard losses
            if progress is not None:
                progress(len(batch))
    return len(todo), rows
