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
from cribstats.discards.table import DEALT_BY_VARIANT
from cribstats.scoring import NOBS, flush_points_for
from cribstats.scoring_many import rank_points_many, rank_table
from cribstats.variants import CRIB_SIZE, DEFAULT_VARIANT

RANKS = 13
DEALT = DEFAULT_VARIANT.dealt  # six-card; five-card deals 5 and seven-card 7, each throwing two
THROWN = DEFAULT_VARIANT.to_crib
CRIB_FLUSH = flush_points_for(CRIB_SIZE, 1, 1, crib=True)  # a crib of one suit with the starter
MAX_ITERATIONS = 400
CYCLES = 8  # the longest cycle of discards looked for
SETTLED = 5e-5  # a running average that moves less than this over a cycle (below the file's 4 places) is done
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
def rank_hands(dealt: int = DEALT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every rank hand of ``dealt`` cards (rows ascending), its number of suit patterns, its count of each rank."""
    hands = np.array(
        [h for h in combinations_with_replacement(range(RANKS), dealt) if max(h.count(r) for r in h) <= 4],
        dtype=np.int64,
    )
    counts = np.stack([(hands == r).sum(axis=1) for r in range(RANKS)], axis=1)
    weights = np.prod(np.vectorize(lambda k: comb(4, k))(counts), axis=1)
    return hands, weights, counts


@cache
def _by_starter() -> np.ndarray:
    """Rank points as ``[starter rank, key of four ranks]``."""
    table: np.ndarray = rank_table().astype(np.float64).reshape(RANKS, 28561)
    return table


def _key(*ranks: np.ndarray) -> np.ndarray:
    a, b, c, d = ranks
    key: np.ndarray = a + 13 * b + 169 * c + 2197 * d
    return key


def _points_by_starter(kept: np.ndarray) -> list[np.ndarray]:
    """For kept ranks of shape ``(hands, options, k)``: the rank points with a starter of each rank (a list of 13
    arrays of shape ``(hands, options)``); four kept cards through the rank table, other sizes by scoring each
    distinct keep."""
    if kept.shape[-1] == 4:
        table = _by_starter()
        key = _key(*(kept[..., i] for i in range(4)))
        return [table[s][key] for s in range(RANKS)]
    flat = kept.reshape(-1, kept.shape[-1])
    unique, inverse = np.unique(flat, axis=0, return_inverse=True)
    rows = np.concatenate([np.repeat(unique, RANKS, axis=0), np.tile(np.arange(RANKS), len(unique))[:, None]], 1)
    points = rank_points_many(rows).reshape(len(unique), RANKS)
    by_keep = points[inverse.ravel()].reshape(*kept.shape[:2], RANKS)
    return [by_keep[..., s] for s in range(RANKS)]


@cache
def _decision_parts(dealt: int = DEALT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every rank hand and option: the model's hand value, and the two thrown ranks."""
    hands, _, counts = rank_hands(dealt)
    opts = options(dealt, THROWN)
    keep = np.array([k for k, _ in opts])
    throw = np.array([t for _, t in opts])
    kept = hands[:, keep]  # (hands, options, dealt - 2)
    thrown = hands[:, throw]  # (hands, options, 2)
    seen_starters = 52 - dealt  # the starters the player cannot rule out
    starters_left = 4 - counts  # (hands, 13)
    by_starter = _points_by_starter(kept)
    value = sum(starters_left[:, s : s + 1] * by_starter[s] for s in range(RANKS)) / seen_starters
    # nobs by its chance: a kept jack's suit has 12 starters less the other dealt cards of it (a quarter of the
    # cards that are not jacks, on average)
    jacks = counts[:, JACK : JACK + 1]
    nobs_chance = (12 - (dealt - jacks) / 4) / seen_starters
    value = value + NOBS * (kept == JACK).sum(axis=2) * nobs_chance
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


def decide(dealer: np.ndarray, pone: np.ndarray, dealt: int = DEALT) -> tuple[np.ndarray, np.ndarray]:
    """The option each rank hand throws as dealer and as pone, under the model, given the table's two columns."""
    value, first, second = _decision_parts(dealt)
    as_dealer = np.argmax(value + mixed_values(dealer)[first, second], axis=1)
    as_pone = np.argmax(value - mixed_values(pone)[first, second], axis=1)
    return as_dealer, as_pone


def _cell_cards(cell: Cell) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two cards (rank, suit) of a row: the low rank in suit 0, the high in suit 0 when suited, else in suit 1."""
    a, b, suited = cell
    return (a, 0), (b, 0 if suited else 1)


_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)


def _thrown_ranks(thrown: np.ndarray, dealt: int) -> tuple[np.ndarray, np.ndarray]:
    """The two ranks each rank hand throws, for one option per hand."""
    _, first, second = _decision_parts(dealt)
    rows = np.arange(len(thrown))
    return first[rows, thrown], second[rows, thrown]


def crib_value(cell: Cell, thrown_by_other: np.ndarray, dealt: int = DEALT) -> float:
    """The average crib of a row's pair with the other player's throw (one option per rank hand), over every
    hand the other player can hold and every starter left."""
    _, _, counts = rank_hands(dealt)
    t1, t2 = _thrown_ranks(thrown_by_other, dealt)
    cards = _cell_cards(cell)
    held = np.zeros(RANKS, dtype=np.int64)
    for r, _ in cards:
        held[r] += 1
    room = 4 - held
    left = room - counts  # starters of each rank (below 0: a hand the pair rules out)
    weight = np.prod(_COMB[room, np.clip(counts, 0, 4)], axis=1) * (left >= 0).all(axis=1)
    left = np.clip(left, 0, None)
    p_rank = left / (52 - THROWN - dealt)  # (hands, 13): a starter from the cards left
    a, b = cards[0][0], cards[1][0]
    key = _key(np.full_like(t1, a), np.full_like(t1, b), t1, t2)
    table = _by_starter()
    value = sum(p_rank[:, s] * table[s][key] for s in range(RANKS))

    def free(rank: int, suit: int) -> float:
        """1 when the card of this rank and suit is not one of the pair's."""
        return 0.0 if (rank, suit) in cards else 1.0

    def share(rank: int, suit: int) -> float:
        """The chance that a card of ``rank`` not among the pair's is of ``suit``."""
        return free(rank, suit) / int(room[rank])

    # nobs of the pair's own jacks: the starter of the jack's suit (a starter jack is the dealer's heels)
    for r, suit in cards:
        if r == JACK:
            value = value + NOBS * sum(p_rank[:, s] * share(s, suit) for s in range(RANKS))
    # nobs of the other's thrown jacks: each of a suit the pair leaves, equally likely
    jack_suits = [x for x in range(4) if free(JACK, x)]
    match = sum(
        p_rank[:, s] * sum(share(s, x) for x in jack_suits) / len(jack_suits) for s in range(RANKS) if s != JACK
    )
    value = value + NOBS * ((t1 == JACK).astype(float) + (t2 == JACK)) * match
    # a crib flush: a suited pair, both thrown cards of its suit and a starter of it too
    if cell[2]:
        suit = cards[0][1]
        per_rank = np.array([share(r, suit) for r in range(RANKS)])
        starter_suit = sum(p_rank[:, s] * per_rank[s] * (t1 != s) * (t2 != s) for s in range(RANKS))
        value = value + CRIB_FLUSH * np.where(t1 != t2, per_rank[t1] * per_rank[t2], 0.0) * starter_suit
    return float((weight * value).sum() / weight.sum())


@dataclass(frozen=True, slots=True)
class BuiltTable:
    """The table's two columns in :func:`cells` order, and the iterations the discards took to settle."""

    dealer: np.ndarray
    pone: np.ndarray
    iterations: int
    converged: bool


def columns_from(
    as_dealer: np.ndarray, as_pone: np.ndarray, chosen: list[Cell] | None = None, dealt: int = DEALT
) -> tuple[list[float], list[float]]:
    """The dealer and pone values of some rows (all by default) for the discards given as dealer and as pone:
    the dealer's crib takes the pone's discards, the pone's throw meets the dealer's."""
    rows = cells() if chosen is None else chosen
    return [crib_value(c, as_pone, dealt) for c in rows], [crib_value(c, as_dealer, dealt) for c in rows]


def build_table(progress: Callable[[int, int], None] | None = None, dealt: int = DEALT) -> BuiltTable:
    """Iterate from a table of zeros until the discards it implies no longer change (at most
    :data:`MAX_ITERATIONS` rounds), for hands of ``dealt`` cards each throwing two. ``progress(round, changed)``
    is told of each round and how many of the rank hands' discards changed in it.

    Each round the table becomes the crib of the discards the last one implied. Should the discards go round in a
    cycle instead (a few hands flipping between throws whose values the flip itself reverses, as in five-card),
    no table is the crib of its own discards; from then on the table is the running average of the cribs of the
    rounds' discards (fictitious play), and it is done when the discards settle and the exact crib of them
    implies them again (a fixed point after all), or when that average moves by less than :data:`SETTLED` over
    one turn of the cycle: the few hands on the edge throw each way in their share."""
    dealer = np.zeros(len(cells()))
    pone = np.zeros(len(cells()))
    seen: list[tuple[np.ndarray, np.ndarray]] = []  # the discards of the last rounds
    averages: list[tuple[np.ndarray, np.ndarray]] = []  # the running average after each averaged round
    cycle = 0  # its length once the discards go round in one (0: not averaging)
    changed_before = True  # whether the last round changed some discards
    for round_ in range(1, MAX_ITERATIONS + 1):
        as_dealer, as_pone = decide(dealer, pone, dealt)
        if seen:
            changed = int((seen[-1][0] != as_dealer).sum() + (seen[-1][1] != as_pone).sum())
            if progress is not None:
                progress(round_, changed)
            if changed == 0 and not cycle:
                return BuiltTable(dealer, pone, round_ - 1, True)
            if changed == 0 and cycle and changed_before:  # settled while averaging: a fixed point after all?
                d, p = (np.array(c) for c in columns_from(as_dealer, as_pone, dealt=dealt))
                if _same(decide(d, p, dealt), (as_dealer, as_pone)):
                    return BuiltTable(d, p, round_, True)
            changed_before = changed > 0
            if not cycle:
                cycle = next((n for n in range(2, len(seen) + 1) if _same(seen[-n], (as_dealer, as_pone))), 0)
        d, p = (np.array(c) for c in columns_from(as_dealer, as_pone, dealt=dealt))
        if cycle:
            weight = 1 / (len(averages) + 2)  # the average starts from the table before the cycle was seen
            dealer, pone = dealer + (d - dealer) * weight, pone + (p - pone) * weight
            averages.append((dealer, pone))
            if len(averages) > cycle:
                then = averages[-1 - cycle]
                if max(np.abs(dealer - then[0]).max(), np.abs(pone - then[1]).max()) < SETTLED:
                    return BuiltTable(dealer, pone, round_, True)
        else:
            dealer, pone = d, p
        seen = [*seen[-(CYCLES - 1) :], (as_dealer, as_pone)]
    return BuiltTable(dealer, pone, MAX_ITERATIONS, False)


def _same(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> bool:
    return bool((a[0] == b[0]).all() and (a[1] == b[1]).all())


def _rows(built: BuiltTable) -> list[dict[str, object]]:
    return [
        {"pair": RANK_NAMES[a] + RANK_NAMES[b], "suited": suited, "dealer": round(float(d), 4),
         "pone": round(float(p), 4)}
        for (a, b, suited), d, p in zip(cells(), built.dealer, built.pone, strict=True)
    ]  # fmt: skip


def table_document(builds: dict[str, BuiltTable], version: str) -> dict[str, object]:
    """The data file's content: its provenance, the six-card table's rows (one per :func:`cells` row, values to
    4 places), and under ``variants`` the five- and seven-card tables, built the same way from hands of five and
    seven cards."""
    six = builds["six-card"]
    return {
        "format": "cribstats/crib-table/1",
        "built_by": "cribstats discard-table --build",
        "cribstats_version": version,
        "method": (
            "exact enumeration of the 18,395 six-card rank hands, each weighted by its suit patterns: the other "
            "player's best discard by the model (average hand over every starter, nobs by its chance, flushes "
            "aside, plus or minus this table's value of the throw), every starter left; suits of the crib's nobs "
            "and flush by their chances; iterated from zeros until the discards no longer change (or, should "
            "they cycle, until the running average of the rounds' cribs moves by less than 0.00005)"
        ),
        "iterations": six.iterations,
        "converged": six.converged,
        "rows": _rows(six),
        "variants": {
            name: {
                "dealt": DEALT_BY_VARIANT[name], "iterations": b.iterations, "converged": b.converged,
                "rows": _rows(b),
            }
            for name, b in builds.items()
            if name != "six-card"
        },
    }  # fmt: skip
