"""The club tables read from a store: head-to-head, the bracket of an event and the ratings, each in one call.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> head_to_head_table(engine, StatsFilter()).height, event_bracket(engine, "Open").qualifiers
(0, [])
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl
from sqlalchemy.engine import Engine

from cribstats.stats.bracket import Bracket, draw
from cribstats.stats.frames import StatsFilter, StatsFrames, load_frames
from cribstats.stats.head_to_head import head_to_head
from cribstats.stats.measures import STATS_COLUMNS, player_totals, standings
from cribstats.stats.ratings import ordinal, rate_games, rating_history, rating_table
from cribstats.stats.results import load_game_order, load_pair_totals, load_player_names
from cribstats.store.tables import name_key


def head_to_head_table(engine: Engine, filters: StatsFilter, player: str | None = None) -> pl.DataFrame:
    """:func:`cribstats.stats.head_to_head.head_to_head` over the covered games."""
    with engine.connect() as conn:
        pairs = load_pair_totals(conn, filters)
    return head_to_head(pairs, player)


def event_bracket(engine: Engine, event: str, entrants: int | None = None) -> Bracket:
    """The bracket of ``event``: its standings (every player with a finished game of the event is an entrant,
    unless ``entrants`` says how many there were), filled in with the stored results of its later rounds."""
    with engine.connect() as conn:
        table = standings(load_frames(conn, StatsFilter(event=event), detail=False))
    names = table["player"].to_list()
    return draw(entrants if entrants is not None else len(names), names)


def with_club_columns(engine: Engine, frames: StatsFrames, stats: pl.DataFrame) -> pl.DataFrame:
    """``stats`` (rows in the order of :func:`cribstats.stats.measures.player_totals`) with the columns of
    :data:`cribstats.stats.measures.CLUB_COLUMNS`: ``rating``, each player's rating after the covered games of
    the whole club (with a player filter too: a rating is earned against everyone), null for a player with no
    finished game."""
    ids = player_totals(frames).select("player_id").collect()["player_id"].to_list()
    with engine.connect() as conn:
        ratings = rate_games(load_game_order(conn, replace(frames.filters, player=None)))
    final = ratings.final
    values = [ordinal(*final[p]) if p in final else None for p in ids]
    return stats.with_columns(pl.Series("rating", values, dtype=pl.Float64)).select(STATS_COLUMNS)


def ratings_tables(engine: Engine, filters: StatsFilter, player: str | None = None, *,
                   history: bool = False) -> tuple[pl.DataFrame, pl.DataFrame | None]:  # fmt: skip
    """The ratings after the covered games (best first) and, with ``history``, after every game; only
    ``player``'s rows when one is named."""
    with engine.connect() as conn:
        seats = load_game_order(conn, filters)
        names = load_player_names(conn)
    ratings = rate_games(seats, history=history)
    table = rating_table(ratings, names)
    steps = rating_history(ratings, names) if history else None
    if player is not None:
        key = name_key(player)
        mine = names.filter(pl.col("name_key") == key)["player"].to_list()
        table = table.filter(pl.col("player").is_in(mine))
        steps = steps.filter(pl.col("player").is_in(mine)) if steps is not None else None
    return table, steps
