"""Writing statistics frames out: CSV, JSON (an array of row objects) and Parquet.

>>> import polars as pl
>>> frame = pl.DataFrame({"player": ["Ann"], "games": [3], "win_rate": [2 / 3]})
>>> print(format_frame(frame, "csv"), end="")
player,games,win_rate
Ann,3,0.6666666666666666
>>> format_frame(frame, "json")
'[{"player":"Ann","games":3,"win_rate":0.6666666666666666}]'
"""

from __future__ import annotations

import os
from typing import Literal

import orjson
import polars as pl

from cribstats.errors import CribstatsError

ExportFormat = Literal["csv", "json", "parquet"]
EXPORT_FORMATS: tuple[str, ...] = ("csv", "json", "parquet")


class ExportError(CribstatsError):
    """An output that cannot be written the way asked (e.g. Parquet without a file)."""


def frame_rows(frame: pl.DataFrame) -> list[dict[str, object]]:
    """The rows as plain dicts (dates stay ``date`` objects; nulls are None)."""
    return frame.to_dicts()


def format_frame(frame: pl.DataFrame, fmt: str) -> str:
    """The frame as CSV or JSON text.

    :raises ExportError: for Parquet (binary: write it to a file with :func:`write_frame`) or an unknown format.
    """
    if fmt == "csv":
        return frame.write_csv()
    if fmt == "json":
        return orjson.dumps(frame_rows(frame), option=orjson.OPT_SERIALIZE_NUMPY).decode()
    if fmt == "parquet":
        raise ExportError("parquet is a binary format: give a file to write it to (--out FILE)")
    raise ExportError(f"unknown format {fmt!r}: use one of {', '.join(EXPORT_FORMATS)}")


def write_frame(frame: pl.DataFrame, fmt: str, out: str | os.PathLike[str]) -> None:
    """Write the frame to a file as CSV, JSON or Parquet.

    :raises ExportError: for an unknown format or a file that cannot be written.
    """
    try:
        if fmt == "parquet":
            frame.write_parquet(os.fspath(out))
            return
        text = format_frame(frame, fmt)
        with open(out, "w", encoding="utf-8", newline="") as handle:
            handle.write(text if fmt == "csv" else text + "\n")
    except OSError as err:
        raise ExportError(f"{os.fspath(out)}: cannot write: {err.strerror or err}") from None

