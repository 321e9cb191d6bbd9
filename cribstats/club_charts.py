"""Charts of the club tables: the rating history (one line per player, greyscale-safe by line style and marker),
drawn from its figures, which are its text on a page too (:func:`rating_plotted`).

>>> import polars as pl
>>> from datetime import date
>>> steps = pl.DataFrame({"player": ["Ann", "Bob"], "rated": [1, 1], "date": [date(2026, 1, 6)] * 2,
...                       "rating": [1.5, -1.5], "mu": [27.0, 23.0], "sigma": [8.0, 8.0]})
>>> rating_chart(steps).axes[0].get_ylabel()
'Rating (mu - 3 sigma)'
"""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from cribstats.chart_figures import Plotted, figures
from cribstats.chart_figures import points as points_text
from cribstats.chart_text import chart_label, quiet_drawing

SHADES: tuple[str, ...] = ("#08306b", "#2171b5", "#6baed6", "#525252", "#969696", "#000000")
LINES: tuple[str, ...] = ("-", "--", ":", "-.")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "x")
MOST_PLAYERS = 8  # more lines than this cannot be told apart: the best rated are drawn
MARKS = 15  # markers a line at most: enough to tell the lines apart in greyscale


MOST_ROWS = 24  # rows of the chart's figures as text at most: more days than this are told by the month


def rating_chart(steps: pl.DataFrame, *, players: int = MOST_PLAYERS) -> Figure:
    """Each player's rating after their last game of each day (by date when every game is dated, else by game
    number), for the ``players`` best rated at the end (rows of
    :data:`cribstats.stats.ratings.HISTORY_COLUMNS`)."""
    return draw_ratings(rating_plotted(steps, players=players))


def rating_plotted(steps: pl.DataFrame, *, players: int = MOST_PLAYERS) -> Plotted:
    """What :func:`rating_chart` draws: each drawn player's rating after their last game of each day (or game),
    the best rated at the end first; as text, each player's rating as it stood at the end of each day (of each
    month, over more than :data:`MOST_ROWS` days; after each game, or span of games, when undated)."""
    title = "Ratings, game by game"
    if steps.height == 0:
        why = "No finished games"
        return Plotted("ratings", title, steps, figures(title, f"{title}: no finished games.", (), (), why + "."),
                       why=why)  # fmt: skip
    x = "date" if steps["date"].null_count() == 0 else "rated"
    latest = steps.sort("rated").group_by("player", maintain_order=True).last()
    best = latest.sort("rating", descending=True).head(players)["player"].to_list()
    data = pl.concat(
        [steps.filter(pl.col("player") == name).sort("rated").group_by(x, maintain_order=True).last()
         .select("player", x, "rating") for name in best]
    )  # fmt: skip
    head, rows, said = _rating_rows(data, best, x)
    first, last = (str(value) for value in (data[x].min(), data[x].max()))  # a date, or a game number
    if x == "date" and first == last:
        span = f"after the games of {first}"
    elif x == "date":
        span = f"after their last game of each day, from {first} to {last}"
    else:
        span = f"after each game, from game {first} to game {last}"
    leader = latest.filter(pl.col("player") == best[0])["rating"].item()
    who = best[0] if len(best) == 1 else f"the {len(best)} best rated players"
    alt = (f"Line chart of the rating (mu - 3 sigma) of {who} {span}; at the end {best[0]} stands highest, at "
           f"{leader:.2f}.")  # fmt: skip
    return Plotted("ratings", title, data, figures(title, alt, head, rows, said))


def _rating_rows(data: pl.DataFrame, best: list[str], x: str) -> tuple[list[str], list[list[str]], str]:
    """The drawn ratings as a table: a row a day, month or span of games, a column a player (their rating as it
    stood then, ``–`` before their first game), and what the rows are."""
    points = data[x].unique().sort().to_list()
    if x == "date" and len(points) > MOST_ROWS:
        period, label = pl.col("date").dt.truncate("1mo"), "Month"
        name = {p: p.strftime("%b %Y") for p in data["date"].dt.truncate("1mo").unique().to_list()}
        said = "Each player's rating as it stood at the end of each month."
    elif x == "date":
        period, label, name = pl.col("date"), "Date", {p: p.isoformat() for p in points}
        said = "Each player's rating as it stood at the end of each day of play."
    else:
        size = -(-len(points) // MOST_ROWS)
        place = {g: i // size for i, g in enumerate(points)}
        spans: dict[int, list[int]] = {}
        for g, i in place.items():
            spans.setdefault(i, []).append(g)
        period, label = pl.col("rated").replace_strict(place), "Games" if size > 1 else "Game"
        name = {i: f"{g[0]}–{g[-1]}" if len(g) > 1 else str(g[0]) for i, g in spans.items()}
        said = "Each player's rating as it stood after each game (by the games' order), or span of games."
    # each player's last rating of each period (names are values here, never column names)
    ends = data.select(period.alias("at"), "player", "rating").group_by("at", "player", maintain_order=True)
    at = {(when, player): rating for when, player, rating in ends.last().iter_rows()}
    stood: dict[str, float] = {}
    rows = []
    for when in sorted({when for when, _ in at}):
        stood |= {player: at[when, player] for player in best if (when, player) in at}
        rows.append([name[when], *(points_text(stood.get(player)) for player in best)])
    return [label, *best], rows, said


def draw_ratings(plotted: Plotted) -> Figure:
    """The rating chart of its figures (:func:`rating_plotted`)."""
    with quiet_drawing():
        return _draw_ratings(plotted)


def _draw_ratings(plotted: Plotted) -> Figure:
    fig = Figure(figsize=(9.0, 4.6), layout="constrained")
    ax = fig.subplots()
    ax.set_title(plotted.title)
    ax.set_ylabel("Rating (mu - 3 sigma)")
    data = plotted.data
    if plotted.why:
        ax.text(0.5, 0.5, plotted.why, ha="center", va="center", transform=ax.transAxes, fontsize=12)
        ax.set_xticks([])
        ax.set_yticks([])
        return fig
    x = "date" if "date" in data.columns else "rated"
    best = data["player"].unique(maintain_order=True).to_list()
    lines = []
    for i, name in enumerate(best):
        mine = data.filter(pl.col("player") == name)
        (line,) = ax.plot(mine[x].to_list(), mine["rating"].to_list(), color=SHADES[i % len(SHADES)],
                          linestyle=LINES[i % len(LINES)], marker=MARKERS[i % len(MARKERS)], markersize=4,
                          markevery=max(1, mine.height // MARKS), linewidth=1.2)  # fmt: skip
        lines.append(line)
    ax.set_xlabel("Date" if x == "date" else "Game (in date order)")
    ax.grid(axis="y", color="#bbbbbb", linewidth=0.6)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    # names are text, never markup (drawn_quietly turns mathtext off), and given to legend() rather than plot(),
    # where a label that begins with "_" would be left out
    ax.legend(lines, [chart_label(n) for n in best], loc="upper left", fontsize=8, ncols=2, frameon=False)
    if x == "date":
        _one_day(ax, data["date"].unique().to_list())
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
