"""The ``cribstats`` command: a thin layer over the library. Each command group lives in its own module."""

from __future__ import annotations

from typing import Annotated

import typer

from cribstats.cli import audit, club, club_tables, housekeeping, rules, simulate, stats, store

START = (
    "A club night, start to finish: [bold]cribstats audit night.jsonl[/bold] (who counted wrong), "
    "[bold]cribstats import night.jsonl[/bold] (store it), [bold]cribstats standings --date 2026-11-03[/bold], "
    "[bold]cribstats report --out report.html[/bold]. Each command's --help has examples."
)

app = typer.Typer(
    name="cribstats",
    help="Cribbage game logs in: a muggins audit of every deal, a store, player statistics, charts and reports.",
    epilog=START,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="rich",
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"cribstats {version('cribstats')}")
        raise typer.Exit()


@app.callback()
def root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version of cribstats and exit."
        ),
    ] = False,
) -> None:
    """Cribbage game logs in: a muggins audit of every deal, a store, player statistics, charts and reports."""


for group in (rules, audit, simulate, store, stats, club, club_tables, housekeeping):
    group.register(app)


def main() -> None:
    """Entry point of the console script."""
    app()
