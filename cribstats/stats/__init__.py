"""Player statistics over the store: polars frames of totals the database adds up, and named measures over them.

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


def read_frames(
    engine: Engine,
    filters: StatsFilter | None = None,
    *,
    detail: bool = True,
    sides: bool = False,
    missed: bool = True,
) -> StatsFrames:
    """The stored totals the filter covers (one grouped query per frame), ready for the measures; without
    ``detail``, only those ``stats`` (and with ``sides``, ``standings``) read; ``missed=False`` leaves out the
    points missed by phase that ``stats`` reads for ``accuracy`` (``standings`` does not)."""
    with engine.connect() as conn:
        return load_frames(conn, filters, detail=detail, sides=sides, missed=missed)


def compute_stats(engine: Engine, filters: StatsFilter | None = None) -> pl.DataFrame:
    """``cribstats stats``: one row per player with the columns of ``STATS_COLUMNS``."""
    from cribstats.stats.club import with_club_columns
    from cribstats.stats.discards import with_discard_losses

    frames = read_frames(engine, filters, detail=False)
    frame = with_club_columns(engine, frames, load_stats(frames))
    with engine.connect() as conn:
        return with_discard_losses(conn, frame, filters).select(STATS_COLUMNS)


def compute_standings(engine: Engine, filters: StatsFilter | None = None) -> pl.DataFrame:
    """``cribstats standings``: the ACC table (game points, then wins, then spread); partners of four-player
    games stand as one side."""
    return standings(read_frames(engine, filters, detail=False, sides=True, missed=False))
