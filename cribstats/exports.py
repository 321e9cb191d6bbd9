"""Writing statistics frames out: CSV, JSON (an array of row objects) and Parquet.

>>> import polars as pl
>>> frame = pl.DataFrame({"player": ["Ann"], "games": [3], "win_rate": [2 / 3]})
>>> print(format_frame(frame, "csv"), end="")
player,games,win_rate
Ann,3,0.6666666666666666
>>> format_frame(frame, "json")
'[{"player":"Ann","games":3,"win_rate":0.6666666666666666}]'

A list (a game's players, a player's aliases) is a list in JSON and Parquet, and in CSV one cell holding the
list as a JSON array, so that a name with a comma in it stays one name:

>>> game = pl.DataFrame({"players": [["Smith, John", "Bob"]], "scores": [[121, 95]]})
>>> print(format_frame(game, "csv"), end="")
players,scores
"[""Smith, John"",""Bob""]","[121,95]"

A text cell that a spreadsheet would take for a formula is written with a leading apostrophe in CSV (JSON and
Parquet keep every value exactly):

>>> hostile = pl.DataFrame({"player": ["=HYPERLINK(1)", "-Ann", "Ann"], "spread": [-3, 4, 0]})
>>> print(format_frame(hostile, "csv"), end="")
player,spread
'=HYPERLINK(1),-3
'-Ann,4
Ann,0
"""

from __future__ import annotations

import io
import os
import re
from typing import Literal

import orjson
import polars as pl

from cribstats.atomicfile import WriteError, write_atomic
from cribstats.errors import CribstatsError
from cribstats.names import quoted
from cribstats.safetext import json_visible, visible

ExportFormat = Literal["csv", "json", "parquet"]
EXPORT_FORMATS: tuple[str, ...] = ("csv", "json", "parquet")
# A cell beginning with one of these is a formula (or becomes one) in Excel, LibreOffice and Google Sheets; and
# the apostrophe that guards one, so that every text cell beginning with an apostrophe had one put before it
# (taking it off gives back the value: "'=X" and "=X" are not one cell).
FORMULA_STARTS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r", "'")
_FORMULA_START = "^[" + "".join(re.escape(start) for start in FORMULA_STARTS) + "]"


class ExportError(CribstatsError):
    """An output that cannot be written the way asked (e.g. Parquet without a file)."""


def frame_rows(frame: pl.DataFrame) -> list[dict[str, object]]:
    """The rows as plain dicts (dates stay ``date`` objects; nulls are None)."""
    return frame.to_dicts()


def csv_safe(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula, or that starts with the apostrophe
    that guards one, gets a leading apostrophe; a text cell that begins with one gives back its value without it.

    >>> csv_safe("@SUM(A1:A9)"), csv_safe("Ann"), csv_safe(""), csv_safe("'=X"), csv_safe("O'Neil")
    ("'@SUM(A1:A9)", 'Ann', '', "''=X", "O'Neil")
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def json_list(values: list[object] | None) -> str | None:
    """A list as a CSV cell: its JSON array, as JSON output writes it (a hidden character as a ``\\u`` escape), so
    that the cell reads back exactly; null stays null (an empty cell).

    >>> print(json_list(["Smith, John", 'Ann "Red" O;Neil', "[Bo]"]))
    ["Smith, John","Ann \\"Red\\" O;Neil","[Bo]"]
    >>> json_list([121, None]), json_list([]), json_list(None)
    ('[121,null]', '[]', None)
    """
    return None if values is None else json_visible(orjson.dumps(values).decode())


def csv_safe_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """Every text column through :func:`csv_safe` (numbers stay numbers: a spread of -3 is not a formula), and a
    hidden or controlling character (only a store older than the name rule holds one) shown as an escape; every
    list column as :func:`json_list` text (it begins with ``[``, which starts no formula)."""
    text = [name for name, dtype in frame.schema.items() if dtype == pl.String]
    lists = [name for name, dtype in frame.schema.items() if isinstance(dtype, pl.List)]
    hidden = [c for c in text if not all(v.isprintable() for v in frame[c].drop_nulls().to_list())]
    if hidden:
        frame = frame.with_columns(pl.col(c).map_elements(visible, return_dtype=pl.String) for c in hidden)
    guarded = (pl.when(pl.col(c).str.contains(_FORMULA_START)).then(pl.lit("'") + pl.col(c)).otherwise(pl.col(c))
               for c in text)  # fmt: skip
    return frame.with_columns(
        *(cell.alias(c) for cell, c in zip(guarded, text, strict=True)),
        *(pl.Series(c, [json_list(v) for v in frame[c].to_list()], dtype=pl.String) for c in lists),
    )


def format_frame(frame: pl.DataFrame, fmt: str) -> str:
    """The frame as CSV or JSON text.

    :raises ExportError: for Parquet (binary: write it to a file with :func:`write_frame`) or an unknown format.
    """
    if fmt == "csv":
        return csv_safe_frame(frame).write_csv()
    if fmt == "json":  # the values exactly; a hidden character as a \u escape
        return json_visible(orjson.dumps(frame_rows(frame), option=orjson.OPT_SERIALIZE_NUMPY).decode())
    if fmt == "parquet":
        raise ExportError("parquet is a binary format: give a file to write it to (--out FILE)")
    raise ExportError(f"unknown format {quoted(fmt)}: use one of {', '.join(EXPORT_FORMATS)}")


def frame_bytes(frame: pl.DataFrame, fmt: str) -> bytes:
    """The whole file's bytes: CSV, JSON (with a final newline) or Parquet."""
    if fmt == "parquet":
        buffer = io.BytesIO()
        frame.write_parquet(buffer)
        return buffer.getvalue()
    text = format_frame(frame, fmt)
    return (text if fmt == "csv" else text + "\n").encode("utf-8")


def write_frame(frame: pl.DataFrame, fmt: str, out: str | os.PathLike[str]) -> None:
    """Write the frame to a file as CSV, JSON or Parquet, whole or not at all.

    :raises ExportError: for an unknown format or a file that cannot be written (the old file stays as it was).
    """
    data = frame_bytes(frame, fmt)
    try:
        write_atomic(out, data)
    except WriteError as err:
        raise ExportError(str(err)) from None

