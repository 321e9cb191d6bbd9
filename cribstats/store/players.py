"""The players of the store: ``cribstats players``, ``players rename`` and ``players merge``, and the aliases by
which a later import finds a merged player.

A player is known by a name key (:func:`cribstats.names.name_key`: NFC, case and spacing folded). Renaming gives
the player a new spelling and keeps the old one as an alias; merging moves every game, deal, fact, finding and
total of one player onto another and keeps the merged name as an alias, so that later imports of that spelling are
stored on the player it was merged into and every statistic follows. Two players who sat in the same game cannot
be merged (a game has each player once). Each change happens in the caller's transaction.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     list_players(conn)
[]
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.errors import CribstatsError
from cribstats.gamelog.spelling import CRIB, CRIB_NAME_MESSAGE
from cribstats.names import TextError, name_key, normalise_name, quoted
from cribstats.store import tables as t

CHUNK = 300


class PlayerError(CribstatsError):
    """A rename or merge that cannot be done: an unknown player, a name taken, players of one game."""


@dataclass(slots=True)
class PlayerRow:
    """One line of ``cribstats players``."""

    id: int
    name: str
    games: int
    aliases: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "games": self.games, "aliases": self.aliases}


PLAYER_COLUMNS = ("id", "name", "games", "aliases")


def stored_player(conn: Connection, name: str) -> tuple[int, str] | None:
    """The id and stored name of the player ``name`` names (any spelling that folds to it, or an alias from a
    rename or merge); None when it names none."""
    p = t.player_table
    found = conn.execute(sa.select(p.c.id, p.c.name).where(p.c.id == player_id_query(name_key(name)))).first()
    return None if found is None else (int(found.id), str(found.name))


def player_id_query(key: str) -> sa.ScalarSelect[Any]:
    """The id of the player a name key names, directly or as an alias (a scalar subquery; null for none)."""
    p, a = t.player_table, t.player_alias_table
    return sa.select(
        sa.func.coalesce(
            sa.select(p.c.id).where(p.c.name_key == key).scalar_subquery(),
            sa.select(a.c.player_id).where(a.c.name_key == key).scalar_subquery(),
        )
    ).scalar_subquery()


def stored_key(conn: Connection, name: str) -> str:
    """The name key of the stored player ``name`` names, directly or as an alias (a spelling renamed or merged
    away); ``name``'s own key when it names no stored player, so that a filter on it finds nothing."""
    p = t.player_table
    key = name_key(name)
    found = conn.execute(sa.select(p.c.name_key).where(p.c.id == player_id_query(key))).scalar()
    return key if found is None else str(found)


def alias_ids(conn: Connection, keys: Iterable[str]) -> dict[str, int]:
    """Name key -> player id for those of ``keys`` that are aliases of a player (for the importer)."""
    a = t.player_alias_table
    wanted = sorted(set(keys))
    found: dict[str, int] = {}
    for at in range(0, len(wanted), CHUNK):
        chunk = wanted[at : at + CHUNK]
        for key, player_id in conn.execute(sa.select(a.c.name_key, a.c.player_id).where(a.c.name_key.in_(chunk))):
            found[key] = player_id
    return found


def seated_twice(names: Mapping[str, str], ids: Mapping[str, int]) -> str | None:
    """Why a game cannot be stored when two of its names (name key -> spelling, ``ids`` the player id of each
    key) are one stored player, a spelling merged into another with ``players merge``; None when they are not.

    >>> seated_twice({"robert": "Robert", "bob": "Bob"}, {"robert": 7, "bob": 7})[:45]
    "'Robert' and 'Bob' are one stored player (one"
    """
    seen: dict[int, str] = {}
    for key, name in names.items():
        player = ids.get(key)
        if player is None:
            continue
        if player in seen:
            return (f"{quoted(seen[player])} and {quoted(name)} are one stored player (one spelling was merged "
                    "into the other): a player sits once in a game")
        seen[player] = name
    return None


