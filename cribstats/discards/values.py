"""The stored values of one discard: what ``deal_player`` keeps of it.

A hand that keeps four (six-card, three- and four-player) is valued directly (:func:`_four_card_discard`): the
rank part of each keep from a table, flush and nobs by the starters left in each suit, the crib value from the
crib table, with the arithmetic of :func:`cribstats.discards.analysis.judge_discard` in its order, so the values
are the very same floats. Other hands (five- and seven-card) score every keep with every starter, which costs
more: their values are kept (:func:`_shape_values`, a bounded cache) under the hand's *shape*, its cards in card
order with each suit renamed by the order it first appears in (a discard's values depend on which cards share a
suit, not on which suit that is: hearts and spades swapped give the same values to the last bit).

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
from cribstats.discards.analysis import ROLES, TIE, DiscardError, _values, has_crib_value, with_crib
from cribstats.discards.hands import FLUSH_KEEP, Option, four_card_points, options
from cribstats.discards.table import load_crib_table
from cribstats.variants import Variant, find_variant

SHAPES_KEPT = 1 << 12  # shapes of hand whose values are kept (about 2 kB each: some 8 MB at most)

DiscardValues = tuple[bool, str, str, float, float | None, float, str, str, float, float]
"""``hand_only, kept, thrown, hand_value, crib_value, expected, best_kept, best_thrown, best_expected, loss``:
the value columns of ``deal_player``."""


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


@cache
def _four_card_plan(
    dealt: int, thrown: int
) -> tuple[tuple[Option, ...], tuple[tuple[int, ...], ...], dict[tuple[int, ...], int]]:
    """The options of keeping four of ``dealt`` cards, their throws, and the index of each throw."""
    opts = options(dealt, thrown)
    return opts, tuple(throw for _, throw in opts), _option_of(dealt, thrown)


def discard_values(dealt: Sequence[Card], thrown: Sequence[Card], variant: Variant, role: str) -> DiscardValues:
    """What ``deal_player`` stores of laying ``thrown`` away from ``dealt``: the values
    :func:`~cribstats.discards.analysis.judge_discard` gives, the cards in their canonical spelling.

    :raises DiscardError: for cards that are not a dealt hand of the variant, or a throw that is not of them.
    """
    if len(thrown) != variant.to_crib or not set(thrown) <= set(dealt) or len(set(thrown)) != len(thrown):
        shown = " ".join(format_card(c) for c in thrown)
        raise DiscardError(f"{shown or 'nothing'} is not a discard of {variant.to_crib} of the dealt cards")
    cards = tuple(sorted(dealt))
    if variant.hand_size == FLUSH_KEEP and role in ROLES and len(set(cards)) == len(cards) == variant.dealt:
        return _four_card_discard(cards, thrown, variant, role)
    opts, hands, cribs, expected, best = _shape_values(shape(cards), variant.name, role)
    mine = _option_of(len(cards), len(thrown))[tuple(sorted([cards.index(c) for c in thrown]))]
    return _row(cards, opts, mine, best, hands[mine], None if cribs is None else cribs[mine], expected,
                not has_crib_value(variant))  # fmt: skip


def _four_card_discard(
    cards: tuple[Card, ...], thrown: Sequence[Card], variant: Variant, role: str
) -> DiscardValues:
    """:func:`discard_values` of a hand that keeps four (six-card, three- and four-player): the arithmetic of
    :func:`~cribstats.discards.analysis.judge_discard` in its order (the hand value a quotient, the crib value
    added or taken away), with no more than one list made and only the chosen option's hand and crib values."""
    points, starters = four_card_points(cards)
    opts, throws, index_of = _four_card_plan(len(cards), len(thrown))
    mine = index_of[tuple(sorted([cards.index(c) for c in thrown]))]
    if not has_crib_value(variant):
        hands = [p / starters for p in points]
        return _row(cards, opts, mine, hands.index(max(hands)), hands[mine], None, hands, True)
    by_pair = load_crib_table(variant.name).by_cards(role)
    combine = with_crib(role)
    expected = [
        combine(p / starters, by_pair[cards[a] * 52 + cards[b]]) for p, (a, b) in zip(points, throws, strict=True)
    ]
    a, b = throws[mine]
    crib = by_pair[cards[a] * 52 + cards[b]]
    return _row(cards, opts, mine, expected.index(max(expected)), points[mine] / starters, crib, expected, False)


def _row(cards: tuple[Card, ...], opts: Sequence[Option], mine: int, best: int, hand: float, crib: float | None,
         expected: list[float], hand_only: bool) -> DiscardValues:  # fmt: skip
    """The stored values of the option ``mine`` beside the first best one, ``best``."""
    gap = expected[best] - expected[mine]
    (keep, throw), (best_keep, best_throw) = opts[mine], opts[best]
    text = CARD_TEXT
    return (
        hand_only,
        " ".join([text[cards[i]] for i in keep]),
        " ".join([text[cards[i]] for i in throw]),
        hand,
        crib,
        expected[mine],
        " ".join([text[cards[i]] for i in best_keep]),
        " ".join([text[cards[i]] for i in best_throw]),
        expected[best],
        gap if gap > TIE else 0.0,
    )
