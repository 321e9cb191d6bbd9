"""Season standings: a player's club nights added up, over the season or by quarter.

A **night** is an event on a date (:mod:`cribstats.stats.night`); a player's night is their decided games of it.
Per player (and per quarter with ``quarters``): nights played, game points, the average game points a night,
nights with 12 or more game points, games, wins, win rate, spread, skunks given and taken (any level), and the
ACC internet rating points of their nine-game nights: a night of ``g`` game points, ``g >= 12``, earns
``g + 2 * (g - 11)`` (12 gives 14, 15 gives 23); a night under 12, or of other than nine games, earns none.

*Decided:* quarters are calendar quarters of the night's date (``2026-Q1`` is January to March). With
``drop_lowest``, each player's lowest night of the period (fewest game points, then fewest wins, then the lowest
spread, then the earliest) is left out of every figure, as a league drops a player's worst night; a player with a
single night in the period keeps it. Rows are in the ACC order (game points, then games won, then spread) within
each period.

>>> rating_points(12, 9), rating_points(15, 9), rating_points(11, 9), rating_points(14, 8)
(14, 23, 0, 0)
"""

from __future__ import annotations

import polars as pl

from cribstats.stats.night import ranks_of

SEASON_COLUMNS: tuple[str, ...] = (
    "period", "rank", "player", "nights", "game_points", "average", "nights_12_plus", "games", "wins",
    "win_rate", "spread", "skunks_given", "skunks_taken", "rating_points", "dropped",
)  # fmt: skip
NIGHT_GAMES = 9  # the ACC's internet rating points are for nine-game nights
RATING_FLOOR = 12
GOOD_NIGHT = 12


def rating_points(game_points: int, games: int) -> int:
    """ACC internet rating points for one night: ``g + 2(g - 11)`` for nine games and 12 game points or more."""
    if games != NIGHT_GAMES or game_points < RATING_FLOOR:
        return 0
    return game_points + 2 * (game_points - 11)


def quarter_of(column: str = "date") -> pl.Expr:
    """``2026-Q3`` for a date in July to September."""
    day = pl.col(column)
    return pl.format("{}-Q{}", day.dt.year(), day.dt.quarter())


def season_standings(nights: pl.DataFrame, *, quarters: bool = False, drop_lowest: bool = False,
                     period: str = "season") -> pl.DataFrame:  # fmt: skip
    """Standings from night totals (:func:`cribstats.stats.results.load_night_totals`): one row per player (per
    quarter with ``quarters``, else ``period`` names the whole span), with :data:`SEASON_COLUMNS`."""
    keyed = nights.with_columns(
        (quarter_of() if quarters else pl.lit(period)).alias("period"),
        pl.struct("game_points", "games")
        .map_elements(lambda r: rating_points(r["game_points"], r["games"]), return_dtype=pl.Int64)
        .alias("rating_points"),
    )
    keyed = keyed.sort("period", "player_id", "game_points", "wins", "spread", "date").with_columns(
        pl.int_range(pl.len()).over(["period", "player_id"]).alias("order_low"),
        pl.len().over(["period", "player_id"]).alias("of_nights"),
    )
    # order_low is the position of each night in the ascending sort: position 0 is the player's lowest night
    lowest = (pl.col("order_low") == 0) & (pl.col("of_nights") > 1)
    dropped_counts = keyed.group_by("period", "player_id").agg(
        (lowest.sum() if drop_lowest else pl.lit(0)).cast(pl.Int64).alias("dropped")
    )
    kept = keyed.filter(~lowest) if drop_lowest else keyed
    table = (
        kept.group_by("period", "player_id")
        .agg(
            pl.col("player").first(),
            pl.col("name_key").first(),
            pl.len().cast(pl.Int64).alias("nights"),
            *[pl.col(c).sum() for c in ("game_points", "games", "wins", "spread", "skunks_given", "skunks_taken",
                                        "rating_points")],
            (pl.col("game_points") >= GOOD_NIGHT).sum().cast(pl.Int64).alias("nights_12_plus"),
        )
        .join(dropped_counts, on=["period", "player_id"])
        .with_columns(
            (pl.col("game_points") / pl.col("nights")).alias("average"),
            pl.when(pl.col("games") > 0).then(pl.col("wins") / pl.col("games")).alias("win_rate"),
        )
        .sort(["period", "game_points", "wins", "spread", "name_key"], descending=[False, True, True, True, False])
    )
    places = []
    for _, group in table.group_by("period", maintain_order=True):
        places.extend(ranks_of(group, ["game_points", "wins", "spread"]))
    return table.with_columns(pl.Series("rank", places, dtype=pl.Int64)).select(SEASON_COLUMNS)
