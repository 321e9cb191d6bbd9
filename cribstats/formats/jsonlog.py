"""Game logs in JSON: one game or an array of games (``.json``), or one game per line (``.jsonl``).

JSON Lines stream line by line, so a file of any size is read in bounded memory; a ``.json`` file is read whole.

>>> import io
>>> lines = io.BytesIO(b'{"format": "cribstats/game/1", "players": ["A", "B"]}\\n\\n'
...                    b'{"format": "cribstats/game/1", "players": ["A", "A"]}\\n')
>>> errors = []
>>> [(g.place, g.game.players) for g in read_json_lines(lines, "club.jsonl", on_error=errors.append)]
[('line 1', ['A', 'B'])]
>>> str(errors[0])
"club.jsonl:line 3: players: 'A' is named twice: player names must be distinct"
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import orjson

from cribstats.errors import LogError
from cribstats.formats.sources import (
    BOM,
    OnError,
    OnRecord,
    SourceGame,
    SourceMatch,
    empty_input,
    line_place,
    not_utf8_error,
    report,
)
from cribstats.gamelog import FORMAT, GameLogError, describe, join_place
from cribstats.gamelog.fast import decode_game_struct
from cribstats.gamelog.validate import read_game, validate_game_model
from cribstats.names import MAX_GAME_BYTES, game_size_message


def json_error(file: str, err: orjson.JSONDecodeError, line: int | None = None, text: bytes = b"") -> LogError:
    """A decoding error with its line and column (``line`` overrides the line, for JSON Lines); for ``text``
    that is not UTF-8, the line and column of its first bad byte instead.

    >>> try:
    ...     orjson.loads(b'{"site": "caf\\xe9"}')
    ... except orjson.JSONDecodeError as err:
    ...     print(json_error("club.jsonl", err, 4, b'{"site": "caf\\xe9"}'))
    club.jsonl:line 4, column 14: not UTF-8 text (byte b'\\xe9'): save the file as UTF-8
    """
    not_utf8 = not_utf8_error(file, text, line or 1)
    if not_utf8 is not None:
        return not_utf8
    return LogError(file, f"line {line or err.lineno}, column {err.colno}", f"not valid JSON: {err.msg}")


def is_match_record(data: object) -> bool:
    """:func:`cribstats.match.model.is_match_record`, the match models loaded only for a value that is not
    plainly a game log (start-up stays short for logs of games)."""
    if not isinstance(data, dict) or data.get("format") == FORMAT:  # a game, or no record (records are objects)
        return False
    from cribstats.match.model import is_match_record as is_record

    return is_record(data)


def _too_big(file: str, place: str | None, size: int) -> LogError:
    return LogError(file, place, game_size_message(size))


def read_json_lines(
    lines: Iterable[bytes],
    file: str,
    *,
    on_error: OnError | None = None,
    first_line: int = 1,
    on_record: OnRecord | None = None,
) -> Iterator[SourceGame]:
    """Games from JSON Lines: one game per line, blank lines skipped; places are ``line N``.

    :raises LogError: for a line that is not JSON or not a game (unless ``on_error`` takes it), and for a
        file with no line at all.
    """
    seen = False
    number = first_line - 1
    for number, line in enumerate(lines, first_line):
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM):]
        if not line or line.isspace():
            continue
        seen = True
        if len(line) > MAX_GAME_BYTES:
            report(_too_big(file, line_place(number), len(line)), on_error)
            continue
        struct = decode_game_struct(line)  # the fast path: None for anything the model must settle
        if struct is not None:
            yield SourceGame(file, f"line {number}", struct)
            continue
        try:
            data = orjson.loads(line)
        except orjson.JSONDecodeError:
            # decode the line without its end again, so that the column of an unfinished line is on this line
            try:
                orjson.loads(line.rstrip(b"\r\n"))
            except orjson.JSONDecodeError as again:
                err = again
            report(json_error(file, err, number, line), on_error)
            continue
        if not isinstance(data, dict):
            report(LogError(file, line_place(number), f"a line holds one game, a JSON object, not "
                            f"{describe(data)}"), on_error)
            continue
        if is_match_record(data):
            yield from read_match(data, file, f"line {number}", on_error, on_record)
            continue
        try:
            game = validate_game_model(data)
        except GameLogError as err:
            report(LogError(file, line_place(number, err.place), err.message), on_error)
            continue
        yield SourceGame(file, f"line {number}", game)
    if not seen:
        report(empty_input(file), on_error)


def read_match(
    data: object, file: str, place: str, on_error: OnError | None, on_record: OnRecord | None
) -> Iterator[SourceGame]:
    """A match record: its whole games as games (places ``line 3: games[0]``), the record to ``on_record``."""
    from cribstats.match.model import MatchError, inline_games, inner_place, validate_match

    try:
        record = validate_match(data)
    except MatchError as err:
        report(LogError(file, inner_place(place, err.place) or None, err.message), on_error)
        for number, game in err.games:  # the record is refused; each of its whole games is still a game
            yield SourceGame(file, inner_place(place, f"games[{number - 1}]"), game)
        return
    for number, game in inline_games(record):
        written = record.games[number - 1] if record.games is not None else None
        yield SourceGame(file, inner_place(place, f"games[{number - 1}]"), game,
                         None if written is game or isinstance(written, str) else written)
    if on_record is not None:
        on_record(SourceMatch(file, place, record))


def read_json_document(
    data: bytes, file: str, *, on_error: OnError | None = None, on_record: OnRecord | None = None
) -> Iterator[SourceGame]:
    """Games from one JSON document: a game (place ``''``) or an array of games (places ``[0]``, ``[1]``, ...).

    :raises LogError: for text that is not JSON (one error for the file), or an element that is not a game
        (one error each, unless ``on_error`` takes them).
    """
    if data.startswith(BOM):
        data = data[len(BOM):]
    if not data.strip():
        report(empty_input(file), on_error)
        return
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as err:
        report(json_error(file, err, text=data), on_error)
        return
    if is_match_record(value):
        yield from read_match(value, file, "", on_error, on_record)
        return
    if isinstance(value, dict):
        if len(data) > MAX_GAME_BYTES:
            report(_too_big(file, None, len(data)), on_error)
            return
        try:
            yield SourceGame(file, "", read_game(value))
        except GameLogError as err:
            report(LogError(file, err.place or None, err.message), on_error)
        return
    if not isinstance(value, list):
        report(LogError(file, None, f"a log holds a game (a JSON object) or an array of games, not "
                        f"{describe(value)}"), on_error)
        return
    if not value:  # nothing was read, as from an empty file
        report(LogError(file, None, "the array holds no game"), on_error)
        return
    sizes_matter = len(data) > MAX_GAME_BYTES
    for index, item in enumerate(value):
        place = f"[{index}]"
        if is_match_record(item):
            yield from read_match(item, file, place, on_error, on_record)
            continue
        if sizes_matter and len(size := orjson.dumps(item)) > MAX_GAME_BYTES:
            report(_too_big(file, place, len(size)), on_error)
            continue
        try:
            game = read_game(item)
        except GameLogError as err:
            report(LogError(file, join_place(place, err.place), err.message), on_error)
            continue
        yield SourceGame(file, place, game)


def json_line_chunks(
    path: str, size: int, *, on_error: OnError
) -> Iterator[tuple[int, list[bytes], int]]:
    """The raw lines of a ``.jsonl`` file in chunks of ``size`` games (lines not blank; the last chunk may hold
    fewer), for :func:`read_json_lines` elsewhere: ``(first line number, lines, games)``.

    A file that cannot be opened or read, or holds no line, is reported to ``on_error``, after the lines read
    before a read error.
    """
    from cribstats.formats.sources import open_log

    try:
        handle = open_log(path)
    except LogError as err:
        on_error(err)
        return
    chunk: list[bytes] = []
    first = 1
    filled = 0  # lines in the chunk that are not blank
    sent = False
    with handle:
        try:
            for number, line in enumerate(handle, 1):
                if not chunk:
                    first = number
                chunk.append(line)
                if number == 1:
                    line = line.removeprefix(BOM)
                if not line.isspace():
                    filled += 1
                    if filled >= size:
                        yield first, chunk, filled
                        chunk, filled, sent = [], 0, True
        except OSError as err:
            if filled:
                yield first, chunk, filled
            on_error(LogError(path, None, f"cannot be read: {err.strerror or err}"))
            return
    if filled:
        yield first, chunk, filled
    elif not sent:
        on_error(empty_input(path))
