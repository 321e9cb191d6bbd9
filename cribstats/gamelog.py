"""The game log data model (spec game-log version 1). ``schemas/game-log-1.schema.json`` is generated from it.

Cards are kept in canonical spelling (``"TS"``); a model read and dumped back with :func:`dump_game` is the
same log, field for field. A log that breaks the contract is refused with :class:`GameLogError`, whose
``place`` is a JSON path (``deals[3].play[5]``); a log that merely breaks the rules of the game (a card played
twice, a wrong claim, a wrong number of cards) is accepted: the replay reports those as findings.

>>> game = validate_game({"format": "cribstats/game/1", "players": ["Alice", "Bob"],
...                       "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 88}}})
>>> game.variant_rules.target, game.deals
(121, None)
>>> validate_game({"format": "cribstats/game/1", "players": ["Alice", "Bob"],
...                "deals": [{"dealer": "Alice", "hands": {"Alice": [], "Bob": []}, "discards": {"Alice": [],
...                           "Bob": []}, "starter": "1H"}]})
Traceback (most recent call last):
...
cribstats.gamelog.GameLogError: deals[0].starter: '1H' is not a card: ranks are A 2-9 T J Q K, suits C D H S
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from datetime import date as Date
from functools import partial
from operator import itemgetter
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    model_validator,
)

from cribstats.cards import RANKS, SUITS
from cribstats.errors import CribstatsError
from cribstats.names import (
    MAX_NAME,
    TEXT_LIMITS,
    TextError,
    check_text,
    name_or_same,
    normalise_deal_names,
    normalise_keys,
    normalise_name,
)
from cribstats.variants import VARIANT_NAMES, Variant, find_variant

FORMAT = "cribstats/game/1"
GO = "go"
CRIB = "crib"
MUGGINS_PHASES = ("play", "heels", "hand", "crib")

# --- cards: canonical spellings are checked by pydantic-core (a literal lookup); others go through a table -------

CANONICAL_CARDS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_RANK_SPELLINGS = {r: r for r in RANKS} | {r.lower(): r for r in RANKS if r.isalpha()} | {"10": "T"}
_SUIT_SPELLINGS = {s: s for s in SUITS} | {s.lower(): s for s in SUITS} | dict(zip("♣♦♥♠", SUITS, strict=True))
#: every spelling of a card the contract accepts, mapped to its canonical spelling
CARD_SPELLINGS: dict[str, str] = {
    r + s: _RANK_SPELLINGS[r] + _SUIT_SPELLINGS[s] for r in _RANK_SPELLINGS for s in _SUIT_SPELLINGS
}
#: the same set as a JSON Schema (ECMA 262) pattern
_CARD_REGEX = "(?:[A2-9TJQKatjqk]|10)[CDHScdhs♣♦♥♠]"
CARD_PATTERN = f"^{_CARD_REGEX}$"
CARD_OR_GO_PATTERN = f"^(?:{_CARD_REGEX}|[Gg][Oo])$"
CARD_MESSAGE = "{text!r} is not a card: ranks are A 2-9 T J Q K, suits C D H S"


def card_message(value: object) -> str:
    """What is wrong with a value that should be a card.

    >>> card_message("1H")
    "'1H' is not a card: ranks are A 2-9 T J Q K, suits C D H S"
    """
    if isinstance(value, str):
        return CARD_MESSAGE.format(text=value)
    return f"{describe(value)} is not a card: a card is a string such as '5H'"


def _lenient_card(value: Any) -> str:
    canonical = CARD_SPELLINGS.get(value) if isinstance(value, str) else None
    if canonical is None:
        raise ValueError(card_message(value))
    return canonical


def _lenient_card_or_go(value: Any) -> str:
    if isinstance(value, str) and value.lower() == GO:
        return GO
    return _lenient_card(value)


_CARD_SCHEMA = {"type": "string", "pattern": CARD_PATTERN, "description": "a card: rank then suit, e.g. 5H, TS"}
CardText = Annotated[
    Literal[CANONICAL_CARDS] | Annotated[str, PlainValidator(_lenient_card)],  # type: ignore[valid-type]
    Field(union_mode="left_to_right"),
    WithJsonSchema(_CARD_SCHEMA),
]
CardOrGo = Annotated[
    Literal[(*CANONICAL_CARDS, GO)] | Annotated[str, PlainValidator(_lenient_card_or_go)],  # type: ignore[valid-type]
    Field(union_mode="left_to_right"),
    WithJsonSchema({"type": "string", "pattern": CARD_OR_GO_PATTERN,
                    "description": "a card, or \"go\""}),
]


def _iso_date(text: str) -> str:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise ValueError(f"{text!r} is not a date: write YYYY-MM-DD")
    try:
        Date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a date of the calendar") from None
    return text


IsoDate = Annotated[
    str,
    AfterValidator(_iso_date),
    WithJsonSchema({"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
]
PlayerName = Annotated[str, Field(min_length=1)]
Points = Annotated[int, Field(ge=0, strict=True)]
Score = Annotated[int, Field(strict=True)]  # a board position: below 0 only in a bidding game (check_options)


def _free_text(field: str) -> Any:
    """The checks of a free-text field under the name and text rule (:func:`cribstats.names.check_text`)."""
    return AfterValidator(partial(check_text, field=field))


def _max_length(field: str) -> Any:
    return Field(json_schema_extra={"maxLength": TEXT_LIMITS[field]})


Text = Annotated[str, Field(min_length=1), _max_length("id"), _free_text("id")]
EventText = Annotated[str, _max_length("event"), _free_text("event")]
SiteText = Annotated[str, _max_length("site"), _free_text("site")]
RoundText = Annotated[str, _max_length("round"), _free_text("round")]
PlayEvent = Annotated[
    tuple[PlayerName, CardOrGo] | tuple[PlayerName, CardText, Points],
    Field(union_mode="left_to_right"),
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=False)


class MugginsCall(_Model):
    """A muggins call: ``by`` takes ``points`` that ``from`` missed in ``phase``; ``event`` for a play call."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"phase": {"const": "play"}}, "required": ["phase"]},
            "then": {"required": ["event"]},
            "else": {"not": {"required": ["event"]}},
        }
    )

    by: PlayerName
    from_: PlayerName = Field(alias="from")
    phase: Literal["play", "heels", "hand", "crib"]
    points: Points
    event: Annotated[int, Field(ge=0, strict=True)] | None = None

    @model_validator(mode="after")
    def _event_with_play(self) -> MugginsCall:
        if self.phase == "play" and self.event is None:
            raise ValueError("a play call needs 'event', the index of the play event whose claim it corrects")
        if self.phase != "play" and self.event is not None:
            raise ValueError(f"only a play call has 'event'; this call is on the {self.phase}")
        return self


