"""Game records of the cribbage-zero engine (``.pgn``): a PGN-like notation, read into six-card game logs.

A record is tag lines (``[FirstDealer "Staples"]``, ``[FirstPone "..."]``, ``[Result "1-0"]``, and optionally
``[Event]``, ``[Site]``, ``[Date]``, ``[Round]``), then rounds: ``N.`` and lines of keys, each followed by its
values (which may go on over the next lines: a line that starts with a value, not a key, continues the last
key): ``H1``/``H2`` the six cards dealt to player 1 (the first dealer) and player 2, ``D1``/``D2`` their
discards, ``S1``/``S2`` their hand scores, ``SC`` the crib score, ``C`` the cut card, ``SH`` his heels (may be
absent), ``P`` the cards in the order played with ``|`` where the count restarts, ``SP`` the points pegged on
each played card, go and last card included. Rounds are numbered 1, 2, 3, ... in order (a repeated or skipped
number is refused: the dealer is told by it); player 1 deals the odd rounds. A file may hold several records,
each starting with its tags.

The log has ``players`` = [first dealer, first pone]; each round a deal with the hands, discards, starter,
``heels`` when ``SH`` is given, ``play`` as ``[player, card, points]`` (goes left implied; the replay works out
the restarts itself), ``show`` with both hands and the crib; ``[Result]`` gives ``result.winner`` (``1-0``: the
first dealer, ``0-1``: the first pone, anything else: no winner recorded).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from cribstats.errors import CribstatsError, LogError
from cribstats.findings import counted
from cribstats.formats.sources import OnError, SourceGame, empty_input, line_place, report
from cribstats.gamelog import CARD_SPELLINGS, FORMAT, GameLogError, card_message, validate_game
from cribstats.names import TextError, check_game_size, check_text, normalise_name, quoted

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]$')
_ROUND = re.compile(r"^(\d+)\.(.*)$")
_NUMBER = re.compile(r"\d+")
CARD_KEYS = ("H1", "H2", "D1", "D2", "C", "P")
NUMBER_KEYS = ("S1", "S2", "SC", "SH", "SP")
KEYS = frozenset(CARD_KEYS + NUMBER_KEYS)
#: the keys as the format lists them, for messages
KEY_LIST = "H1, H2, D1, D2, S1, S2, SC, C, SH, P, SP"
#: a word that reads as a (misspelt or unknown) key where a line starts, unless it is a value of the last key
_KEY_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9]{0,7}")
REQUIRED = ("H1", "H2", "D1", "D2", "C")
RESTART = "|"
PLAYER_TAGS = ("FirstDealer", "FirstPone")
#: a record of no more rounds than this is far under the size limit of a game log: its size is not worked out
_ROUNDS_SURELY_SMALL = 500


class RecordError(CribstatsError, ValueError):
    """Notation that cannot be read; ``line`` is where."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class _Round:
    number: int
    line: int
    values: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # key -> (token, line)


@dataclass(slots=True)
class _Record:
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    rounds: list[_Round] = field(default_factory=list)


def read_cribzero(lines: Iterable[str], file: str, *, on_error: OnError | None = None) -> Iterator[SourceGame]:
    """Games from the lines of a cribbage-zero record file; places are ``game N`` (1-based).

    :raises LogError: with the line, for notation that cannot be read (unless ``on_error`` takes it: then
        the rest of that record is skipped and the next one read).
    """
    number = 0
    any_text = False
    for item in _records(lines):
        number += 1
        any_text = True
        if isinstance(item, RecordError):
            report(LogError(file, line_place(item.line), str(item)), on_error)
            continue
        try:
            yield SourceGame(file, f"game {number}", validate_game(record_to_log(item)))
        except RecordError as err:
            report(LogError(file, line_place(err.line), str(err)), on_error)
        except GameLogError as err:
            report(LogError(file, f"game {number}: {err.place}" if err.place else f"game {number}",
                            err.message), on_error)
    if not any_text:
        report(empty_input(file), on_error)


