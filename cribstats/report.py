"""The club report: one self-contained HTML page (charts embedded as PNG) that reads well on a phone.

Sections, each an element with an ``id``: ``summary``, ``standings``, ``players`` (a table per player),
``charts``, ``audit`` (findings by kind, points missed and over-claimed per player, the worst findings) and
``discards`` (:mod:`cribstats.discard_report`).
Every piece of text goes through jinja2's autoescape; the page carries a Content-Security-Policy that lets no
script run but its own loaded marker (allowed by its hash), and loads nothing from anywhere. Once loaded, the root
element's ``data-report-ready`` lists the sections the browser laid out.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> html = build_report(engine, title="<Club>")
>>> "&lt;Club&gt;" in html and 'id="standings"' in html
True
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import polars as pl
from sqlalchemy.engine import Engine

from cribstats.atomicfile import WriteError, write_atomic
from cribstats.charts import ChartFigures, chart_with_figures, figure_bytes, sentence_start
from cribstats.club_report import club_context
from cribstats.discard_report import discard_section
from cribstats.errors import CribstatsError
from cribstats.safetext import page_value
from cribstats.stats.frames import StatsFilter, StatsFrames, load_frames, load_worst_findings
from cribstats.stats.measures import (
    DEAL_COLUMNS,
    FINDING_COLUMNS,
    RATE_COLUMNS,
    RESULT_COLUMNS,
    detail,
    findings_by_kind,
    load_stats,
    standings,
)
from cribstats.store.players import stored_player

TEMPLATE = "report.html.j2"
# The page's one script: once loaded, it marks the root element with the sections that were laid out, and with
# how far right the standings' game points reach against the width of the screen (a phone must show them).
READY_SCRIPT = (
    "(function () { var shown = []; document.querySelectorAll('main > section').forEach(function (s) {"
    " if (s.getBoundingClientRect().height > 0) { shown.push(s.id); } });"
    " var root = document.documentElement; root.setAttribute('data-report-ready', shown.join(' '));"
    " var points = document.querySelector('#standings th.points');"
    " if (points) { root.setAttribute('data-points-right', Math.ceil(points.getBoundingClientRect().right));"
    " root.setAttribute('data-screen-width', window.innerWidth); } })();"
)
# The report's standings lead with what they are ranked by, so that a phone's width shows it beside the name.
REPORT_STANDINGS_COLUMNS: tuple[str, ...] = (
    "rank", "player", "game_points", "games", "wins", "losses", "spread", "skunk_wins", "skunk_losses",
)  # fmt: skip
WORST_FINDINGS = 15
PERCENT_COLUMNS = frozenset({"win_rate", "first_dealer_win_rate", "accuracy"})  # shares, shown as percentages
DEFAULT_TITLE = "Cribbage club report"
#: said under the standings when partners of four-player games stand in them as one side (the report and the pages)
PARTNERS_NOTE = ("Partners of four-player games stand as one side: a player's own row counts only the games they "
                 "played without a partner.")

LABELS: dict[str, str] = {
    "rank": "Rank",
    "player": "Player",
    "games": "Games",
    "wins": "Won",
    "losses": "Lost",
    "win_rate": "Win rate",
    "first_dealer_games": "Games dealt first",
    "first_dealer_wins": "Won, dealing first",
    "first_dealer_win_rate": "Win rate, dealing first",
    "game_points": "Game points",
    "spread": "Spread",
    "spread_per_game": "Spread per game",
    "skunk_wins": "Skunks given",
    "skunk_losses": "Skunks taken",
    "skunks_won": "Skunks won",
    "double_skunks_won": "Double skunks won",
    "triple_skunks_won": "Triple skunks won",
    "skunks_lost": "Skunks lost",
    "double_skunks_lost": "Double skunks lost",
    "triple_skunks_lost": "Triple skunks lost",
    "deals": "Deals (completed)",
    "deals_as_dealer": "Deals as dealer",
    "deals_as_pone": "Deals as pone",
    "pegging_per_deal_dealer": "Pegging per deal, dealer",
    "pegging_per_deal_pone": "Pegging per deal, pone",
    "hand_per_deal_dealer": "Hand per deal, dealer",
    "hand_per_deal_pone": "Hand per deal, pone",
    "crib_per_deal": "Crib per deal",
    "heels": "His heels (points)",
    "points_missed": "Points missed",
    "points_overclaimed": "Points over-claimed",
    "missed_per_deal": "Missed per deal",
    "accuracy": "Accuracy",
    "illegal_plays": "Illegal plays",
}
PLAYER_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Results", RESULT_COLUMNS),
    ("Deals: points due per completed deal", DEAL_COLUMNS),
    ("Counting accuracy", FINDING_COLUMNS),
)


Stage = Callable[[str], None]
"""Told the name of each stage of the work as it comes to it (``reading games``, ``charts 2/5``...): the command
line shows it on a terminal while the report is made."""


def _tell(on_stage: Stage | None, name: str) -> None:
    if on_stage is not None:
        on_stage(name)


class ReportError(CribstatsError):
    """A report that cannot be written."""


def made_at(environ: Mapping[str, str] = os.environ) -> datetime:
    """The time the report says it was made: now, or the time ``SOURCE_DATE_EPOCH`` gives (seconds since 1970,
    as reproducible builds set it), so that the same store can give the same file byte for byte.

    >>> made_at({"SOURCE_DATE_EPOCH": "1796515200"}).isoformat()
    '2026-12-06T00:00:00+00:00'

    :raises ReportError: for a ``SOURCE_DATE_EPOCH`` that is not a whole number of seconds.
    """
    stamp = environ.get("SOURCE_DATE_EPOCH")
    if stamp is None:
        return datetime.now(UTC)
    if not stamp.strip().isascii() or not stamp.strip().isdecimal():
        raise ReportError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 (UTC), not {stamp!r}")
    try:
        return datetime.fromtimestamp(int(stamp), UTC)
    except (OverflowError, OSError, ValueError):
        raise ReportError(f"SOURCE_DATE_EPOCH {stamp.strip()} is past the last time a report can name") from None


@dataclass(slots=True)
class Chart:
    id: str
    title: str
    caption: str
    png_base64: str
    figures: ChartFigures  # what the chart draws, as text: its alt and its table of figures


def format_value(name: str, value: object) -> str:
    """A figure as the report shows it.

    >>> format_value("win_rate", 0.5), format_value("crib_per_deal", 4.25), format_value("spread", -3)
    ('50.0%', '4.25', '-3')
    >>> format_value("accuracy", 0.75), format_value("spread_per_game", -7.5)
    ('75.0%', '-7.50')
    """
    if value is None:
        return "–"
    if name in PERCENT_COLUMNS and isinstance(value, float):
        return f"{value:.1%}"
    if isinstance(value, float) or name in RATE_COLUMNS:
        return f"{float(value):.2f}"  # type: ignore[arg-type]
    return str(value)


def _rows(frame: pl.DataFrame, columns: tuple[str, ...]) -> list[list[str]]:
    rows = frame.select(columns).rows()
    return [[format_value(c, v) for c, v in zip(columns, row, strict=True)] for row in rows]


def _template_text(name: str = TEMPLATE) -> str:
    try:
        return (resources.files("cribstats") / "templates" / name).read_text(encoding="utf-8")
    except (NotADirectoryError, FileNotFoundError, TypeError):  # imported as a namespace (stale editable install)
        return (Path(__file__).resolve().parent / "templates" / name).read_text(encoding="utf-8")


def _environment() -> jinja2.Environment:
    return jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, finalize=page_value,
                              loader=jinja2.FunctionLoader(_template_text))  # fmt: skip


def _png(fig: Any) -> str:
    return base64.b64encode(figure_bytes(fig, "png")).decode("ascii")


def _charts(frames: StatsFrames, stats: pl.DataFrame, on_stage: Stage | None = None) -> list[Chart]:
    """The charts, each drawn as its stage comes (``charts 1/5`` ...: drawing them is most of the report's time
    after reading the store)."""
    drawn: list[tuple[str, str, str, Callable[[], Any]]] = [
        ("chart-skunks", "Skunks won and lost",
         "Per player, skunks won (top) and lost (bottom) by level, as a share of the player's games.",
         lambda: chart_with_figures("skunks", frames, stats=stats, subtitle="")),
        ("chart-skunks-trend", "Skunk rate per month",
         "Share of finished, dated games that ended in a skunk, by month.",
         lambda: chart_with_figures("skunks-trend", frames, stats=stats, subtitle="")),
        ("chart-averages", "Points per deal",
         "Pegging, hand and crib points due per completed deal, as dealer and as pone.",
         lambda: chart_with_figures("averages", frames, stats=stats, subtitle="")),
        ("chart-hands", "Hand totals",
         "Four-card hands kept in the stored games against every possible hand with a starter.",
         lambda: chart_with_figures("hands", frames, stats=stats, subtitle="")),
        ("chart-accuracy", "Points missed per deal",
         "Points left on the board per completed deal, by phase.",
         lambda: chart_with_figures("accuracy", frames, stats=stats, subtitle="")),
    ]  # fmt: skip
    charts = []
    for i, (chart_id, title, caption, draw) in enumerate(drawn, 1):
        _tell(on_stage, f"charts {i}/{len(drawn)}")
        figure, figures = draw()  # the image and its figures as text, from one working out of the figures
        charts.append(Chart(chart_id, title, caption, _png(figure), figures))
    return charts


def standings_rows(table: pl.DataFrame, chosen: set[str]) -> list[dict[str, Any]]:
    """The standings as the template shows them: each row's cells, and whether it is the player asked for."""
    columns = REPORT_STANDINGS_COLUMNS
    return [
        {"cells": cells, "chosen": name in chosen}
        for cells, name in zip(_rows(table, columns), table["player"].to_list(), strict=True)
    ]


