"""Club tally sheets: a CSV file of results, one game a row, each row read as a result-only game log.

The header names the columns ``date,event,round,player1,player2,score1,score2`` in any order, and may add
``first_dealer``, ``variant``, ``target``, ``match`` and ``match_game`` (the game's match and its number in it,
docs/match.md); no other column is read, so any other is refused rather than lost. Empty cells of the optional
columns, and of ``date``, ``event`` and ``round``, are left out of the log.

A row becomes ``{"format", "date", "event", "round", "variant", "target", "players", "result"}`` with the
winner being the player with the higher score, and ``scores`` both final scores. With ``first_dealer`` given,
``players`` lists the first dealer first (the convention cribbage-zero records follow too); without it,
player1 then player2. A row is refused, with its line, when a score is not a whole number, when both scores are
the same (a game of cribbage has a winner: a tie is not a result) or both reach the target (the game ends when
one does), when a name is empty or named twice, when
``first_dealer`` is neither player, when the variant is not a two-player one, or when it gives the same game as
an earlier row of the sheet (:func:`repeated_game`).

>>> sheet = ["date,event,round,player1,player2,score1,score2", "2026-11-03,Tuesday League,2,Alice,Bob,88,121"]
>>> [(g.place, g.game.players, g.game.result.winner) for g in read_tally(sheet, "club.csv")]
[('line 2', ['Alice', 'Bob'], 'Bob')]
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson

from cribstats.errors import CribstatsError, LogError, VariantError
from cribstats.formats.sources import OnError, SourceGame, empty_input, header_only, line_place, report
from cribstats.gamelog import FORMAT, GameLog, GameLogError, validate_game
from cribstats.gamelog.alike import result_identity
from cribstats.gamelog.canonical import canonical_json
from cribstats.names import TextError, name_key, normalise_name, quoted
from cribstats.variants import DEFAULT_VARIANT, VARIANT_NAMES, find_variant

COLUMNS = ("date", "event", "round", "player1", "player2", "score1", "score2")
OPTIONAL_COLUMNS = ("first_dealer", "variant", "target", "match", "match_game")
HEADER = ",".join(COLUMNS)
_WHOLE = re.compile(r"\d+")
_BELOW_ZERO = re.compile(r"-\d+")
#: the minus signs a number may be typed with besides "-": the true minus (U+2212, as the scorecard page prints it,
#: and as phones and word processors put it) and the en dash (U+2013)
MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})
#: what to do with a game a sheet gives twice, when it was played twice
PLAYED_TWICE = "if it was played twice, give each its round"
PLAYED_TWICE_ROUND = "if it was played twice, give each its own round"
#: a line of a sheet refused as it was read (not UTF-8), handed on in its place: no line of text is two line ends
REFUSED_ROW = "\n\n"
# where a contract break found by the model sits in a row
_COLUMN_OF = {"date": "date", "event": "event", "round": "round", "variant": "variant", "target": "target",
              "players": "player1, player2", "match": "match", "match_game": "match_game"}


class RowError(CribstatsError, ValueError):
    """A row that cannot be read; ``column`` names the cell when one is to blame."""

    def __init__(self, message: str, column: str = "") -> None:
        super().__init__(message)
        self.column = column


def read_tally(
    lines: Iterable[str], file: str, *, on_error: OnError | None = None, delimiter: str = ","
) -> Iterator[SourceGame]:
    """Games from the lines of a tally sheet (text, as ``csv.reader`` takes them); places are ``line N``.
    ``delimiter``: what separates its cells (:func:`sheet_delimiter`).

    :raises LogError: for a missing or wrong header (one error for the file) and for each row that cannot be
        read (unless ``on_error`` takes them).
    """
    seen: dict[str, str] = {}  # each game's content hash: the place of the row that gave it first
    for header, line, row in sheet_body(lines, file, on_error, header_problem, delimiter):
        try:
            game = validate_game(row_to_log(header, row))
        except RowError as err:
            report(LogError(file, line_place(line, err.column), str(err)), on_error)
            continue
        except GameLogError as err:
            report(LogError(file, line_place(line, _COLUMN_OF.get(err.place, err.place)), err.message), on_error)
            continue
        place = f"line {line}"
        twice = repeated_game(game, place, seen)
        if twice:
            report(LogError(file, place, twice), on_error)
            continue
        yield SourceGame(file, place, game)


def repeated_game(game: GameLog, place: str, seen: dict[str, str]) -> str | None:
    """Why the game read at ``place`` of a sheet is refused as the same game as an earlier one of the sheet (the
    same log, or the same record of a result but for how it spells the event and names, the players' order and
    the options left to their defaults: :func:`~cribstats.gamelog.alike.result_identity`), or None, the game then
    remembered in ``seen`` (identity: place). The store keeps one game of one log, so the second would be taken
    as already stored and a game played twice lost without a word; a row entered twice must not count twice
    either.

    >>> from cribstats.gamelog import validate_game
    >>> log = {"format": "cribstats/game/1", "players": ["A", "B"], "result": {"winner": "A"}}
    >>> seen: dict[str, str] = {}
    >>> repeated_game(validate_game(log), "line 2", seen) is None
    True
    >>> print(repeated_game(validate_game(log), "line 4", seen))
    the same game as line 2 (date, players and scores alike): if it was played twice, give each its round
    """
    text, digest = canonical_json(game)
    first = seen.setdefault(result_identity(orjson.loads(text)) or digest, place)
    if first == place:
        return None
    if game.round is None:
        return f"the same game as {first} (date, players and scores alike): {PLAYED_TWICE}"
    return f"the same game as {first} (date, round, players and scores alike): {PLAYED_TWICE_ROUND}"


def sheet_body(
    lines: Iterable[str], file: str, on_error: OnError | None, header_problem: Callable[[list[str]], str | None],
    delimiter: str = ",",
) -> Iterator[tuple[list[str], int, list[str]]]:
    """The rows of a CSV sheet below its header, each as ``(header, line, row)``, blank rows passed over and a
    row's blank cells beyond the header's columns left out (:func:`within_header`). A header that
    ``header_problem`` finds fault with is refused at its line and nothing is read; a sheet with no header, or
    with no row after it but blank ones (a blank form: empty lines, or lines of separators and spaces, as a
    spreadsheet saves its empty rows), is refused as an empty file is."""
    header: list[str] | None = None
    header_line, rows = 0, 0

    def refused() -> None:  # a row refused as it was read: after the header, a row of the sheet
        nonlocal rows
        if header is not None:
            rows += 1

    for line, row in sheet_rows(lines, file, on_error, delimiter, on_refused=refused):
        if not any(cell.strip() for cell in row):  # a blank row (separators and spaces only) is no row
            continue
        if header is None:
            header, header_line = sheet_header(row), line
            problem = header_problem(header)
            if problem:
                report(LogError(file, line_place(line), problem), on_error)
                return
            continue
        rows += 1
        yield header, line, within_header(row, header)
    if header is None:
        report(empty_input(file), on_error)
    elif not rows:
        report(header_only(file, header_line), on_error)


def sheet_delimiter(header_line: str) -> str:
    """What separates a CSV sheet's cells, told by its header line: a comma, or a semicolon where the line has
    semicolons and no comma (as spreadsheets save CSV where the comma is the decimal sign).

    >>> sheet_delimiter("date,event,round"), sheet_delimiter("date;event;round"), sheet_delimiter("date")
    (',', ';', ',')
    """
    return ";" if ";" in header_line and "," not in header_line else ","


def sheet_rows(
    lines: Iterable[str], file: str, on_error: OnError | None, delimiter: str = ",", *,
    on_refused: Callable[[], None] | None = None,
) -> Iterator[tuple[int, list[str]]]:
    """The rows of a CSV sheet, each with the line it is on. A row the csv module cannot read (a cell longer than
    its field limit) is refused at its line and passed over; the rows after it are read. A sheet's cells hold no
    line breaks (no name, event or score does), so a quote left open, which would run its cell on over the lines
    after it, is refused at the line where it opens, and those lines are read as the rows they are. A line given
    as :data:`REFUSED_ROW` was refused already (for its bytes) and is passed over. ``on_refused`` is told of each
    row passed over so."""
    feed = _LineFeed(lines)
    reader = csv.reader(feed, delimiter=delimiter)
    while True:
        feed.record = []
        start = feed.line + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as err:
            limit = csv.field_size_limit()
            problem = (f"a cell is longer than {limit} characters" if "field limit" in str(err)
                       else f"not a row of CSV: {err}")
        else:
            if feed.record == [REFUSED_ROW]:
                problem = ""  # said where it was refused
            elif len(feed.record) > 1:
                problem = "a quote (\") opened on this line is not closed on it"
            else:
                yield start, row
                continue
        if problem:
            report(LogError(file, line_place(start), problem), on_error)
            feed.put_back_after_first()
        if on_refused is not None:
            on_refused()


class _LineFeed:
    """The sheet's lines as the csv module reads them, counted, each row's lines kept (``record``) so that those
    after its first can be read again; a line refused as it was read (:data:`REFUSED_ROW`) read as a blank one."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.source = iter(lines)
        self.again: list[str] = []  # lines to read again, the next one last
        self.line = 0
        self.record: list[str] = []

    def __iter__(self) -> _LineFeed:
        return self

    def __next__(self) -> str:
        text = self.again.pop() if self.again else next(self.source)
        self.line += 1
        self.record.append(text)
        return "\n" if text == REFUSED_ROW else text

    def put_back_after_first(self) -> None:
        """Read the lines of the last row after its first again."""
        later = self.record[1:]
        self.again.extend(reversed(later))
        self.line -= len(later)


