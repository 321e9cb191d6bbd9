"""The match record (docs/match.md, ``cribstats/match/1``): two sides, the rules, the games and the result.

A record read with :func:`validate_match` and written back with :func:`dump_match` is the same record; the
rules are always written in object form (a shorthand such as ``"best-of-3"`` or ``"points-7"`` is read as the
object it stands for).

>>> record = validate_match({"format": "cribstats/match/1", "id": "final", "players": ["Alice", "Bob"],
...                          "rules": "points-7"})
>>> record.rules.first_to, record.rules.count, record.sides
(7, 'points', (('Alice',), ('Bob',)))
>>> dump_match(record)["rules"]
{'first_to': 7, 'count': 'points', 'points': [1, 2, 3], 'triple_skunk_wins': False, 'first_dealer': 'loser'}
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from cribstats.gamelog import (
    EventText,
    GameLog,
    GameLogError,
    IsoDate,
    PlayerName,
    Points,
    PositiveNumber,
    RoundText,
    SiteText,
    Text,
    _explain,
    dump_game,
    game_key,
    join_place,
)
from cribstats.gamelog.spelling import MATCH_FORMAT
from cribstats.names import name_key, quoted
from cribstats.variants import VARIANTS

_BEST_OF = re.compile(r"best-of-(3|5|7)")
_POINTS_TO = re.compile(r"points-([1-9][0-9]*)")
SIDES_MESSAGE = "a match has two sides: write two names, or two partnerships of two"
RULES_SHORTHAND_PATTERN = r"^(?:best-of-[357]|points-[1-9][0-9]*)$"
Sides = tuple[tuple[str, ...], tuple[str, ...]]


def rules_from_shorthand(value: object) -> object:
    """A shorthand for the rules as its object form; anything else as it is.

    >>> rules_from_shorthand("best-of-5"), rules_from_shorthand("points-7")
    ({'first_to': 3, 'count': 'games'}, {'first_to': 7, 'count': 'points'})
    """
    if not isinstance(value, str):
        return value
    best_of = _BEST_OF.fullmatch(value)
    if best_of:
        return {"first_to": int(best_of.group(1)) // 2 + 1, "count": "games"}
    points_to = _POINTS_TO.fullmatch(value)
    if points_to:
        return {"first_to": int(points_to.group(1)), "count": "points"}
    raise ValueError(f"{quoted(value)} is not a match rule: write best-of-3, best-of-5, best-of-7 or points-N, "
                     "or the rules as an object")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


MatchPoints = Points  # a number of match points: whole, 0 or more, within what the store holds


class MatchRules(_Model):
    """How the match is won: the first side to ``first_to`` games won or match points."""

    first_to: PositiveNumber = 2
    count: Literal["games", "points"] = "games"
    points: Annotated[list[MatchPoints], Field(min_length=3, max_length=3)] = [1, 2, 3]
    triple_skunk_wins: Annotated[bool, Field(strict=True)] = False
    first_dealer: Literal["loser", "alternate", "cut"] = "loser"

    def points_for(self, skunk_level: int) -> int:
        """Match points a game won at this skunk level (0..3) gives its winner: a triple skunk counts as a double.

        >>> MatchRules(count="points").points_for(3), MatchRules().points_for(2)
        (3, 1)
        """
        if self.count == "games":
            return 1
        return self.points[min(skunk_level, 2)]


Side = Annotated[list[PlayerName], Field(min_length=2, max_length=2)]
Players = Annotated[
    Annotated[list[PlayerName], Field(min_length=2, max_length=2)]
    | Annotated[list[Side], Field(min_length=2, max_length=2)],
    Field(union_mode="left_to_right"),
]


class MatchResult(_Model):
    """What the table recorded: the match winner and each side's match points (keyed by a player of the side)."""

    winner: PlayerName | None = None
    points: dict[PlayerName, MatchPoints] | None = None