class Bid(_Model):
    """The winning bid for the crib in a bidding game: ``player`` takes the crib for ``points`` off his score."""

    player: PlayerName
    points: Annotated[int, Field(ge=1, strict=True)]


class Deal(_Model):
    """One deal: the cards, the play, the show claims, muggins calls and the board after it."""

    dealer: PlayerName
    hands: dict[PlayerName, list[CardText]]
    crib_card: CardText | None = None
    discards: dict[PlayerName, list[CardText]]
    bid: Bid | None = None  # bidding for the crib, before the cut
    starter: CardText
    heels: Points | None = None
    play: list[PlayEvent] | None = None
    pegged: dict[PlayerName, Points] | None = None
    show: dict[PlayerName, Points] | None = None
    muggins: list[MugginsCall] | None = None
    scores: dict[PlayerName, Score] | None = None


class Result(_Model):
    """What the table recorded at the end."""

    winner: PlayerName | None = None
    scores: dict[PlayerName, Score] | None = None


class GameLog(_Model):
    """One game, as a club or table logged it."""

    model_config = ConfigDict(title="cribstats game log, version 1")

    format: Literal["cribstats/game/1"]
    id: Text | None = None
    event: EventText | None = None
    date: IsoDate | None = None
    site: SiteText | None = None
    round: RoundText | None = None
    match: Text | None = None
    match_game: Annotated[int, Field(ge=1, strict=True)] | None = None
    variant: Literal[VARIANT_NAMES] | None = None  # type: ignore[valid-type]
    target: Annotated[int, Field(gt=0, strict=True)] | None = None
    muggins: Annotated[bool, Field(strict=True)] | None = None
    giveaway: Annotated[bool, Field(strict=True)] | None = None
    bidding: Annotated[bool, Field(strict=True)] | None = None
    players: Annotated[
        list[PlayerName],
        Field(min_length=2, max_length=4, json_schema_extra={"uniqueItems": True, "items": {
            "type": "string", "minLength": 1, "maxLength": MAX_NAME, "not": {"const": CRIB}}}),
    ]
    deals: list[Deal] | None = None
    result: Result | None = None

    @property
    def variant_rules(self) -> Variant:
        return find_variant(self.variant or VARIANT_NAMES[0])

    @property
    def target_score(self) -> int:
        return self.target if self.target is not None else self.variant_rules.target

    @property
    def muggins_rule(self) -> bool:
        return bool(self.muggins)

    @property
    def giveaway_rule(self) -> bool:
        return bool(self.giveaway)

    @property
    def bidding_rule(self) -> bool:
        return bool(self.bidding)


