"""Building the crib table: every six-card hand by its ranks, the other player's best discard, every starter.

This is Craig Hessel's method, made exact. The 18,395 six-card rank hands (a multiset of six ranks, each at most
four times) stand for every deal, each weighted by its number of suit patterns. A player discards by the
model in :func:`decide`: the largest average hand (fifteens, pairs and runs over every starter they cannot see,
nobs by its chance, flushes left aside, as Hessel did) plus the crib table's value of the throw as dealer, or
minus it as pone. The **dealer** value of a rank pair is the average crib it makes when the dealer throws it and
the pone throws by the model, over every pone hand from the 50 other cards and every starter from the 44 left; the
**pone** value, the same with the roles turned. Suits enter exactly where they count in a crib: the nobs of a jack
in it and the crib's five-card flush, by the chance of each suit among the cards of each rank left (the model's
discards look at ranks only, so a rank's suits are equally likely). A suited pair and an off-suit pair of the same
ranks are two rows; a pair of one rank is one.

The table starts with every value 0 (discards for the hand alone) and is recomputed from the discards it implies
until those discards no longer change: the result is a fixed point, each value the exact crib of the discards that
the table itself makes. It takes some seconds.

>>> hands, weights, counts = rank_hands()
>>> len(hands), int(weights.sum())  # every six-card rank hand; every deal of six cards
(18395, 20358520)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import comb

import numpy as np

from cribstats.cards import JACK
from cribstats.cards import RANKS as RANK_NAMES
from cribstats.discards.hands import options
from cribstats.scoring import rank_table

RANKS = 13
DEALT = 6
THROWN = 2
SEEN_STARTERS = 52 - DEALT  # starters the thrower cannot rule out
CRIB_STARTERS = 52 - THROWN - DEALT  # starters left once a pair is thrown and the other hand is dealt
MAX_ITERATIONS = 40
ROLES = ("dealer", "pone")

Cell = tuple[int, int, bool | None]
"""A row of the table: the lower rank, the higher rank, suited (None for two cards of one rank)."""


def cells() -> list[Cell]:
    """The table's rows in order: for each pair of ranks (low first) the off-suit row, then the suited one.

    >>> c = cells()
    >>> len(c), c[:3]
    (169, [(0, 0, None), (0, 1, False), (0, 1, True)])
    """
    out: list[Cell] = []
    for a in range(RANKS):
        for b in range(a, RANKS):
            out.extend([(a, b, None)] if a == b else [(a, b, False), (a, b, True)])
    return out


@cache
def rank_hands() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every six-card rank hand (rows ascending), its number of suit patterns, and its count of each rank."""
    hands = np.array(
        [h for h in combinations_with_replacement(range(RANKS), DEALT) if max(h.count(r) for r in h) <= 4],
        dtype=np.int64,
    )
    counts = np.stack([(hands == r).sum(axis=1) for r in range(RANKS)], axis=1)
    weights = np.prod(np.vectorize(lambda k: comb(4, k))(counts), axis=1)
    return hands, weights, counts


@cache
def _by_starter() -> np.ndarray:
    """Rank points as ``[starter rank, key of four ranks]``."""
    return rank_table().astype(np.float64).reshape(RANKS, 28561)


def _key(*ranks: np.ndarray) -> np.ndarray:
    a, b, c, d = ranks
    return a + 13 * b + 169 * c + 2197 * d


@cache
def _decision_parts() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every rank hand and option: the model's hand value, and the two thrown ranks."""
    hands, _, counts = rank_hands()
    opts = options(DEALT, THROWN)
    keep = np.array([k for k, _ in opts])
    throw = np.array([t for _, t in opts])
    kept = hands[:, keep]  # (hands, options, 4)
    thrown = hands[:, throw]  # (hands, options, 2)
    table = _by_starter()
    key = _key(*(kept[..., i] for i in range(4)))
    starters_left = 4 - counts  # (hands, 13)
    value = sum(starters_left[:, s : s + 1] * table[s][key] for s in range(RANKS)) / SEEN_STARTERS
    # nobs by its chance: a kept jack's suit has 12 starters less the other dealt cards of it (a quarter of the
    # cards that are not jacks, on average)
    jacks = counts[:, JACK : JACK + 1]
    nobs_chance = (12 - (DEALT - jacks) / 4) / SEEN_STARTERS
    value = value + (kept == JACK).sum(axis=2) * nobs_chance
    return value, thrown[..., 0], thrown[..., 1]


def mixed_values(values: np.ndarray) -> np.ndarray:
    """A 13 x 13 table of a throw's value by its ranks alone, from one column of the table (in :func:`cells`
    order): two ranks apart are suited one time in four."""
    out = np.zeros((RANKS, RANKS))
    for (a, b, suited), v in zip(cells(), values, strict=True):
        share = 1.0 if suited is None else 0.25 if suited else 0.75
        out[a, b] += share * v
        if a != b:
            out[b, a] += share * v
    return out