def _records(lines: Iterable[str]) -> Iterator[_Record | RecordError]:
    """Split the lines into records (tags, then rounds); a line that fits nowhere spoils its record."""
    record: _Record | None = None
    spoiled = False
    current: _Round | None = None
    key: str | None = None
    for number, raw in enumerate(lines, 1):
        text = raw.strip().lstrip("\ufeff") if number == 1 else raw.strip()
        if not text:
            continue
        tag = _TAG.match(text)
        if tag:
            if record is None or record.rounds or spoiled:
                if record is not None and not spoiled:
                    yield record
                record, spoiled, current, key = _Record(number), False, None, None
            record.tags[tag.group(1)] = tag.group(2)
            continue
        if spoiled:
            continue
        if record is None:
            yield RecordError(number, "expected a tag line such as [FirstDealer \"...\"], found "
                              f"{quoted(text[:30])}")
            record, spoiled = _Record(number), True
            continue
        start = _ROUND.match(text)
        if start:
            wrong = _out_of_sequence(start.group(1), len(record.rounds))
            if wrong:
                yield RecordError(number, wrong)
                spoiled = True
                continue
            current, key = _Round(len(record.rounds) + 1, number), None
            record.rounds.append(current)
            text = start.group(2).strip()
        if current is None:
            yield RecordError(number, f"expected a round number such as '1.', found {quoted(text[:30])}")
            spoiled = True
            continue
        for at, token in enumerate(text.split()):
            if at == 0 and token not in KEYS and _KEY_SHAPE.fullmatch(token) and not _value_of(key, token):
                yield RecordError(number, f"round {current.number}: {token} is not a key ({KEY_LIST})")
                spoiled = True
                break
            if token in KEYS:
                key = token
                if key in current.values:
                    yield RecordError(number, f"round {current.number} gives {key} twice")
                    spoiled = True
                    break
                current.values[key] = []
            elif key is None:
                yield RecordError(number, f"{quoted(token)} comes before any key (H1, H2, D1, D2, C, P, ...)")
                spoiled = True
                break
            else:
                current.values[key].append((token, number))
    if record is not None and not spoiled:
        yield record


def _out_of_sequence(label: str, before: int) -> str | None:
    """What is wrong with round ``label`` coming after ``before`` rounds (None: it is the next one). Rounds run
    1, 2, 3, ...: the dealer is told by the round's place, so a repeated or skipped number is refused."""
    expected = before + 1
    if len(label) <= len(str(expected)) + 2 and int(label) == expected:  # "01." is round 1; no huge int()
        return None
    shown = label if len(label) <= 20 else label[:20] + "..."
    where = f"comes after round {before}" if before else "is the first round"
    return f"round {shown} {where}: rounds run 1, 2, 3, ... (expected round {expected})"


def _value_of(key: str | None, token: str) -> bool:
    """Whether ``token`` reads as a value of ``key``: a line that starts with one continues that key (with no key
    yet, a card is a value that comes before any key, not an unknown key)."""
    if key in NUMBER_KEYS:
        return _NUMBER.fullmatch(token) is not None
    return token in CARD_SPELLINGS or (key == "P" and token == RESTART)


def record_to_log(record: _Record) -> dict[str, Any]:
    """One record as a game log (a dict for :func:`~cribstats.gamelog.validate_game`).

    :raises RecordError: for a record that cannot be turned into a log.
    """
    tags = record.tags
    for name in PLAYER_TAGS:
        if not tags.get(name):
            raise RecordError(record.line, f"the record has no [{name} \"...\"] tag")
    players = [_player(tags, name, record.line) for name in PLAYER_TAGS]
    if players[0] == players[1]:
        raise RecordError(record.line, f"FirstDealer and FirstPone are both {quoted(players[0])}")
    log: dict[str, Any] = {"format": FORMAT}
    for tag, key in (("Event", "event"), ("Date", "date"), ("Site", "site"), ("Round", "round")):
        value = tags.get(tag, "").strip()
        if key == "date":
            value = _iso_date(value)
        if value and value != "?":
            try:
                log[key] = value if key == "date" else check_text(value, key)
            except TextError as err:
                raise RecordError(record.line, f"[{tag}]: {err}") from None
    log["players"] = players
    log["deals"] = [_deal(r, players) for r in record.rounds]
    winner = {"1-0": players[0], "0-1": players[1]}.get(tags.get("Result", "").strip())
    if winner is not None:
        log["result"] = {"winner": winner}
    if len(record.rounds) > _ROUNDS_SURELY_SMALL:
        try:
            check_game_size(len(orjson.dumps(log)))
        except TextError as err:
            raise RecordError(record.line, str(err)) from None
    return log