class GameLogError(CribstatsError, ValueError):
    """A log that breaks the contract; ``place`` is a JSON path such as ``deals[3].play[5]`` ('' for the game)."""

    def __init__(self, place: str, message: str) -> None:
        self.place = place
        self.message = message
        super().__init__(f"{place}: {message}" if place else message)


# --- places and messages -----------------------------------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def format_place(loc: tuple[int | str, ...]) -> str:
    """A JSON path a person can follow: ``('deals', 3, 'play', 5)`` -> ``'deals[3].play[5]'``.

    >>> format_place(("deals", 0, "hands", "Mary Ann", 2))
    'deals[0].hands["Mary Ann"][2]'
    """
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _NAME.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += "[" + orjson.dumps(part).decode() + "]"
    return out


def join_place(prefix: str, place: str) -> str:
    """``'[3]'`` and ``'deals[0]'`` -> ``'[3].deals[0]'``; either may be empty."""
    if not prefix or not place:
        return prefix or place
    return prefix + place if place.startswith("[") else f"{prefix}.{place}"


_JSON_TYPES: dict[type, str] = {list: "an array", tuple: "an array", dict: "an object"}


def describe(value: object) -> str:
    """A JSON value in a few words, for messages: ``'1H'``, ``the number 5``, ``null``, ``an array``."""
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if value is None:
        return "null"
    return _JSON_TYPES.get(type(value), type(value).__name__)


_EXPECTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "list_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dataclass_type": "an object",
    "tuple_type": "an array",
}
_PLAY_EVENT_SHAPE = 'a play event is [player, card], [player, card, points] or [player, "go"]'
_LITERAL_CHOICES = {
    "format": f"expected {FORMAT!r}",
    "variant": "use one of " + ", ".join(VARIANT_NAMES),
    "phase": "use one of " + ", ".join(MUGGINS_PHASES),
}