def sheet_header(row: list[str]) -> list[str]:
    """A CSV sheet's column names: trimmed, in lower case, without a byte-order mark, and without the blank columns
    a spreadsheet writes after the last one (``date,event,...,score2,,``).

    >>> sheet_header(["\ufeffDate", " Event ", "score2", "", " "])
    ['date', 'event', 'score2']
    """
    if row and row[0].startswith("\ufeff"):
        row = [row[0][1:], *row[1:]]
    header = [cell.strip().lower() for cell in row]
    while header and not header[-1]:
        header.pop()
    return header


def within_header(row: list[str], header: list[str]) -> list[str]:
    """A row without the blank cells it has beyond the header's columns (a spreadsheet's trailing commas); a row
    with a value there is left whole, to be refused for its number of values.

    >>> within_header(["a", "b", "", " "], ["x", "y"]), within_header(["a", "b", "c"], ["x", "y"])
    (['a', 'b'], ['a', 'b', 'c'])
    """
    width = len(header)
    if len(row) > width and not any(cell.strip() for cell in row[width:]):
        return row[:width]
    return row


def header_problem(header: list[str]) -> str | None:
    """What is wrong with a tally sheet's header, or None.

    >>> header_problem(["date", "event", "round", "player1", "player2", "score1"])
    "missing column 'score2': a tally sheet has the columns date,event,round,player1,player2,score1,score2"
    """
    return sheet_header_problem(header, "a tally sheet", COLUMNS, OPTIONAL_COLUMNS)


