"""The club tables read from a store: head-to-head, the bracket of an event and the ratings, each in one call.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> head_to_head_table(engine, StatsFilter()).height, event_bracket(engine, "Open").qualifiers
(0, [])
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from datetime import date as Date

import polars as pl
from sqlalchemy.engine import Engine

from cribstats.errors import CribstatsError
from cribstats.stats.bracket import Bracket, draw
from cribstats.stats.frames import StatsFilter, StatsFrames
from cribstats.stats.head_to_head import head_to_head
from cribstats.stats.matches import (
    PLAYER_MATCH_COLUMNS,
    load_pair_match_totals,
    load_player_match_totals,
    match_ids_query,
    match_winners,
)
from cribstats.stats.measures import DISCARD_COLUMNS, STATS_COLUMNS, player_totals
from cribstats.stats.ratings import Ratings, ordinal, rate_games, rating_history, rating_table
from cribstats.stats.results import (
    load_game_keys,
    load_game_order,
    load_pair_totals,
    load_player_names,
    load_qualifying,
)
from cribstats.store.matches import StoredMatch, load_matches
from cribstats.store.players import stored_key
from cribstats.store.tables import name_key
from cribstats.store.version import read_store_version

CHUNK = 500  # match ids per query
RATINGS_KEPT = 8  # the club's ratings kept per store, for as many filters (each a few numbers a player)


def head_to_head_table(engine: Engine, filters: StatsFilter, player: str | None = None, *,
                       on_stage: Callable[[str], None] | None = None) -> pl.DataFrame:  # fmt: skip
    """:func:`cribstats.stats.head_to_head.head_to_head` over the covered games and matches; ``on_stage`` is told
    each stage (``head-to-head``: the games' pair totals, then ``matches``)."""
    with engine.connect() as conn:
        if on_stage is not None:
            on_stage("head-to-head")
        pairs = load_pair_totals(conn, filters)
        if on_stage is not None:
            on_stage("matches")
        matches = load_pair_match_totals(conn, filters)
        names = load_player_names(conn)
        player = None if player is None else stored_key(conn, player)
    opponents = names.rename({"player_id": "opponent_id", "player": "opponent", "name_key": "opponent_key"})
    return head_to_head(pairs, player, matches.join(names, on="player_id").join(opponents, on="opponent_id"))


def stored_matches(engine: Engine, filters: StatsFilter) -> list[StoredMatch]:
    """The covered stored matches (event case ignored; a player on either side), in date order."""
    with engine.connect() as conn:
        ids = [row[0] for row in conn.execute(match_ids_query(filters))]
        found = [m for at in range(0, len(ids), CHUNK)
                 for m in load_matches(conn, source_ids=ids[at : at + CHUNK])]  # fmt: skip
    return sorted(found, key=lambda m: (m.date is None, m.date or Date.min, m.id))


class EntrantsError(CribstatsError, ValueError):
    """An event's entrants given as fewer than the players whose qualifying games are stored."""


def event_bracket(engine: Engine, event: str, entrants: int | None = None) -> Bracket:
    """The bracket of ``event``: its qualifying standings (its finished games that belong to no match; every
    player with one is an entrant, unless ``entrants`` says how many there were), filled in with the winners of
    its stored matches.

    :raises EntrantsError: when ``entrants`` is fewer than the players with a qualifying game stored.
    """
    with engine.connect() as conn:
        names = load_qualifying(conn, event)["player"].to_list()
    if entrants is not None and entrants < len(names):
        raise EntrantsError(f"--entrants {entrants} is fewer than the {len(names)} players with a finished "
                            f"qualifying game of {event} stored: give at least {len(names)}, or leave it out")
    winners = match_winners(stored_matches(engine, StatsFilter(event=event)))

    def winner(one: str, two: str) -> str | None:
        won = winners.get(frozenset((name_key(one), name_key(two))))
        return None if won is None else (one if name_key(won) == name_key(one) else two)

    return draw(entrants if entrants is not None else len(names), names, winner)


class _KeptRatings:
    """The club's ratings (:func:`club_ratings`) kept per store (the engine, held weakly) by store version and
    filters, the most recently used :data:`RATINGS_KEPT`; ``runs`` counts the times the games were rated."""

    def __init__(self) -> None:
        self.stores: weakref.WeakKeyDictionary[Engine, OrderedDict[tuple[int, StatsFilter], Ratings]] = (
            weakref.WeakKeyDictionary()
        )
        self.lock = threading.Lock()  # the memo's
        self.rating = threading.Lock()  # held while rating: requests that want the same ratings wait for them
        self.runs = 0

    def find(self, engine: Engine, key: tuple[int, StatsFilter]) -> Ratings | None:
        with self.lock:
            kept = self.stores.get(engine)
            if kept is None or key not in kept:
                return None
            kept.move_to_end(key)
            return kept[key]

    def keep(self, engine: Engine, key: tuple[int, StatsFilter], ratings: Ratings) -> None:
        with self.lock:
            kept = self.stores.setdefault(engine, OrderedDict())
            kept[key] = Ratings(ratings.final, ratings.games, ratings.last)  # the history is not kept
            kept.move_to_end(key)
            while len(kept) > RATINGS_KEPT:
                kept.popitem(last=False)


_KEPT = _KeptRatings()


def rating_runs() -> int:
    """How many times :func:`club_ratings` has rated the games (for the tests: the ratings are shared)."""
    return _KEPT.runs


def club_ratings(engine: Engine, filters: StatsFilter, *, history: bool = False) -> Ratings:
    """:func:`cribstats.stats.ratings.rate_games` over the games ``filters`` cover (in play order,
    :func:`cribstats.stats.results.load_game_order`), worked out once per store version and filters: every
    player's ``stats`` row and the ratings tables share them (the history, when asked for, is worked out each
    time, and its ratings kept). Read-only: the same object is handed to every caller.

    The store's version (:mod:`cribstats.store.version`) is read before the games, so the ratings kept under it
    are never older than it."""
    with engine.connect() as conn:
        key = (read_store_version(conn), filters)
    found = None if history else _KEPT.find(engine, key)
    if found is not None:
        return found
    with _KEPT.rating:
        found = None if history else _KEPT.find(engine, key)
        if found is not None:
            return found
        with engine.connect() as conn:
            seats = load_game_order(conn, filters)
        ratings = rate_games(seats, history=history)
        _KEPT.runs += 1
        _KEPT.keep(engine, key, ratings)
    return ratings


def with_club_columns(engine: Engine, frames: StatsFrames, stats: pl.DataFrame) -> pl.DataFrame:
    """``stats`` (rows in the order of :func:`cribstats.stats.measures.player_totals`) with the columns of
    :data:`cribstats.stats.measures.CLUB_COLUMNS`: each player's finished matches among the covered ones (won,
    lost, win rate, match points: :mod:`cribstats.stats.matches`) and ``rating``, the rating after the covered
    games of the whole club (with a player filter too: a rating is earned against everyone), null for a player
    with no finished game."""
    ids = player_totals(frames).select("player_id").collect()["player_id"]
    club = replace(frames.filters, player=None)
    ratings = club_ratings(engine, club)  # the whole club's, once per store version: shared by every player
    with engine.connect() as conn:
        matches = load_player_match_totals(conn, club)
    final = ratings.final
    values = [ordinal(*final[p]) if p in final else None for p in ids.to_list()]
    counts = [c for c in PLAYER_MATCH_COLUMNS if c != "match_win_rate"]
    with_matches = (
        pl.DataFrame({"player_id": ids})
        .join(matches, on="player_id", how="left", maintain_order="left")
        .with_columns(pl.col(counts).fill_null(0))
    )
    return stats.with_columns(
        *[with_matches[c] for c in PLAYER_MATCH_COLUMNS], pl.Series("rating", values, dtype=pl.Float64)
    ).select([c for c in STATS_COLUMNS if c not in DISCARD_COLUMNS])  # stats.discards adds those


def ratings_tables(engine: Engine, filters: StatsFilter, player: str | None = None, *,
                   history: bool = False) -> tuple[pl.DataFrame, pl.DataFrame | None]:  # fmt: skip
    """The ratings after the covered games (best first) and, with ``history``, after every game; only
    ``player``'s rows when one is named."""
    ratings = club_ratings(engine, filters, history=history)
    with engine.connect() as conn:
        names = load_player_names(conn)
        key = None if player is None else stored_key(conn, player)
        keys = load_game_keys(conn, filters) if history else None
    table = rating_table(ratings, names)
    steps = rating_history(ratings, names, keys) if keys is not None else None
    if key is not None:
        mine = names.filter(pl.col("name_key") == key)["player"].to_list()
        table = table.filter(pl.col("player").is_in(mine))
        steps = steps.filter(pl.col("player").is_in(mine)) if steps is not None else None
    return table, steps