def report_context(engine: Engine, filters: StatsFilter | None = None, *, title: str,
                   on_stage: Stage | None = None) -> dict[str, Any]:  # fmt: skip
    """Everything the template shows, as plain values (strings and lists); ``on_stage`` is told each stage.

    With a player filter the standings are still the table of the other filters' games, as ``standings`` and the
    report without the player give it (partners of four-player games as one side), so every rank is the true one;
    the rows of the player's sides (their own, and each partnership of theirs) are marked.
    """
    filters = filters or StatsFilter()
    _tell(on_stage, "reading games")
    with engine.connect() as conn:
        filters = filters.as_stored(conn)  # the header and the captions name the player as stored
        frames = load_frames(conn, filters)
        worst = load_worst_findings(conn, filters, WORST_FINDINGS)
        _tell(on_stage, "standings")
        # the table ``standings`` and the report without the player show: partners as one side
        everyone = (load_frames(conn, replace(filters, player=None), detail=False, sides=True, missed=False)
                    if filters.player else frames)  # fmt: skip
        asked = stored_player(conn, filters.player) if filters.player else None
    stats = load_stats(frames)
    table = standings(everyone)
    chosen = player_sides(everyone, asked[0]) & set(table["player"].to_list()) if asked else set()
    games = detail(frames.game_totals, "game_totals").collect().row(0, named=True)
    finished = detail(frames.game_results, "game_results").select(pl.col("games").sum()).collect().item()
    by_kind = findings_by_kind(frames)
    players = []
    for row in stats.iter_rows(named=True):
        groups = [(group, [(LABELS[c], format_value(c, row[c])) for c in cols]) for group, cols in PLAYER_GROUPS]
        players.append({"name": row["player"], "groups": groups})
    stats_columns = ("player", "points_missed", "points_overclaimed", "missed_per_deal", "accuracy",
                     "illegal_plays")  # fmt: skip
    worst_columns = ("points", "kind", "player", "game_key", "date", "deal", "message")
    return {
        "title": title,
        "scope": sentence_start(filters.describe()),  # the player as stored, other names as typed
        "generated": made_at().strftime("%Y-%m-%d %H:%M UTC"),
        "summary": [
            ("Games", str(games["games"])),
            ("Finished games", str(finished)),
            ("Deals", str(games["deals"] or 0)),
            ("Players", str(stats.height)),
            ("Findings", str(by_kind["n"].sum())),
            ("First game", games["first"].isoformat() if games["first"] else "–"),
            ("Last game", games["last"].isoformat() if games["last"] else "–"),
        ],
        "standings_head": [LABELS[c] for c in REPORT_STANDINGS_COLUMNS],
        "standings_classes": [{"player": "name", "game_points": "points"}.get(c, "") for c in
                              REPORT_STANDINGS_COLUMNS],
        "standings": standings_rows(table, chosen),
        # the player as stored (found by any spelling or alias), or as typed when no stored player has that name
        "standings_player": (asked[1] if asked else filters.player) or "",
        "standings_marked": _marked(chosen, asked[1] if asked else None),
        "standings_partners": PARTNERS_NOTE if _partnered(everyone) else "",
        "players": players,
        "charts": _charts(frames, stats, on_stage),
        "findings_by_kind": [(kind, str(n)) for kind, n in by_kind.rows()],
        "accuracy_head": [LABELS[c] for c in stats_columns],
        "accuracy": _rows(stats, stats_columns),
        "worst_head": ["Points", "Kind", "Player", "Game", "Date", "Deal", "What happened"],
        "worst": _rows(worst, worst_columns),
        "discard_section": discard_section(engine, filters, on_stage=on_stage),
        "club": club_context(engine, filters, on_stage=on_stage),
        "ready_script": READY_SCRIPT,
        "script_hash": base64.b64encode(hashlib.sha256(READY_SCRIPT.encode()).digest()).decode(),
    }  # fmt: skip