def sheet_header_problem(
    header: list[str], sheet: str, columns: tuple[str, ...], optional: tuple[str, ...]
) -> str | None:
    """What is wrong with the header of a CSV sheet (``sheet``, e.g. "a tally sheet") that must have ``columns``
    and may add ``optional`` ones: a column missing, unknown, or named twice; None when it is right."""
    listed = ",".join(columns)
    for name in columns:
        if name not in header:
            return f"missing column {quoted(name)}: {sheet} has the columns {listed}"
    for name in header:
        if name not in columns and name not in optional:
            return (f"unknown column {quoted(name)}: {sheet} has the columns {listed}, and may add "
                    + ", ".join(optional))
        if header.count(name) > 1:
            return f"column {quoted(name)} is named twice"
    return None


def row_to_log(header: list[str], row: list[str]) -> dict[str, Any]:
    """One row as a result-only game log (a dict for :func:`~cribstats.gamelog.validate_game`).

    :raises RowError: for a row that is not a result.
    """
    if len(row) != len(header):
        raise RowError(f"expected {len(header)} values, as the header has, found {len(row)}")
    cells = {name: cell.strip() for name, cell in zip(header, row, strict=True)}
    names = [_name(cells, "player1"), _name(cells, "player2")]
    if names[0] == names[1]:
        raise RowError(f"player1 and player2 are both {quoted(names[0])}")
    scores = [_points(cells, "score1"), _points(cells, "score2")]
    if scores[0] == scores[1]:
        raise RowError(f"a tie ({scores[0]}-{scores[1]}) is not a result: a game of cribbage has a winner")
    log: dict[str, Any] = {"format": FORMAT}
    for field in ("date", "event", "round"):
        if cells[field]:
            log[field] = cells[field]
    if cells.get("variant"):
        log["variant"] = _variant(cells["variant"])
    if cells.get("target"):
        log["target"] = _points(cells, "target")
    if cells.get("match"):
        log["match"] = cells["match"]
    if cells.get("match_game"):
        log["match_game"] = _points(cells, "match_game")
    players = list(names)
    first = cells.get("first_dealer", "")
    if first:  # one of the players, spelt as his column spells him: the name is matched as players are (name_key)
        first = _name(cells, "first_dealer")
        keys = [name_key(name) for name in names]
        if name_key(first) not in keys:
            raise RowError(f"{quoted(first)} is neither player1 nor player2", "first_dealer")
        at = keys.index(name_key(first))
        players = [names[at], names[1 - at]]
    log["players"] = players
    target = log.get("target", find_variant(log.get("variant", DEFAULT_VARIANT.name)).target)
    if target > 0 and min(scores) >= target:
        raise RowError(f"both scores ({scores[0]}-{scores[1]}) reach the target, {target}: the game ends the "
                       "moment one player reaches it, so the loser's score is below it")
    winner = names[0] if scores[0] > scores[1] else names[1]
    log["result"] = {"winner": winner, "scores": dict(zip(names, scores, strict=True))}
    return log


