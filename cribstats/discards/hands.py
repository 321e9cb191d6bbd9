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
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from cribstats.cards import JACK, Card
from cribstats.scoring import NOBS, flush_points_for

if TYPE_CHECKING:
    import numpy as np

DECK_SIZE = 52
SUIT_SIZE = 13
FLUSH_KEEP = 4  # the table path's hand size
_FLUSH = flush_points_for(FLUSH_KEEP, 1, 0, crib=False)  # a kept flush, the starter of another suit
_FLUSH_CUT = flush_points_for(FLUSH_KEEP, 1, 1, crib=False) - _FLUSH  # what the starter of its suit adds
RANK_PLACES = (1, 13, 169, 2197)  # the key of four ranks in the rank table: the rank in each place

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
    import numpy as np

    points, starters = four_card_points(np.array([dealt], dtype=np.int64))
    values: list[float] = (points[0] / starters).tolist()
    return values


def four_card_points(hands: np.ndarray) -> tuple[np.ndarray, int]:
    """For each of many dealt hands of one size (a row of distinct cards each) and each option of keeping four
    of it (in :func:`options` order), the points of the show summed over every starter the player cannot see,
    and how many starters that is: the hand value is their quotient. Whole numbers, so the same whichever way
    they are added up; many hands at once cost little more than one.

    >>> import numpy as np
    >>> from cribstats.cards import parse_cards
    >>> points, starters = four_card_points(np.array([parse_cards("5C 5D 5H JS 2C 9D")]))
    >>> int(points[0][options(6, 2).index(((0, 1, 2, 3), (4, 5)))]), starters  # 5C 5D 5H JS kept
    (766, 46)
    """
    import numpy as np

    by_starter, own, places, suit_numbers = _rank_points_by_starter()
    n = hands.shape[1]
    keep, throw = option_arrays(n, n - FLUSH_KEEP)
    starters = DECK_SIZE - n
    ranks, suits = hands >> 2, hands & 3
    key = ranks[:, keep] @ places  # the four kept ranks as one key of the rank table, per option
    points = own[key]  # rank points over a full deck of starters less the kept ranks' own ...
    for j in range(throw.shape[1]):
        points -= by_starter[ranks[:, throw[:, j]], key]  # ... less the thrown ranks'
    held = (suits[:, :, None] == suit_numbers).sum(axis=1)  # cards held of each suit
    jacks = ranks == JACK
    flushes, nobs = held.max() >= FLUSH_KEEP, jacks.any()  # (without either, the rank points are all: few passes)
    if flushes or nobs:
        left_of = SUIT_SIZE - held[np.arange(len(hands))[:, None], suits]  # starters left in each card's suit
    if flushes:  # the hand's flush with every starter, and more with its suit cut
        kept_suits = suits[:, keep]
        flush = (kept_suits == kept_suits[..., :1]).all(axis=2)
        points += np.where(flush, _FLUSH * starters + _FLUSH_CUT * left_of[:, keep[:, 0]], 0)
    if nobs:  # a kept jack's suit cut
        points += NOBS * np.where(jacks, left_of, 0)[:, keep].sum(axis=2)
    return points, starters


@cache
def option_arrays(dealt: int, thrown: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`options` as two arrays: the kept positions of every option, and the thrown ones.

    >>> keep, throw = option_arrays(6, 2)
    >>> keep.shape, throw[0].tolist()
    ((15, 4), [0, 1])
    """
    import numpy as np

    opts = options(dealt, thrown)
    return np.array([k for k, _ in opts], dtype=np.intp), np.array([t for _, t in opts], dtype=np.intp)


@cache
def _rank_points_by_starter() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rank table as ``[starter rank, key of four ranks]``, and for each key its sum over a full deck of
    starters less the starters of the key's own four ranks; with :data:`RANK_PLACES` and the four suits as
    arrays (numpy is loaded here, on first use: importing the analysis costs little)."""
    import numpy as np

    from cribstats.scoring_many import rank_table

    table = rank_table().astype(np.int64).reshape(13, 28561)
    keys = np.arange(28561)
    own = 4 * table.sum(axis=0)
    for place in RANK_PLACES:
        own -= table[(keys // place) % 13, keys]
    return table, own, np.array(RANK_PLACES), np.arange(4)


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