def player_sides(frames: StatsFrames, player_id: int) -> set[str]:
    """The standings' names of the sides the player stands in: their own row, and each partnership of theirs."""
    sides = detail(frames.side_totals, "side_totals")
    mine = (pl.col("player_id") == player_id) | (pl.col("partner_id") == player_id)
    return set(sides.filter(mine).select("player").collect()["player"].to_list())


def _marked(chosen: set[str], name: str | None) -> str:
    """Which of the standings' rows are the player's: "own" (the player's own row only), "side" (one
    partnership's), "sides" (more than one), or "" (none: no finished game of these)."""
    if not chosen:
        return ""
    if len(chosen) > 1:
        return "sides"
    return "own" if name in chosen else "side"


def _partnered(frames: StatsFrames) -> bool:
    """Whether partners of four-player games stand in the standings as one side."""
    sides = frames.side_totals
    return sides is not None and bool(sides.select(pl.col("partner_id").is_not_null().any()).collect().item())


def build_report(engine: Engine, filters: StatsFilter | None = None, *, title: str = DEFAULT_TITLE,
                 on_stage: Stage | None = None) -> str:  # fmt: skip
    """The report as one HTML document; ``on_stage`` is told each stage of the work (:func:`report_context`)."""
    template = _environment().from_string(_template_text())
    return template.render(**report_context(engine, filters, title=title, on_stage=on_stage))


def save_report(html: str, out: str | os.PathLike[str]) -> None:
    """Write the report ``html`` to ``out`` (``-``: standard output), whole or not at all.

    :raises ReportError: when the file cannot be written.
    """
    try:
        write_atomic(out, html)  # a full disk leaves the previous report as it was
    except WriteError as err:
        raise ReportError(str(err)) from None


def write_report(engine: Engine, out: str | os.PathLike[str], filters: StatsFilter | None = None, *,
                 title: str = DEFAULT_TITLE, on_stage: Stage | None = None) -> None:  # fmt: skip
    """Write the report to ``out``; ``on_stage`` is told each stage of the work, the last ``writing`` and the
    file's name.

    :raises ReportError: when the file cannot be written.
    """
    html = build_report(engine, filters, title=title, on_stage=on_stage)
    _tell(on_stage, f"writing {os.path.basename(out) or out}")
    save_report(html, out)
