"""Reading the store: the games list behind ``cribstats games``, one game's log for ``cribstats show``, counts.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     list_games(conn), find_game(conn, "no-such-game")
([], None)
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.errors import CribstatsError
from cribstats.gamelog import GameLog, validate_game_json
from cribstats.names import as_stored, event_key, quoted
from cribstats.store import tables as t
from cribstats.store.players import player_id_query
from cribstats.store.tables import name_key

HASH_PREFIX_MIN = 6
STORE_ID_DIGITS = 18  # a store number is at most this many ASCII digits (what a 64-bit id holds)
AMBIGUOUS_SHOWN = 5  # games named when a reference names more than one
CHUNK = 500  # game ids per query


def _named(keys: list[str]) -> str:
    return ", ".join(keys[:AMBIGUOUS_SHOWN]) + (", ..." if len(keys) > AMBIGUOUS_SHOWN else "")


class AmbiguousGameError(CribstatsError):
    """A game reference that names more than one stored game: a content hash prefix that several games' hashes
    begin with, or a store number that also begins the content hash of another game (``number``; ``keys`` then
    has the numbered game's key first)."""

    def __init__(self, ref: str, keys: list[str], number: int | None = None) -> None:
        if number is None:
            text = (f"{quoted(ref)} begins the content hash of several stored games ({_named(keys)}): "
                    "give more of the hash, or the game's key")
        else:
            hashes = "hash" if len(keys) == 2 else "hashes"
            others = _named([quoted(k) for k in keys[1:]])
            text = (f"{quoted(ref)} names more than one stored game: game number {number} is {quoted(keys[0])}, "
                    f"and {quoted(ref)} begins the content {hashes} of {others}: give the game's key, or more of "
                    "the hash")
        super().__init__(text)
        self.ref, self.keys, self.number = ref, keys, number


def is_store_number(ref: str) -> bool:
    """Whether ``ref`` can be a game's number in the store: ASCII digits, at most :data:`STORE_ID_DIGITS`."""
    return ref.isascii() and ref.isdigit() and len(ref) <= STORE_ID_DIGITS


def _is_hex(ref: str) -> bool:
    return ref != "" and all(c in "0123456789abcdef" for c in ref.lower())


def no_game_message(ref: str) -> str:
    """What to say when ``ref`` names no stored game (nor a match): a hexadecimal reference shorter than
    :data:`HASH_PREFIX_MIN` is not looked up as a hash prefix, and the message says how much to give.

    >>> no_game_message("no-such-game")
    "no stored game 'no-such-game': `cribstats games` lists them"
    >>> no_game_message("a1b2").split(" (")[1]
    'to name a game by its content hash, give at least 6 characters of the hash): `cribstats games` lists them'
    """
    ref = ref.strip()
    short = _is_hex(ref) and len(ref) < HASH_PREFIX_MIN
    hint = (f" (to name a game by its content hash, give at least {HASH_PREFIX_MIN} characters of the hash)"
            if short else "")
    return f"no stored game {quoted(ref)}{hint}: `cribstats games` lists them"


@dataclass(slots=True)
class GameListing:
    """One line of ``cribstats games``."""

    id: int
    key: str
    date: Date | None
    event: str | None
    round: str | None
    variant: str
    players: list[str]  # seat order
    scores: list[int | None]  # final scores as claimed, seat order
    winners: list[str]  # by the claimed scores
    deals: int
    findings: int
    source: str | None  # file:place

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.key,
            "date": self.date.isoformat() if self.date else None,
            "event": self.event,
            "round": self.round,
            "variant": self.variant,
            "players": self.players,
            "scores": self.scores,
            "winners": self.winners,
            "deals": self.deals,
            "findings": self.findings,
            "source": self.source,
        }


def list_games(
    conn: Connection,
    *,
    player: str | None = None,
    event: str | None = None,
    since: Date | None = None,
    until: Date | None = None,
    limit: int | None = None,
    offset: int = 0,
    newest_first: bool = False,
) -> list[GameListing]:
    """Stored games in the order they were played (:func:`play_order`: by date, then round, then file and place
    in it; ``newest_first`` turns that round for the dated games, the undated still last; ``offset`` skips that
    many, for pages), filtered by a player's name (any spelling that folds to the same name), an event (case
    ignored), and dates ``since``/``until`` (both included; undated games are left out when either is given).

    A page (``limit``) is cut from the order worked out on what orders the games (:func:`game_order`), and only
    its games are read whole (:func:`game_listings`); the whole list is read whole in one query."""
    if limit is not None:
        order = game_order(conn, player=player, event=event, since=since, until=until)
        return game_listings(conn, order.page(offset, limit, newest_first=newest_first))
    rows = _ordered(conn, LISTED, player, event, since, until)
    by_id = {r.id: r for r in rows}
    ids = _order_of(rows).page(offset, newest_first=newest_first)
    return _listings(conn, [by_id[i] for i in ids])