def decide(dealer: np.ndarray, pone: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The option each rank hand throws as dealer and as pone, under the model, given the table's two columns."""
    value, first, second = _decision_parts()
    as_dealer = np.argmax(value + mixed_values(dealer)[first, second], axis=1)
    as_pone = np.argmax(value - mixed_values(pone)[first, second], axis=1)
    return as_dealer, as_pone


def _cell_cards(cell: Cell) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two cards (rank, suit) of a row: the low rank in suit 0, the high in suit 0 when suited, else in suit 1."""
    a, b, suited = cell
    return (a, 0), (b, 0 if suited else 1)


_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)


def _thrown_ranks(thrown: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two ranks each rank hand throws, for one option per hand."""
    _, first, second = _decision_parts()
    rows = np.arange(len(thrown))
    return first[rows, thrown], second[rows, thrown]


def crib_value(cell: Cell, thrown_by_other: np.ndarray) -> float:
    """The average crib of a row's pair with the other player's throw (one option per rank hand), over every
    hand the other player can hold and every starter left."""
    _, _, counts = rank_hands()
    t1, t2 = _thrown_ranks(thrown_by_other)
    cards = _cell_cards(cell)
    held = np.zeros(RANKS, dtype=np.int64)
    for r, _ in cards:
        held[r] += 1
    room = 4 - held
    left = room - counts  # starters of each rank (below 0: a hand the pair rules out)
    weight = np.prod(_COMB[room, np.clip(counts, 0, 4)], axis=1) * (left >= 0).all(axis=1)
    left = np.clip(left, 0, None)
    p_rank = left / CRIB_STARTERS  # (hands, 13)
    a, b = cards[0][0], cards[1][0]
    key = _key(np.full_like(t1, a), np.full_like(t1, b), t1, t2)
    table = _by_starter()
    value = sum(p_rank[:, s] * table[s][key] for s in range(RANKS))

    def free(rank: int, suit: int) -> float:
        """1 when the card of this rank and suit is not one of the pair's."""
        return 0.0 if (rank, suit) in cards else 1.0

    def share(rank: int, suit: int) -> float:
        """The chance that a card of ``rank`` not among the pair's is of ``suit``."""
        return free(rank, suit) / room[rank]

    # nobs of the pair's own jacks: the starter of the jack's suit (a starter jack is the dealer's heels)
    for r, suit in cards:
        if r == JACK:
            value = value + sum(p_rank[:, s] * share(s, suit) for s in range(RANKS))
    # nobs of the other's thrown jacks: each of a suit the pair leaves, equally likely
    jack_suits = [x for x in range(4) if free(JACK, x)]
    match = sum(
        p_rank[:, s] * sum(share(s, x) for x in jack_suits) / len(jack_suits) for s in range(RANKS) if s != JACK
    )
    value = value + ((t1 == JACK).astype(float) + (t2 == JACK)) * match
    # a crib flush: a suited pair, both thrown cards of its suit and a starter of it too
    if cell[2]:
        suit = cards[0][1]
        per_rank = np.array([share(r, suit) for r in range(RANKS)])
        starter_suit = sum(p_rank[:, s] * per_rank[s] * (t1 != s) * (t2 != s) for s in range(RANKS))
        value = value + 5 * np.where(t1 != t2, per_rank[t1] * per_rank[t2], 0.0) * starter_suit
    return float((weight * value).sum() / weight.sum())


@dataclass(frozen=True, slots=True)
class BuiltTable:
    """The table's two columns in :func:`cells` order, and the iterations the discards took to settle."""

    dealer: np.ndarray
    pone: np.ndarray
    iterations: int
    converged: bool


def columns_from(
    as_dealer: np.ndarray, as_pone: np.ndarray, chosen: list[Cell] | None = None
) -> tuple[list[float], list[float]]:
    """The dealer and pone values of some rows (all by default) for the discards given as dealer and as pone:
    the dealer's crib takes the pone's discards, the pone's throw meets the dealer's."""
    rows = cells() if chosen is None else chosen
    return [crib_value(c, as_pone) for c in rows], [crib_value(c, as_dealer) for c in rows]


def build_table(progress: Callable[[int, int], None] | None = None) -> BuiltTable:
    """Iterate from a table of zeros until the discards it implies no longer change (at most
    :data:`MAX_ITERATIONS` rounds). ``progress(round, changed)`` is told of each round and how many of the
    rank hands' discards changed in it."""
    dealer = np.zeros(len(cells()))
    pone = np.zeros(len(cells()))
    before: tuple[np.ndarray, np.ndarray] | None = None
    for round_ in range(1, MAX_ITERATIONS + 1):
        as_dealer, as_pone = decide(dealer, pone)
        if before is not None:
            changed = int((before[0] != as_dealer).sum() + (before[1] != as_pone).sum())
            if progress is not None:
                progress(round_, changed)
            if changed == 0:
                return BuiltTable(dealer, pone, round_ - 1, True)
        d, p = columns_from(as_dealer, as_pone)
        dealer, pone = np.array(d), np.array(p)
        before = (as_dealer, as_pone)
    return BuiltTable(dealer, pone, MAX_ITERATIONS, False)


def table_document(built: BuiltTable, version: str) -> dict[str, object]:
    """The data file's content: its provenance, then one row per :func:`cells` row (values to 4 places)."""
    rows = [
        {"pair": RANK_NAMES[a] + RANK_NAMES[b], "suited": suited, "dealer": round(float(d), 4),
         "pone": round(float(p), 4)}
        for (a, b, suited), d, p in zip(cells(), built.dealer, built.pone, strict=True)
    ]  # fmt: skip
    return {
        "format": "cribstats/crib-table/1",
        "built_by": "cribstats discard-table --build",
        "cribstats_version": version,
        "method": (
            "exact enumeration of the 18,395 six-card rank hands, each weighted by its suit patterns: the other "
            "player's best discard by the model (average hand over every starter, nobs by its chance, flushes "
            "aside, plus or minus this table's value of the throw), every starter left; suits of the crib's nobs "
            "and flush by their chances; iterated from zeros until the discards no longer change"
        ),
        "iterations": built.iterations,
        "converged": built.converged,
        "rows": rows,
    }