def _play_event_message(value: object) -> str:
    """What is wrong with a play event (the model found something; say what in the contract's words)."""
    if not isinstance(value, list | tuple):
        return f"{describe(value)} is not a play event: {_PLAY_EVENT_SHAPE}"
    if len(value) not in (2, 3):
        return f"a play event has 2 or 3 items, not {len(value)}: {_PLAY_EVENT_SHAPE}"
    player, card = value[0], value[1]
    if not isinstance(player, str) or not player:
        return f"{describe(player)} is not a player's name: {_PLAY_EVENT_SHAPE}"
    if len(value) == 3 and isinstance(card, str) and card.lower() == GO:
        return "a go carries no points: write [player, \"go\"]"
    if not (isinstance(card, str) and (card in CARD_SPELLINGS or card.lower() == GO)):
        return card_message(card)
    points = value[2]
    if isinstance(points, int) and not isinstance(points, bool) and points < 0:
        return f"points cannot be negative ({points})"
    return f"points must be a whole number, not {describe(points)}"


def _message(error: Mapping[str, Any], loc: tuple[int | str, ...]) -> str:
    kind, value = error["type"], error.get("input")
    if kind == "missing":
        return f"missing required field {loc[-1]!r}"
    if kind == "extra_forbidden":
        return f"unknown field {loc[-1]!r}"
    if kind in ("value_error", "assertion_error"):
        return str(error["ctx"]["error"]) if "ctx" in error else error["msg"]
    if kind == "literal_error":
        field = next((p for p in reversed(loc) if isinstance(p, str)), "")
        choices = _LITERAL_CHOICES.get(field)
        if choices is None:
            return card_message(value)
        return f"{describe(value)} is not a {field}: {choices}" if field != "format" else (
            f"{describe(value)} is not a format cribstats reads: {choices}")
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, found {describe(value)}"
    if kind == "greater_than_equal":
        return f"must be {error['ctx']['ge']} or more, not {value}"
    if kind == "greater_than":
        return f"must be more than {error['ctx']['gt']}, not {value}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind in ("too_short", "too_long"):
        if loc and loc[-1] == "players":
            return f"a game has 2 to 4 players, not {len(value or ())}"
        return str(error["msg"])
    return str(error["msg"])


