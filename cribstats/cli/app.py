"""The ``cribstats`` command: a thin layer over the library. Each command group lives in its own module."""

from __future__ import annotations

import typer

from cribstats.cli import audit, rules, simulate, stats, store

app = typer.Typer(
    name="cribstats",
    help="Cribbage game logs in: a muggins audit of every deal, a store, player statistics, charts and reports.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="rich",
    add_completion=False,
)

for group in (rules, audit, simulate, store, stats):
    group.register(app)


def main() -> None:
    """Entry point of the console script."""
    app()
