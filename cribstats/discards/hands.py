"""Hand values: the exact average show of each way to keep a dealt hand, over every starter the player cannot see.

For four kept cards the rank part (fifteens, pairs, runs) comes from the rank table of :mod:`cribstats.scoring`:
its points summed over a full deck of starters, less the starters the player holds; flush and nobs are counted by
the starters left in each suit. Other sizes (five-card keeps three, seven-card five) score every keep with every
starter through :func:`cribstats.scoring.score_show_many`. Options come in :func:`options` order.

>>> from cribstats.cards import parse_cards
>>> dealt = parse_cards("4S 5H 6D TC TH JC")
>>> round(hand_values(dealt, 4)[options(6, 2).index(((0, 1, 2, 5), (3, 4)))], 2)
9.96
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations

from cribstats.cards import JACK, Card

DECK_SIZE = 52
SUIT_SIZE = 13
FLUSH_KEEP = 4  # the table path's hand size

Option = tuple[tuple[int, ...], tuple[int, ...]]
"""Positions in the dealt hand of the cards kept and of the cards thrown."""


@cache
def options(dealt: int, thrown: int) -> tuple[Option, ...]:
    """Every way to throw ``thrown`` of ``dealt`` cards, as (kept positions, thrown positions), throws in
    lexicographic order.

    >>> options(6, 2)[:2]
    (((2, 3, 4, 5), (0, 1)), ((1, 3, 4, 5), (0, 2)))
    >>> len(options(7, 2)), len(options(5, 1))
    (21, 5)
    """
    return tuple(
        (tuple(i for i in range(dealt) if i not in throw), throw) for throw in combinations(range(dealt), thrown)
    )


@cache
def _rank_points_by_starter() -> tuple[list[list[int]], list[int]]:
    """The rank table as ``[starter rank][key of four ranks]``, and for each key its sum over a full deck of
    starters less the starters of the key's own four ranks (numpy is loaded here, on first use: importing the
    analysis costs little)."""
    import numpy as np

    from cribstats.scoring_many import rank_table

    table = rank_table().astype(np.int64).reshape(13, 28561)
    keys = np.arange(28561)
    own = 4 * table.sum(axis=0)
    for place in (1, 13, 169, 2197):  # the rank in each place of the key
        own -= table[(keys // place) % 13, keys]
    by_starter: list[list[int]] = table.tolist()
    return by_starter, own.tolist()


def hand_values(dealt: Sequence[Card], kept: int) -> list[float]:
    """The hand value of each option of keeping ``kept`` of the ``dealt`` cards (in :func:`options` order).

    >>> from cribstats.cards import parse_cards
    >>> values = hand_values(parse_cards("AS 2H 3S 4H 5D 6C"), 4)
    >>> round(values[0], 2)  # keep 3S 4H 5D 6C
    9.85
    """
    if kept == FLUSH_KEEP:
        return _four_card_values(tuple(dealt))
    return _scored_values(dealt, kept)


def _four_card_values(dealt: tuple[Card, ...]) -> list[float]:
    points, starters = four_card_points(dealt)
    return [p / starters for p in points]


def four_card_points(dealt: tuple[Card, ...]) -> tuple[list[int], int]:
    """For each option of keeping four of ``dealt`` (in :func:`options` order), the points of the show summed over
    every starter the player cannot see, and how many starters that is: the hand value is their quotient."""
    n = len(dealt)
    starters = DECK_SIZE - n
    points = list(_rank_part(tuple([c >> 2 for c in dealt])))
    left = [SUIT_SIZE] * 4  # starters left in each suit
    for c in dealt:
        left[c & 3] -= 1
    flush_possible = min(left) <= SUIT_SIZE - FLUSH_KEEP
    if flush_possible or any(c >> 2 == JACK for c in dealt):  # most hands have neither: the rank part's points
        suits = [c & 3 for c in dealt]
        nobs = [left[c & 3] if c >> 2 == JACK else 0 for c in dealt]
        for o, ((a, b, c, d), _) in enumerate(options(n, n - FLUSH_KEEP)):
            if flush_possible and suits[a] == suits[b] == suits[c] == suits[d]:
                points[o] += FLUSH_KEEP * starters + left[suits[a]]  # four for the hand, a fifth with its suit cut
            points[o] += nobs[a] + nobs[b] + nobs[c] + nobs[d]
    return points, starters


@lru_cache(maxsize=1 << 15)
def _rank_part(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """For each option, the rank points (fifteens, pairs, runs) summed over every starter the player cannot see:
    those of a full deck less the kept ranks' own (one table) less the thrown ranks'. Cached by the dealt ranks
    (the same ranks recur: sort the cards for the best reuse)."""
    by_starter, own = _rank_points_by_starter()
    r = ranks
    points = []
    for (a, b, c, d), throw in options(len(r), len(r) - FLUSH_KEEP):
        key = r[a] + 13 * r[b] + 169 * r[c] + 2197 * r[d]
        p = own[key]
        for t in throw:
            p -= by_starter[r[t]][key]
        points.append(p)
    return tuple(points)


def _scored_values(dealt: Sequence[Card], kept: int) -> list[float]:
    import numpy as np

    from cribstats.scoring_many import score_show_many

    cards = np.asarray(dealt, dtype=np.int16)
    opts = options(len(cards), len(cards) - kept)
    keeps = cards[np.array([k for k, _ in opts], dtype=np.intp)]
    unseen = np.setdiff1d(np.arange(DECK_SIZE, dtype=np.int16), cards)
    hands = np.repeat(keeps, len(unseen), axis=0)
    starters = np.tile(unseen, len(opts))
    totals = score_show_many(hands, starters).reshape(len(opts), len(unseen))
    values: list[float] = (totals.sum(axis=1) / len(unseen)).tolist()
    return values
