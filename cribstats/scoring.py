"""Points: the show (a hand or crib with the starter) and the play (a card laid on a series).

Two paths score the show. :func:`score_show` explains itself: every fifteen, pair, run, flush and nobs as the
cards that make it. :func:`score_show_many` scores arrays of hands at once for bulk work, through a table of the
rank part (fifteens, pairs, runs) keyed by the five ranks. Both agree; the tests hold them to it.

>>> from cribstats.cards import parse_cards
>>> score_show(parse_cards("5C 5D 5H JS"), parse_cards("5S")[0]).total
29
>>> score_peg(parse_cards("6H 4D 5S")).points
5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from cribstats.cards import JACK, Card, format_card, rank, suit, value
from cribstats.errors import CribstatsError

FIFTEEN = 15
THIRTY_ONE = 31
PAIR_POINTS = {1: 0, 2: 2, 3: 6, 4: 12}


class CountError(CribstatsError, ValueError):
    """A series whose count goes past 31."""


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind (fifteen, pair, run, flush, nobs), the cards and the points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def describe(self) -> str:
        """``'fifteen 5H JS: 2'``"""
        return f"{self.kind} {' '.join(format_card(c) for c in self.cards)}: {self.points}"


@dataclass(frozen=True, slots=True)
class ShowScore:
    """The show score of a hand or crib, with the combinations that make it."""

    items: tuple[ScoreItem, ...]

    def points_of(self, kind: str) -> int:
        return sum(item.points for item in self.items if item.kind == kind)

    @property
    def fifteens(self) -> int:
        return self.points_of("fifteen")

    @property
    def pairs(self) -> int:
        return self.points_of("pair")

    @property
    def runs(self) -> int:
        return self.points_of("run")

    @property
    def flush(self) -> int:
        return self.points_of("flush")

    @property
    def nobs(self) -> int:
        return self.points_of("nobs")

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def to_dict(self) -> dict[str, object]:
        """The totals by kind and the combinations, for JSON output."""
        return {
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
            "total": self.total,
            "combinations": [
                {"kind": i.kind, "cards": [format_card(c) for c in i.cards], "points": i.points}
                for i in self.items
            ],
        }


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """Score a hand (3, 4 or 5 cards) or a crib with the starter, with the breakdown.

    >>> from cribstats.cards import parse_cards
    >>> s = score_show(parse_cards("2H 2S 3D 4C"), parse_cards("KS")[0])
    >>> s.fifteens, s.pairs, s.runs, s.total
    (4, 2, 6, 12)
    """
    cards = (*hand, starter)
    items: list[ScoreItem] = []
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(value(c) for c in combo) == FIFTEEN:
                items.append(ScoreItem("fifteen", combo, 2))
    for a, b in combinations(cards, 2):
        if rank(a) == rank(b):
            items.append(ScoreItem("pair", (a, b), 2))
    items.extend(_run_items(cards))
    items.extend(_flush_items(hand, starter, crib=crib))
    items.extend(ScoreItem("nobs", (c,), 1) for c in hand if rank(c) == JACK and suit(c) == suit(starter))
    return ShowScore(tuple(items))


def _run_items(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every distinct maximal run of 3+ ranks, once per combination of cards making it."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(rank(c), []).append(c)
    items: list[ScoreItem] = []
    r = 0
    while r < 13:
        if r not in by_rank:
            r += 1
            continue
        end = r
        while end + 1 in by_rank:
            end += 1
        length = end - r + 1
        if length >= 3:
            combos: list[tuple[Card, ...]] = [()]
            for k in range(r, end + 1):
                combos = [(*combo, c) for combo in combos for c in by_rank[k]]
            items.extend(ScoreItem("run", combo, length) for combo in combos)
        r = end + 1
    return items


def _flush_items(hand: Sequence[Card], starter: Card, *, crib: bool) -> list[ScoreItem]:
    first = suit(hand[0])
    if any(suit(c) != first for c in hand):
        return []
    if suit(starter) == first:
        return [ScoreItem("flush", (*hand, starter), len(hand) + 1)]
    return [] if crib else [ScoreItem("flush", tuple(hand), len(hand))]


# --- the fast path -------------------------------------------------------------------------------------------


def rank_points_many(ranks: np.ndarray) -> np.ndarray:
    """Fifteens, pairs and runs for each row of ranks (shape ``(n, k)``, values 0..12), vectorised.

    >>> int(rank_points_many(np.array([[4, 4, 4, 10, 4]]))[0])
    28
    """
    ranks = np.asarray(ranks, dtype=np.int16)
    n, k = ranks.shape
    values = np.minimum(ranks + 1, 10)
    points = np.zeros(n, dtype=np.int16)
    # fifteens: every subset of two or more cards
    subset_sums = np.zeros((n, 1), dtype=np.int16)
    for j in range(k):
        subset_sums = np.concatenate([subset_sums, subset_sums + values[:, j : j + 1]], axis=1)
    points += 2 * (subset_sums == FIFTEEN).sum(axis=1, dtype=np.int16)
    # pairs
    for a, b in combinations(range(k), 2):
        points += 2 * (ranks[:, a] == ranks[:, b])
    # runs: each maximal stretch of 3+ present ranks scores its length times the product of the counts
    counts = np.zeros((n, 15), dtype=np.int16)  # padded with an empty rank on each side
    rows = np.arange(n)
    for j in range(k):
        np.add.at(counts, (rows, ranks[:, j] + 1), 1)
    for length in range(3, k + 1):
        for start in range(1, 15 - length):
            window = counts[:, start : start + length]
            maximal = (window > 0).all(axis=1) & (counts[:, start - 1] == 0) & (counts[:, start + length] == 0)
            if maximal.any():
                points += np.where(maximal, length * window.prod(axis=1), 0).astype(np.int16)
    return points


@cache
def rank_table() -> np.ndarray:
    """Rank points of every five ranks, indexed by ``r0 + 13*r1 + 169*r2 + 2197*r3 + 28561*r4``."""
    grid = np.indices((13,) * 5).reshape(5, -1).T  # row i holds the base-13 digits of i, r0 last
    return rank_points_many(grid[:, ::-1]).astype(np.int8)


_RANK_KEY_WEIGHTS = np.array([1, 13, 169, 2197, 28561], dtype=np.int32)


def score_show_many(hands: np.ndarray, starters: np.ndarray, *, crib: bool = False) -> np.ndarray:
    """Show totals for many hands at once: ``hands`` is ``(n, k)`` cards, ``starters`` is ``(n,)``.

    Four-card hands go through the rank table; other sizes through :func:`rank_points_many`.

    >>> from cribstats.cards import parse_cards
    >>> score_show_many(np.array([parse_cards("5C 5D 5H JS")]), np.array(parse_cards("5S"))).tolist()
    [29]
    """
    hands = np.asarray(hands, dtype=np.int16)
    starters = np.asarray(starters, dtype=np.int16)
    cards = np.concatenate([hands, starters[:, None]], axis=1)
    ranks = cards >> 2
    if cards.shape[1] == 5:
        total = rank_table()[ranks.astype(np.int32) @ _RANK_KEY_WEIGHTS].astype(np.int16)
    else:
        total = rank_points_many(ranks)
    return total + flush_and_nobs_many(hands, starters, crib=crib)


def flush_and_nobs_many(hands: np.ndarray, starters: np.ndarray, *, crib: bool = False) -> np.ndarray:
    """Flush and nobs points for many hands at once."""
    suits = hands & 3
    starter_suit = starters & 3
    hand_flush = (suits == suits[:, :1]).all(axis=1)
    with_starter = hand_flush & (starter_suit == suits[:, 0])
    k = hands.shape[1]
    flush = np.where(with_starter, k + 1, 0 if crib else np.where(hand_flush, k, 0))
    nobs = ((hands == (JACK * 4 + starter_suit)[:, None])).any(axis=1)
    return (flush + nobs).astype(np.int16)


# --- the play ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PegScore:
    """Points for the card just laid on a series: fifteen, thirty-one, pairs and run."""

    count: int
    fifteen: int
    thirty_one: int
    pairs: int
    run: int

    @property
    def points(self) -> int:
        return self.fifteen + self.thirty_one + self.pairs + self.run

    def to_dict(self) -> dict[str, int]:
        return {
            "points": self.points,
            "count": self.count,
            "fifteen": self.fifteen,
            "thirty_one": self.thirty_one,
            "pairs": self.pairs,
            "run": self.run,
        }


def score_peg(series: Sequence[Card]) -> PegScore:
    """Points for the last card of a series (the cards laid since the count was last 0).

    Go and last-card points are not included: they depend on what follows. 31 scores its 2 here.

    >>> from cribstats.cards import parse_cards
    >>> score_peg(parse_cards("4H 5S 4D 6C")).run
    3

    :raises CountError: when the count goes past 31.
    """
    count = sum(value(c) for c in series)
    if count > THIRTY_ONE:
        raise CountError(f"the count would be {count}: a series stops at 31")
    return peg_points_ranks([rank(c) for c in series], count)


def peg_points_ranks(ranks: Sequence[int], count: int) -> PegScore:
    """:func:`score_peg` for a series given as ranks and its count (the replay's hot path)."""
    if not ranks:
        return PegScore(count, 0, 0, 0, 0)
    last = ranks[-1]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == last and same < 4:
        same += 1
    run = 0
    for k in range(len(ranks), 2, -1):
        tail = ranks[-k:]
        if max(tail) - min(tail) == k - 1 and len(set(tail)) == k:
            run = k
            break
    return PegScore(
        count=count,
        fifteen=2 if count == FIFTEEN else 0,
        thirty_one=2 if count == THIRTY_ONE else 0,
        pairs=PAIR_POINTS[same],
        run=run,
    )
