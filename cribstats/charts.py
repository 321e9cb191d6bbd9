"""Charts of the statistics: matplotlib ``Figure`` objects (object API, Agg; nothing is shown on screen).

Every chart reads in greyscale: series differ by lightness (a sequential palette) and by hatching or marker, not by
hue alone. :func:`draw_chart` draws one of :data:`CHART_KINDS` from :class:`~cribstats.stats.frames.StatsFrames`;
:func:`save_figure` writes ``.png`` or ``.svg``, whole or not at all.

Each chart is drawn from its figures, worked out once (:func:`plotted`, :mod:`cribstats.chart_figures`): the same
figures are the chart's text on a page (:func:`chart_with_figures` gives both).

Any name a player may have is drawn (:mod:`cribstats.chart_text`: fonts found at run time, long names shortened
with an ellipsis under the bars, the library's font and layout warnings silenced).

>>> import polars as pl
>>> fig = hands_chart(pl.DataFrame({"points": [0, 2, 4], "hands": [1, 2, 1], "share": [0.25, 0.5, 0.25]}))
>>> fig.axes[0].get_xlabel()
'Points in the hand (hand + starter)'
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from cribstats.atomicfile import WriteError, write_atomic
from cribstats.chart_figures import (
    LEVELS,
    NO_GAMES,
    NO_HANDS,
    PHASE_NAMES,
    SIDES,
    Plotted,
    accuracy_plotted,
    averages_plotted,
    hands_plotted,
    per_deal_gap,
    skunks_plotted,
    trend_plotted,
)
from cribstats.chart_figures import MOST_CHARTED as MOST_CHARTED  # where the commands and the tests look for it
from cribstats.chart_figures import NO_DEALS as NO_DEALS
from cribstats.chart_figures import ChartFigures as ChartFigures
from cribstats.chart_text import chart_label, drawn_quietly, quiet_drawing
from cribstats.errors import CribstatsError
from cribstats.names import quoted
from cribstats.stats.frames import StatsFrames
from cribstats.stats.measures import (
    CLAIM_PHASES,
    hand_points,
    load_stats,
    missed_by_phase,
    player_totals,
    skunk_trend,
)

CHART_KINDS: tuple[str, ...] = ("skunks", "skunks-trend", "averages", "hands", "accuracy")
# A sequential palette (dark to light) with hatches, so that series stay apart in greyscale.
SHADES: tuple[str, ...] = ("#08306b", "#2171b5", "#6baed6", "#c6dbef")
HATCHES: tuple[str, ...] = ("", "//", "xx", "..")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D")
LEVEL_NAMES: tuple[str, ...] = tuple(level for level, _ in LEVELS)


class ChartError(CribstatsError):
    """A chart that cannot be drawn or saved (an unknown kind, a file that cannot be written)."""


def _figure(players: int = 0, *, rows: int = 1, height: float = 4.2) -> tuple[Figure, list[Axes]]:
    width = max(7.0, min(16.0, 2.5 + 0.75 * players))
    fig = Figure(figsize=(width, height * rows), layout="constrained")
    axes = fig.subplots(rows, 1, squeeze=False)[:, 0].tolist()
    return fig, axes


def _style(ax: Axes) -> None:
    ax.grid(axis="y", color="#bbbbbb", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _bar_style(i: int) -> dict[str, object]:
    return {"color": SHADES[i % len(SHADES)], "hatch": HATCHES[i % len(HATCHES)], "edgecolor": "black",
            "linewidth": 0.6}  # fmt: skip


def frames_gap(frames: StatsFrames) -> str | None:
    """:func:`per_deal_gap` of the frames' players, read from their totals (the statistics are not worked out
    for it)."""
    return per_deal_gap(player_totals(frames).collect())


def _empty(fig: Figure, ax: Axes, title: str, why: str = NO_GAMES) -> Figure:
    ax.set_title(title)
    ax.text(0.5, 0.5, why, ha="center", va="center", transform=ax.transAxes, fontsize=12)
    ax.set_xticks([])
    ax.set_yticks([])
    return fig


def _player_axis(ax: Axes, names: list[str]) -> None:
    crowded = len(names) > 6 or any(len(n) > 10 for n in names)
    labels = [chart_label(n) for n in names]
    ax.set_xticks(range(len(names)), labels, rotation=30 if crowded else 0, ha="right" if crowded else "center")
    ax.set_xlabel("Player")


def _percent(ax: Axes) -> None:
    ax.yaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=None))


def _titled(fig: Figure, plotted: Plotted) -> None:
    fig.suptitle(f"{plotted.title}\n{plotted.subtitle}" if plotted.subtitle else plotted.title)


def skunks_chart(stats: pl.DataFrame, subtitle: str = "") -> Figure:
    """Per player: skunks won (top) and lost (bottom) by level, stacked, as a share of the player's games."""
    return draw(skunks_plotted(stats, subtitle))


