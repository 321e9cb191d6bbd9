"""Places and messages: a contract break as a JSON path (``deals[3].play[5]``) and a sentence in the contract's
words, from a pydantic validation error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from cribstats.gamelog.contract import HIGHEST_NUMBER, GameLogError, format_place
from cribstats.gamelog.spelling import (
    CARD_SPELLINGS,
    COUNTS,
    FIRST_DEALERS,
    FORMAT,
    GO,
    MATCH_FORMAT,
    MUGGINS_PHASES,
    card_message,
    describe,
)
from cribstats.names import quoted
from cribstats.variants import VARIANT_NAMES

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
    "format": f"expected {FORMAT!r} (a game) or {MATCH_FORMAT!r} (a match record)",
    "variant": "use one of " + ", ".join(VARIANT_NAMES),
    "phase": "use one of " + ", ".join(MUGGINS_PHASES),
    # a match record's rules (docs/match.md; tests/test_match_rules.py checks them against the model)
    "count": "use one of " + ", ".join(COUNTS),
    "first_dealer": "use one of " + ", ".join(FIRST_DEALERS),
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
    if _too_large(points):
        return f"points must be {HIGHEST_NUMBER} or less, not a number this large"
    return f"points must be a whole number, not {describe(points)}"


def _too_large(value: object) -> bool:
    """A whole number past the 64-bit bound, which the JSON reader hands over as a float (its digits rounded)."""
    return isinstance(value, float) and value > HIGHEST_NUMBER and value.is_integer()


def _field(name: int | str) -> str:
    """A field's name (a log's own key among them) quoted, as typed; an array's index as a number."""
    return quoted(name) if isinstance(name, str) else str(name)


def _message(error: Mapping[str, Any], loc: tuple[int | str, ...]) -> str:
    kind, value = error["type"], error.get("input")
    if kind == "missing":
        return f"missing required field {_field(loc[-1])}"
    if kind == "extra_forbidden":
        return f"unknown field {_field(loc[-1])}"
    if kind in ("value_error", "assertion_error"):
        return str(error["ctx"]["error"]) if "ctx" in error else error["msg"]
    if kind == "literal_error":
        field = next((p for p in reversed(loc) if isinstance(p, str)), "")
        choices = _LITERAL_CHOICES.get(field)
        if choices is None:
            return card_message(value)
        return f"{describe(value)} is not a {field}: {choices}" if field != "format" else (
            f"{describe(value)} is not a format cribstats reads: {choices}")
    if kind in ("int_type", "int_from_float") and _too_large(value):
        return f"must be {HIGHEST_NUMBER} or less, not a number this large"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, found {describe(value)}"
    if kind == "greater_than_equal":
        return f"must be {error['ctx']['ge']} or more, not {value}"
    if kind == "greater_than":
        return f"must be more than {error['ctx']['gt']}, not {value}"
    if kind == "less_than_equal":  # only the 64-bit bound (HIGHEST_NUMBER) is written this way
        return f"must be {error['ctx']['le']} or less, not {value}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind in ("too_short", "too_long"):
        if loc and loc[-1] == "players":
            return f"a game has 2 to 4 players, not {len(value or ())}"
        if loc[-2:] == ("rules", "points"):
            return ("match points are three numbers, for a win, a skunk win and a double-skunk win: not "
                    f"{len(value or ())}")
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
