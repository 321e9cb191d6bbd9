"""What the pages and the API show, read from the store through the library the commands use (so the web and the
command line give the same numbers): statistics and standings as ``compute_stats``/``compute_standings`` give
them, games as ``list_games``/``find_game`` and the replay give them.

Figures (and the standings tables as rendered) are cached per process, keyed by what they are and the store's
version (:mod:`cribstats.store.version`: a number every completed write raises in its own transaction). Each
request reads the version once (one row by its key) before it reads any figure, so no page or answer is ever
older than a write that completed before it, in any worker; the cache is a copy of what the store says, never
the only one, so any number of workers serve one store.
"""

from __future__ import annotations

import gc
import sys
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from datetime import date as Date
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from cribstats.names import event_key
from cribstats.stats.frames import StatsFilter
from cribstats.store import tables as t
from cribstats.store.queries import (
    GameListing,
    GameOrder,
    StoredGame,
    find_game,
    game_listings,
    game_order,
    list_games,
)
from cribstats.store.tables import name_key
from cribstats.store.version import read_store_version

T = TypeVar("T")
#: what the figure cache may hold, in bytes as :func:`figure_size` estimates them. Measured on a club's store of
#: 62,000 games and 400 players: a player's page with its figures and three charts comes to some 250 kB, every
#: player's to 100 MB; the club's tables (standings, stats, ratings, seasons, the games' order) to 5 MB; the
#: largest single answers to 70 MB (the head-to-head table) and 55 MB (the whole rating history). So every common
#: page stays cached with one of the largest answers beside it, and a server holds at most this much in figures
#: however many distinct filters are asked for (an answer larger than this is served and not kept).
CACHE_BUDGET = 192 * 2**20
ENTRY_BYTES = 200  # what an entry costs beyond its key and figure (the ordered dict's link and the key's tuple)
SAMPLED = 16  # items of a long list or dict weighed; the rest are taken to weigh as much, on average
FULL_COLLECTION_EVERY = 256  # figures computed between full collections (see settle_collector)
RECENT_GAMES = 10
_ATOMS = (str, bytes, bytearray, int, float, bool, Date, array, type(None))