def _draw_skunks(plotted: Plotted) -> Figure:
    played = plotted.data
    fig, axes = _figure(played.height, rows=2, height=3.4)
    _titled(fig, plotted)
    if played.height == 0:
        _empty(fig, axes[1], "")
        return _empty(fig, axes[0], "")
    names = played["player"].to_list()
    for ax, side in zip(axes, SIDES, strict=True):
        bottom = [0.0] * played.height
        for i, (level, column) in enumerate(LEVELS):
            share = played[f"{column}_{side}"].to_list()
            ax.bar(range(len(names)), share, bottom=bottom, label=f"{level} skunk", **_bar_style(i))  # type: ignore[arg-type]
            bottom = [b + s for b, s in zip(bottom, share, strict=True)]
        ax.set_title(f"Skunks {side}")
        ax.set_ylabel(f"Share of games ({side})")
        _percent(ax)
        _style(ax)
        _player_axis(ax, names)
        ax.set_ylim(0, max(0.05, max(bottom) * 1.15))
    axes[0].legend(title="Level", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)  # beside the bars
    return fig


def skunks_trend_chart(trend: pl.DataFrame, subtitle: str = "") -> Figure:
    """Skunk rate (any level, and double or worse) of the finished, dated games of each month."""
    return draw(trend_plotted(trend, subtitle))


def _draw_trend(plotted: Plotted) -> Figure:
    trend = plotted.data
    fig, (ax,) = _figure(trend.height)
    _titled(fig, plotted)
    if trend.height == 0:
        return _empty(fig, ax, "")
    months = [m.strftime("%b %Y") for m in trend["month"].to_list()]
    x = list(range(len(months)))
    ax.plot(x, trend["skunk_rate"].to_list(), marker=MARKERS[0], color=SHADES[0], linewidth=2,
            label="skunked (any level)")  # fmt: skip
    ax.plot(x, trend["double_rate"].to_list(), marker=MARKERS[1], color=SHADES[2], linewidth=2, linestyle="--",
            label="double skunk or worse")  # fmt: skip
    for xi, rate, n in zip(x, trend["skunk_rate"], trend["games"], strict=True):
        ax.annotate(f"{n} games", (xi, rate), textcoords="offset points", xytext=(0, 8), ha="center", fontsize=8)
    ax.set_xticks(x, months, rotation=30 if len(months) > 8 else 0)
    ax.set_xlim(x[0] - 0.5, x[-1] + 0.5)  # room for the first and last month's labels
    ax.set_xlabel("Month")
    ax.set_ylabel("Share of finished games")
    highest = trend["skunk_rate"].max()
    ax.set_ylim(0, max(0.1, (float(highest) if isinstance(highest, int | float) else 0.0) * 1.3))
    _percent(ax)
    _style(ax)
    ax.legend(loc="upper left", frameon=False)
    return fig


def averages_chart(stats: pl.DataFrame, subtitle: str = "") -> Figure:
    """Per player: pegging, hand and crib points due per completed deal, as dealer and as pone side by side."""
    return draw(averages_plotted(stats, subtitle))


