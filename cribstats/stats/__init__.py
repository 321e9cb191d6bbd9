"""Player statistics over the store: polars frames of the stored facts and named measures over them.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> compute_stats(engine).height
0
"""

from __future__ import annotations

import polars as pl
from sqlalchemy.engine import Engine

from cribstats.stats.frames import StatsFilter, StatsFrames, load_frames
from cribstats.stats.measures import STANDINGS_COLUMNS, STATS_COLUMNS, load_stats, standings

__all__ = [
    "STANDINGS_COLUMNS",
    "STATS_COLUMNS",
    "StatsFilter",
    "StatsFrames",
    "compute_standings",
    "compute_stats",
    "load_frames",
    "read_frames",
]


def read_frames(engine: Engine, filters: StatsFilter | None = None) -> StatsFrames:
    """The stored facts the filter covers (one query per table), ready for the measures."""
    with engine.connect() as conn:
        return load_frames(conn, filters)


def compute_stats(engine: Engine, filters: StatsFilter | None = None) -> pl.DataFrame:
    """``cribstats stats``: one row per player with the columns of ``STATS_COLUMNS``."""
    return load_stats(read_frames(engine, filters))


def compute_standings(engine: Engine, filters: StatsFilter | None = None) -> pl.DataFrame:
    """``cribstats standings``: the ACC table (game points, then wins, then spread)."""
    return standings(read_frames(engine, filters))
