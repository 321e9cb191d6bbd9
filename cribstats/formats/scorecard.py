"""Scorecard sheets (docs/match.md): a CSV with one row per player per game of a club night, each player's own
card, ``date,event,round,player,opponent,game_points,spread`` (``table``, ``variant`` and ``target`` may be added).

The two cards of one game (same date, event, round and table, player and opponent swapped) are cross-checked.
Names are paired as the store knows players, by :func:`~cribstats.names.name_key` (case and spacing ignored), and
events as the filters compare them, by :func:`~cribstats.names.event_key` (case ignored): ``Mary  Ann`` against
``bob`` on one card and ``Bob`` against ``Mary Ann`` on the other are one game. The game keeps the names as typed
on its first card (the one higher up the sheet), and the event as the sheet first spells it.
Cards that agree become one result-only game (the winner at the target, the loser at the target less the spread);
cards that disagree become a ``scorecard`` finding, handed to ``on_record``, and no game:

* a card whose game points are not what its spread gives (2 for a win, 3 for a skunk win: a spread over the
  target less the skunk line, 31 or more in a 121 game; 0 for a loss): ``player`` is that card's, ``claimed`` its
  game points, ``due`` what its spread gives;
* both cards or neither claiming the win, or spreads that are not opposite: ``player`` null (the cards cannot tell
  which is wrong);
* a game with only one card: ``player`` is the player whose card is missing.

The sheet is read whole before the cards are paired (the two cards of a game may be anywhere in it); a club
night's sheet is a few hundred rows. A row that is not a card (a name missing, game points other than 0, 2 or 3,
a spread that is not a whole number, a third card for one game) is refused with its line; the rest of the sheet
is read. Two pairs of cards that make the same game (the same night, round and players, told apart by their tables
alone) are refused at the second's lines, as a tally sheet's row that repeats a game is
(:func:`~cribstats.formats.tally.repeated_game`): the store keeps one game of one log.

>>> sheet = ["date,event,round,player,opponent,game_points,spread",
...          "2026-11-03,Club,1,Alice,Bob,2,17", "2026-11-03,Club,1,Bob,Alice,0,-17"]
>>> [(g.place, g.game.result.scores) for g in read_sheet(sheet, "night.csv")]
[('lines 2, 3', {'Alice': 121, 'Bob': 104})]
"""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from cribstats.errors import LogError
from cribstats.findings import Finding
from cribstats.formats.sources import (
    OnError,
    OnRecord,
    SourceAgreement,
    SourceFinding,
    SourceGame,
    line_place,
    report,
)
from cribstats.formats.tally import (
    MINUS_SIGNS,
    RowError,
    _variant,
    read_tally,
    repeated_game,
    sheet_body,
    sheet_delimiter,
    sheet_header,
    sheet_header_problem,
)
from cribstats.gamelog import FORMAT, GameLogError, validate_game
from cribstats.gamelog.contract import iso_date
from cribstats.names import TextError, apart_only, check_text, event_key, name_key, normalise_name, quoted
from cribstats.variants import DEFAULT_VARIANT, Variant, find_variant, game_points

SCORECARD_COLUMNS = ("date", "event", "round", "player", "opponent", "game_points", "spread")
SCORECARD_OPTIONAL = ("table", "variant", "target")
GAME_POINTS = (game_points(False, 0), game_points(True, 0), game_points(True, 1))  # a loss, a win, a skunk win
_GAME_POINTS_WORDS = f"{GAME_POINTS[0]}, {GAME_POINTS[1]} or {GAME_POINTS[2]}"
_WHOLE = re.compile(r"\d+")
_SIGNED = re.compile(r"[+-]?\d+")


def read_sheet(
    lines: Iterable[str], file: str, *, on_error: OnError | None = None, on_record: OnRecord | None = None
) -> Iterator[SourceGame]:
    """A CSV sheet of either kind, told by its header: scorecards (with ``game_points`` and ``spread``) or
    a tally sheet."""
    rows = iter(lines)
    head: list[str] = []
    for text in rows:  # blank lines before the header are kept for the reader, which skips them
        head.append(text)
        if text.strip():
            break
    delimiter = sheet_delimiter(head[-1]) if head else ","
    try:
        header = next(csv.reader([head[-1]], delimiter=delimiter), []) if head else []
    except csv.Error:  # the sheet's reader refuses the line
        header = []
    names = set(sheet_header(header))
    all_lines = itertools.chain(head, rows)
    if {"game_points", "spread"} <= names:
        yield from read_scorecards(all_lines, file, on_error=on_error, on_record=on_record, delimiter=delimiter)
    else:
        yield from read_tally(all_lines, file, on_error=on_error, delimiter=delimiter)