class MatchRecord(_Model):
    """One match, as a club or a tournament director recorded it."""

    model_config = ConfigDict(title="cribstats match record, version 1")

    format: Literal["cribstats/match/1"]
    id: Text
    event: EventText | None = None
    date: IsoDate | None = None
    site: SiteText | None = None
    round: RoundText | None = None
    players: Players
    rules: Annotated[MatchRules, BeforeValidator(rules_from_shorthand)] = MatchRules()
    games: list[GameLog | Text] | None = None
    result: MatchResult | None = None

    @property
    def sides(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The two sides as tuples of names (one name a side in two-player matches)."""
        one, two = ((p,) if isinstance(p, str) else tuple(p) for p in self.players)
        return one, two

    def side_of(self, name: str) -> int | None:
        """0 or 1: the side ``name`` plays on (:func:`side_of`); None for anyone else."""
        return side_of(self.sides, name)


def side_of(sides: Sides, name: str) -> int | None:
    """0 or 1: the side ``name`` plays on, by the player key (case and spacing folded); None for someone else.

    >>> side_of((("Mary Ann",), ("Bob",)), "mary  ann"), side_of((("Al",), ("Bo",)), "Cy")
    (0, None)
    """
    key = name_key(name)
    return next((i for i, side in enumerate(sides) if key in {name_key(n) for n in side}), None)


def game_sides(players: Sequence[str]) -> Sides | None:
    """A game's two sides from its players in seat order: two players face each other, four play in partnerships
    (seats 1 and 3 against 2 and 4), as the variants' sides have it; None for a three-player game, which is no
    two-sided match game.

    >>> game_sides(["N", "E", "S", "W"]), game_sides(["A", "B", "C"])
    ((('N', 'S'), ('E', 'W')), None)
    """
    rules = next((v for v in VARIANTS if v.players == len(players)), None)
    if rules is None or rules.sides != 2:
        return None
    by_side: tuple[list[str], list[str]] = ([], [])
    for seat, name in enumerate(players):
        by_side[rules.side_of(seat)].append(name)
    return tuple(by_side[0]), tuple(by_side[1])


def one_match_message(key: str, number: int, match: str) -> str:
    """A game listed by a second match: a game belongs to one match.

    >>> one_match_message("f1", 1, "final")
    "game 'f1' is already game 1 of match 'final': a game belongs to one match"
    """
    return f"game {quoted(key)} is already game {number} of match {quoted(match)}: a game belongs to one match"


def one_variant_message(variant: str, before: str) -> str:
    """A game of another variant than the match's games before it: a match is played in one variant.

    >>> one_variant_message("five-card", "six-card")
    "this game is five-card, but the match's games before it are six-card: a match is played in one variant"
    """
    return (f"this game is {variant}, but the match's games before it are {before}: a match is played in one "
            "variant")


def describe_sides(sides: Sides) -> str:
    """A match's two sides for a message: ``Alice against Bob``, ``N and S against E and W``."""
    return " against ".join(" and ".join(side) for side in sides)


def describe_players(players: Sequence[str]) -> str:
    """A game's players for a message: ``Alice and Bob``; in partnerships, who plays with whom.

    >>> describe_players(["Alice", "Bob"]), describe_players(["N", "S", "E", "W"])
    ('Alice and Bob', 'N and E against S and W')
    """
    sides = game_sides(players) if len(players) == 4 else None
    return " and ".join(players) if sides is None else describe_sides(sides)


def same_sides(sides: Sides, players: Sequence[str]) -> bool:
    """True when a game's players make up exactly the match's two sides (either way round), names compared by the
    player key (:func:`cribstats.names.name_key`: case and spacing folded), as the store knows players.

    >>> same_sides((("Mary Ann",), ("Bob",)), ["bob", "Mary  Ann"]), same_sides((("Al",), ("Bo",)), ["Al", "Cy"])
    (True, False)
    """
    theirs = game_sides(players)
    if theirs is None:
        return False
    mine = {frozenset(map(name_key, s)) for s in sides}
    return {frozenset(map(name_key, s)) for s in theirs} == mine


def own_number_message(key: str, own: int, match: str, listed: int) -> str:
    """A record that lists a game at another place than the number the game itself gives (``match_game``): the
    game's own number is what the table wrote.

    >>> own_number_message("n3", 3, "final", 1)
    "game 'n3' is game 3 of match 'final' by its own match_game, but the record lists it as game 1"
    """
    return (f"game {quoted(key)} is game {own} of match {quoted(match)} by its own match_game, but the record "
            f"lists it as game {listed}")


class MatchError(GameLogError):
    """A match record, or a game's part in a match, that breaks the contract; ``place`` as for a game log.

    ``games``: the whole games of a refused record that are games all the same, by their number in it, to be read
    as any other game (:func:`cribstats.match.record_checks.still_games`).
    """

    games: list[tuple[int, GameLog]] = []  # noqa: RUF012 (set on the instance when there are any)


def is_match_record(data: object) -> bool:
    """True for a decoded JSON object that says it is a match record."""
    return isinstance(data, dict) and data.get("format") == MATCH_FORMAT


def validate_match(data: object) -> MatchRecord:
    """Check a decoded JSON value against the match contract and return the record.

    :raises MatchError: naming the first place that breaks it (``games[1].deals[0].starter``, ``players``).
    """
    players = data.get("players") if isinstance(data, dict) else None
    from cribstats.match.record_checks import check_record, still_games

    first: MatchError | None = None  # the first place that breaks the contract: the record is refused there
    if isinstance(players, list) and not (_all_names(players) or all(
            isinstance(side, list) and len(side) == 2 and _all_names(side) for side in players)):
        first = MatchError("players", SIDES_MESSAGE)
    games = data.get("games") if isinstance(data, dict) else None
    read: list[tuple[int, GameLog | None]] = []  # each whole game by its number, None for one that is no game
    for g, game in enumerate(games if isinstance(games, list) else ()):
        if isinstance(game, dict):  # a whole game: checked as a game, so that its places read as a game's
            try:
                read.append((g + 1, GameLog.model_validate(game)))
            except ValidationError as err:
                explained = _explain(err, game)
                first = first or MatchError(join_place(f"games[{g}]", explained.place), explained.message)
                read.append((g + 1, None))
        elif not isinstance(game, str) or not game:
            first = first or MatchError(f"games[{g}]", "a game of a match is a game log (an object) or a game id "
                                        "(a string)")
    given_id = data.get("id") if isinstance(data, dict) else None
    record_id = given_id if isinstance(given_id, str) else None
    if first is not None:
        first.games = still_games(record_id, read)
        raise first
    try:
        record = MatchRecord.model_validate(data)
    except ValidationError as err:
        explained = _explain(err, data)
        refused = MatchError(explained.place, _match_message(explained))
        refused.games = still_games(record_id, read)
        raise refused from None
    check_record(record)
    return record


def _match_message(err: GameLogError) -> str:
    if err.place.startswith("rules") and "is not a match rule" not in err.message and err.place != "rules":
        return err.message
    if err.place == "players" and "2 to 4 players" in err.message:
        return SIDES_MESSAGE
    return err.message


def _all_names(items: list[object]) -> bool:
    return all(isinstance(item, str) for item in items)


def inline_games(record: MatchRecord) -> list[tuple[int, GameLog]]:
    """The whole game logs in the record, each with its number in the match and carrying the match id."""
    out = []
    for number, game in enumerate(record.games or (), start=1):
        if isinstance(game, str):
            continue
        out.append((number, as_match_game(record.id, number, game)))
    return out


SETTING_FIELDS = ("event", "date", "site", "round")
"""Where and when a game was played: the fields a whole game in a match record takes from the record."""


def taken_setting(record: MatchRecord, game: GameLog) -> dict[str, str | None]:
    """What a whole game of ``record`` takes from it: each of ``event``, ``date``, ``site`` and ``round`` the game
    does not give, the record's (None where the record gives none either). A game that gives its own keeps it.
    The game's log is not changed: the store keeps these on the game's row (:mod:`cribstats.store.match_setting`).

    >>> game = {"format": "cribstats/game/1", "round": "2", "players": ["Al", "Bo"]}
    >>> record = validate_match({"format": "cribstats/match/1", "id": "f", "event": "Cup", "date": "2026-11-28",
    ...                          "players": ["Al", "Bo"], "games": [game]})
    >>> taken_setting(record, inline_games(record)[0][1])
    {'event': 'Cup', 'date': '2026-11-28', 'site': None}
    """
    return {name: getattr(record, name) for name in SETTING_FIELDS if getattr(game, name) is None}


def listed_games(record: MatchRecord) -> list[tuple[int, str, str]]:
    """Every game the record lists: (number, key, place in the record), inline games by :func:`game_key`."""
    out = []
    for (number, game) in enumerate(record.games or (), start=1):
        key = game if isinstance(game, str) else game_key(as_match_game(record.id, number, game))
        out.append((number, key, f"games[{number - 1}]"))
    return out


def as_match_game(match_id: str, number: int, game: GameLog) -> GameLog:
    """A whole game of a record as game ``number`` of match ``match_id``: the two given to it where it does not
    give both itself."""
    if game.match is None or game.match_game is None:
        return game.model_copy(update={"match": match_id, "match_game": number})
    return game


def inner_place(outer: str | None, inner: str) -> str:
    """A place inside a record found at ``outer``: ``line 3`` and ``games[0]`` -> ``line 3: games[0]``;
    ``[2]`` and ``games[0]`` -> ``[2].games[0]``; either may be empty.

    >>> inner_place("line 3", "games[0]"), inner_place("[2]", "games[0]"), inner_place("", "id")
    ('line 3: games[0]', '[2].games[0]', 'id')
    """
    if not outer or not inner:
        return outer or inner
    if outer.startswith("["):
        return outer + inner if inner.startswith("[") else f"{outer}.{inner}"
    return f"{outer}: {inner}"


def dump_match(record: MatchRecord, *, nulls: bool = False) -> dict[str, Any]:
    """The record as JSON-ready data: the fields it was given, a field given as ``null`` left out as the absent
    field it means (as in a game log), rules in object form, games as given. ``nulls``: keep such fields, as
    records were hashed before (:func:`match_hash`)."""
    data = record.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=not nulls,
                             exclude={"rules", "games"})  # fmt: skip
    out: dict[str, Any] = {}
    for name in MatchRecord.model_fields:
        if name == "rules":
            out["rules"] = record.rules.model_dump(mode="json")
        elif name == "games" and record.games is not None:
            out["games"] = [g if isinstance(g, str) else dump_game(g) for g in record.games]
        elif name in data:
            out[name] = data[name]
    return out


def match_hash(record: MatchRecord, *, nulls: bool = False) -> str:
    """sha256 (hex) of the record's canonical JSON, inline games named by their keys (they are stored as games).

    Two records that differ only in the spelling of the rules (shorthand or object), key order or a field
    written ``null`` instead of left out hash alike. ``nulls``: the hash as stores made it before a ``null``
    was left out (fields given as ``null`` kept), by which a store recognises a record it holds from then.
    """
    data = dump_match(record, nulls=nulls)
    if record.games is not None:
        data["games"] = [key for _number, key, _place in listed_games(record)]
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()