def _draw_averages(plotted: Plotted) -> Figure:
    dealt = plotted.data
    fig, axes = _figure(dealt.height, rows=3, height=2.9)
    _titled(fig, plotted)
    if dealt.height == 0:
        for ax in axes[1:]:
            _empty(fig, ax, "", plotted.why)
        return _empty(fig, axes[0], "", plotted.why)
    names = dealt["player"].to_list()
    panels = (
        ("Pegging", ("pegging_per_deal_dealer", "pegging_per_deal_pone")),
        ("Hand", ("hand_per_deal_dealer", "hand_per_deal_pone")),
        ("Crib (dealer only)", ("crib_per_deal",)),
    )
    for ax, (name, columns) in zip(axes, panels, strict=True):
        width = 0.8 / len(columns)
        for i, column in enumerate(columns):
            offset = (i - (len(columns) - 1) / 2) * width
            values = [v if v is not None else 0.0 for v in dealt[column].to_list()]
            role = "as dealer" if column.endswith(("dealer", "crib_per_deal")) else "as pone"
            ax.bar([x + offset for x in range(len(names))], values, width=width, label=role, **_bar_style(i * 2))  # type: ignore[arg-type]
        ax.set_title(name)
        ax.set_ylabel("Points per deal")
        _style(ax)
        _player_axis(ax, names)
    # beside the panels, never over a bar (the constrained layout makes room for it)
    axes[0].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def _package_data(name: str) -> str:
    """A file of the package's ``data`` folder, through importlib.resources (the folder beside this module when
    the package is imported as a namespace, as a stale editable install does)."""
    try:
        return (resources.files("cribstats") / "data" / name).read_text(encoding="utf-8")
    except (NotADirectoryError, FileNotFoundError, TypeError):
        return (Path(__file__).resolve().parent / "data" / name).read_text(encoding="utf-8")


def random_hand_distribution() -> dict[int, float]:
    """Share of each hand total over all 12,994,800 four-card hands with a starter (the package's table)."""
    data = json.loads(_package_data("hand-distribution.json"))
    total = data["combinations"]
    return {int(points): count / total for points, count in data["hand"].items()}


def hands_chart(hands: pl.DataFrame, subtitle: str = "") -> Figure:
    """The share of each hand total in the stored games (four-card hands), against random hands."""
    return draw(hands_plotted(hands, random_hand_distribution(), subtitle))


def _draw_hands(plotted: Plotted) -> Figure:
    totals = plotted.data
    fig, (ax,) = _figure(8)
    _titled(fig, plotted)
    stored = totals.filter(pl.col("hands") > 0)
    if stored.height:
        n = int(stored["hands"].sum())
        mean = float((stored["points"] * stored["hands"]).sum()) / n
        ax.bar(stored["points"].to_list(), stored["share"].to_list(), width=0.8,
               label=f"stored hands ({n:,}; mean {mean:.2f})", **_bar_style(1))  # type: ignore[arg-type]  # fmt: skip
    else:
        ax.text(0.5, 0.8, NO_HANDS, ha="center", transform=ax.transAxes)
    random_mean = float((totals["points"] * totals["random"]).sum())
    ax.plot(totals["points"].to_list(), totals["random"].to_list(), color="black", marker=MARKERS[0], markersize=4,
            linewidth=1.2, linestyle="--", label=f"random hands (mean {random_mean:.2f})")  # fmt: skip
    ax.set_xlabel("Points in the hand (hand + starter)")
    ax.set_ylabel("Share of hands")
    ax.set_xticks(range(0, totals.height, 2))
    _percent(ax)
    _style(ax)
    ax.legend(loc="upper right", frameon=False)
    return fig


def accuracy_chart(missed: pl.DataFrame, subtitle: str = "", *, why: str = NO_GAMES) -> Figure:
    """Per player: points missed per completed deal, stacked by phase (pegging, his heels, hand, crib).

    ``why`` is said when no player has a completed deal (:func:`per_deal_gap`).
    """
    return draw(accuracy_plotted(missed, subtitle, why=why))


def _draw_accuracy(plotted: Plotted) -> Figure:
    charted = plotted.data
    names = charted["player"].to_list()
    fig, (ax,) = _figure(len(names))
    _titled(fig, plotted)
    if not names:
        return _empty(fig, ax, "", plotted.why)
    bottom = [0.0] * len(names)
    for i, phase in enumerate(CLAIM_PHASES):
        values = charted[phase].to_list()
        ax.bar(range(len(names)), values, bottom=bottom, label=PHASE_NAMES[phase], **_bar_style(i))  # type: ignore[arg-type]
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.set_ylabel("Points missed per deal")
    ax.set_ylim(0, max(0.1, max(bottom) * 1.2))
    _style(ax)
    _player_axis(ax, names)
    ax.legend(title="Phase", loc="upper right", frameon=False, ncols=4)
    return fig