@dataclass(frozen=True, slots=True)
class Card:
    """One player's card of one game."""

    line: int
    date: str
    event: str
    round: str
    table: str
    player: str
    opponent: str
    game_points: int
    spread: int
    variant: Variant
    target: int

    @property
    def pair(self) -> tuple[str, str]:
        """The card's two players by their name keys, sorted: the same on both cards of a game."""
        one, two = sorted((name_key(self.player), name_key(self.opponent)))
        return one, two

    @property
    def game(self) -> tuple[str, str, str, str, tuple[str, str]]:
        """What the two cards of one game share: the names by their key, the event with case ignored."""
        return self.date, event_key(self.event), self.round, self.table, self.pair


def game_points_of(spread: int, variant: Variant, target: int) -> int | None:
    """The game points a spread gives: 3 for a skunk win, 2 for a win, 0 for a loss, None for a spread of 0.

    >>> six = find_variant("six-card")
    >>> game_points_of(30, six, 121), game_points_of(31, six, 121), game_points_of(-5, six, 121)
    (2, 3, 0)
    """
    if spread == 0:
        return None
    return game_points(spread > 0, variant.skunk_level(target - spread, target))


def read_scorecards(
    lines: Iterable[str], file: str, *, on_error: OnError | None = None, on_record: OnRecord | None = None,
    delimiter: str = ",",
) -> Iterator[SourceGame]:
    """Games from the cards that agree (places ``lines 4, 9``); findings for those that do not. ``delimiter``:
    what separates the cells (:func:`~cribstats.formats.tally.sheet_delimiter`)."""
    games: dict[tuple[str, str, str, str, tuple[str, str]], list[Card]] = {}
    events: dict[str, str] = {}  # each event's key: the event as the sheet first spells it
    seen: dict[str, str] = {}  # each game's content hash: the places of the cards that gave it first

    def header_problem(header: list[str]) -> str | None:
        return sheet_header_problem(header, "a scorecard sheet", SCORECARD_COLUMNS, SCORECARD_OPTIONAL)

    for header, line, row in sheet_body(lines, file, on_error, header_problem, delimiter):
        try:
            card = _card(header, row, line)
            cards = games.setdefault(card.game, [])
            player = name_key(card.player)
            first = next((c.line for c in cards if name_key(c.player) == player), None)
            if first is not None:
                raise RowError(f"{quoted(card.player)} has a card for this game already (line {first})", "player")
            event = events.setdefault(event_key(card.event), card.event)
            cards.append(card if event == card.event else replace(card, event=event))
        except RowError as err:
            report(LogError(file, line_place(line, err.column), str(err)), on_error)
    for cards in games.values():
        place = "lines " + ", ".join(str(c.line) for c in cards) if len(cards) > 1 else f"line {cards[0].line}"
        findings = cross_check(cards)
        card = cards[0]
        night = (card.date or None, card.event or None, card.round or None)
        if findings:
            if on_record is not None:
                for f in findings:
                    on_record(SourceFinding(file, place, f, *night, pair=card.pair))
            continue
        if on_record is not None:
            on_record(SourceAgreement(file, place, *night, card.pair))
        try:
            game = validate_game(_as_log(cards[0]))
        except GameLogError as err:
            report(LogError(file, f"{place}: {err.place}" if err.place else place, err.message), on_error)
            continue
        twice = repeated_game(game, place, seen)  # two pairs of cards of one game but for their tables
        if twice:
            report(LogError(file, place, twice), on_error)
            continue
        yield SourceGame(file, place, game)


