"""The report's discard-quality section (``id="discards"``) and its chart of each player's loss per deal.

The section is its own template (``templates/report_discards.html.j2``), rendered with autoescape like the rest
of the report: a table per player of the discard figures of :mod:`cribstats.stats.discards`, the chart, and the
costliest discards.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> html = discard_section(engine)
>>> 'id="discards"' in html and "No discards stored yet" in html
True
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import jinja2
import polars as pl
from markupsafe import Markup, escape
from matplotlib.figure import Figure
from sqlalchemy.engine import Engine

from cribstats.chart_figures import Plotted, discard_plotted
from cribstats.chart_text import drawn_quietly
from cribstats.charts import (
    _bar_style,
    _empty,
    _figure,
    _player_axis,
    _style,
    figure_bytes,
)
from cribstats.safetext import page_value
from cribstats.stats.discards import (
    discard_summary,
    no_discards_message,
    unvalued_discards_message,
    worst_discards,
)
from cribstats.stats.frames import StatsFilter

TEMPLATE = "report_discards.html.j2"
WORST = 10
SUMMARY = (
    ("player", "Player"), ("deals", "Deals valued"), ("loss_per_deal_dealer", "Loss per deal, dealer"),
    ("loss_per_deal_pone", "Loss per deal, pone"), ("best_share", "Best discards"),
    ("loss_per_game", "Points lost per game"), ("hand_only_deals", "Three- and four-player deals"),
)  # fmt: skip
WORST_COLUMNS = (
    ("loss", "Loss"), ("player", "Player"), ("game", "Game"), ("deal", "Deal"), ("role", "As"),
    ("dealt", "Dealt"), ("chosen", "Thrown"), ("best", "Best throw"),
)  # fmt: skip
WORD_COLUMNS = frozenset(("player", "game", "role", "dealt", "chosen", "best"))
"""The columns of words (names, keys, roles, cards), set flush left as text is; numbers stand flush right."""


def discard_chart(summary: pl.DataFrame, subtitle: str = "") -> Figure:
    """Per player: the expected points lost per deal by the discard, as dealer and as pone, side by side."""
    return draw_discards(discard_plotted(summary, subtitle))


@drawn_quietly
def draw_discards(plotted: Plotted) -> Figure:
    """The discard chart of its figures (:func:`~cribstats.chart_figures.discard_plotted`)."""
    valued = plotted.data
    fig, (ax,) = _figure(valued.height)
    fig.suptitle(f"{plotted.title}\n{plotted.subtitle}" if plotted.subtitle else plotted.title)
    if valued.height == 0:
        return _empty(fig, ax, "")
    names = valued["player"].to_list()
    width = 0.38
    for i, (role, column) in enumerate((("as dealer", "loss_per_deal_dealer"), ("as pone", "loss_per_deal_pone"))):
        values = [v or 0.0 for v in valued[column].to_list()]
        x = [p + (i - 0.5) * width for p in range(len(names))]
        ax.bar(x, values, width=width, label=role, **_bar_style(i))  # type: ignore[arg-type]
    ax.set_ylabel("Points lost per deal")
    _style(ax)
    _player_axis(ax, names)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def discard_cell(name: str, value: object) -> str:
    """A discard figure as the report and the pages show it (a share as a percentage, points to two places)."""
    if value is None:
        return "–"
    if name == "best_share" and isinstance(value, float):
        return f"{value:.1%}"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _rows(frame: pl.DataFrame, columns: tuple[tuple[str, str], ...]) -> list[list[str]]:
    names = tuple(c for c, _ in columns)
    return [[discard_cell(c, v) for c, v in zip(names, row, strict=True)] for row in frame.select(names).rows()]


def _template_text() -> str:
    try:
        return (resources.files("cribstats") / "templates" / TEMPLATE).read_text(encoding="utf-8")
    except (NotADirectoryError, FileNotFoundError, TypeError):
        return (Path(__file__).resolve().parent / "templates" / TEMPLATE).read_text(encoding="utf-8")


def discard_section(engine: Engine, filters: StatsFilter | None = None, *,
                    on_stage: Callable[[str], None] | None = None) -> Markup:  # fmt: skip
    """The section as HTML, every piece of text escaped; ``on_stage`` is told its stages (``discards``, then
    ``costliest discards``)."""
    filters = filters or StatsFilter()
    with engine.connect() as conn:
        if on_stage is not None:
            on_stage("discards")
        summary = discard_summary(conn, filters)
        if on_stage is not None:
            on_stage("costliest discards")
        worst = worst_discards(conn, filters, WORST)
        none = no_discards_message(conn, filters) if summary.height == 0 else ""
        partly = unvalued_discards_message(conn, filters) if summary.height else None
    plotted = discard_plotted(summary)  # the chart's figures, for its image and its text
    chart = base64.b64encode(figure_bytes(draw_discards(plotted), "png")).decode("ascii")
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                                     lstrip_blocks=True, finalize=page_value)  # fmt: skip
    html = environment.from_string(_template_text()).render(
        summary_head=[label for _, label in SUMMARY], summary=_rows(summary, SUMMARY),
        worst_head=[label for _, label in WORST_COLUMNS], worst=_rows(worst, WORST_COLUMNS),
        worst_words=[column in WORD_COLUMNS for column, _ in WORST_COLUMNS],
        chart=chart if summary.height else None, chart_figures=plotted.figures,
        empty=with_commands(none[:1].upper() + none[1:] + ".") if none else "",  # as `cribstats discards` says
        partly=with_commands(partly[:1].upper() + partly[1:] + ".") if partly else None,
    )  # fmt: skip
    return Markup(html)  # rendered by an autoescaping template: the text in it is escaped


def with_commands(message: str) -> Markup:
    """A message as HTML, the commands it names between backticks (as the terminal shows them) set as code, every
    piece escaped.

    >>> str(with_commands("run `cribstats analyse --store` <now>"))
    'run <code>cribstats analyse --store</code> &lt;now&gt;'
    """
    pieces = message.split("`")
    if len(pieces) % 2 == 0:  # a backtick without its pair: the text as it is
        return escape(message)
    return Markup("").join(Markup("<code>{}</code>").format(piece) if odd else escape(piece)
                           for odd, piece in ((i % 2 == 1, piece) for i, piece in enumerate(pieces)))