def refuse_seated_twice(to_store: list[Any], ids: Mapping[str, int], refused: list[Any]) -> list[Any]:
    """The importer's games to store (``(prepared game, replaced)`` pairs) less those that seat one player twice
    (:func:`seated_twice`), which go to ``refused`` with the reason, as the importer refuses a game."""
    kept = []
    for item in to_store:
        why = seated_twice(item[0].names, ids)
        if why is None:
            kept.append(item)
        else:
            refused.append((item[0], why))
    return kept


def list_players(conn: Connection) -> list[PlayerRow]:
    """Every player, by name key, with the games stored for them and their aliases."""
    p, gp, a = t.player_table, t.game_player_table, t.player_alias_table
    games = sa.select(gp.c.player_id, sa.func.count().label("games")).group_by(gp.c.player_id).subquery()
    query = (
        sa.select(p.c.id, p.c.name, sa.func.coalesce(games.c.games, 0).label("games"))
        .select_from(p.outerjoin(games, games.c.player_id == p.c.id))
        .order_by(p.c.name_key, p.c.id)
    )
    rows = {r.id: PlayerRow(r.id, r.name, r.games) for r in conn.execute(query)}
    for alias in conn.execute(sa.select(a.c.player_id, a.c.name).order_by(a.c.name_key)):
        if alias.player_id in rows:
            rows[alias.player_id].aliases.append(alias.name)
    return list(rows.values())


def find_player(conn: Connection, name: str) -> tuple[int, str]:
    """The id and stored name of the player ``name`` names (directly or as an alias).

    :raises PlayerError: when it names no stored player.
    """
    p = t.player_table
    row = conn.execute(sa.select(p.c.id, p.c.name).where(p.c.id == player_id_query(name_key(name)))).first()
    if row is None:
        raise PlayerError(f"no stored player {quoted(name)}: `cribstats players` lists them")
    return row.id, row.name


def _valid(name: str) -> str:
    """``name`` as a player's name may be, under the rule every reader applies: the name rule, and not ``crib``
    (a game log's ``show`` names the crib so; the readers refuse a player of that name)."""
    try:
        normal = normalise_name(name)
    except TextError as err:
        raise PlayerError(f"{quoted(name)}: {err}") from None
    if normal == CRIB:
        raise PlayerError(CRIB_NAME_MESSAGE)
    return normal


def _add_alias(conn: Connection, name: str, player_id: int) -> None:
    a = t.player_alias_table
    key = name_key(name)
    conn.execute(sa.delete(a).where(a.c.name_key == key))
    conn.execute(sa.insert(a).values(name=name, name_key=key, player_id=player_id))


def rename_player(conn: Connection, old: str, new: str) -> tuple[str, str]:
    """Give the player ``old`` names the spelling ``new``; the old spelling stays an alias of the player.

    :returns: the stored name before and after.
    :raises PlayerError: for an unknown player, a name the rule refuses (``crib`` among them), or a name another
        player has.
    """
    player_id, before = find_player(conn, old)
    after = _valid(new)
    key = name_key(after)
    p, a = t.player_table, t.player_alias_table
    taken = conn.execute(sa.select(p.c.name).where(p.c.id == player_id_query(key), p.c.id != player_id)).first()
    if taken is not None:
        raise PlayerError(f"{quoted(after)} is the stored player {quoted(taken.name)}: to make them one player, "
                          f"use `cribstats players merge {shlex.quote(before)} {shlex.quote(taken.name)}`")
    conn.execute(sa.update(p).where(p.c.id == player_id).values(name=after, name_key=key))
    conn.execute(sa.delete(a).where(a.c.name_key == key))
    if name_key(before) != key:
        _add_alias(conn, before, player_id)
    _rename_in_match_sides(conn, player_id, before, after)
    return before, after


