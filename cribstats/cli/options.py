"""Options shared by several commands, defined once."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cribstats.cli import terminal
from cribstats.errors import CribstatsError

if TYPE_CHECKING:
    from cribstats.cards import Card

DEFAULT_DB = "sqlite:///cribstats.db"


class UsageError(CribstatsError):
    """Options that do not fit together, or input that names nothing stored (exit 2)."""


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"


#: an SQLite URL that names no file: an in-memory database, gone when the command ends
_IN_MEMORY = re.compile(r"sqlite(\+\w+)?:///?(:memory:)?", re.IGNORECASE)
#: the start of a URL of a database cribstats stores games in (a driver may follow the dialect: sqlite+pysqlite)
_STORE_URL = re.compile(r"(sqlite|postgresql|postgres)(\+\w+)?://")
_ANY_URL = re.compile(r"[\w+.-]+://")


def _keeping_store(url: str) -> str:
    """``--db`` as given, refused (exit 2) when it is an SQLite URL without a file (``sqlite://``, ``sqlite:///``,
    ``sqlite:///:memory:``, as an unset ``$STORE`` in ``sqlite:///$STORE`` leaves it): an import into it would
    report games stored and keep none; or a URL of another kind of database (``mysql://``, ``bogus://``): a wrong
    option value, as a misspelt one is."""
    if _IN_MEMORY.fullmatch(url.split("?", 1)[0].strip()):
        from cribstats.names import quoted

        kept = "write e.g. sqlite:///cribstats.db"
        raise fail(f"--db {quoted(url)} names no file, so nothing would be kept: {kept}", 2)
    given = url.strip()
    if _ANY_URL.match(given) and not _STORE_URL.match(given):
        from cribstats.names import quoted

        raise fail(f"--db {quoted(url)} is no database cribstats stores games in: write sqlite:///FILE or "
                   "postgresql://USER@HOST/DATABASE", 2)  # fmt: skip
    return url


DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="CRIBSTATS_DB",
        help="SQLAlchemy database URL (default: the SQLite file cribstats.db in the current folder).",
        show_default=False,
        callback=_keeping_store,
    ),
]


def _option_name(ctx: typer.Context, flag: str) -> str | None:
    """The name of the command's parameter spelt ``flag`` on the command line (``games`` calls --format
    ``output``), or None."""
    return next((p.name for p in ctx.command.params if flag in p.opts), None)


def _settled(ctx: typer.Context, name: str, fmt: OutputFormat, out: str | None) -> OutputFormat:
    """The format to write, ``--format`` and ``--out`` both read (see :func:`cribstats.cli.output.settle_format`);
    a contradiction is refused at once, before any work is done (exit 2)."""
    from cribstats.cli.output import OutputUsageError, settle_format

    source = ctx.get_parameter_source(name)  # by name: typer ships its own copy of click and of this enum
    given = source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
    try:
        return settle_format(fmt, out, given=given)
    except OutputUsageError as err:
        raise fail(str(err), 2) from None


# The two options settle each other when the second of them is read (click reads the options given on the
# command line first, in their order there, then the defaults): without --format, `--out stats.csv` writes CSV.
def _format_read(ctx: typer.Context, param: typer.CallbackParam, value: OutputFormat) -> OutputFormat:
    out = _option_name(ctx, "--out")
    if param.name is None or out is None or out not in ctx.params:
        return value  # --out is read later, and settles the two then
    return _settled(ctx, param.name, value, ctx.params[out])


def named_file(value: str, flag: str = "--out") -> str:
    """A file option's value as given, refused (exit 2) when it is blank: an empty name names no file (the
    current folder, or a file called " ", is never what was meant)."""
    if not value.strip():
        from cribstats.names import quoted

        raise fail(f"{flag} {quoted(value)}: name the file to write", 2)
    return value


def named_path(flag: str) -> Callable[[str], Path]:
    """:func:`named_file` for a file option typed as a path: its ``parser``, which reads the text before it
    becomes a path (``""`` would be the current folder). Help shows its type as ``<path>``."""

    def path(value: str) -> Path:
        return Path(named_file(value, flag))

    return path


def named_out(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str | None:
    """:func:`named_file` as an option's callback (for any file option that is text)."""
    return value if value is None else named_file(value, param.opts[0] if param.opts else "--out")


def _out_read(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str | None:
    named_out(ctx, param, value)
    fmt = _option_name(ctx, "--format")
    if fmt is not None and isinstance(ctx.params.get(fmt), OutputFormat):
        ctx.params[fmt] = _settled(ctx, fmt, ctx.params[fmt], value)
    return value


FormatOption = Annotated[
    OutputFormat,
    typer.Option(
        "--format", "-f", case_sensitive=False, callback=_format_read,
        help="Output format. Without it, --out FILE.csv, .json or .parquet is written in that format (any other "
        "file, and standard output, get the table).",
    ),
]  # fmt: skip
OutOption = Annotated[
    str | None,
    typer.Option("--out", "-o", callback=_out_read,
                 help="Write to this file (whole or not at all) instead of standard output."),
]  # fmt: skip


def err_console() -> Console:
    """Messages and errors go to standard error; data goes to standard output (no markup, no emoji codes)."""
    return terminal.err_console()


def fail(message: str, code: int) -> typer.Exit:
    """Say ``error: message`` on standard error, on one line, and give the exit to raise."""
    err_console().print(terminal.message(f"error: {message}"), soft_wrap=True)
    return typer.Exit(code)


def player_names(text: str, option: str = "--players") -> list[str]:
    """The names a comma-separated option gives, each by the rule the game logs' names follow (trimmed, NFC, no
    hidden character, at most 64 characters) and no two one player: a simulator writes no log that ``import``
    would refuse.

    :raises typer.Exit: (exit 2) naming the option and the name.
    """
    from cribstats.names import TextError, normalise_name, one_player_twice, quoted

    names: list[str] = []
    for part in text.split(","):
        if not part.strip():
            continue
        try:
            names.append(normalise_name(part))
        except TextError as err:
            raise fail(f"{option}: {quoted(part.strip())}: {err}", 2) from None
    twice = one_player_twice(names)
    if twice is not None:
        raise fail(f"{option}: {twice}", 2)
    return names


def folders_without_logs(paths: Iterable[str]) -> list[str]:
    """The folders among ``paths`` that hold no file cribstats reads: a user who names the wrong folder is told
    so rather than shown a clean result."""
    from cribstats.formats.sources import STDIN, walk_paths

    return [p for p in paths if p != STDIN and os.path.isdir(p) and next(walk_paths([p]), None) is None]


def no_logs_message(folder: str) -> str:
    """What is said of a folder without logs."""
    from cribstats.formats.sources import SUFFIXES

    return f"{folder}: no game logs in this folder (looked for {', '.join(SUFFIXES)} files)"


def cards_from_arguments(texts: Iterable[str]) -> list[Card]:
    """The cards a command's arguments give: each argument may hold several, separated by spaces or commas
    (``score "5H 5C JD 4S" 5D``, ``analyse 5H,5C,JD,4S,6H,KC``).

    :raises cribstats.errors.CardError: for a text that is no card.
    """
    from cribstats.cards import parse_cards

    return parse_cards([t for text in texts for t in text.replace(",", " ").split()])
