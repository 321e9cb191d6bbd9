"""What each chart draws, worked out once: the values the chart draws, and the same values as text, its text
equivalent on a page (WCAG 1.1.1): a sentence that says what the chart shows (its image's ``alt``) and a table of
its figures (shown under the chart, in a ``<details>``).

A chart is drawn from its :class:`Plotted` (:mod:`cribstats.charts`, :mod:`cribstats.club_charts`,
:mod:`cribstats.discard_report`), and :attr:`Plotted.figures` is the table of those same values: the figures a
reader is given are the figures the image draws, worked out by one function, never a second time.

>>> from datetime import date
>>> trend = pl.DataFrame({"month": [date(2026, 3, 1)], "games": [8], "skunked": [2], "double_or_worse": [0],
...                       "skunk_rate": [0.25], "double_rate": [0.0]})
>>> figures = trend_plotted(trend).figures
>>> figures.head
('Month', 'Finished games', 'Skunked (any level)', 'Double skunk or worse')
>>> figures.rows
(('Mar 2026', '8', '25.0%', '0.0%'),)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import polars as pl

from cribstats.stats.measures import CLAIM_PHASES

NO_GAMES = "No stored games match"
NO_DEALS = "The matching games have no completed deals to average"
NO_HANDS = "No four-card hands stored"
MOST_CHARTED = 40
"""Players drawn in a chart of one bar (or group of bars) per player, at most: those with the most games (or
deals); more would crowd the bars past reading."""
LEVELS: tuple[tuple[str, str], ...] = (
    ("single", "skunks"), ("double", "double_skunks"), ("triple", "triple_skunks"),
)  # fmt: skip
SIDES: tuple[str, ...] = ("won", "lost")
PHASE_NAMES: dict[str, str] = {"play": "pegging", "heels": "his heels", "hand": "hand", "crib": "crib"}
AVERAGE_COLUMNS: dict[str, str] = {
    "pegging_per_deal_dealer": "Pegging, as dealer", "pegging_per_deal_pone": "Pegging, as pone",
    "hand_per_deal_dealer": "Hand, as dealer", "hand_per_deal_pone": "Hand, as pone",
    "crib_per_deal": "Crib, as dealer",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ChartFigures:
    """A chart's figures as text: ``alt``, a sentence that says what the chart shows, and its figures as a table
    (``head``, then ``rows``: the first cell of each heads its row); ``note`` says who is left out of the chart,
    or why it draws nothing. Shown in a page it is its table in a ``<details>`` (:meth:`__html__`)."""

    title: str
    alt: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""

    def __html__(self) -> str:
        return _render(self)


@dataclass(frozen=True, slots=True)
class Plotted:
    """What one chart draws: ``data``, the values (a row a player, month, hand total or point), the ``subtitle``
    under its title, ``why`` it draws nothing (when it does not), and :class:`ChartFigures`, the same values as
    text."""

    kind: str
    title: str
    data: pl.DataFrame
    figures: ChartFigures
    subtitle: str = ""
    why: str = ""


def per_deal_gap(stats: pl.DataFrame) -> str | None:
    """Why a chart of per-deal figures has nothing to draw, from the players' statistics (``games`` and
    ``deals``, completed deals): :data:`NO_GAMES`, :data:`NO_DEALS` (results-only games, such as a tally sheet's,
    have no deals), or None when some player has a completed deal.

    >>> per_deal_gap(pl.DataFrame({"games": [3, 3], "deals": [0, 0]})) == NO_DEALS
    True
    """
    if stats.filter(pl.col("deals") > 0).height:
        return None
    return NO_DEALS if stats.filter(pl.col("games") > 0).height else NO_GAMES


def most_played(players: pl.DataFrame, by: str, subtitle: str) -> tuple[pl.DataFrame, str]:
    """The rows of the :data:`MOST_CHARTED` players with the most ``by`` (ties by name), in their order, and the
    subtitle saying so when some are left out.

    >>> rows = pl.DataFrame({"player": [f"P{i:03}" for i in range(50)], "games": range(50)})
    >>> kept, said = most_played(rows, "games", "")
    >>> kept.height, kept["player"][0], said
    (40, 'P010', 'The 40 players with the most games, of 50')
    """
    if players.height <= MOST_CHARTED:
        return players, subtitle
    counted = players.with_row_index("_at")
    kept = counted.sort([by, "player"], descending=[True, False]).head(MOST_CHARTED).sort("_at").drop("_at")
    note = f"The {MOST_CHARTED} players with the most {by}, of {players.height}"
    return kept, f"{subtitle}; {note[:1].lower()}{note[1:]}" if subtitle else note


# --- the figures as text --------------------------------------------------------------------------------------


def share(value: object) -> str:
    """A share as a percentage, one decimal (``–`` for none)."""
    return "–" if value is None else f"{float(value):.1%}"  # type: ignore[arg-type]


def fine_share(value: float) -> str:
    """A share that may be tiny (a hand total among all random hands), to two decimals."""
    return "<0.01%" if 0 < value < 0.00005 else f"{value:.2%}"


def points(value: object) -> str:
    """Points (per deal, or a rating) to two decimals (``–`` for none)."""
    return "–" if value is None else f"{float(value):.2f}"  # type: ignore[arg-type]


def _who(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{len(names)} players"


def _most(frame: pl.DataFrame, column: str) -> tuple[str, Any]:
    """The player with the most ``column`` (the first by the frame's order among equals), and that value."""
    row = frame.row(frame[column].fill_null(0).arg_max() or 0, named=True)
    return row["player"], row[column]


def figures(title: str, alt: str, head: Iterable[str], rows: Iterable[Iterable[str]],
            note: str = "") -> ChartFigures:  # fmt: skip
    return ChartFigures(title, alt, tuple(head), tuple(tuple(row) for row in rows), note)


def _empty(kind: str, title: str, data: pl.DataFrame, subtitle: str, why: str) -> Plotted:
    alt = f"{title}: {why[:1].lower()}{why[1:]}."
    return Plotted(kind, title, data, figures(title, alt, (), (), why + "."), subtitle, why)


# --- each chart's figures -------------------------------------------------------------------------------------


def skunks_plotted(stats: pl.DataFrame, subtitle: str = "") -> Plotted:
    """Per player with games: skunks won and lost, by level, as a share of the player's games."""
    title = "Skunks won and lost, as a share of games played"
    played, subtitle = most_played(stats.filter(pl.col("games") > 0), "games", subtitle)
    shares = [(pl.col(f"{column}_{side}") / pl.col("games")).alias(f"{column}_{side}")
              for side in SIDES for _, column in LEVELS]  # fmt: skip
    data = played.select("player", "games", *shares)
    if data.height == 0:
        return _empty("skunks", title, data, subtitle, NO_GAMES)
    columns = [f"{column}_{side}" for side in SIDES for _, column in LEVELS]
    head = ["Player", "Games", *(f"{level.capitalize()} skunks {side}" for side in SIDES for level, _ in LEVELS)]
    rows = [(row["player"], str(row["games"]), *(share(row[c]) for c in columns))
            for row in data.iter_rows(named=True)]  # fmt: skip
    totals = data.select("player", *(pl.sum_horizontal(f"{c}_{side}" for _, c in LEVELS).alias(side)
                                     for side in SIDES))  # fmt: skip
    names = data["player"].to_list()
    (won_by, won), (lost_by, lost) = _most(totals, "won"), _most(totals, "lost")
    if len(names) == 1:
        said = f"{names[0]} won {share(won)} of their games by a skunk and lost {share(lost)}"
    elif not won and not lost:
        said = "no skunk was won or lost"
    else:
        said = f"the most won: {won_by}, {share(won)} of games; the most lost: {lost_by}, {share(lost)}"
    alt = (f"Bar charts of the skunks {_who(names)} won (top) and lost (bottom), single, double and triple, as a "
           f"share of games played; {said}.")  # fmt: skip
    return Plotted("skunks", title, data, figures(title, alt, head, rows, subtitle), subtitle)


def trend_plotted(trend: pl.DataFrame, subtitle: str = "") -> Plotted:
    """Per month: the finished, dated games, and the share that ended in a skunk (and in a double or worse)."""
    title = "Skunk rate per month"
    if trend.height == 0:
        return _empty("skunks-trend", title, trend, subtitle, NO_GAMES)
    months = [m.strftime("%b %Y") for m in trend["month"].to_list()]
    rows = [(month, str(games), share(rate), share(double)) for month, games, rate, double
            in zip(months, trend["games"], trend["skunk_rate"], trend["double_rate"], strict=True)]  # fmt: skip
    top = trend["skunk_rate"].arg_max() or 0
    span = months[0] if len(months) == 1 else f"month by month from {months[0]} to {months[-1]}"
    alt = (f"Line chart of the share of finished games that ended in a skunk, and in a double skunk or worse, "
           f"{span}; the highest: {rows[top][2]} of {rows[top][1]} games in {months[top]}.")  # fmt: skip
    head = ("Month", "Finished games", "Skunked (any level)", "Double skunk or worse")
    return Plotted("skunks-trend", title, trend, figures(title, alt, head, rows, subtitle), subtitle)


def averages_plotted(stats: pl.DataFrame, subtitle: str = "", why: str | None = None) -> Plotted:
    """Per player with completed deals: pegging, hand and crib points due per deal, as dealer and as pone."""
    title = "Points per deal, as dealer and as pone"
    dealt, subtitle = most_played(stats.filter(pl.col("deals") > 0), "deals", subtitle)
    data = dealt.select("player", "deals", *AVERAGE_COLUMNS)
    if data.height == 0:
        return _empty("averages", title, data, subtitle, why or per_deal_gap(stats) or NO_GAMES)
    rows = [(row["player"], str(row["deals"]), *(points(row[c]) for c in AVERAGE_COLUMNS))
            for row in data.iter_rows(named=True)]  # fmt: skip
    names = data["player"].to_list()
    if len(names) == 1:
        said = "; ".join(f"{label.lower()} {value}" for label, value in zip(AVERAGE_COLUMNS.values(), rows[0][2:],
                                                                             strict=True))  # fmt: skip
        said = f"{names[0]}: {said}"
    else:
        best, value = _most(data, "hand_per_deal_dealer")
        said = f"the most for the hand as dealer: {best}, {points(value)}"
    alt = (f"Bar charts of the points due per completed deal to {_who(names)}, as dealer and as pone, for the "
           f"pegging, the hand and the crib; {said}.")  # fmt: skip
    head = ("Player", "Deals", *AVERAGE_COLUMNS.values())
    return Plotted("averages", title, data, figures(title, alt, head, rows, subtitle), subtitle)


def hands_plotted(hands: pl.DataFrame, random_share: dict[int, float], subtitle: str = "") -> Plotted:
    """Per hand total: how many four-card hands stored came to it and their share, against all random hands."""
    title = "Hand totals: hands kept in play against random hands"
    top = max([*random_share, *hands["points"].to_list(), 0])
    stored = dict(zip(hands["points"].to_list(), hands["hands"].to_list(), strict=True))
    count = sum(stored.values())
    data = pl.DataFrame({
        "points": list(range(top + 1)),
        "hands": [stored.get(p, 0) for p in range(top + 1)],
        "share": [stored.get(p, 0) / count if count else None for p in range(top + 1)],
        "random": [random_share.get(p, 0.0) for p in range(top + 1)],
    }, schema={"points": pl.Int64, "hands": pl.Int64, "share": pl.Float64, "random": pl.Float64})  # fmt: skip
    rows = [(str(p), str(n), "–" if s is None else fine_share(s), fine_share(r))
            for p, n, s, r in data.iter_rows()]  # fmt: skip
    random_mean = sum(p * s for p, s in random_share.items())
    against = f"against a dashed line of all random hands with a starter (mean {random_mean:.2f})"
    if count:
        mean = sum(p * n for p, n in stored.items()) / count
        commonest = max(stored, key=lambda p: (stored[p], -p))
        alt = (f"Bar chart of how often each hand total came up in the {count:,} four-card hands stored (mean "
               f"{mean:.2f}), {against}; the commonest total stored: {commonest} points, "
               f"{fine_share(stored[commonest] / count)} of hands.")  # fmt: skip
    else:
        alt = f"Chart of the share of each hand total among all random hands with a starter, {NO_HANDS.lower()}."
    head = ("Points", "Hands stored", "Share of hands stored", "Share of random hands")
    return Plotted("hands", title, data, figures(title, alt, head, rows, subtitle), subtitle)


def accuracy_plotted(missed: pl.DataFrame, subtitle: str = "", *, why: str = NO_GAMES) -> Plotted:
    """Per player with completed deals: points missed per deal, by phase (pegging, his heels, hand, crib)."""
    title = "Points missed per deal, by phase"
    per_player = missed.select("player", "deals").unique("player", maintain_order=True)
    charted, subtitle = most_played(per_player, "deals", subtitle)
    by_phase = [missed.filter(pl.col("phase") == phase).select("player", pl.col("per_deal").alias(phase))
                for phase in CLAIM_PHASES]  # fmt: skip
    data = charted
    for phase in by_phase:
        data = data.join(phase, on="player", how="left", maintain_order="left")
    data = data.with_columns(pl.col(CLAIM_PHASES).fill_null(0.0).cast(pl.Float64))
    data = data.with_columns(pl.sum_horizontal(CLAIM_PHASES).alias("total"))
    if data.height == 0:
        return _empty("accuracy", title, data, subtitle, why)
    rows = [(row["player"], str(row["deals"]), *(points(row[c]) for c in (*CLAIM_PHASES, "total")))
            for row in data.iter_rows(named=True)]  # fmt: skip
    names = data["player"].to_list()
    if len(names) == 1:
        parts = ", ".join(f"{value} {PHASE_NAMES[phase]}" for phase, value in zip(CLAIM_PHASES, rows[0][2:-1],
                                                                                  strict=True))  # fmt: skip
        said = f"{names[0]} missed {rows[0][-1]} points a deal: {parts}"
    else:
        most, value = _most(data, "total")
        said = f"the most missed: {most}, {points(value)} points a deal"
    alt = (f"Stacked bar chart of the points {_who(names)} missed per completed deal, by phase (pegging, his "
           f"heels, hand and crib); {said}.")  # fmt: skip
    head = ("Player", "Deals", *(PHASE_NAMES[p].capitalize() for p in CLAIM_PHASES), "All phases")
    return Plotted("accuracy", title, data, figures(title, alt, head, rows, subtitle), subtitle)


def discard_plotted(summary: pl.DataFrame, subtitle: str = "") -> Plotted:
    """Per player with valued discards: the expected points lost by the discard per deal, as dealer and pone."""
    title = "Expected points lost by the discard, per deal"
    valued, subtitle = most_played(summary.filter(pl.col("deals") > 0), "deals", subtitle)
    data = valued.select("player", "deals", "loss_per_deal_dealer", "loss_per_deal_pone")
    if data.height == 0:
        return _empty("discards", title, data, subtitle, "No discards valued")
    rows = [(player, str(deals), points(dealer), points(pone)) for player, deals, dealer, pone in data.iter_rows()]
    names = data["player"].to_list()
    most, _ = _most(data.with_columns(pl.sum_horizontal("loss_per_deal_dealer", "loss_per_deal_pone").alias("t")),
                    "t")  # fmt: skip
    row = next(r for r in rows if r[0] == most)
    who = "" if len(names) == 1 else "the costliest: "
    alt = (f"Bar chart of what the discards of {_who(names)} cost, a bar as dealer and one as pone each; {who}"
           f"{most}, {row[2]} points a deal as dealer and {row[3]} as pone.")  # fmt: skip
    head = ("Player", "Deals valued", "Loss per deal, dealer", "Loss per deal, pone")
    return Plotted("discards", title, data, figures(title, alt, head, rows, subtitle), subtitle)


# --- on a page ------------------------------------------------------------------------------------------------


TEMPLATE = "chart_figures.html.j2"


@cache
def _template() -> Any:
    import jinja2

    from cribstats.safetext import page_value

    try:
        text = (resources.files("cribstats") / "templates" / TEMPLATE).read_text(encoding="utf-8")
    except (NotADirectoryError, FileNotFoundError, TypeError):  # imported as a namespace (stale editable install)
        text = (Path(__file__).resolve().parent / "templates" / TEMPLATE).read_text(encoding="utf-8")
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                                     lstrip_blocks=True, finalize=page_value)  # fmt: skip
    return environment.from_string(text)


def _render(chart: ChartFigures) -> str:
    """The figures as a page shows them: a ``<details>`` whose table holds them, every piece of text escaped."""
    return str(_template().render(chart=chart))
