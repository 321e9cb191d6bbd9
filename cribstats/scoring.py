"""Points: the show (a hand or crib with the starter) and the play (a card laid on a series).

Two paths score the show. :func:`score_show` explains itself: every fifteen, pair, run, flush and nobs as the
cards that make it. :func:`score_show_many` scores arrays of hands at once for bulk work, through a table of the
rank part (fifteens, pairs, runs) keyed by the five ranks. Both agree; the tests hold them to it.

The scorers trust their input (a replay of a broken log may show a card twice and still wants points);
:func:`check_show` and :func:`check_series` say what is wrong with cards typed by a person.

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
from cribstats.variants import CRIB_SIZE, VARIANTS

FIFTEEN = 15
THIRTY_ONE = 31
PAIR_POINTS = {1: 0, 2: 2, 3: 6, 4: 12}
HAND_SIZES = tuple(sorted({v.hand_size for v in VARIANTS}))  # 3, 4 and 5: the variants' hands
KINDS = ("fifteen", "pair", "run", "flush", "nobs")


class CountError(CribstatsError, ValueError):
    """A series whose count goes past 31."""


class HandError(CribstatsError, ValueError):
    """Cards that cannot be shown or played together: a card twice, or a wrong number of cards."""


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind (fifteen, pair, run, flush, nobs), the cards and the points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def describe(self) -> str:
        """``'fifteen 5H JS: 2'``

        >>> ScoreItem("pair", (17, 19), 2).describe()
        'pair 5D 5S: 2'
        """
        return f"{self.kind} {' '.join(format_card(c) for c in self.cards)}: {self.points}"


@dataclass(frozen=True, slots=True)
class ShowScore:
    """The show score of a hand or crib, with the combinations that make it."""

    items: tuple[ScoreItem, ...]

    def points_of(self, kind: str) -> int:
        """Points of one kind: ``fifteen``, ``pair``, ``run``, ``flush`` or ``nobs``."""
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


def check_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> None:
    """Refuse cards that cannot be a hand (3, 4 or 5 cards) or a crib (4 cards) shown with a starter.

    >>> from cribstats.cards import parse_cards
    >>> check_show(parse_cards("5H 5C 5S"), parse_cards("5H")[0])
    Traceback (most recent call last):
    ...
    cribstats.scoring.HandError: 5H is there twice: every card exists once

    :raises HandError: for a wrong number of cards or a card given twice.
    """
    sizes = (CRIB_SIZE,) if crib else HAND_SIZES
    if len(hand) not in sizes:
        given = len(hand) + 1
        what = "a crib of 4 cards" if crib else "a hand of 3, 4 or 5 cards"
        raise HandError(f"{given} card{'' if given == 1 else 's'} given: give {what}, then the starter")
    _check_distinct((*hand, starter))


def check_series(series: Sequence[Card]) -> None:
    """Refuse a series that cannot have been laid: empty, a card twice, or a count past 31.

    >>> from cribstats.cards import parse_cards
    >>> check_series(parse_cards("KH QH JH 2C"))
    Traceback (most recent call last):
    ...
    cribstats.scoring.CountError: KH QH JH 2C count 32: a series stops at 31

    :raises HandError: for no cards or a card given twice.
    :raises CountError: when the count goes past 31.
    """
    if not series:
        raise HandError("no cards: give the cards of the series in the order they were laid")
    _check_distinct(series)
    count = sum(value(c) for c in series)
    if count > THIRTY_ONE:
        cards = " ".join(format_card(c) for c in series)
        raise CountError(f"{cards} count {count}: a series stops at 31")


def _check_distinct(cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise HandError(f"{format_card(c)} is there twice: every card exists once")
        seen.add(c)


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """Score a hand (3, 4 or 5 cards) or a crib with the starter, with the breakdown.

    Items come in the order fifteens, pairs, runs, flush, nobs; the cards of a combination in rank order.

    >>> from cribstats.cards import parse_cards
    >>> s = score_show(parse_cards("2H 2S 3D 4C"), parse_cards("KS")[0])
    >>> s.fifteens, s.pairs, s.runs, s.total
    (4, 2, 6, 12)
    >>> [i.describe() for i in s.items][:2]
    ['fifteen 2H 3D KS: 2', 'fifteen 2S 3D KS: 2']
    """
    cards = sorted((*hand, starter))
    items = [
        ScoreItem(kind, tuple(cards[p] for p in positions), points)
        for kind, positions, points in _rank_combinations(tuple(c >> 2 for c in cards))
    ]
    items.extend(_flush_items(hand, starter, crib=crib))
    items.extend(ScoreItem("nobs", (c,), 1) for c in hand if rank(c) == JACK and suit(c) == suit(starter))
    return ShowScore(tuple(items))


@cache
def _rank_combinations(ranks: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """Fifteens, pairs and runs of ranks in ascending order, as (kind, positions, points).

    Cached: at most one entry per multiset of ranks (6,188 for five cards).

    >>> _rank_combinations((3, 4, 4))
    (('pair', (1, 2), 2),)
    """
    n = len(ranks)
    values = [min(r + 1, 10) for r in ranks]
    found: list[tuple[str, tuple[int, ...], int]] = [
        ("fifteen", positions, 2)
        for size in range(2, n + 1)
        for positions in combinations(range(n), size)
        if sum(values[p] for p in positions) == FIFTEEN
    ]
    found.extend(("pair", (a, b), 2) for a, b in combinations(range(n), 2) if ranks[a] == ranks[b])
    by_rank: dict[int, list[int]] = {}
    for p, r in enumerate(ranks):
        by_rank.setdefault(r, []).append(p)
    r = 0
    while r < 13:
        if r not in by_rank:
            r += 1
            continue
        end = r
        while end + 1 in by_rank:
            end += 1
        length = end - r + 1
        if length >= 3:  # a maximal run: once per way of taking one card of each of its ranks
            ways: list[tuple[int, ...]] = [()]
            for k in range(r, end + 1):
                ways = [(*way, p) for way in ways for p in by_rank[k]]
            found.extend(("run", way, length) for way in ways)
        r = end + 1
    return tuple(found)


def _flush_items(hand: Sequence[Card], starter: Card, *, crib: bool) -> list[ScoreItem]:
    if not hand:
        return []
    first = suit(hand[0])
    if any(suit(c) != first for c in hand):
        return []
    if suit(starter) == first:
        return [ScoreItem("flush", (*hand, starter), len(hand) + 1)]
    return [] if crib else [ScoreItem("flush", tuple(hand), len(hand))]


# --- the fast path -------------------------------------------------------------------------------------------


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
    values = np.minimum(ranks + 1, 10).astype(np.int8)
    fifteens = np.zeros(n, dtype=np.int16)
    sums = [np.zeros(n, dtype=np.int8)]
    for mask in range(1, 1 << k):
        low = mask & -mask
        subset_sum = sums[mask ^ low] + values[:, low.bit_length() - 1]
        sums.append(subset_sum)
        if mask != low:
            fifteens += subset_sum == FIFTEEN
    points = 2 * fifteens
    for a, b in combinations(range(k), 2):
        points += 2 * (ranks[:, a] == ranks[:, b])
    length = np.zeros(n, dtype=np.int16)
    product = np.ones(n, dtype=np.int16)
    no_cards = np.zeros(n, dtype=np.int16)
    for r in range(14):  # rank 13 does not exist: it closes a stretch that reaches the king
        count = (ranks == r).sum(axis=1, dtype=np.int16) if r < 13 else no_cards
        present = count > 0
        points += np.where(~present & (length >= 3), length * product, 0).astype(np.int16)
        length = np.where(present, length + 1, 0).astype(np.int16)
        product = np.where(present, product * count, 1).astype(np.int16)
    return points


@cache
def rank_table() -> np.ndarray:
    """Rank points of every five ranks, indexed by ``r0 + 13*r1 + 169*r2 + 2197*r3 + 28561*r4``.

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
    return r[:, 0] + 13 * (r[:, 1] + 13 * (r[:, 2] + 13 * (r[:, 3] + 13 * r[:, 4])))


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
    return total + flush_and_nobs_many(hands, starters, crib=crib)


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
    hand_flush = (suits == suits[:, :1]).all(axis=1)
    with_starter = hand_flush & (starter_suit == suits[:, 0])
    k = hands.shape[1]
    flush = np.where(with_starter, k + 1, 0 if crib else np.where(hand_flush, k, 0))
    nobs = (hands == (JACK * 4 + starter_suit)[:, None]).any(axis=1)
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
    """:func:`score_peg` for a series given as ranks and its count (the replay's hot path).

    >>> peg_points_ranks([4, 4, 4, 4], 20).pairs
    12
    """
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


@cache
def _rank_points_by_key() -> bytes:
    """The rank table as bytes, for scalar lookups without numpy overhead."""
    return rank_table().astype(np.uint8).tobytes()


def score_show_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The show total alone, fast: four-card hands through the rank table (the replay's hot path).

    >>> from cribstats.cards import parse_cards
    >>> score_show_total(parse_cards("2H 4H 6H 8H"), parse_cards("KH")[0], crib=True)
    5
    """
    if len(hand) != 4:
        return score_show(hand, starter, crib=crib).total
    a, b, c, d = hand
    points = _rank_points_by_key()[
        (a >> 2) * 28561 + (b >> 2) * 2197 + (c >> 2) * 169 + (d >> 2) * 13 + (starter >> 2)
    ]
    s = a & 3
    if s == b & 3 == c & 3 == d & 3:
        if s == starter & 3:
            points += 5
        elif not crib:
            points += 4
    nobs = JACK * 4 + (starter & 3)
    if a == nobs or b == nobs or c == nobs or d == nobs:
        points += 1
    return points