def _name(cells: dict[str, str], column: str) -> str:
    """A player's cell under the name rule (:func:`cribstats.names.normalise_name`)."""
    if not cells[column]:
        raise RowError("no name", column)
    try:
        return normalise_name(cells[column])
    except TextError as err:
        raise RowError(str(err), column) from None


def _points(cells: dict[str, str], column: str) -> int:
    """A whole number of a cell; one below 0 is a score refused as such (a target's or a game number's is left
    to the model, which says what it must be)."""
    text = cells[column]
    if _WHOLE.fullmatch(text):
        return int(text)
    if _BELOW_ZERO.fullmatch(text.translate(MINUS_SIGNS)):
        if column in ("score1", "score2"):
            raise RowError(f"{quoted(text)} is below 0: a score is 0 or more", column)
        return int(text.translate(MINUS_SIGNS))
    raise RowError(f"{quoted(text)} is not a whole number", column)


def _variant(text: str) -> str:
    try:
        variant = find_variant(text)
    except VariantError:
        raise RowError(f"{quoted(text)} is not a variant: use one of {', '.join(VARIANT_NAMES)}",
                       "variant") from None
    if variant.players != 2:
        raise RowError(f"{variant.name} is played by {variant.players}: a row of this sheet is a game between two "
                       "players", "variant")
    return variant.name
