"""The consoles every command prints through, and table cells made from user text.

Both consoles take no markup, no emoji codes and no highlighting from anything printed: a player called
``[/bold]`` or ``:smile:`` prints as those characters. Cells made by :func:`cell` and :func:`name_cell` show hidden
and controlling characters as escapes (see :mod:`cribstats.safetext`); names are shortened for tables.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from cribstats.safetext import TABLE_NAME_WIDTH, safe_name, visible

WIDE = 200  # columns of a table written to a file or a pipe


def out_console(*, wide_when_redirected: bool = True) -> Console:
    """Standard output: the terminal's width, or :data:`WIDE` columns when redirected."""
    console = Console(markup=False, emoji=False, highlight=False)
    if wide_when_redirected and not console.is_terminal:
        return Console(markup=False, emoji=False, highlight=False, width=WIDE)
    return console


def err_console() -> Console:
    """Standard error: messages, warnings and progress."""
    return Console(stderr=True, markup=False, emoji=False, highlight=False)


def file_console(handle: object, width: int = WIDE) -> Console:
    """A console writing a table to an open text file (``--format table --out FILE``)."""
    return Console(file=handle, width=width, markup=False, emoji=False, highlight=False)  # type: ignore[arg-type]


def cell(text: object) -> Text:
    """Any value as a literal table cell, hidden characters shown as escapes."""
    return Text(visible(str(text)))


def name_cell(name: str, width: int = TABLE_NAME_WIDTH, *, several: bool = True) -> Text:
    """A player's name as a cell, made visible and shortened to ``width`` columns as rich counts them when it lays
    out the table (so that the cut and the layout agree); with ``several``, names joined by commas, each
    shortened. A cell of one name, or of one side (partners joined by " & "), takes ``several=False``: a name
    that holds a comma is still one name."""
    parts = name.split(", ") if several else [name]
    return Text(", ".join(safe_name(part, width, cell_len) for part in parts))


def message(text: str) -> Text:
    """A message about user input (file names, names, places) printed as it is, hidden characters escaped."""
    return Text(visible(text))