@dataclass(frozen=True, slots=True)
class GameOrder:
    """The ids of the games a filter covers in play order (:func:`play_order`), the ``dated`` ones first: what a
    page of :func:`list_games` is cut from, either way round. Small (eight bytes a game), so it can be kept."""

    ids: array[int]
    dated: int

    def __len__(self) -> int:
        return len(self.ids)

    def page(self, offset: int = 0, limit: int | None = None, *, newest_first: bool = False) -> list[int]:
        """The ids of ``limit`` games (all when None) from ``offset`` on: oldest first, or with
        ``newest_first`` the dated games newest first and then the undated ones, the last stored first (as
        sorting by :func:`play_order` reversed and putting the undated last gives them).

        >>> GameOrder(array("q", [1, 2, 3, 4, 5]), dated=3).page(1, 3, newest_first=True)
        [2, 1, 5]
        """
        ids, total = self.ids, len(self.ids)
        end = total if limit is None else min(total, offset + limit)
        if not newest_first:
            return list(ids[offset:end])
        return [ids[self.dated - 1 - i] if i < self.dated else ids[total - 1 - (i - self.dated)]
                for i in range(max(offset, 0), end)]  # fmt: skip


def _columns() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    g, e = t.game_table, t.event_table
    ordering = (g.c.id, g.c.date, g.c.round, g.c.source_file, g.c.source_place, g.c.game_key)
    return ordering, (*ordering, g.c.variant, g.c.deal_count, g.c.finding_count, e.c.name.label("event"))


ORDERING, LISTED = _columns()  # what play_order reads; and what a line of the list shows


def _ordered(conn: Connection, columns: tuple[Any, ...], player: str | None, event: str | None,
             since: Date | None, until: Date | None) -> list[Any]:  # fmt: skip
    """``columns`` of the games the filters of :func:`list_games` cover, sorted by :func:`play_order`."""
    g, e, gp = t.game_table, t.event_table, t.game_player_table
    query = sa.select(*columns)
    if event is not None or columns is LISTED:
        query = query.select_from(g.outerjoin(e, g.c.event_id == e.c.id))
    if event is not None:
        query = query.where(e.c.name_key == event_key(event))
    if player is not None:
        wanted = sa.select(gp.c.game_id).where(gp.c.player_id == player_id_query(name_key(player)))
        query = query.where(g.c.id.in_(wanted))
    if since is not None:
        query = query.where(g.c.date >= since)
    if until is not None:
        query = query.where(g.c.date <= until)
    return sorted(conn.execute(query).all(), key=play_order)


def _order_of(rows: list[Any]) -> GameOrder:
    return GameOrder(array("q", [r.id for r in rows]), sum(1 for r in rows if r.date is not None))


def game_order(conn: Connection, *, player: str | None = None, event: str | None = None,
               since: Date | None = None, until: Date | None = None) -> GameOrder:  # fmt: skip
    """The games the filters of :func:`list_games` cover, in play order: read by what orders them alone."""
    return _order_of(_ordered(conn, ORDERING, player, event, since, until))


def game_listings(conn: Connection, ids: list[int]) -> list[GameListing]:
    """The lines of ``cribstats games`` for the games ``ids``, in that order (a game no longer stored is left
    out)."""
    g, e = t.game_table, t.event_table
    found: dict[int, Any] = {}
    for start in range(0, len(ids), CHUNK):
        query = sa.select(*LISTED).select_from(g.outerjoin(e, g.c.event_id == e.c.id))
        found.update((r.id, r) for r in conn.execute(query.where(g.c.id.in_(ids[start : start + CHUNK]))))
    return _listings(conn, [found[i] for i in ids if i in found])


def _listings(conn: Connection, rows: list[Any]) -> list[GameListing]:
    seats = _seats(conn, [r.id for r in rows])
    out = []
    for r in rows:
        players = seats.get(r.id, [])
        source = None
        if r.source_file:
            source = f"{r.source_file}:{r.source_place}" if r.source_place else r.source_file
        out.append(
            GameListing(
                id=r.id,
                key=r.game_key,
                date=r.date,
                event=r.event,
                round=r.round,
                variant=r.variant,
                players=[s[0] for s in players],
                scores=[s[1] for s in players],
                winners=[s[0] for s in players if s[2]],
                deals=r.deal_count,
                findings=r.finding_count,
                source=source,
            )
        )
    return out


_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str | None) -> tuple[tuple[int, int | str], ...]:
    """A sort key that puts numbers in text in numeric order: round 2 before round 10, line 9 before line 12;
    spaces around the text left out. A number is written in decimal digits of any script (a superscript ``²`` is
    text).

    >>> sorted(["10", "2", "semi-final", " 3", "1", "²"], key=natural_key)
    ['1', '2', ' 3', '10', 'semi-final', '²']
    """
    if text is None:
        return ((2, ""),)
    return tuple((0, int(part)) if part.isdecimal() else (1, part.casefold())
                 for part in _DIGITS.split(text.strip()) if part)


