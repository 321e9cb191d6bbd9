"""One output path for every command that prints a table (``stats``, ``standings``, ``games``): ``--format
table|csv|json|parquet`` to standard output or, with ``--out FILE``, to a file written whole or not at all.

Without ``--format``, a file named ``.csv``, ``.json`` or ``.parquet`` is written in that format (any other name
gets the table); a ``--format`` the file's extension contradicts is refused before any work is done (exit 2,
nothing written). Parquet is binary and always needs ``--out``. A file that cannot be written is named, the
command exits 1, and the old file is left as it was.
"""

from __future__ import annotations

import io
import os
import sys
from typing import TYPE_CHECKING

from rich.table import Table

from cribstats.atomicfile import STDOUT
from cribstats.cli.options import OutputFormat, err_console
from cribstats.cli.terminal import file_console, message, out_console
from cribstats.errors import CribstatsError

if TYPE_CHECKING:
    import polars as pl

PARQUET_NEEDS_OUT = "--format parquet needs --out FILE, not standard output (Parquet is binary)"
#: the extensions that name a format (case ignored); any other (``.txt``, none) leaves the choice to ``--format``
FORMAT_OF_SUFFIX = {".csv": OutputFormat.csv, ".json": OutputFormat.json, ".parquet": OutputFormat.parquet}


class OutputUsageError(CribstatsError):
    """Output options that cannot be used together (exit 2)."""


def format_of_file(out: str) -> OutputFormat | None:
    """The format the extension of ``out`` names, or None when it names none.

    >>> format_of_file("stats.CSV"), format_of_file("stats.txt"), format_of_file("stats")
    (<OutputFormat.csv: 'csv'>, None, None)
    """
    return FORMAT_OF_SUFFIX.get(os.path.splitext(out)[1].lower())


def _disagree(fmt: OutputFormat, out: str, named: OutputFormat) -> OutputUsageError:
    suffix = os.path.splitext(out)[1]
    return OutputUsageError(
        f"--format {fmt.value} and --out {out} disagree (a {suffix} file is written as {named.value}): "
        "leave out --format, or change the file's extension"
    )


def settle_format(fmt: OutputFormat, out: str | None, *, given: bool) -> OutputFormat:
    """The format to write: ``fmt`` when the user ``given`` it, else the one the extension of ``out`` names,
    else ``fmt`` (the table).

    :raises OutputUsageError: when a ``--format`` given and the extension disagree.
    """
    named = format_of_file(out) if out else None
    if named is None or named is fmt:
        return fmt
    if given:
        raise _disagree(fmt, out or "", named)
    return named


def check_output(fmt: OutputFormat, out: str | None) -> None:
    """Refuse, before any work is done, what cannot be written.

    :raises OutputUsageError: for Parquet without a file, or a file whose extension names another format.
    """
    if fmt is OutputFormat.parquet and (not out or out == STDOUT):  # standard output is no place for it either
        raise OutputUsageError(PARQUET_NEEDS_OUT)
    named = format_of_file(out) if out else None
    if out and named is not None and named is not fmt:
        raise _disagree(fmt, out, named)


def tables_text(tables: list[Table]) -> str:
    """The tables as plain text, as they would print to a wide terminal without colour."""
    buffer = io.StringIO()
    console = file_console(buffer)
    for table in tables:
        console.print(table)
    return buffer.getvalue()


def emit(
    frame: pl.DataFrame, fmt: OutputFormat, out: str | None, tables: list[Table], *, json_text: str | None = None,
    announce: bool = True,
) -> None:
    """Print or write ``frame`` in ``fmt``: ``tables`` for people, else CSV, JSON (``json_text`` when the rows
    carry more than the flat frame) or Parquet. ``announce``: say ``wrote FILE`` once a file is written (a caller
    with a progress line up says it after the line is gone, :func:`say_written`).

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
    if announce:
        say_written(out)


def say_written(out: str) -> None:
    """``wrote FILE`` on standard error once a file is written; nothing when ``out`` was ``-``, standard output."""
    from cribstats.atomicfile import STDOUT

    if out != STDOUT:
        err_console().print(message(f"wrote {out}"), soft_wrap=True)
