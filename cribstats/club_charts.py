"""Charts of the club tables: the rating history (one line per player, greyscale-safe by line style and marker).

>>> import polars as pl
>>> from datetime import date
>>> steps = pl.DataFrame({"player": ["Ann", "Bob"], "game": [1, 1], "date": [date(2026, 1, 6)] * 2,
...                       "rating": [1.5, -1.5], "mu": [27.0, 23.0], "sigma": [8.0, 8.0]})
>>> rating_chart(steps).axes[0].get_ylabel()
'Rating (mu - 3 sigma)'
"""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from cribstats.chart_text import chart_label, drawn_quietly

SHADES: tuple[str, ...] = ("#08306b", "#2171b5", "#6baed6", "#525252", "#969696", "#000000")
LINES: tuple[str, ...] = ("-", "--", ":", "-.")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "x")
MOST_PLAYERS = 8  # more lines than this cannot be told apart: the best rated are drawn
MARKS = 15  # markers a line at most: enough to tell the lines apart in greyscale


@drawn_quietly
def rating_chart(steps: pl.DataFrame, *, players: int = MOST_PLAYERS) -> Figure:
    """Each player's rating after their last game of each day (by date when every game is dated, else by game
    number), for the ``players`` best rated at the end (rows of
    :data:`cribstats.stats.ratings.HISTORY_COLUMNS`)."""
    fig = Figure(figsize=(9.0, 4.6), layout="constrained")
    ax = fig.subplots()
    ax.set_title("Ratings, game by game")
    ax.set_ylabel("Rating (mu - 3 sigma)")
    if steps.height == 0:
        ax.text(0.5, 0.5, "No finished games", ha="center", va="center", transform=ax.transAxes, fontsize=12)
        ax.set_xticks([])
        ax.set_yticks([])
        return fig
    dated = steps["date"].null_count() == 0
    x = "date" if dated else "game"
    latest = steps.sort("game").group_by("player", maintain_order=True).last()
    best = latest.sort("rating", descending=True).head(players)["player"].to_list()
    lines = []
    for i, name in enumerate(best):
        mine = steps.filter(pl.col("player") == name).sort("game").group_by(x, maintain_order=True).last()
        (line,) = ax.plot(mine[x].to_list(), mine["rating"].to_list(), color=SHADES[i % len(SHADES)],
                          linestyle=LINES[i % len(LINES)], marker=MARKERS[i % len(MARKERS)], markersize=4,
                          markevery=max(1, mine.height // MARKS), linewidth=1.2)  # fmt: skip
        lines.append(line)
    ax.set_xlabel("Date" if dated else "Game (in date order)")
    ax.grid(axis="y", color="#bbbbbb", linewidth=0.6)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    # names are text, never markup (drawn_quietly turns mathtext off), and given to legend() rather than plot(),
    # where a label that begins with "_" would be left out
    ax.legend(lines, [chart_label(n) for n in best], loc="upper left", fontsize=8, ncols=2, frameon=False)
    if dated:
        _one_day(ax, steps["date"].unique().to_list())
        fig.autofmt_xdate()
    return fig


def _one_day(ax: Axes, days: list[date]) -> None:
    """A chart of one day's games (a night's report) spans the day before to the day after, one tick a day:
    left to itself the axis of a single date spans four years."""
    if len(days) != 1:
        return
    from matplotlib.dates import DateFormatter, DayLocator

    day = days[0]
    ax.set_xlim(day - timedelta(days=1), day + timedelta(days=1))  # type: ignore[arg-type]
    ax.xaxis.set_major_locator(DayLocator())  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_formatter(DateFormatter("%Y-%m-%d"))  # type: ignore[no-untyped-call]