def _player(tags: dict[str, str], tag: str, line: int) -> str:
    """A player's tag under the name rule (:func:`cribstats.names.normalise_name`)."""
    try:
        return normalise_name(tags[tag])
    except TextError as err:
        raise RecordError(line, f"[{tag}]: {err}") from None


def _iso_date(text: str) -> str:
    """PGN dates are ``YYYY.MM.DD`` with ``?`` for unknown parts: keep a full date, as ISO, drop the rest."""
    match = re.fullmatch(r"(\d{4})[.-](\d{2})[.-](\d{2})", text)
    return "-".join(match.groups()) if match else ""


def _deal(rnd: _Round, players: list[str]) -> dict[str, Any]:
    values = rnd.values
    for key in REQUIRED:
        if key not in values:
            raise RecordError(rnd.line, f"round {rnd.number} has no {key}")
    cards = {key: _cards(values[key], key) for key in CARD_KEYS if key in values}
    dealer = players[0] if rnd.number % 2 == 1 else players[1]
    pone = players[1] if dealer == players[0] else players[0]
    first, second = players
    deal: dict[str, Any] = {
        "dealer": dealer,
        "hands": {first: cards["H1"], second: cards["H2"]},
        "discards": {first: cards["D1"], second: cards["D2"]},
        "starter": _one_card(values["C"], rnd),
    }
    if "SH" in values:
        deal["heels"] = _one_number(values["SH"], "SH", rnd)
    if "P" in cards or "SP" in values:
        deal["play"] = _play(cards.get("P", []), values.get("SP", []), values.get("P", []), deal, rnd)
    show = {}
    for key, who in (("S1", first), ("S2", second)):
        if key in values:
            show[who] = _one_number(values[key], key, rnd)
    if "SC" in values:
        show["crib"] = _one_number(values["SC"], "SC", rnd)
    if show:
        deal["show"] = {k: show[k] for k in (pone, dealer, "crib") if k in show}
    return deal


def _cards(tokens: list[tuple[str, int]], key: str) -> list[str]:
    cards = []
    for token, line in tokens:
        if key == "P" and token == RESTART:
            continue
        card = CARD_SPELLINGS.get(token)
        if card is None:
            raise RecordError(line, f"{key}: {card_message(token)}")
        cards.append(card)
    return cards


def _one_card(tokens: list[tuple[str, int]], rnd: _Round) -> str:
    if len(tokens) != 1:
        raise RecordError(tokens[0][1] if tokens else rnd.line, f"round {rnd.number}: C is one card, "
                          f"found {len(tokens)}")
    return _cards(tokens, "C")[0]


def _numbers(tokens: list[tuple[str, int]], key: str) -> list[int]:
    out = []
    for token, line in tokens:
        if not _NUMBER.fullmatch(token):
            raise RecordError(line, f"{key}: {quoted(token)} is not a whole number of points")
        out.append(int(token))
    return out


def _one_number(tokens: list[tuple[str, int]], key: str, rnd: _Round) -> int:
    if len(tokens) != 1:
        raise RecordError(tokens[0][1] if tokens else rnd.line, f"round {rnd.number}: {key} is one number, "
                          f"found {len(tokens)}")
    return _numbers(tokens, key)[0]


def _play(cards: list[str], sp: list[tuple[str, int]], p_tokens: list[tuple[str, int]],
          deal: dict[str, Any], rnd: _Round) -> list[list[Any]]:
    """``[player, card, points]`` for each card laid: the player is the one who kept it (or, failing that, was
    dealt it: laying a discarded card is a rule break the replay reports)."""
    points = _numbers(sp, "SP")
    line = (sp or p_tokens or [("", rnd.line)])[0][1]
    if len(points) != len(cards):
        laid, given = counted(len(cards), "card"), counted(len(points), "point")
        raise RecordError(line, f"round {rnd.number}: P lays {laid} but SP gives {given}")
    owner: dict[str, str] = {}
    for who, dealt in deal["hands"].items():
        for card in dealt:
            owner.setdefault(card, who)
    for who, dealt in deal["hands"].items():
        kept = set(dealt) - set(deal["discards"][who])
        for card in kept:
            owner[card] = who
    lines = [number for token, number in p_tokens if token != RESTART]
    play = []
    for card, score, at in zip(cards, points, lines, strict=True):
        if card not in owner:
            raise RecordError(at, f"round {rnd.number}: P lays {card}, which was dealt to neither player")
        play.append([owner[card], card, score])
    return play
