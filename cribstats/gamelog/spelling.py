"""The words of the game log contract: its format name, cards and their spellings, and values described in
messages. Pure data and small functions, shared by the model, the fast decoder and the messages."""

from __future__ import annotations

from cribstats.cards import RANKS, SUITS
from cribstats.names import quoted

FORMAT = "cribstats/game/1"
#: a match record's format and the choices of its rules (docs/match.md; the match model takes them from here)
MATCH_FORMAT = "cribstats/match/1"
COUNTS = ("games", "points")
FIRST_DEALERS = ("loser", "alternate", "cut")
GO = "go"
CRIB = "crib"
#: why no player may be named so (the readers and the store refuse it alike)
CRIB_NAME_MESSAGE = f"{CRIB!r} cannot be a player's name: show uses it for the crib"
MUGGINS_PHASES = ("play", "heels", "hand", "crib")

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
CARD_MESSAGE = "{text} is not a card: ranks are A 2-9 T J Q K, suits C D H S"

_JSON_TYPES: dict[type, str] = {list: "an array", tuple: "an array", dict: "an object"}


def describe(value: object) -> str:
    """A JSON value in a few words, for messages: ``'1H'``, ``the number 5``, ``null``, ``an array``."""
    if isinstance(value, str):
        return quoted(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if value is None:
        return "null"
    return _JSON_TYPES.get(type(value), type(value).__name__)


def card_message(value: object) -> str:
    """What is wrong with a value that should be a card.

    >>> card_message("1H")
    "'1H' is not a card: ranks are A 2-9 T J Q K, suits C D H S"
    """
    if isinstance(value, str):
        return CARD_MESSAGE.format(text=quoted(value))
    return f"{describe(value)} is not a card: a card is a string such as '5H'"
