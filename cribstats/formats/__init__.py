"""Reading game logs: ``read_games(path)`` picks the reader by the file's suffix and yields games one at a time.

=========== ==========================================================================
suffix      what the file holds
=========== ==========================================================================
``.json``   one game, or a JSON array of games (read whole)
``.jsonl``  one game per line, JSON Lines (streamed: any size, bounded memory); also ``.ndjson``
``.csv``    a club tally sheet, one result a row (:mod:`cribstats.formats.tally`), or a scorecard sheet,
            one player's card a game (:mod:`cribstats.formats.scorecard`)
``.pgn``    cribbage-zero engine records (:mod:`cribstats.formats.cribzero`)
=========== ==========================================================================

``-`` reads standard input and tells the kind from the content. Input that cannot be read raises
:class:`~cribstats.errors.LogError` naming the file, the place and the problem; with ``on_error`` the error is
handed over instead and reading goes on with the next game (line, array element, row, record or file).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "night.jsonl").write_text('{"format": "cribstats/game/1", "players": ["Ann", "Bo"]}\\n'
...                                         '{"format": "cribstats/game/1", "players": ["Ann"]}\\n')
>>> errors = []
>>> [g.place for g in read_paths([str(folder)], on_error=errors.append)]
['line 1']
>>> errors[0].place, errors[0].message
('line 2: players', 'a game has 2 to 4 players, not 1')
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import BinaryIO

import orjson

from cribstats.errors import LogError
from cribstats.formats.jsonlog import read_json_document, read_json_lines
from cribstats.formats.live import OnIdle, lines_as_they_come
from cribstats.formats.sources import (
    BOM,
    STDIN,
    STDIN_NAME,
    SUFFIXES,
    OnError,
    OnRecord,
    SourceFinding,
    SourceGame,
    SourceMatch,
    is_binary,
    kind_of,
    not_text_message,
    not_utf8_error,
    open_log,
    open_problem,
    report,
    walk_paths,
)

# the tally, scorecard and cribbage-zero readers load when a file of theirs is read: start-up stays short

_PGN_TAG = re.compile(rb'^\[\s*[A-Za-z0-9_]+\s+"')

__all__ = ["SUFFIXES", "OnError", "OnRecord", "SourceFinding", "SourceGame", "SourceMatch", "read_games",
           "read_paths", "read_stream"]


def read_games(
    path: str | os.PathLike[str], *, on_error: OnError | None = None, on_record: OnRecord | None = None,
    on_idle: OnIdle | None = None,
) -> Iterator[SourceGame]:
    """The games in one file (by its suffix), in one folder (walked as :func:`read_paths` does), or on
    standard input (``-``). ``on_idle`` is called whenever standard input pauses, the games before the pause
    yielded (:func:`~cribstats.formats.live.lines_as_they_come`).

    :raises LogError: for input that cannot be read, unless ``on_error`` takes the error.
    """
    path = os.fspath(path)
    if path == STDIN:
        stream = sys.stdin.buffer
        lines = stream if on_idle is None else lines_as_they_come(stream, on_idle)
        yield from read_stream(lines, STDIN_NAME, on_error=on_error, on_record=on_record)
        return
    if os.path.isdir(path):
        try:
            os.scandir(path).close()
        except OSError as err:  # a folder that cannot be listed, named by the walk in its place
            report(LogError(path, None, open_problem(err)), on_error)
            return
        yield from read_paths([path], on_error=on_error, on_record=on_record, on_idle=on_idle)
        return
    kind = kind_of(path)
    if kind is None:
        if not os.path.lexists(path):
            report(LogError(path, None, "no such file"), on_error)
        else:
            known = ", ".join(SUFFIXES)
            report(LogError(path, None, f"not a kind of file cribstats reads: use one of {known}"), on_error)
        return
    try:
        handle = open_log(path)
    except LogError as err:
        report(err, on_error)
        return
    with handle:
        try:
            yield from _read(kind, handle, path, on_error, on_record)
        except _NotUtf8Line as bad:  # a sheet's header, a cribbage-zero file's line
            report(bad.error, on_error)
        except OSError as err:
            report(LogError(path, None, _read_problem(err)), on_error)


def read_paths(
    paths: Iterable[str | os.PathLike[str]], *, on_error: OnError | None = None, on_record: OnRecord | None = None,
    on_idle: OnIdle | None = None,
) -> Iterator[SourceGame]:
    """The games in each path in turn: files as given, folders searched recursively (sorted, only files with a
    suffix cribstats reads, hidden ones left out), ``-`` for standard input (``on_idle``: :func:`read_games`).

    :raises LogError: for input that cannot be read, unless ``on_error`` takes the error.
    """
    for path in walk_paths(os.fspath(p) for p in paths):
        yield from read_games(path, on_error=on_error, on_record=on_record, on_idle=on_idle)


def read_stream(
    handle: Iterable[bytes],
    name: str = STDIN_NAME,
    *,
    on_error: OnError | None = None,
    on_record: OnRecord | None = None,
    sheet: bool = False,
) -> Iterator[SourceGame]:
    """The games in an open binary stream of unknown kind (standard input), told by the content: a tally
    sheet header, cribbage-zero tags, JSON Lines (a first line that is a whole JSON object), or else one JSON
    document (a game or an array of games). With ``sheet`` (a file whose name or type says CSV) the stream is a
    tally or scorecard sheet whatever its first line, so that a header the sheets do not know is refused for
    its columns, as ``import`` refuses a ``.csv`` file's, rather than as JSON that does not parse.

    :raises LogError: for input that cannot be read, unless ``on_error`` takes the error.
    """
    lines = iter(handle)
    skipped: list[bytes] = []
    first = b""
    for line in lines:
        skipped.append(line)
        if line.strip() and line.strip() != BOM:
            first = line
            break
    if is_binary(first):
        report(LogError(name, None, not_text_message(first, "input")), on_error)
        return
    head = b"".join(skipped)
    start = first.lstrip(BOM).strip()
    try:
        if sheet or _looks_like_tally(start):
            from cribstats.formats.scorecard import read_sheet

            yield from read_sheet(_text_lines(_chain(skipped, lines), name, on_error), name, on_error=on_error,
                                  on_record=on_record)
        elif _PGN_TAG.match(start):
            from cribstats.formats.cribzero import read_cribzero

            yield from read_cribzero(_text_lines(_chain(skipped, lines), name), name, on_error=on_error)
        elif start.startswith(b"{") and _is_json(start):
            yield from read_json_lines(_chain(skipped, lines), name, on_error=on_error, on_record=on_record)
        else:
            yield from read_json_document(head + b"".join(lines), name, on_error=on_error, on_record=on_record)
    except _NotUtf8Line as bad:
        report(bad.error, on_error)
    except OSError as err:
        report(LogError(name, None, _read_problem(err)), on_error)


def _read(
    kind: str, handle: BinaryIO, path: str, on_error: OnError | None, on_record: OnRecord | None
) -> Iterator[SourceGame]:
    if kind == "jsonl":
        return read_json_lines(handle, path, on_error=on_error, on_record=on_record)
    if kind == "json":
        return read_json_document(handle.read(), path, on_error=on_error, on_record=on_record)
    lines = handle.read().splitlines(keepends=True)  # as universal newlines split them (an old Mac's CR alone too)
    if kind == "tally":
        from cribstats.formats.scorecard import read_sheet

        return read_sheet(_text_lines(lines, path, on_error), path, on_error=on_error, on_record=on_record)
    from cribstats.formats.cribzero import read_cribzero

    return read_cribzero(_text_lines(lines, path), path, on_error=on_error)


def _read_problem(err: OSError) -> str:
    return f"cannot be read: {err.strerror or err}"


def _looks_like_tally(line: bytes) -> bool:
    """A first line naming at least three of the tally sheet's (or the scorecard sheet's) columns, its cells
    separated as the sheet readers tell them, by commas or semicolons (the reader says what else is wrong)."""
    from cribstats.formats.scorecard import SCORECARD_COLUMNS
    from cribstats.formats.tally import COLUMNS, sheet_delimiter

    text = line.decode("utf-8", "replace")
    cells = {cell.strip().strip('"').lower() for cell in text.split(sheet_delimiter(text))}
    return len(cells & set(COLUMNS)) >= 3 or len(cells & set(SCORECARD_COLUMNS)) >= 3


def _is_json(line: bytes) -> bool:
    try:
        orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return True


def _chain(head: list[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    yield from head
    yield from rest


class _NotUtf8Line(Exception):
    """A line of a stream that is not UTF-8: the error naming its line and column."""

    def __init__(self, error: LogError) -> None:
        super().__init__(str(error))
        self.error = error


def _text_lines(lines: Iterable[bytes], name: str, rows_on_error: OnError | None = None) -> Iterator[str]:
    """The lines of a sheet or a cribbage-zero file decoded (UTF-8, BOM dropped), line ends kept (the csv module
    wants them).

    A line that is not UTF-8 ends the text there, named by its line and column; with ``rows_on_error`` (a sheet,
    whose rows stand alone) a row after the header is refused to it instead and read as a blank line, which the
    sheet readers pass over, so that the rows after it keep their numbers and are read.

    :raises _NotUtf8Line: for a line that ends the text.
    """
    header_read = False
    for number, line in enumerate(lines, start=1):
        try:
            text = (line.removeprefix(BOM) if number == 1 else line).decode("utf-8")
        except UnicodeDecodeError:
            error = not_utf8_error(name, line, number) or LogError(name, f"line {number}", "not UTF-8")
            if rows_on_error is None or not header_read:
                raise _NotUtf8Line(error) from None
            report(error, rows_on_error)
            from cribstats.formats.tally import REFUSED_ROW

            text = REFUSED_ROW  # a row refused: passed over, but a row the sheet had
        header_read = header_read or bool(text.strip())
        yield text