def figure_size(value: Any, depth: int = 0) -> int:
    """An estimate of the bytes ``value`` holds: its own size and, for containers, dataclasses and polars frames
    (``estimated_size``), its contents' (of a long one, a sample of :data:`SAMPLED` items scaled up); a dict's
    text keys are left out, the column names every row of a table shares. Within some 10% of what ``tracemalloc``
    measures for the tables the service keeps.

    >>> figure_size([{"a": 1.5}] * 1000) > 1000 * 64
    True
    """
    size = sys.getsizeof(value)
    if isinstance(value, _ATOMS) or depth > 6:
        return size
    if callable(frame_size := getattr(value, "estimated_size", None)):
        return size + int(frame_size())
    if isinstance(value, dict):  # the values: keys that are text are column names, shared by every row
        items: Any = [v for k, v in value.items() for v in ((v,) if isinstance(k, str) else (k, v))]
    elif isinstance(value, list | tuple | set | frozenset):
        items = value
    elif is_dataclass(value):
        items = [getattr(value, f.name) for f in fields(value)]
    else:
        return size
    count = len(items)
    if count > SAMPLED:
        listed = items if isinstance(items, list | tuple) else list(items)
        items = [listed[i * count // SAMPLED] for i in range(SAMPLED)]
    return size + sum(figure_size(item, depth + 1) for item in items) * count // max(len(items), 1)


class FigureCache:
    """A least-recently-used cache of figures, keyed by what they are and the store's version, bounded by the
    bytes its figures hold (:func:`figure_size`): however many distinct filters are asked for, it holds at most
    ``budget``; a figure larger than that is served and not kept. The figures of a version other than the one
    the store is at are never read again, so they are let go as soon as another version is read."""

    def __init__(self, budget: int = CACHE_BUDGET) -> None:
        self._items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self.budget = budget
        self.held = 0  # the estimated bytes of the figures kept, with their keys
        self._version = -1  # the store version last read
        self._lock = threading.Lock()
        self._misses = 0
        self.settles_collector = False  # set by the server (create_app): see settle_collector

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        """Forget every figure."""
        with self._lock:
            self._items.clear()
            self.held = 0

    def get(self, engine: Engine, key: Any, compute: Callable[[], T]) -> T:
        """The figure ``key`` at the store's version now: the copy made at that version, or ``compute()``.

        The version is read before the figure is computed, so a copy is never older than its version (a write
        that commits in between only makes the copy newer than its key says)."""
        with engine.connect() as conn:
            version = read_store_version(conn)
        full = (key, version)
        with self._lock:
            if version != self._version:  # a write (or the store replaced): the figures kept are not its
                self._version = version
                for old in [k for k in self._items if k[1] != version]:
                    self.held -= self._items.pop(old)[1]
            if full in self._items:
                self._items.move_to_end(full)
                return self._items[full][0]  # type: ignore[no-any-return]
        value = compute()
        size = figure_size(value) + figure_size(key) + ENTRY_BYTES
        with self._lock:
            if size <= self.budget and version == self._version:
                if full in self._items:  # computed meanwhile by another request
                    self.held -= self._items.pop(full)[1]
                self._items[full] = (value, size)
                self.held += size
                while self.held > self.budget:
                    self.held -= self._items.popitem(last=False)[1][1]
            self._misses += 1
            misses = self._misses
        if self.settles_collector:
            settle_collector(full_collection=misses % FULL_COLLECTION_EVERY == 0)
        return value


def settle_collector(*, full_collection: bool = False) -> None:
    """After a figure is computed: the young garbage collected and what survives frozen, so the cyclic
    collector stops walking a server's long-lived objects (its modules, tables, compiled queries and cached
    figures, some 400,000 objects) in a pass of 100-250 ms every few hundred requests, which stalled every
    request in flight. Every ``FULL_COLLECTION_EVERY`` figures the frozen objects are collected once in full, so
    garbage that became unreachable after it was frozen is not kept for ever."""
    if full_collection:
        gc.unfreeze()
        gc.collect()
    else:
        gc.collect(1)
    gc.freeze()


CACHE = FigureCache()


def stats_rows(engine: Engine, filters: StatsFilter) -> list[dict[str, Any]]:
    """The rows of ``cribstats stats --format json`` for these filters."""
    from cribstats.exports import frame_rows
    from cribstats.stats import compute_stats

    return CACHE.get(engine, ("stats", filters), lambda: frame_rows(compute_stats(engine, filters)))


def standings_rows(engine: Engine, filters: StatsFilter) -> list[dict[str, Any]]:
    """The rows of ``cribstats standings --format json`` for these filters."""
    from cribstats.exports import frame_rows
    from cribstats.stats import compute_standings

    return CACHE.get(engine, ("standings", filters), lambda: frame_rows(compute_standings(engine, filters)))


def partnerships(engine: Engine, filters: StatsFilter) -> dict[str, tuple[str, str]]:
    """The standings' partnerships for these filters: a side's name and its two players."""
    from cribstats.stats.sides import read_partnerships

    def read() -> dict[str, tuple[str, str]]:
        with engine.connect() as conn:
            return read_partnerships(conn, filters)

    return CACHE.get(engine, ("partnerships", filters), read)


def chart_svg(engine: Engine, kind: str, filters: StatsFilter) -> bytes:
    """One chart of ``cribstats chart`` as SVG."""
    from cribstats.charts import draw_chart, figure_bytes
    from cribstats.stats import read_frames

    def draw() -> bytes:
        import matplotlib.pyplot as plt

        fig = draw_chart(kind, read_frames(engine, filters))
        try:
            return figure_bytes(fig, "svg")
        finally:
            plt.close(fig)

    return CACHE.get(engine, ("chart", kind, filters), draw)


def count_games(engine: Engine, filters: StatsFilter) -> int:
    """How many stored games the filters cover (the ``games`` list's filters: player, event, dates)."""
    from cribstats.stats.frames import games_query

    with engine.connect() as conn:
        query = sa.select(sa.func.count()).select_from(games_query(filters).subquery())
        return int(conn.execute(query).scalar_one())


def games_page(engine: Engine, filters: StatsFilter, limit: int, offset: int, *,
               newest_first: bool = False) -> tuple[int, list[GameListing]]:  # fmt: skip
    """The total the filters cover and one page of ``cribstats games``: the play order of the covered games (their
    ids, eight bytes a game) is kept per store version and filters, and only the page's games are read."""
    order = games_order(engine, filters)
    with engine.connect() as conn:
        listed = game_listings(conn, order.page(offset, limit, newest_first=newest_first))
    return len(order), listed


def games_order(engine: Engine, filters: StatsFilter) -> GameOrder:
    """The play order of the games the ``games`` list's filters cover (player, event, dates), cached."""

    def read() -> GameOrder:
        with engine.connect() as conn:
            return game_order(conn, player=filters.player, event=filters.event, since=filters.since,
                              until=filters.until)  # fmt: skip

    player = None if filters.player is None else name_key(filters.player)  # as list_games compares them
    key = ("games-order", player, filters.event_key, filters.since, filters.until)
    return CACHE.get(engine, key, read)


@dataclass(slots=True)
class PlayerListing:
    name: str
    games: int


def players_page(engine: Engine, limit: int, offset: int) -> tuple[int, list[PlayerListing]]:
    """Every stored player with the number of games they sat in, by name."""
    p, gp = t.player_table, t.game_player_table
    with engine.connect() as conn:
        total = conn.execute(sa.select(sa.func.count()).select_from(p)).scalar_one()
        games = sa.select(sa.func.count()).where(gp.c.player_id == p.c.id).scalar_subquery()
        rows = conn.execute(
            sa.select(p.c.name, games.label("games")).order_by(p.c.name_key).limit(limit).offset(offset)
        ).all()
    return int(total), [PlayerListing(r.name, int(r.games)) for r in rows]


def player_name(engine: Engine, name: str) -> str | None:
    """The stored spelling of a player's name (any spelling that folds to it, or to an alias, finds it), or
    None."""
    from cribstats.store.players import stored_player

    with engine.connect() as conn:  # a spelling renamed or merged away finds the player it now is
        found = stored_player(conn, name)
    return None if found is None else found[1]


def recent_games(engine: Engine, player: str, limit: int = RECENT_GAMES) -> list[GameListing]:
    """A player's newest games (cached: a regular sits in thousands of games, and they must be sorted)."""

    def read() -> list[GameListing]:
        with engine.connect() as conn:
            return list_games(conn, player=player, limit=limit, newest_first=True)

    return CACHE.get(engine, ("recent", name_key(player), limit), read)


@dataclass(frozen=True, slots=True)
class LatestNight:
    """The latest club night: its event and date, its placings, and the scorecards of it that disagree."""

    event: str | None
    date: Date
    placings: list[dict[str, Any]]
    scorecards: list[dict[str, Any]]


def latest_night(engine: Engine) -> LatestNight | None:
    """The latest club night as the report finds it (an event on the latest date: of that date's events, the one
    named first), with the placings and the scorecards that disagree as ``cribstats night`` gives them; None
    when no finished game is dated."""
    from cribstats.stats.night import latest_night as find
    from cribstats.stats.night import load_night

    def read() -> LatestNight | None:
        with engine.connect() as conn:
            found = find(conn, StatsFilter())
            if found is None:
                return None
            event, day = found
            night = load_night(conn, event, day)
            return LatestNight(event, day, _rows(night.placings), _rows(night.scorecards))

    return CACHE.get(engine, ("latest-night",), read)


def stored_game(engine: Engine, ref: str) -> StoredGame | None:
    """A game by key, store id or content hash prefix (as ``cribstats show`` finds it); None when there is none.

    :raises ProblemError: 409 for a reference that names more than one game (a store number that begins another
        game's hash, or a hash prefix of several), saying how to name one.
    """
    from cribstats.service.problems import ProblemError
    from cribstats.store.queries import AmbiguousGameError

    with engine.connect() as conn:
        try:
            return find_game(conn, ref)
        except AmbiguousGameError as err:
            raise ProblemError(409, str(err)) from None


def _rows(frame: Any) -> list[dict[str, Any]]:
    from cribstats.exports import frame_rows

    return frame_rows(frame)


def night_rows(engine: Engine, event: str | None, day: Date) -> list[dict[str, Any]]:
    """The placings of ``cribstats night --event EVENT --date DAY --format json`` (``event`` None: the night of
    the games of no event)."""
    from cribstats.stats.night import load_night

    def read() -> list[dict[str, Any]]:
        with engine.connect() as conn:
            return _rows(load_night(conn, event, day).placings)

    return CACHE.get(engine, ("night", None if event is None else event_key(event), day), read)


def season_rows(engine: Engine, filters: StatsFilter, *, quarters: bool = False,
                drop_lowest: bool = False) -> list[dict[str, Any]]:  # fmt: skip
    """The rows of ``cribstats season [--quarters] [--drop-lowest] --format json`` for these filters."""
    from cribstats.stats.results import load_night_totals
    from cribstats.stats.season import season_standings

    def read() -> list[dict[str, Any]]:
        with engine.connect() as conn:
            nights = load_night_totals(conn, filters)
        return _rows(season_standings(nights, quarters=quarters, drop_lowest=drop_lowest))

    return CACHE.get(engine, ("season", filters, quarters, drop_lowest), read)


def head_to_head_rows(engine: Engine, filters: StatsFilter, player: str | None) -> list[dict[str, Any]]:
    """The rows of ``cribstats head-to-head [PLAYER] --format json``."""
    from cribstats.stats.club import head_to_head_table

    key = None if player is None else name_key(player)
    return CACHE.get(engine, ("head-to-head", filters, key),
                     lambda: _rows(head_to_head_table(engine, filters, player)))  # fmt: skip


def rating_rows(engine: Engine, filters: StatsFilter, player: str | None, *,
                history: bool = False) -> list[dict[str, Any]]:  # fmt: skip
    """The rows of ``cribstats rating [PLAYER] [--history] --format json``."""
    from cribstats.stats.club import ratings_tables

    def read() -> list[dict[str, Any]]:
        latest, steps = ratings_tables(engine, filters, player, history=history)
        return _rows(steps if history and steps is not None else latest)

    key = None if player is None else name_key(player)
    return CACHE.get(engine, ("rating", filters, key, history), read)


def discard_rows(engine: Engine, filters: StatsFilter) -> list[dict[str, Any]]:
    """The rows of ``cribstats discards --format json`` for these filters."""
    from cribstats.stats.discards import discard_summary

    def read() -> list[dict[str, Any]]:
        with engine.connect() as conn:
            return _rows(discard_summary(conn, filters))

    return CACHE.get(engine, ("discards", filters), read)


def worst_discard_rows(engine: Engine, filters: StatsFilter, limit: int = 10) -> list[dict[str, Any]]:
    """The ``limit`` costliest discards the filters cover, as ``cribstats discards`` lists them."""
    from cribstats.stats.discards import worst_discards

    def read() -> list[dict[str, Any]]:
        with engine.connect() as conn:
            return _rows(worst_discards(conn, filters, limit))

    return CACHE.get(engine, ("worst-discards", filters, limit), read)