def cross_check(cards: list[Card]) -> list[Finding]:
    """The ``scorecard`` findings of one game's cards (none when the two agree)."""
    first = cards[0]
    what = f"{first.player} against {first.opponent}" + (f" in round {first.round}" if first.round else "")
    if len(cards) == 1:
        return [_finding(first.opponent, None, None,
                         f"only {first.player}'s card was handed in for {what}: {first.opponent}'s is missing")]
    found = []
    for card in cards:
        given = game_points_of(card.spread, card.variant, card.target)
        if given != card.game_points:
            found.append(_finding(card.player, card.game_points, given,
                                  f"{card.player}'s card for {what} gives {card.game_points} game points with a "
                                  f"spread of {card.spread:+d}, which gives {_points_words(given)}"))
    if found:
        return found
    one, two = cards
    if (one.variant, one.target) != (two.variant, two.target):  # not cards of one game: neither is taken
        return [_finding(None, None, None, f"the cards of {what} disagree: {one.player}'s is a {_game_words(one)} "
                         f"but {two.player}'s a {_game_words(two)}")]
    if (one.game_points > 0) == (two.game_points > 0):
        both = "both cards claim the win" if one.game_points > 0 else "neither card claims the win"
        return [_finding(None, None, None, f"the cards of {what} disagree: {both}")]
    if one.spread != -two.spread:
        return [_finding(None, None, None, f"the cards of {what} disagree: {one.player}'s spread is "
                         f"{one.spread:+d} but {two.player}'s is {two.spread:+d}, not {-one.spread:+d}")]
    return []


def _game_words(card: Card) -> str:
    return f"{card.variant.name} game to {card.target}"


def _points_words(points: int | None) -> str:
    return "no game points (a spread of 0 is no result)" if points is None else f"{points}"


def _finding(player: str | None, claimed: int | None, due: int | None, message: str) -> Finding:
    return Finding(None, None, None, "scorecard", "result", player, claimed, due, message)


def _as_log(card: Card) -> dict[str, Any]:
    winner, loser = (card.player, card.opponent) if card.game_points > 0 else (card.opponent, card.player)
    margin = abs(card.spread)
    log: dict[str, Any] = {"format": FORMAT}
    for name in ("date", "event", "round"):
        if getattr(card, name):
            log[name] = getattr(card, name)
    if card.variant != DEFAULT_VARIANT:
        log["variant"] = card.variant.name
    if card.target != card.variant.target:
        log["target"] = card.target
    log["players"] = [card.player, card.opponent]
    log["result"] = {"winner": winner, "scores": {winner: card.target, loser: card.target - margin}}
    return log


def _card(header: list[str], row: list[str], line: int) -> Card:
    if len(row) != len(header):
        raise RowError(f"expected {len(header)} values, as the header has, found {len(row)}")
    cells = {name: cell.strip() for name, cell in zip(header, row, strict=True)}
    for column in ("player", "opponent"):
        if not cells[column]:
            raise RowError("no name", column)
        try:  # the rule every name of a log follows: a card's names are the players the store would keep
            cells[column] = normalise_name(cells[column])
        except TextError as err:
            raise RowError(str(err), column) from None
    for column in ("event", "round"):
        try:
            cells[column] = check_text(cells[column], column)
        except TextError as err:
            raise RowError(str(err), column) from None
    if cells["date"]:
        try:
            iso_date(cells["date"])
        except ValueError as err:
            raise RowError(str(err), "date") from None
    if cells["player"] == cells["opponent"]:
        raise RowError(f"player and opponent are both {quoted(cells['player'])}")
    if name_key(cells["player"]) == name_key(cells["opponent"]):
        raise RowError(f"player {quoted(cells['player'])} and opponent {quoted(cells['opponent'])} "
                       f"{apart_only(cells['player'], cells['opponent'])}")
    points_text = cells["game_points"]
    if not _WHOLE.fullmatch(points_text) or int(points_text) not in GAME_POINTS:
        raise RowError(f"{quoted(points_text)} is not game points: a card gives {_GAME_POINTS_WORDS}",
                       "game_points")
    spread_text = cells["spread"].translate(MINUS_SIGNS)  # "\u2212" and "\u2013" too
    if not _SIGNED.fullmatch(spread_text):
        raise RowError(f"{quoted(cells['spread'])} is not a spread: write a whole number such as +17 or -17",
                       "spread")
    variant = find_variant(_variant(cells["variant"])) if cells.get("variant") else DEFAULT_VARIANT
    target = variant.target
    if cells.get("target"):
        if not _WHOLE.fullmatch(cells["target"]) or int(cells["target"]) == 0:
            raise RowError(f"{quoted(cells['target'])} is not a target: write a whole number such as 121",
                           "target")
        target = int(cells["target"])
    spread = int(spread_text)
    if abs(spread) > target:
        raise RowError(f"a spread of {spread:+d} is more than the target, {target}", "spread")
    return Card(line, cells["date"], cells["event"], cells["round"], cells.get("table", ""), cells["player"],
                cells["opponent"], int(points_text), spread, variant, target)