def _rename_in_match_sides(conn: Connection, player_id: int, before: str, after: str) -> None:
    """The sides of the player's stored matches, which keep names as written (``match.side1``/``side2``), name
    the player ``after`` where they named ``before`` (any spelling of it)."""
    m, mp = t.match_table, t.match_player_table
    old_key = name_key(before)
    rows = conn.execute(sa.select(m.c.id, m.c.side1, m.c.side2)
                        .where(m.c.id.in_(sa.select(mp.c.match_id).where(mp.c.player_id == player_id)))).all()
    for row in rows:
        sides = [[after if name_key(n) == old_key else n for n in orjson.loads(side)]
                 for side in (row.side1, row.side2)]
        conn.execute(sa.update(m).where(m.c.id == row.id).values(
            side1=orjson.dumps(sides[0]).decode(), side2=orjson.dumps(sides[1]).decode()))


def player_columns() -> list[tuple[str, str]]:
    """Every column that holds a player id, table by table: read from the tables' foreign keys, so that a table
    added later (discard values, match sides) moves with a merge without being listed here.

    >>> ("deal_player", "player_id") in player_columns() and ("deal", "dealer_id") in player_columns()
    True
    """
    return [
        (table.name, column.name)
        for table in t.metadata.sorted_tables
        if table.name != "player"
        for column in table.columns
        if any(fk.column.table.name == "player" for fk in column.foreign_keys)
    ]


def _refuse_shared_match(conn: Connection, gone: tuple[int, str], kept: tuple[int, str]) -> None:
    """A stored match that names both players (its games may since have been deleted) makes them two players."""
    m, mp = t.match_table, t.match_player_table
    both = (
        sa.select(m.c.source_id)
        .where(m.c.id.in_(sa.select(mp.c.match_id).where(mp.c.player_id == gone[0])))
        .where(m.c.id.in_(sa.select(mp.c.match_id).where(mp.c.player_id == kept[0])))
        .order_by(m.c.id)
        .limit(1)
    )
    shared = conn.execute(both).scalar()
    if shared is not None:
        raise PlayerError(f"{quoted(gone[1])} and {quoted(kept[1])} both play in match {quoted(shared)}: they are "
                          "two players, and cannot be merged")


def merge_players(conn: Connection, alias: str, into: str) -> tuple[str, str, int]:
    """Make the player ``alias`` names one with the player ``into`` names: every row moves to ``into``, and the
    merged name (and its aliases) become aliases of ``into``.

    :returns: the two stored names and the number of games moved.
    :raises PlayerError: for an unknown player, one player twice, or players who sat in the same game or
        play in the same stored match.
    """
    gone_id, gone_name = find_player(conn, alias)
    kept_id, kept_name = find_player(conn, into)
    if gone_id == kept_id:
        raise PlayerError(f"{quoted(alias)} and {quoted(into)} are already one player, {quoted(kept_name)}")
    gp, g = t.game_player_table, t.game_table
    both = (
        sa.select(g.c.game_key)
        .where(g.c.id.in_(sa.select(gp.c.game_id).where(gp.c.player_id == gone_id)))
        .where(g.c.id.in_(sa.select(gp.c.game_id).where(gp.c.player_id == kept_id)))
        .order_by(g.c.id)
        .limit(1)
    )
    shared = conn.execute(both).scalar()
    if shared is not None:
        raise PlayerError(f"{quoted(gone_name)} and {quoted(kept_name)} both played in game {quoted(shared)}: "
                          "they are two players, and cannot be merged")
    _refuse_shared_match(conn, (gone_id, gone_name), (kept_id, kept_name))
    games = conn.execute(sa.select(sa.func.count()).where(gp.c.player_id == gone_id)).scalar_one()
    for table_name, column in player_columns():
        table = t.metadata.tables[table_name]
        conn.execute(sa.update(table).where(table.c[column] == gone_id).values({column: kept_id}))
    p = t.player_table
    conn.execute(sa.delete(p).where(p.c.id == gone_id))
    _add_alias(conn, gone_name, kept_id)
    _rename_in_match_sides(conn, kept_id, gone_name, kept_name)
    return gone_name, kept_name, games
