"""The stored values of one discard, worked out once per shape of hand: what ``deal_discard`` holds.

A discard's values depend on the ranks dealt and on which cards share a suit (a flush, nobs, a suited throw in
the crib table), not on which suit that is: hearts and spades swapped give the same values to the last bit. So
the values of every discard of a dealt hand are kept (:func:`_shape_values`, a bounded cache) under the hand's
*shape*: its cards in card order, each suit renamed by the order it first appears in. A shape met again (the same
ranks, suits alike) costs a look-up; a new one costs what :func:`cribstats.discards.analysis.judge_discard` does,
with the same arithmetic in the same order, so the values are the very same floats.

>>> from cribstats.cards import parse_cards
>>> from cribstats.variants import find_variant
>>> dealt, thrown = parse_cards("5C 5D 5H JS 2C 9D"), parse_cards("2C 9D")
>>> row = discard_values(dealt, thrown, find_variant("six-card"), "dealer")
>>> row[1:3], row[-1]
(('5C 5D 5H JS', '2C 9D'), 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from cribstats.cards import CARD_TEXT, Card, format_card
from cribstats.discards.analysis import TIE, DiscardError, _values, has_crib_value
from cribstats.discards.hands import options
from cribstats.variants import Variant, find_variant

SHAPES_KEPT = 1 << 12  # shapes of hand whose values are kept (about 2 kB each: some 8 MB at most)

DiscardValues = tuple[bool, str, str, float, float | None, float, str, str, float, float]
"""``hand_only, kept, thrown, hand_value, crib_value, expected, best_kept, best_thrown, best_expected, loss``:
the columns of ``deal_discard`` after its ids, seat and role."""


def shape(cards: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` (in card order) with each suit renamed by the order it first appears in: hands of one shape
    differ only by which suit is which.

    >>> from cribstats.cards import parse_cards
    >>> shape(parse_cards("2H 5S 5H 9D")) == shape(parse_cards("2C 5S 5C 9H"))
    True
    """
    names: dict[int, int] = {}
    return tuple([(c & ~3) | names.setdefault(c & 3, len(names)) for c in cards])


@lru_cache(maxsize=SHAPES_KEPT)
def _shape_values(
    cards: tuple[Card, ...], variant: str, role: str
) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], list[float], list[float] | None, list[float], int]:
    """Every option's hand, crib and expected value for a hand of this shape, and the first best option."""
    opts, hands, cribs, expected = _values(cards, find_variant(variant), role, None)
    return opts, hands, cribs, expected, expected.index(max(expected))


@cache
def _option_of(dealt: int, thrown: int) -> dict[tuple[int, ...], int]:
    """The index in :func:`~cribstats.discards.hands.options` order of each throw (positions in card order)."""
    return {throw: i for i, (_, throw) in enumerate(options(dealt, thrown))}


def discard_values(dealt: Sequence[Card], thrown: Sequence[Card], variant: Variant, role: str) -> DiscardValues:
    """What ``deal_discard`` stores of laying ``thrown`` away from ``dealt``: the values
    :func:`~cribstats.discards.analysis.judge_discard` gives, the cards in their canonical spelling.

    :raises DiscardError: for cards that are not a dealt hand of the variant, or a throw that is not of them.
    """
    if len(thrown) != variant.to_crib or not set(thrown) <= set(dealt) or len(set(thrown)) != len(thrown):
        shown = " ".join(format_card(c) for c in thrown)
        raise DiscardError(f"{shown or 'nothing'} is not a discard of {variant.to_crib} of the dealt cards")
    cards = tuple(sorted(dealt))
    opts, hands, cribs, expected, best = _shape_values(shape(cards), variant.name, role)
    mine = _option_of(len(cards), len(thrown))[tuple(sorted([cards.index(c) for c in thrown]))]
    gap = expected[best] - expected[mine]
    (keep, throw), (best_keep, best_throw) = opts[mine], opts[best]
    text = CARD_TEXT
    return (
        not has_crib_value(variant),
        " ".join([text[cards[i]] for i in keep]),
        " ".join([text[cards[i]] for i in throw]),
        hands[mine],
        None if cribs is None else cribs[mine],
        expected[mine],
        " ".join([text[cards[i]] for i in best_keep]),
        " ".join([text[cards[i]] for i in best_throw]),
        expected[best],
        gap if gap > TIE else 0.0,
    )
