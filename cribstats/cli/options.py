"""Options shared by several commands, defined once."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer
from rich.console import Console

DEFAULT_DB = "sqlite:///cribstats.db"


class OutputFormat(str, Enum):
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


def err_console() -> Console:
    """Messages and errors go to standard error; data goes to standard output."""
    return Console(stderr=True)
