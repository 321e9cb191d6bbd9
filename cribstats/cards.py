"""Cards as small integers, and the parse/format round trip.

A card is ``rank * 4 + suit`` with rank 0..12 (A..K) and suit 0..3 (C, D, H, S).

>>> format_card(parse_card("10s"))
'TS'
>>> value(parse_card("KD")), value(parse_card("AH"))
(10, 1)
"""

from __future__ import annotations

from typing import TypeAlias

from cribstats.errors import CardError
from cribstats.names import quoted

Card: TypeAlias = int
Rank: TypeAlias = int
Suit: TypeAlias = int

RANKS = "A23456789TJQK"
SUITS = "CDHS"
DECK: tuple[Card, ...] = tuple(range(52))
JACK: Rank = 10

_RANK_ALIASES = {ch: i for i, ch in enumerate(RANKS)} | {"10": 9}
_SUIT_ALIASES = {ch: i for i, ch in enumerate(SUITS)} | {"♣": 0, "♦": 1, "♥": 2, "♠": 3}
_CARD_ERROR = "{text} is not a card: ranks are A 2-9 T J Q K, suits C D H S"


def parse_card(text: str) -> Card:
    """Read a card in any spelling of the game log: ``"5H"``, ``"10s"``, ``"T♠"``, ``"jd"``.

    >>> parse_card("5H") == parse_card("5h") == parse_card("5♥")
    True

    :raises CardError: for anything else.
    """
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card: a card is a string such as '5H'")
    stripped = text.strip().upper()
    rank = _RANK_ALIASES.get(stripped[:-1])
    suit = _SUIT_ALIASES.get(stripped[-1:])
    if rank is None or suit is None:
        raise CardError(_CARD_ERROR.format(text=quoted(text)))
    return rank * 4 + suit


def format_card(card: Card) -> str:
    """The canonical spelling: upper case, ``T`` for ten.

    >>> format_card(36)
    'TC'
    """
    return RANKS[card >> 2] + SUITS[card & 3]


def parse_cards(texts: str | list[str]) -> list[Card]:
    """Read several cards from a list or a space-separated string.

    >>> [format_card(c) for c in parse_cards("5h 10s jd")]
    ['5H', 'TS', 'JD']
    """
    if isinstance(texts, str):
        texts = texts.split()
    return [parse_card(t) for t in texts]


def rank(card: Card) -> Rank:
    """Rank index 0..12, the ace low."""
    return card >> 2


def suit(card: Card) -> Suit:
    """Suit index 0..3 (C, D, H, S)."""
    return card & 3


def rank_value(r: Rank) -> int:
    """Counting value of a rank: A = 1, 2..9 face value, T J Q K = 10 (the one place this rule is written)."""
    return r + 1 if r < 9 else 10


def value(card: Card) -> int:
    """Counting value of a card: A = 1, 2..9 face value, T J Q K = 10."""
    return rank_value(card >> 2)


#: the canonical spelling of each card, by card
CARD_TEXT: tuple[str, ...] = tuple(format_card(c) for c in DECK)
#: each card by its canonical spelling (what the game log model leaves in a validated log)
CARD_BY_TEXT: dict[str, Card] = {text: c for c, text in enumerate(CARD_TEXT)}
#: counting values by rank and by card, for hot paths that would rather index than call
RANK_VALUES: tuple[int, ...] = tuple(rank_value(r) for r in range(len(RANKS)))
VALUES: tuple[int, ...] = tuple(value(c) for c in DECK)
