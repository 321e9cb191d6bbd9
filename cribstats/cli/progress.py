"""The import's progress line: games done of the games the inputs hold, and the time left.

The total is counted before the import starts, cheaply and by the file's kind (a line a game in JSON Lines, or the
games of a match record's line; a row a game in a tally sheet, two in a scorecard sheet; a record a game in a
``.pgn``; the array's length in a ``.json``); it is an estimate that the bar corrects if more games come.
Standard input has no size known in advance: its progress is a count with the time spent.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import orjson
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

CHUNK = 1 << 20


def _lines(path: str) -> Iterable[bytes]:
    with open(path, "rb") as handle:
        yield from handle


def _count_lines(path: str) -> int:
    return sum(1 for line in _lines(path) if line.strip())


def _count_json_lines(path: str) -> int:
    """A game a line; a match record's line counts the games it holds."""
    count = 0
    for line in _lines(path):
        if not line.strip():
            continue
        if b'"cribstats/match/' in line:
            record = orjson.loads(line)
            count += len(record.get("games") or ()) if isinstance(record, dict) else 1
        else:
            count += 1
    return count


def _count_sheet(path: str) -> int:
    """A row a game in a tally sheet; two rows a game (each player's card) in a scorecard sheet."""
    rows = _count_lines(path) - 1
    with open(path, "rb") as handle:
        header = handle.readline().lower()
    return max(0, (rows + 1) // 2 if b"opponent" in header else rows)


def _count_records(path: str) -> int:
    """Records of a cribbage-zero file: each begins where tag lines follow something else."""
    records, in_tags = 0, False
    for line in _lines(path):
        text = line.strip()
        if not text:
            continue
        tag = text.startswith(b"[")
        if tag and not in_tags:
            records += 1
        in_tags = tag
    return records


def _count_json(path: str) -> int:
    with open(path, "rb") as handle:
        data = orjson.loads(handle.read())
    return len(data) if isinstance(data, list) else 1


def games_in(path: str) -> int:
    """About how many games the log file holds (0 when it cannot be read: the import says why)."""
    from cribstats.formats.sources import kind_of

    kind = kind_of(path)
    try:
        if kind == "jsonl":
            return _count_json_lines(path)
        if kind == "tally":
            return _count_sheet(path)
        if kind == "cribzero":
            return _count_records(path)
        if kind == "json":
            return _count_json(path)
    except (OSError, orjson.JSONDecodeError, UnicodeDecodeError):
        return 0
    return 1


def games_to_import(paths: Iterable[str]) -> int | None:
    """The games the inputs hold, or None when one of them is standard input (its size is not known)."""
    from cribstats.formats.sources import STDIN, walk_paths

    names = list(paths)
    if STDIN in names:
        return None
    return sum(games_in(f) for f in walk_paths(names) if os.path.isfile(f))


def import_progress(console: Console, total: int | None, *, disable: bool) -> Progress:
    """A bar with games done of ``total`` and the time left; without a total, a spinner and the time spent."""
    if total is None:
        columns = (SpinnerColumn(), TextColumn("{task.description}", markup=False), TimeElapsedColumn())
    else:
        columns = (  # type: ignore[assignment]
            TextColumn("importing"), BarColumn(bar_width=24), MofNCompleteColumn(), TextColumn("games"),
            TimeRemainingColumn(), TextColumn("{task.description}", markup=False),
        )  # fmt: skip
    return Progress(*columns, console=console, transient=True, disable=disable)
