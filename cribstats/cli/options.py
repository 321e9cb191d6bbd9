"""Options shared by several commands, defined once."""

from __future__ import annotations

import os
from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console

from cribstats.cli import terminal

DEFAULT_DB = "sqlite:///cribstats.db"


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"


DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="CRIBSTATS_DB",
        help="SQLAlchemy database URL (default: the SQLite file cribstats.db in the current folder).",
        show_default=False,
    ),
]
FormatOption = Annotated[OutputFormat, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)]
OutOption = Annotated[
    str | None,
    typer.Option("--out", "-o", help="Write to this file (whole or not at all) instead of standard output."),
]


def err_console() -> Console:
    """Messages and errors go to standard error; data goes to standard output (no markup, no emoji codes)."""
    return terminal.err_console()


def fail(message: str, code: int) -> typer.Exit:
    """Say ``error: message`` on standard error, on one line, and give the exit to raise."""
    err_console().print(terminal.message(f"error: {message}"), soft_wrap=True)
    return typer.Exit(code)


def folders_without_logs(paths: Iterable[str]) -> list[str]:
    """The folders among ``paths`` that hold no file cribstats reads: a user who names the wrong folder is told
    so rather than shown a clean result."""
    from cribstats.formats.sources import STDIN, walk_paths

    return [p for p in paths if p != STDIN and os.path.isdir(p) and next(walk_paths([p]), None) is None]


def no_logs_message(folder: str) -> str:
    """What is said of a folder without logs."""
    from cribstats.formats.sources import SUFFIXES

    return f"{folder}: no game logs in this folder (looked for {', '.join(SUFFIXES)} files)"