def sentence_start(text: str) -> str:
    """``text`` with its first letter upper-cased and every other character exactly as written.

    For a filter's description (``player Ann McDonald, event St Mary's`` becomes ``Player Ann McDonald, ...``),
    which starts with cribstats' own wording: the names in it print as typed (``str.capitalize`` would lower-case
    them).
    """
    return text[:1].upper() + text[1:]


def _subtitle(frames: StatsFrames) -> str:
    described = frames.filters.describe()
    return "" if described == "all games" else sentence_start(described)


DRAWN: dict[str, Callable[[Plotted], Figure]] = {
    "skunks": _draw_skunks, "skunks-trend": _draw_trend, "averages": _draw_averages, "hands": _draw_hands,
    "accuracy": _draw_accuracy,
}  # fmt: skip


@drawn_quietly
def draw(plotted: Plotted) -> Figure:
    """The chart of its figures (:func:`plotted`), with the fallback fonts and no warning said."""
    return DRAWN[plotted.kind](plotted)


def plotted(kind: str, frames: StatsFrames, *, stats: pl.DataFrame | None = None,
            subtitle: str | None = None) -> Plotted:  # fmt: skip
    """What chart ``kind`` of :data:`CHART_KINDS` draws of the frames: its figures, worked out once for its image
    (:func:`draw`) and its figures as text (``.figures``). ``stats`` are the players' statistics when already
    worked out; ``subtitle`` is by default the frames' filters.

    :raises ChartError: for an unknown kind.
    """
    said = _subtitle(frames) if subtitle is None else subtitle
    if kind in ("skunks", "averages"):
        players = stats if stats is not None else load_stats(frames)
        return skunks_plotted(players, said) if kind == "skunks" else averages_plotted(players, said)
    if kind == "skunks-trend":
        return trend_plotted(skunk_trend(frames), said)
    if kind == "hands":
        return hands_plotted(hand_points(frames), random_hand_distribution(), said)
    if kind == "accuracy":
        why = (per_deal_gap(stats) if stats is not None else frames_gap(frames)) or NO_GAMES
        return accuracy_plotted(missed_by_phase(frames), said, why=why)
    raise ChartError(f"unknown chart {quoted(kind)}: use one of {', '.join(CHART_KINDS)}")


def chart_with_figures(kind: str, frames: StatsFrames, *, stats: pl.DataFrame | None = None,
                       subtitle: str | None = None) -> tuple[Figure, ChartFigures]:  # fmt: skip
    """Chart ``kind`` and its figures as text, from one working out of its figures (:func:`plotted`)."""
    worked_out = plotted(kind, frames, stats=stats, subtitle=subtitle)
    return draw(worked_out), worked_out.figures


def draw_chart(kind: str, frames: StatsFrames) -> Figure:
    """One chart of :data:`CHART_KINDS`.

    :raises ChartError: for an unknown kind.
    """
    with quiet_drawing():
        return draw(plotted(kind, frames))


def save_figure(fig: Figure, out: str | os.PathLike[str]) -> None:
    """Write the figure as PNG or SVG, by the file's suffix, whole or not at all.

    :raises ChartError: for another suffix or a file that cannot be written (an old file stays as it was).
    """
    suffix = os.fspath(out).lower().rsplit(".", 1)[-1]
    if suffix not in ("png", "svg"):
        raise ChartError(f"{os.fspath(out)}: write a .png or .svg file")
    data = figure_bytes(fig, suffix)
    try:
        write_atomic(out, data)
    except WriteError as err:
        raise ChartError(str(err)) from None


def figure_bytes(fig: Figure, fmt: str = "png") -> bytes:
    """The figure as PNG or SVG bytes, e.g. to embed in a page."""
    buffer = io.BytesIO()
    with quiet_drawing():
        fig.savefig(buffer, format=fmt, dpi=110)
    return buffer.getvalue()
