"""One output path for every command that prints a table (``stats``, ``standings``, ``games``): ``--format
table|csv|json|parquet`` to standard output or, with ``--out FILE``, to a file written whole or not at all.

Parquet is binary and always needs ``--out``. A file that cannot be written is named, the command exits 1, and
the old file is left as it was.
"""

from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING

from rich.table import Table

from cribstats.cli.options import OutputFormat, err_console
from cribstats.cli.terminal import file_console, message, out_console
from cribstats.errors import CribstatsError

if TYPE_CHECKING:
    import polars as pl

PARQUET_NEEDS_OUT = "--format parquet needs --out FILE (Parquet is binary)"


class OutputUsageError(CribstatsError):
    """Output options that cannot be used together (exit 2)."""


def check_output(fmt: OutputFormat, out: str | None) -> None:
    """Refuse, before any work is done, what cannot be written.

    :raises OutputUsageError: for Parquet without a file.
    """
    if fmt is OutputFormat.parquet and not out:
        raise OutputUsageError(PARQUET_NEEDS_OUT)


def tables_text(tables: list[Table]) -> str:
    """The tables as plain text, as they would print to a wide terminal without colour."""
    buffer = io.StringIO()
    console = file_console(buffer)
    for table in tables:
        console.print(table)
    return buffer.getvalue()


def emit(
    frame: pl.DataFrame, fmt: OutputFormat, out: str | None, tables: list[Table], *, json_text: str | None = None
) -> None:
    """Print or write ``frame`` in ``fmt``: ``tables`` for people, else CSV, JSON (``json_text`` when the rows
    carry more than the flat frame) or Parquet.

    :raises OutputUsageError: for Parquet without ``out``.
    :raises WriteError: naming ``out`` when it cannot be written (the old file is left as it was).
    """
    from cribstats.atomicfile import write_atomic
    from cribstats.exports import frame_bytes

    check_output(fmt, out)
    if fmt is OutputFormat.table:
        if out is None:
            console = out_console()
            for table in tables:
                console.print(table)
            return
        data = tables_text(tables).encode("utf-8")
    elif fmt is OutputFormat.json and json_text is not None:
        data = (json_text + "\n").encode("utf-8")
    else:
        data = frame_bytes(frame, fmt.value)
    if out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    write_atomic(out, data)
    err_console().print(message(f"wrote {out}"), soft_wrap=True)
