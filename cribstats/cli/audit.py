"""Commands of the audit group: ``cribstats audit [--json] PATH...``."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from itertools import chain
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cribstats.cli.options import err_console, folders_without_logs, no_logs_message
from cribstats.cli.terminal import cell, message, name_cell, out_console
from cribstats.errors import CribstatsError

if TYPE_CHECKING:
    from rich.progress import Progress
    from rich.table import Table

    from cribstats.audit import AuditSummary, GameAudit

EXIT_HELP = "Exit status: 0 when no game has a finding, 1 when some do, 2 when an input could not be read."


def audit(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Game logs (.json, .jsonl, .csv, .pgn), folders (searched recursively), or - for standard input.",
            show_default=False,
        ),
    ],
    json: Annotated[
        bool, typer.Option("--json", help="One finding per line as JSON (docs/findings.md), nothing else.")
    ] = False,
) -> None:
    """Replay every deal of every game and report points missed or over-claimed and every illegal play; judge
    every match (its records and the games that carry its id) and cross-check every scorecard sheet.

    Standard input may be a feed of games as they are played: with --json, the findings of the games read so far
    are written out whenever it pauses (half a second with nothing new).

    Examples:

        cribstats audit club-night.jsonl

        cribstats audit --json logs/ > findings.jsonl

        cat game.json | cribstats audit -
    """
    from cribstats.audit import AuditCollector, finding_json_line  # loaded here: start-up stays short
    from cribstats.formats import read_paths

    errors = err_console()
    collector = AuditCollector(keep=False)
    out = sys.stdout.buffer if json else None
    console = None if json else _table_console()

    def say(text: str) -> None:
        errors.print(message(text), soft_wrap=True)

    def on_read_error(error: CribstatsError) -> None:
        collector.refuse(error)
        say(str(error))

    for folder in folders_without_logs(paths):
        collector.refuse(no_logs_message(folder))
        say(no_logs_message(folder))
    shown = _progress_console(console)
    # What is alive now (modules, the models' validators) lives as long as the command: frozen, the cyclic
    # garbage collector stops walking it again and again while games are read and replayed.
    gc.freeze()
    try:
        with _progress(shown) as progress:
            # standard input that pauses (games fed as they are played): the findings so far go out at once
            paused = out.flush if out is not None else None
            sources = read_paths(paths, on_error=on_read_error, on_record=collector.add_record, on_idle=paused)
            games: Iterator[GameAudit] = chain(collector.audit_sources(sources, on_error=say, on_note=say),
                                               collector.finish(on_error=say))
            if progress is not None:  # a progress line: told of every game
                games = _counted(games, progress)
            for game in games:
                if game.findings:
                    if out is not None:
                        out.write(b"".join([finding_json_line(f) for f in game.findings]))
                    elif console is not None:
                        console.print(game_table(game))
        if out is not None:
            out.flush()
    finally:  # a closed output (`| head`) ends the command in cribstats.cli.app.run, exit 141
        gc.unfreeze()
    summary = collector.result()
    if console is not None:
        console.print(summary_table(summary))
        points = points_table(summary)
        if points is not None:
            console.print(points)
    raise typer.Exit(summary.exit_status)


def _progress(shown: Console | None) -> AbstractContextManager[Progress | None]:
    """The progress line on ``shown``, or nothing (and rich's progress module not loaded) when there is none."""
    if shown is None:
        return nullcontext()
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    return Progress(
        SpinnerColumn(), TextColumn("auditing: {task.completed} games"), TimeElapsedColumn(),
        console=shown, transient=True, redirect_stdout=False, redirect_stderr=False,
    )


def _counted(games: Iterator[GameAudit], progress: Progress) -> Iterator[GameAudit]:
    """The games, the progress line told of each."""
    task = progress.add_task("audit", total=None)
    for game in games:
        yield game
        progress.advance(task)


def _progress_console(tables: Console | None) -> Console | None:
    """Where the progress line goes, or None for none: above the tables when they go to a terminal; on standard
    error when that is a terminal and the output goes elsewhere (a file, a pipe)."""
    if tables is not None and tables.is_terminal:
        return tables
    errors = err_console()
    return errors if errors.is_terminal and not sys.stdout.isatty() else None


def _table_console() -> Console:
    """The terminal's width for people; when the tables go to a file or a pipe, wide enough for the messages."""
    console = out_console(wide_when_redirected=False)
    return console if console.is_terminal else Console(width=160, markup=False, emoji=False, highlight=False)


def game_table(game: GameAudit) -> Table:
    """The findings of one game as a table."""
    from rich.table import Table

    title = game.key if not game.source else f"{game.key}  ({game.source})"
    table = Table(title=message(title), title_justify="left", expand=False)
    for name, justify in (("deal", "right"), ("event", "right"), ("kind", "left"), ("phase", "left"),
                          ("player", "left"), ("claimed", "right"), ("due", "right"), ("message", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for f in game.findings:
        cells = (f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due, f.message)
        table.add_row(*(cell("" if v is None else v) for v in cells[:4]), name_cell(f.player or ""),
                      *(cell("" if v is None else v) for v in cells[5:]))
    return table


def summary_table(summary: AuditSummary) -> Table:
    """Games, deals, findings by kind, inputs refused; then points missed and over-claimed per player."""
    from rich.table import Table

    table = Table(title="Summary", title_justify="left", show_header=False, expand=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    table.add_row("games audited", str(summary.games))
    if summary.matches:
        table.add_row("matches judged", str(summary.matches))
    table.add_row("deals", str(summary.deals))
    table.add_row("games with findings", str(summary.games_with_findings))
    table.add_row("findings", str(summary.findings))
    for kind, n in summary.findings_by_kind.items():
        table.add_row(cell(f"  {kind}"), str(n))
    table.add_row("inputs refused", str(summary.refused))
    return table


def points_table(summary: AuditSummary) -> Table | None:
    """Points missed and over-claimed per player (None when no claim was wrong)."""
    players = sorted(set(summary.missed) | set(summary.overclaimed))
    if not players:
        return None
    from rich.table import Table

    table = Table(title="Points claimed wrong", title_justify="left", expand=False)
    table.add_column("player")
    table.add_column("missed", justify="right")
    table.add_column("over-claimed", justify="right")
    for player in players:
        missed, over = summary.missed.get(player, 0), summary.overclaimed.get(player, 0)
        table.add_row(name_cell(player), str(missed), str(over))
    return table


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("audit", epilog=EXIT_HELP)(audit)
