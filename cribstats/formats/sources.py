"""Where games come from: a file, a folder walked recursively, or standard input; and what every reader yields.

A reader yields :class:`SourceGame` values (the game and where it was found) and, for input it cannot read,
raises :class:`~cribstats.errors.LogError`, or hands the error to ``on_error`` and moves on when one is given.
Match records (:class:`SourceMatch`) and findings made while reading (:class:`SourceFinding`, a club night's
scorecards) go to ``on_record`` when one is given; the whole games of a match record are yielded as games.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from cribstats.errors import LogError

if TYPE_CHECKING:
    from cribstats.findings import Finding
    from cribstats.gamelog.fast import AnyGame
    from cribstats.match.model import MatchRecord

#: what a reader does with input it cannot read: the caller's hook; without one the error is raised
OnError = Callable[[LogError], None]

STDIN = "-"
STDIN_NAME = "<stdin>"
BOM = b"\xef\xbb\xbf"
#: bytes looked at to tell a text file from a binary one
HEAD_SIZE = 8192
#: the file suffixes cribstats reads, and the kind of log each holds
SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "tally", ".pgn": "cribzero"}


@dataclass(frozen=True, slots=True)
class SourceGame:
    """One game read, with where it was found: ``place`` is ``line 12``, ``[3]``, ``game 1``, or ``''`` for
    a file that holds one game.

    ``game`` is the game as read: the model, or the fast decoder's checked Structs (a line of JSON Lines it
    settles), which the replay and the audit read as they are;
    :func:`~cribstats.gamelog.fast.game_model` gives the model of either. ``written``: for a whole game of a
    match record, the game as the record writes it when the record gives it its match id or number (``game``
    carries them), so that the same game stored before without them is known (:mod:`cribstats.store.writes`)."""

    file: str
    place: str
    game: AnyGame
    written: AnyGame | None = None


@dataclass(frozen=True, slots=True)
class SourceMatch:
    """A match record read (docs/match.md), with where it was found; its whole games are yielded as games."""

    file: str
    place: str
    record: MatchRecord


@dataclass(frozen=True, slots=True)
class SourceFinding:
    """A finding made while reading (``scorecard``: a club night's cards that disagree), with the night it is
    about and where its rows were found."""

    file: str
    place: str
    finding: Finding
    date: str | None
    event: str | None
    round: str | None
    pair: tuple[str, ...] = ()  # the two players' name keys, sorted: whose cards they are


@dataclass(frozen=True, slots=True)
class SourceAgreement:
    """A game's two scorecards that agree (the game is yielded), with its night and its two players' name keys,
    sorted: a disagreement an earlier reading of the night stored for these cards is retired."""

    file: str
    place: str
    date: str | None
    event: str | None
    round: str | None
    pair: tuple[str, ...]


#: what a reader does with a match record or a finding it makes: the caller's hook; without one they are dropped
OnRecord = Callable[[SourceMatch | SourceFinding | SourceAgreement], None]


def report(error: LogError, on_error: OnError | None) -> None:
    """Raise ``error``, or hand it to ``on_error`` so that the reader can move on."""
    if on_error is None:
        raise error
    on_error(error)


def empty_input(file: str) -> LogError:
    """The error for an input with nothing in it, naming standard input as such."""
    return LogError(file, None, "nothing came on standard input" if file == STDIN_NAME else "the file is empty")


def header_only(file: str, line: int) -> LogError:
    """The error for a CSV sheet with its header and no row after it: nothing to read, as an empty file."""
    return LogError(file, line_place(line), "the sheet has its header and no rows after it")


def line_place(line: int, place: str = "") -> str:
    """``line 7`` alone, or with a JSON path after it: ``line 7: deals[3].play[5]``."""
    return f"line {line}: {place}" if place else f"line {line}"


def kind_of(path: str) -> str | None:
    """The kind of log a file name says it holds (``json``, ``jsonl``, ``tally``, ``cribzero``), or None.

    >>> kind_of("club/Night.JSONL"), kind_of("notes.txt")
    ('jsonl', None)
    """
    return SUFFIXES.get(os.path.splitext(path)[1].lower())


def is_binary(head: bytes) -> bool:
    """True for data no text log holds, by its first bytes: NUL bytes, as images, archives, databases and text in
    UTF-16 or UTF-32 have, more than one in 64 bytes, or with bytes that are not UTF-8 around them. A stray NUL in
    UTF-8 text is not enough: the reader refuses the line that holds it and reads the rest.

    >>> line = b'{"format": "cribstats/game/1", "id": "g\\x002", "players": ["Alice", "Bob"]}\\n'
    >>> is_binary(line * 3), is_binary("{}".encode("utf-16"))
    (False, True)
    >>> is_binary(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" * 20)
    True
    """
    nuls = head.count(b"\x00")
    if not nuls:
        return False
    if nuls * 64 > len(head):
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as bad:
        return bad.start < len(head) - 3  # (a character cut at the end of the bytes looked at is not bad)
    return False


#: the byte-order marks of text in a wide encoding, which a log saved as "Unicode" on Windows starts with
_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
               (b"\xfe\xff", "UTF-16"))


def not_text_message(head: bytes, what: str = "file") -> str:
    """Why data with a NUL byte is not read: text in UTF-16 or UTF-32 (by its byte-order mark, or ASCII text with
    every other byte NUL), or binary data.

    >>> not_text_message("{}".encode("utf-16"))
    'UTF-16 text, not UTF-8: save the file as UTF-8'
    >>> not_text_message(bytes([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 13]))
    'not a text file: it holds binary data'
    """
    sample = head[:256]
    wide = next((name for mark, name in _WIDE_MARKS if sample.startswith(mark)), None)
    if wide is None and len(sample) >= 4:
        even, odd = sample[0::2], sample[1::2]
        if (not odd.strip(b"\x00") and even.isascii()) or (not even.strip(b"\x00") and odd.isascii()):
            wide = "UTF-16"
    if wide is not None:
        return f"{wide} text, not UTF-8: save the {what} as UTF-8"
    return f"not a text {what}: it holds binary data"


def not_utf8_message(err: UnicodeDecodeError) -> str:
    """The message for text that is not UTF-8, naming its first bad byte (the place says where it is).

    >>> try:
    ...     b"caf\\xe9".decode("utf-8")
    ... except UnicodeDecodeError as err:
    ...     print(not_utf8_message(err))
    not UTF-8 text (byte b'\\xe9'): save the file as UTF-8
    """
    byte = err.object[err.start:err.start + 1]
    return f"not UTF-8 text (byte {byte!r}): save the file as UTF-8"


def not_utf8_error(file: str, text: bytes, first_line: int = 1) -> LogError | None:
    """The error for ``text`` (bytes of ``file`` from line ``first_line`` on) when it is not UTF-8: the line and
    column of its first bad byte; None when it is UTF-8.

    >>> print(not_utf8_error("ladder.csv", b"date,event\\n2026-11-03,Caf\\xe9\\n"))
    ladder.csv:line 2, column 15: not UTF-8 text (byte b'\\xe9'): save the file as UTF-8
    """
    try:
        text.decode("utf-8")
    except UnicodeDecodeError as bad:
        before = text[:bad.start]
        line = first_line + before.count(b"\n")
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        return LogError(file, f"line {line}, column {column}", not_utf8_message(bad))
    return None


def open_problem(err: OSError) -> str:
    """Why a file or folder could not be opened.

    >>> open_problem(PermissionError(13, "Permission denied"))
    'cannot be read: permission denied'
    """
    if isinstance(err, FileNotFoundError):
        return "no such file"
    if isinstance(err, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(err, PermissionError):
        return "cannot be read: permission denied"
    return f"cannot be read: {err.strerror or err}"


def open_log(path: str) -> BinaryIO:
    """Open a file for reading in binary mode, checking that it holds text.

    :raises LogError: for a missing, unreadable or binary file.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as err:
        raise LogError(path, None, open_problem(err)) from None
    try:
        head = handle.read(HEAD_SIZE)
        handle.seek(0)
    except OSError as err:
        handle.close()
        raise LogError(path, None, f"cannot be read: {err.strerror or err}") from None
    if is_binary(head):
        handle.close()
        raise LogError(path, None, not_text_message(head))
    return handle


def walk_paths(paths: Iterable[str]) -> Iterator[str]:
    """The files to read, in order: each path as given, and for a folder every file under it with a known
    suffix, sorted, hidden files and folders left out. ``-`` (standard input) passes through. A folder that
    cannot be listed is given in its place, so that its reader refuses it with its name and why."""
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            yield from _files_under(path)
        else:
            yield path


def _files_under(path: str) -> list[str]:
    found: list[str] = []

    def unlisted(err: OSError) -> None:
        found.append(err.filename if isinstance(err.filename, str) else path)

    for folder, subfolders, files in os.walk(path, onerror=unlisted):
        subfolders[:] = sorted(s for s in subfolders if not s.startswith("."))
        found.extend(
            os.path.join(folder, name) for name in files if not name.startswith(".") and kind_of(name) is not None
        )
    return sorted(found, key=lambda f: Path(f).parts)