def _strip_loc(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Drop pydantic's union tags (``literal[...]``, ``function-plain[...]``, ``tuple[...]``) from a location."""
    return tuple(p for p in loc if isinstance(p, int) or not (p.endswith("]") and "[" in p))


def _explain(err: ValidationError, data: object) -> GameLogError:
    """The first contract break of a failed validation, as a place and a readable message."""
    errors = err.errors(include_url=False)
    first = errors[0]
    loc = _strip_loc(first["loc"])
    # a play event fails as a whole (a union of shapes): explain it from the raw value
    for i in range(len(loc) - 2):
        if loc[i] == "deals" and loc[i + 2] == "play" and len(loc) > i + 3 and isinstance(loc[i + 3], int):
            event_loc = loc[: i + 4]
            return GameLogError(format_place(event_loc), _play_event_message(_at(data, event_loc)))
    # a card fails twice (the canonical lookup, then the other spellings): the second says why
    same = [e for e in errors if _strip_loc(e["loc"]) == loc]
    best = next((e for e in same if e["type"] == "value_error"), first)
    if "[key]" in best["loc"]:  # a name that keys a dict (hands, show, scores, ...): only an empty one fails
        return GameLogError(format_place(loc[:-1]), "a player's name must not be empty")
    if best["type"] in ("missing", "extra_forbidden"):
        return GameLogError(format_place(loc[:-1]), _message(best, loc))
    if best["type"] in ("model_type", "model_attributes_type") and not loc:
        return GameLogError("", f"a game is a JSON object, not {describe(best.get('input'))}")
    return GameLogError(format_place(loc), _message(best, loc))


def _at(data: object, loc: tuple[int | str, ...]) -> object:
    for part in loc:
        try:
            data = data[part]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return data


# --- validation --------------------------------------------------------------------------------------------------


def validate_game(data: object) -> GameLog:
    """Check a decoded JSON value against the contract and return the model.

    :raises GameLogError: naming the first place that breaks it.
    """
    try:
        game = GameLog.model_validate(data)
    except ValidationError as err:
        raise _explain(err, data) from None
    check_players(game)
    check_options(game)
    return game


def validate_game_json(text: bytes | str) -> GameLog:
    """:func:`validate_game` on JSON text (one game).

    :raises GameLogError: for a contract break; ``orjson.JSONDecodeError`` for text that is not JSON.
    """
    return validate_game(orjson.loads(text))


def check_players(game: GameLog) -> None:
    """The player rules of the contract that a schema cannot say: names distinct, known, and the right count.

    :raises GameLogError: naming the first place that breaks them.
    """
    players = _normalise_players(game)
    known = set(players)
    if len(known) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise GameLogError("players", f"{twice!r} is named twice: player names must be distinct")
    if CRIB in known:
        raise GameLogError("players", "'crib' cannot be a player's name: show uses it for the crib")
    rules = game.variant_rules
    if len(players) != rules.players:
        raise GameLogError("players", f"{rules.name} is played by {rules.players} players, not {len(players)}")
    if game.deals:
        show_names = known | {CRIB}
        for d, deal in enumerate(game.deals):
            # the common case costs a few set operations in C; _check_deal runs only to name the culprit
            fits = _names_fit(deal, known, show_names)
            if not fits:
                normalise_deal_names(deal)  # names in another Unicode form or with spaces around them
                fits = _names_fit(deal, known, show_names)
            if deal.muggins or not fits:
                _check_deal(deal, f"deals[{d}]", players, known)
    result = game.result
    if result is not None:
        if result.winner is not None and result.winner not in known:
            result.winner = name_or_same(result.winner)
        if result.scores and not known.issuperset(result.scores):
            result.scores = normalise_keys(result.scores)
        if result.winner is not None and result.winner not in known:
            raise GameLogError("result.winner", _not_a_player(result.winner))
        _check_names(result.scores, known, "result.scores")


def _names_fit(deal: Deal, known: set[str], show_names: set[str]) -> bool:
    """True when every name a deal uses is a player's (a few set operations in C)."""
    play, pegged, show, scores = deal.play, deal.pegged, deal.show, deal.scores
    return not (
        deal.dealer not in known
        or deal.hands.keys() != known
        or deal.discards.keys() != known
        or (play and not known.issuperset(map(_first, play)))
        or (pegged and not known.issuperset(pegged))
        or (show and not show_names.issuperset(show))
        or (scores and not known.issuperset(scores))
        or (deal.muggins and not all(c.by in known and c.from_ in known for c in deal.muggins))
    )


def _normalise_players(game: GameLog) -> list[str]:
    """The players' names under the name rule (:func:`cribstats.names.normalise_name`), put back in the game.

    :raises GameLogError: at ``players[i]`` for a name the rule refuses.
    """
    names = []
    for i, name in enumerate(game.players):
        try:
            names.append(normalise_name(name))
        except TextError as err:
            raise GameLogError(f"players[{i}]", str(err)) from None
    if names != game.players:
        game.players = names
    return names


_first = itemgetter(0)


def _positions(game: GameLog) -> Iterator[tuple[tuple[str | int, ...], dict[str, int]]]:
    for d, deal in enumerate(game.deals or ()):
        if deal.scores:
            yield ("deals", d, "scores"), deal.scores
    if game.result is not None and game.result.scores:
        yield ("result", "scores"), game.result.scores


def check_options(game: GameLog) -> None:
    """The game options of seed 002 (RULES.md): bidding is six-card only, and a ``bid`` needs it and a player.

    :raises GameLogError: naming the first place that breaks them.
    """
    if game.bidding_rule and game.variant_rules.name != "six-card":
        raise GameLogError("bidding", f"bidding for the crib is six-card only, not {game.variant_rules.name}")
    if game.match_game is not None and game.match is None:
        raise GameLogError("match_game", "a game number in a match needs 'match', the match id")
    if not game.bidding_rule:
        for place, scores in _positions(game):
            below = next((p for p, score in scores.items() if score < 0), None)
            if below is not None:
                raise GameLogError(format_place((*place, below)), f"must be 0 or more, not {scores[below]} (only "
                                   "a bidding game's scores go below 0)")
    for d, deal in enumerate(game.deals or ()):
        if deal.bid is None:
            continue
        if not game.bidding_rule:
            raise GameLogError(f"deals[{d}].bid", "a bid for the crib needs \"bidding\": true on the game")
        if deal.bid.player not in game.players:
            raise GameLogError(f"deals[{d}].bid.player", _not_a_player(deal.bid.player))


def _not_a_player(name: str) -> str:
    return f"{name!r} is not a player of this game"


def _check_names(names: dict[str, Any] | None, known: set[str], place: str) -> None:
    if names and not known.issuperset(names):
        raise GameLogError(place, _not_a_player(next(n for n in names if n not in known)))


def _check_deal(deal: Deal, where: str, players: list[str], known: set[str]) -> None:
    if deal.dealer not in known:
        raise GameLogError(f"{where}.dealer", _not_a_player(deal.dealer))
    _check_names(deal.hands, known, f"{where}.hands")
    for name in players:
        if name not in deal.hands:
            raise GameLogError(f"{where}.hands", f"no hand for {name!r}")
    _check_names(deal.discards, known, f"{where}.discards")
    for name in players:
        if name not in deal.discards:
            raise GameLogError(f"{where}.discards", f"no discards for {name!r}")
    play = deal.play or []
    for e, event in enumerate(play):
        if event[0] not in known:
            raise GameLogError(f"{where}.play[{e}]", _not_a_player(event[0]))
    _check_names(deal.pegged, known, f"{where}.pegged")
    if deal.show:
        _check_names({n: 0 for n in deal.show if n != CRIB}, known, f"{where}.show")
    for m, call in enumerate(deal.muggins or ()):
        place = f"{where}.muggins[{m}]"
        for name in (call.by, call.from_):
            if name not in known:
                raise GameLogError(place, _not_a_player(name))
        if call.by == call.from_:
            raise GameLogError(place, f"{call.by!r} cannot call muggins on themself")
        if call.event is not None and call.event >= len(play):
            raise GameLogError(f"{place}.event", f"there is no play event {call.event} in this deal "
                               f"(its play has {len(play)})")
    _check_names(deal.scores, known, f"{where}.scores")


# --- writing and identity ----------------------------------------------------------------------------------------


def dump_game(game: GameLog) -> dict[str, Any]:
    """The log as JSON-ready data: only the fields it was given, cards canonical, fields in the spec's order."""
    return game.model_dump(mode="json", by_alias=True, exclude_unset=True)


def content_hash(game: GameLog, dumped: dict[str, Any] | None = None) -> str:
    """sha256 (hex) of the canonical JSON of the game: :func:`dump_game` with sorted keys, compact, UTF-8.

    ``dumped`` is the game's :func:`dump_game`, when the caller has it already.

    Two logs that differ only in card spelling or key order have the same hash.

    >>> a = validate_game({"format": "cribstats/game/1", "players": ["A", "B"], "result": {"winner": "A"}})
    >>> b = validate_game({"result": {"winner": "A"}, "players": ["A", "B"], "format": "cribstats/game/1"})
    >>> content_hash(a) == content_hash(b), len(content_hash(a))
    (True, 64)
    """
    data = dump_game(game) if dumped is None else dumped
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


def game_key(game: GameLog, digest: str | None = None) -> str:
    """How findings and the store name a game: its ``id``, or the first 16 hex digits of :func:`content_hash`
    (``digest``, when the caller has it already).

    >>> game_key(validate_game({"format": "cribstats/game/1", "id": "r2-t4", "players": ["A", "B"]}))
    'r2-t4'
    """
    if game.id is not None:
        return game.id
    return (digest if digest is not None else content_hash(game))[:16]