def file_name(path: str | None) -> str | None:
    """A file's name without its folders, however its path was typed (``club/night.jsonl``, ``./club/
    night.jsonl`` or from another folder; ``\\`` as Windows writes it).

    >>> file_name("/home/club/night.jsonl"), file_name("night.jsonl"), file_name(r"C:\\club\\night.jsonl")
    ('night.jsonl', 'night.jsonl', 'night.jsonl')
    """
    return None if path is None else path.replace("\\", "/").rsplit("/", 1)[-1]


def play_order(row: Any) -> tuple[Any, ...]:
    """How a night's games follow one another: date (undated last), round, then the file's name and the place in
    it (the order of the tables on the sheet), then the game's key (its id, else its content hash), so that the
    order never depends on how a path was typed or in what order the games were stored (a key is one game's)."""
    file = natural_key(file_name(row.source_file))
    return (row.date is None, row.date or Date.min, natural_key(row.round), file, natural_key(row.source_place),
            row.game_key)


def _seats(conn: Connection, game_ids: list[int]) -> dict[int, list[tuple[str, int | None, bool]]]:
    gp, p = t.game_player_table, t.player_table
    found: dict[int, list[tuple[str, int | None, bool]]] = {}
    for start in range(0, len(game_ids), CHUNK):
        chunk = game_ids[start : start + CHUNK]
        query = (
            sa.select(gp.c.game_id, p.c.name, gp.c.final_score_claimed, gp.c.won)
            .join(p, gp.c.player_id == p.c.id)
            .where(gp.c.game_id.in_(chunk))
            .order_by(gp.c.game_id, gp.c.seat)
        )
        for row in conn.execute(query):
            found.setdefault(row.game_id, []).append((row.name, row.final_score_claimed, bool(row.won)))
    return found


@dataclass(slots=True)
class StoredGame:
    """A stored game found by :func:`find_game`: its ids, its canonical log, and where and when its row says it
    was played (``setting``: ``event``, ``date``, ``site``, ``round``)."""

    id: int
    key: str
    content_hash: str
    source: str | None
    log: str
    setting: dict[str, str | None] = field(default_factory=dict)

    def game(self) -> GameLog:
        """The stored log read back into the model, with the row's where and when in the fields the log leaves
        empty: a game of a match record that gives none has its record's (docs/decisions.md)."""
        with as_stored():  # names a store written before the name rule kept are read back as they are
            game = validate_game_json(self.log)
        taken = {k: v for k, v in self.setting.items() if v is not None and getattr(game, k) is None}
        return game.model_copy(update=taken) if taken else game


def find_game(conn: Connection, ref: str) -> StoredGame | None:
    """A game by its key (the log's id, or its content hash prefix), its store number (digits), or a prefix of
    its content hash (at least six hex digits); None when nothing matches.

    A key names its game whatever else it could be read as: it is the game's name in every listing, link and
    export. Otherwise a reference that is both a store number and the beginning of another game's content hash
    (``004319``: game 4319, and a game whose hash begins 004319) names neither: it is refused, as a hash prefix
    that several games' hashes begin with is.

    :raises AmbiguousGameError: when the reference, not a key, names more than one stored game.
    """
    g, e = t.game_table, t.event_table
    event = sa.select(e.c.name).where(e.c.id == g.c.event_id).scalar_subquery().label("event")
    cols = (g.c.id, g.c.game_key, g.c.content_hash, g.c.source_file, g.c.source_place, g.c.log, event, g.c.date,
            g.c.site, g.c.round)
    ref = ref.strip()
    row = conn.execute(sa.select(*cols).where(g.c.game_key == ref)).first()
    if row is None:
        numbered = (conn.execute(sa.select(*cols).where(g.c.id == int(ref))).first()
                    if is_store_number(ref) else None)
        hashed: list[Any] = []
        if len(ref) >= HASH_PREFIX_MIN and _is_hex(ref):
            found = sa.select(*cols).where(g.c.content_hash.startswith(ref.lower())).order_by(g.c.id)
            if numbered is not None:
                found = found.where(g.c.id != numbered.id)
            hashed = list(conn.execute(found.limit(AMBIGUOUS_SHOWN + 1)))
        if numbered is not None and hashed:
            raise AmbiguousGameError(ref, [numbered.game_key, *(r.game_key for r in hashed)], numbered.id)
        if len(hashed) > 1:
            raise AmbiguousGameError(ref, [r.game_key for r in hashed])
        row = numbered if numbered is not None else (hashed[0] if hashed else None)
    if row is None:
        return None
    source = None
    if row.source_file:
        source = f"{row.source_file}:{row.source_place}" if row.source_place else row.source_file
    setting = {"event": row.event, "date": None if row.date is None else row.date.isoformat(), "site": row.site,
               "round": row.round}
    return StoredGame(id=row.id, key=row.game_key, content_hash=row.content_hash, source=source, log=row.log,
                      setting=setting)


def table_counts(conn: Connection) -> dict[str, int]:
    """Rows in each table of the store."""
    return {
        table.name: conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one() for table in t.TABLES
    }
