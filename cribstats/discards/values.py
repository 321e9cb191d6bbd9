"""The stored values of one discard: what ``deal_player`` keeps of it.

Hands that keep four (six-card, three- and four-player) are valued directly and many at once
(:func:`many_discard_values`, :func:`_four_card_discards`): the rank part of each keep from a table, flush and nobs
by the starters left in each suit, the crib value from the crib table, with the arithmetic of
:func:`cribstats.discards.analysis.judge_discard` in its order, so the values are the very same floats. Other hands
(five- and seven-card) score every keep with every starter, which costs more: their values are kept
(:func:`_shape_values`, a bounded cache) under the hand's *shape*, its cards in card order with each suit renamed
by the order it first appears in (a discard's values depend on which cards share a suit, not on which suit that is:
hearts and spades swapped give the same values to the last bit).

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
from typing import TYPE_CHECKING

from cribstats.cards import CARD_TEXT, Card, format_card
from cribstats.discards.analysis import ROLES, TIE, DiscardError, _values, has_crib_value, with_crib
from cribstats.discards.hands import FLUSH_KEEP, Option, four_card_points, options
from cribstats.discards.table import load_crib_table
from cribstats.errors import CribstatsError
from cribstats.variants import Variant, find_variant

if TYPE_CHECKING:
    import numpy as np

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


Discard = tuple[Sequence[Card], Sequence[Card], Variant, str]
"""A discard to value: the dealt cards, the cards thrown, the variant, and the thrower's role."""

TOGETHER = 512  # hands of one variant valued in one pass of the arrays (larger passes gain nothing)


def discard_values(dealt: Sequence[Card], thrown: Sequence[Card], variant: Variant, role: str) -> DiscardValues:
    """What ``deal_player`` stores of laying ``thrown`` away from ``dealt``: the values
    :func:`~cribstats.discards.analysis.judge_discard` gives, the cards in their canonical spelling.

    :raises DiscardError: for cards that are not a dealt hand of the variant, or a throw that is not of them.
    """
    value = many_discard_values([(dealt, thrown, variant, role)])[0]
    if isinstance(value, DiscardError):
        raise value
    return value


def many_discard_values(discards: Sequence[Discard]) -> list[DiscardValues | DiscardError]:
    """:func:`discard_values` of each discard, in order, with the error in the place of one that cannot be
    judged. Hands that keep four are valued together, by arrays (:func:`_four_card_discards`): a game's or a
    chunk's discards cost a third of what they cost one by one."""
    out: list[DiscardValues | DiscardError | None] = [None] * len(discards)
    together: dict[int, tuple[Variant, list[tuple[int, tuple[Card, ...], Sequence[Card], str]]]] = {}
    for i, (dealt, thrown, variant, role) in enumerate(discards):
        held, laid = set(dealt), set(thrown)
        if not len(thrown) == len(laid) == variant.to_crib or not laid <= held:
            shown = " ".join(format_card(c) for c in thrown)
            out[i] = DiscardError(f"{shown or 'nothing'} is not a discard of {variant.to_crib} of the dealt cards")
            continue
        cards = tuple(sorted(dealt))
        if variant.hand_size == FLUSH_KEEP and role in ROLES and len(held) == len(cards) == variant.dealt:
            group = together.get(id(variant))  # by the variant itself: a game's deals share one
            if group is None:
                group = together[id(variant)] = (variant, [])
            group[1].append((i, cards, thrown, role))
            continue
        try:
            out[i] = _shape_discard(cards, thrown, variant, role)
        except (CribstatsError, ValueError) as err:
            out[i] = err if isinstance(err, DiscardError) else DiscardError(str(err))
    for variant, hands in together.values():  # hands of variant.dealt cards each
        for start in range(0, len(hands), TOGETHER):
            part = hands[start : start + TOGETHER]
            for (i, *_), v in zip(part, _four_card_discards([h[1:] for h in part], variant), strict=True):
                out[i] = v
    return [v for v in out if v is not None]


