"""Every four-card hand with every starter: the exact distribution of show totals.

There are C(52, 4) = 270,725 hands and 48 starters for each, 12,994,800 combinations in all. Each is scored
through the rank table of :mod:`cribstats.scoring` (fifteens, pairs and runs keyed by the five ranks) plus its
flush and nobs, in blocks of hands so that the arrays stay small.

>>> dist = show_distribution(crib=False)
>>> sum(dist.values()), dist[29], min(dist), max(dist)
(12994800, 4, 0, 29)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from math import comb
from pathlib import Path

import numpy as np

from cribstats.scoring import NOBS, RANK_KEY_WEIGHTS, flush_points_for, nobs_card
from cribstats.scoring_many import rank_key, rank_table

HAND_CARDS = 4
STARTERS = 52 - HAND_CARDS
COMBINATIONS = comb(52, HAND_CARDS) * STARTERS
MAX_TOTAL = 29
BLOCK = 16_384
REFERENCE_FILE = Path(__file__).with_name("data") / "hand-distribution.json"


def all_hands(size: int = HAND_CARDS) -> np.ndarray:
    """Every hand of ``size`` cards as an ``(C(52, size), size)`` array, each row ascending, rows in order.

    >>> h = all_hands()
    >>> h.shape, h[0].tolist(), h[-1].tolist()
    ((270725, 4), [0, 1, 2, 3], [48, 49, 50, 51])
    """
    hands = np.arange(52, dtype=np.int8)[:, None]
    for _ in range(size - 1):  # extend each hand by every card above its highest, in order
        last = hands[:, -1].astype(np.int64)
        extra = 51 - last
        first_row = np.repeat(np.cumsum(extra) - extra, extra)
        step = np.arange(first_row.size) - first_row
        nxt = (np.repeat(last, extra) + 1 + step).astype(np.int8)
        hands = np.column_stack([np.repeat(hands, extra, axis=0), nxt])
    return hands


def starters_of(hands: np.ndarray) -> np.ndarray:
    """The cards not in each hand, ascending: shape ``(n, 52 - k)``; ``hands`` rows must be ascending.

    >>> starters_of(np.array([[0, 1, 2, 51]], dtype=np.int8))[0, [0, -1]].tolist()
    [3, 50]
    """
    n, k = hands.shape
    starters = np.broadcast_to(np.arange(52 - k, dtype=np.int8), (n, 52 - k)).copy()
    for i in range(k):  # the j-th card not in the hand: step over each hand card at or below it
        starters += starters >= hands[:, i : i + 1]
    return starters


def _blocks(hands: np.ndarray, block: int) -> Iterator[np.ndarray]:
    for start in range(0, len(hands), block):
        yield hands[start : start + block]


def show_totals(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Crib-rule and hand-rule totals of each four-card hand (rows ascending) with each starter not in it.

    Both arrays have shape ``(n, 48)``, in the order of :func:`starters_of`. The two rule sets differ only for a
    four-card flush whose starter is of another suit: 4 more under hand rules.

    >>> from cribstats.cards import parse_cards
    >>> crib, hand = show_totals(np.array([sorted(parse_cards("2H 4H 6H 8H"))], dtype=np.int8))
    >>> int(crib[0].min()), int(hand[0].min())
    (0, 4)
    """
    hands = np.asarray(hands, dtype=np.int8)
    starters = starters_of(hands)
    ranks = hands >> 2
    suits = hands & 3
    starter_suits = starters & 3
    # the rank part: the hand's four ranks make the low digits of the key, the starter's rank the high one
    hand_key = rank_key(np.concatenate([ranks, np.zeros((len(hands), 1), dtype=np.int8)], axis=1))
    keys = hand_key[:, None] + RANK_KEY_WEIGHTS[4] * (starters >> 2).astype(np.int32)
    totals = rank_table()[keys]
    # nobs: the hand holds the jack of the starter's suit
    jacks = hands == nobs_card(hands)  # each jack scores nobs with a starter of its own suit
    jack_suits = (jacks << suits).sum(axis=1, dtype=np.int8)
    totals += NOBS * ((jack_suits[:, None] >> starter_suits) & 1)
    # flush: with the starter 5 under either rules; without it 4, for a hand only
    is_flush = (suits == suits[:, :1]).all(axis=1)
    flush_suit = np.where(is_flush, suits[:, 0], -1).astype(np.int8)
    with_starter = starter_suits == flush_suit[:, None]
    suited, starter_suited = is_flush[:, None].view(np.int8), with_starter.view(np.int8)
    crib_flush = flush_points_for(4, suited, starter_suited, crib=True).astype(np.int8)
    totals += crib_flush
    hand_totals = totals - crib_flush + flush_points_for(4, suited, starter_suited, crib=False).astype(np.int8)
    return totals, hand_totals


def show_distributions(
    rules: tuple[str, ...] = ("hand", "crib"), *, block: int = BLOCK
) -> dict[str, dict[int, int]]:
    """How many of the 12,994,800 hand-and-starter combinations make each total, under hand and crib rules.

    Returns ``{"hand": {total: count}, "crib": {total: count}}`` with only the totals that occur.

    >>> show_distributions(("crib",))["crib"][28]
    76
    """
    counts = {name: np.zeros(MAX_TOTAL + 1, dtype=np.int64) for name in rules}
    for hands in _blocks(all_hands(), block):
        totals = dict(zip(("crib", "hand"), show_totals(hands), strict=True))
        for name, tally in counts.items():
            tally += np.bincount(totals[name].ravel(), minlength=MAX_TOTAL + 1)
    return {name: {t: int(c) for t, c in enumerate(tally) if c} for name, tally in counts.items()}


def show_distribution(crib: bool = False) -> dict[int, int]:
    """The distribution of show totals over all 12,994,800 hands with a starter, for one rule set.

    >>> show_distribution(crib=True)[5]
    703496
    """
    rules = "crib" if crib else "hand"
    return show_distributions((rules,))[rules]


def mean_total(distribution: dict[int, int]) -> float:
    """The mean show total of a distribution.

    >>> mean_total({0: 1, 29: 1})
    14.5
    """
    return sum(t * c for t, c in distribution.items()) / sum(distribution.values())


def load_reference_distribution() -> dict[str, dict[int, int]]:
    """The published counts shipped in ``cribstats/data/hand-distribution.json``: ``{"hand": ..., "crib": ...}``.

    >>> load_reference_distribution()["hand"][24]
    3680
    """
    data = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
    return {rules: {int(t): int(c) for t, c in data[rules].items()} for rules in ("hand", "crib")}


def load_reference_means() -> dict[str, float]:
    """The published means (rounded to 6 places) of the reference distributions.

    >>> load_reference_means()
    {'hand': 4.769152, 'crib': 4.734819}
    """
    data = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
    return {rules: float(data["mean"][rules]) for rules in ("hand", "crib")}
