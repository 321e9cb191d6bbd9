"""The show scored in bulk with numpy: arrays of hands at once, through a table of the rank part.

The rules are those of :mod:`cribstats.scoring` (the tests hold the two paths equal); this module is loaded only
by what scores hands in bulk (the simulator's discards, the crib table, the enumeration), so that the audit and
the store start without numpy.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from cribstats.cards import RANK_VALUES
from cribstats.scoring import (
    FIFTEEN,
    FIFTEEN_POINTS,
    NOBS,
    PAIR_POINTS,
    RANK_KEY_WEIGHTS,
    SHORTEST_RUN,
    flush_points_for,
    nobs_card,
)


def rank_points_many(ranks: np.ndarray) -> np.ndarray:
    """Fifteens, pairs and runs for each row of ranks (shape ``(n, k)``, values 0..12), vectorised.

    Fifteens come from the sums of every subset (each built from a smaller one), runs from one sweep over the
    thirteen ranks that closes each maximal stretch of present ranks: its length times the product of the counts.

    >>> int(rank_points_many(np.array([[4, 4, 4, 10, 4]]))[0])
    28
    >>> rank_points_many(np.array([[1, 1, 2, 3, 12], [0, 1, 2, 11, 12]])).tolist()
    [12, 7]
    """
    ranks = np.asarray(ranks).astype(np.int8)
    n, k = ranks.shape
    values = np.asarray(RANK_VALUES, dtype=np.int8)[ranks]
    fifteens = np.zeros(n, dtype=np.int16)
    sums = [np.zeros(n, dtype=np.int8)]
    for mask in range(1, 1 << k):
        low = mask & -mask
        subset_sum = sums[mask ^ low] + values[:, low.bit_length() - 1]
        sums.append(subset_sum)
        if mask != low:
            fifteens += subset_sum == FIFTEEN
    points = FIFTEEN_POINTS * fifteens
    for a, b in combinations(range(k), 2):
        points += PAIR_POINTS[2] * (ranks[:, a] == ranks[:, b])
    length = np.zeros(n, dtype=np.int16)
    product = np.ones(n, dtype=np.int16)
    no_cards = np.zeros(n, dtype=np.int16)
    for r in range(14):  # rank 13 does not exist: it closes a stretch that reaches the king
        count = (ranks == r).sum(axis=1, dtype=np.int16) if r < 13 else no_cards
        present = count > 0
        points += np.where(~present & (length >= SHORTEST_RUN), length * product, 0).astype(np.int16)
        length = np.where(present, length + 1, 0).astype(np.int16)
        product = np.where(present, product * count, 1).astype(np.int16)
    return points


@cache
def rank_table() -> np.ndarray:
    """Rank points of every five ranks, indexed by their rank key (:func:`cribstats.scoring.rank_key_of`).

    >>> from cribstats.cards import parse_cards
    >>> int(rank_table()[rank_key(np.array([parse_cards("5C 5D 5H JS 5S")]) >> 2)[0]])
    28
    """
    grid = np.indices((13,) * 5).reshape(5, -1).T  # row i holds the base-13 digits of i, r0 last
    table = rank_points_many(grid[:, ::-1]).astype(np.int8)
    table.flags.writeable = False
    return table


def rank_key(ranks: np.ndarray) -> np.ndarray:
    """The :func:`rank_table` index of each row of five ranks (shape ``(n, 5)``).

    >>> rank_key(np.array([[1, 0, 0, 0, 2]])).tolist()
    [57123]
    """
    r = np.asarray(ranks).astype(np.int32)
    return r @ np.asarray(RANK_KEY_WEIGHTS, dtype=np.int32)


def score_show_many(hands: np.ndarray, starters: np.ndarray, *, crib: bool = False) -> np.ndarray:
    """Show totals for many hands at once: ``hands`` is ``(n, k)`` cards, ``starters`` is ``(n,)``.

    Four-card hands go through the rank table; other sizes through :func:`rank_points_many`.

    >>> from cribstats.cards import parse_cards
    >>> score_show_many(np.array([parse_cards("5C 5D 5H JS")]), np.array(parse_cards("5S"))).tolist()
    [29]
    """
    hands = np.asarray(hands, dtype=np.int16)
    starters = np.asarray(starters, dtype=np.int16)
    ranks = np.concatenate([hands, starters[:, None]], axis=1) >> 2
    by_table = ranks.shape[1] == 5
    total = rank_table()[rank_key(ranks)].astype(np.int16) if by_table else rank_points_many(ranks)
    totals: np.ndarray = total + flush_and_nobs_many(hands, starters, crib=crib)
    return totals


def flush_and_nobs_many(hands: np.ndarray, starters: np.ndarray, *, crib: bool = False) -> np.ndarray:
    """Flush and nobs points for many hands at once.

    >>> from cribstats.cards import parse_cards
    >>> hands = np.array([parse_cards("2H 4H 6H 8H"), parse_cards("JH 2C 4D 9S")])
    >>> flush_and_nobs_many(hands, np.array(parse_cards("KC 5H"))).tolist()
    [4, 1]
    >>> flush_and_nobs_many(hands, np.array(parse_cards("KC 5H")), crib=True).tolist()
    [0, 1]
    """
    hands = np.asarray(hands, dtype=np.int16)
    starters = np.asarray(starters, dtype=np.int16)
    suits = hands & 3
    starter_suit = starters & 3
    hand_flush = (suits == suits[:, :1]).all(axis=1).astype(np.int16)
    starter_suited = (starter_suit == suits[:, 0]).astype(np.int16)
    flush: np.ndarray = flush_points_for(hands.shape[1], hand_flush, starter_suited, crib=crib)
    nobs = NOBS * (hands == nobs_card(starters)[:, None]).any(axis=1)
    points: np.ndarray = (flush + nobs).astype(np.int16)
    return points