def _shape_discard(cards: tuple[Card, ...], thrown: Sequence[Card], variant: Variant, role: str) -> DiscardValues:
    """:func:`discard_values` of a hand that does not keep four, by the values kept for its shape."""
    opts, hands, cribs, expected, best = _shape_values(shape(cards), variant.name, role)
    mine = _option_of(len(cards), len(thrown))[tuple(sorted([cards.index(c) for c in thrown]))]
    return _row(cards, opts, mine, best, hands[mine], None if cribs is None else cribs[mine], expected[mine],
                expected[best], not has_crib_value(variant))  # fmt: skip


@cache
def _pair_values(variant: str) -> np.ndarray:
    """The crib table's value of every two cards thrown (``first * 52 + second``), a row for each role."""
    import numpy as np

    table = load_crib_table(variant)
    return np.array([table.by_cards(role) for role in ROLES], dtype=np.float64)


def _four_card_discards(
    hands: list[tuple[tuple[Card, ...], Sequence[Card], str]], variant: Variant
) -> list[DiscardValues]:
    """:func:`discard_values` of hands that keep four (six-card, three- and four-player), all of one size, each
    (cards in card order, cards thrown, role): the arithmetic of
    :func:`~cribstats.discards.analysis.judge_discard` in its order (the hand value a quotient, the crib value
    added or taken away by :func:`~cribstats.discards.analysis.with_crib`), on arrays of every option of every
    hand, so the values are the very same floats."""
    import numpy as np

    cards = np.array([h for h, _, _ in hands], dtype=np.int64)
    points, starters = four_card_points(cards)
    n = cards.shape[1]
    opts = options(n, n - FLUSH_KEEP)
    index_of = _option_of(n, n - FLUSH_KEEP)
    mine = [index_of[tuple(sorted([h.index(c) for c in t]))] for h, t, _ in hands]
    rows, chosen = np.arange(len(hands)), np.array(mine, dtype=np.intp)
    hand = points / starters
    hand_only = not has_crib_value(variant)
    cribs: list[float | None]
    if hand_only:
        expected, cribs = hand, [None] * len(hands)
    else:
        role_of = np.array([ROLES.index(r) for _, _, r in hands], dtype=np.intp)
        keep_thrown = np.array([t for _, t in opts], dtype=np.intp)
        pairs = cards[:, keep_thrown[:, 0]] * 52 + cards[:, keep_thrown[:, 1]]
        crib = _pair_values(variant.name)[role_of[:, None], pairs]
        expected = np.empty_like(hand)
        for r, role in enumerate(ROLES):
            of_role = role_of == r
            expected[of_role] = with_crib(role)(hand[of_role], crib[of_role])
        cribs = crib[rows, chosen].tolist()
    best = expected.argmax(axis=1)  # the first best, as list.index(max(...)) finds it
    return [
        _row(h, opts, m, b, hv, cv, ev, bv, hand_only)
        for (h, _, _), m, b, hv, cv, ev, bv in zip(
            hands, mine, best.tolist(), hand[rows, chosen].tolist(), cribs, expected[rows, chosen].tolist(),
            expected[rows, best].tolist(), strict=True,
        )
    ]  # fmt: skip


def _row(cards: tuple[Card, ...], opts: Sequence[Option], mine: int, best: int, hand: float, crib: float | None,
         expected: float, best_expected: float, hand_only: bool) -> DiscardValues:  # fmt: skip
    """The stored values of the option ``mine`` beside the first best one, ``best``."""
    gap = best_expected - expected
    (keep, throw), (best_keep, best_throw) = opts[mine], opts[best]
    text = CARD_TEXT
    return (
        hand_only,
        " ".join([text[cards[i]] for i in keep]),
        " ".join([text[cards[i]] for i in throw]),
        hand,
        crib,
        expected,
        " ".join([text[cards[i]] for i in best_keep]),
        " ".join([text[cards[i]] for i in best_throw]),
        best_expected,
        gap if gap > TIE else 0.0,
    )
