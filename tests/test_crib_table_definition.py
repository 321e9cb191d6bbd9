"""The six-card crib table checked against its definition in docs/decisions.md ("Discard analysis", the other
player's throw), computed here independently of cribstats' builder: the rank points counted by the rules
(tests/discard_brute.py), the other player's rank hands enumerated from the cards the pair leaves, their discard
chosen by the documented model under the shipped table, the crib's expectation over every starter left, with the
pair's own suits where they count (nobs, the crib's five-card flush). A fixed point: the table is the crib of the
discards it implies, to its four places."""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb, prod

import numpy as np
import pytest
from discard_brute import RANKS, show, table_value

JACK = RANKS.index("J")


@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of a hand's ranks and a starter's (the last): suits in turn, so no flush, and
    nobs taken off."""
    cards = [RANKS[r] + "CDHS"[i % 4] for i, r in enumerate(ranks)]
    hand, starter = cards[:-1], cards[-1]
    plain = show(hand, starter)
    nobs = sum(1 for c in hand if c[0] == "J" and c[1] == starter[1])
    return plain - nobs


@cache
def points_by_starter(kept: tuple[int, ...]) -> np.ndarray:
    """The rank points of kept ranks with a starter of each rank."""
    return np.array([rank_points((*kept, s)) for s in range(13)], dtype=np.float64)


def mixed(a: int, b: int, role: str, variant: str) -> float:
    """The table's value of a throw by its ranks alone: two ranks are of one suit one time in four."""
    ra, rb = RANKS[a], RANKS[b]
    if a == b:
        return table_value([ra + "C", rb + "D"], role, variant)
    suited, off = (
        table_value([ra + "C", rb + "C"], role, variant),
        table_value([ra + "C", rb + "D"], role, variant),
    )
    return 0.25 * suited + 0.75 * off


def crib_of_pair(pair: tuple[str, str], role: str, variant: str = "six-card", dealt: int = 6) -> float:
    """The expected crib of ``pair`` thrown by a player who is ``role``, the other throwing by the model."""
    other = "pone" if role == "dealer" else "dealer"
    held = [0] * 13
    for c in pair:
        held[RANKS.index(c[0])] += 1
    room = [4 - h for h in held]
    throw_value = {(a, b): mixed(a, b, other, variant) for a in range(13) for b in range(a, 13)}
    total = weights = 0.0
    for hand in combinations_with_replacement(range(13), dealt):
        counts = [hand.count(r) for r in range(13)]
        if any(counts[r] > room[r] for r in range(13)):
            continue
        weight = prod(comb(room[r], counts[r]) for r in range(13))
        # the other player's choice: the average hand over the starters unseen by him (ranks only), a kept
        # jack's nobs by its chance, plus the table's value of the throw as dealer, minus it as pone
        seen = np.array([4 - k for k in counts], dtype=np.float64)
        nobs = (12 - (dealt - counts[JACK]) / 4) / (52 - dealt)
        best, thrown = -1e9, (0, 0)
        for t in combinations(range(dealt), 2):
            keep = tuple(hand[i] for i in range(dealt) if i not in t)
            value = float(points_by_starter(tuple(sorted(keep))) @ seen) / (52 - dealt) + keep.count(JACK) * nobs
            crib = throw_value[(hand[t[0]], hand[t[1]])]
            value += crib if other == "dealer" else -crib
            if value > best + 1e-12:
                best, thrown = value, (hand[t[0]], hand[t[1]])
        total += weight * crib_value(pair, thrown, counts, room, 50 - dealt)
        weights += weight
    return total / weights


def crib_value(
    pair: tuple[str, str], thrown: tuple[int, int], counts: list[int], room: list[int], starters: int
) -> float:
    """The crib of ``pair`` and two cards of ranks ``thrown`` from a hand of ``counts``, over the starters left."""
    ranks = [RANKS.index(c[0]) for c in pair]
    left = np.array([room[r] - counts[r] for r in range(13)], dtype=np.float64) / starters
    value = float(points_by_starter(tuple(sorted((*ranks, *thrown)))) @ left)

    def suit_chance(rank: int, suit: str) -> float:  # a card of ``rank`` not the pair's being of ``suit``
        return (0.0 if RANKS[rank] + suit in pair else 1.0) / room[rank]

    for card in pair:  # the pair's own jack: the starter of its suit
        if card[0] == "J":
            value += sum(left[s] * suit_chance(s, card[1]) for s in range(13))
    free_jacks = [x for x in "CDHS" if "J" + x not in pair]
    for t in thrown:  # the other's jack: its suit any the pair leaves, the starter of it
        if t == JACK:
            value += sum(left[s] * suit_chance(s, x) for s in range(13) if s != JACK for x in free_jacks) / len(
                free_jacks
            )
    if pair[0][1] == pair[1][1] and pair[0][0] != pair[1][0] and thrown[0] != thrown[1]:
        suit = pair[0][1]
        both = suit_chance(thrown[0], suit) * suit_chance(thrown[1], suit)
        starter = sum(left[s] * suit_chance(s, suit) for s in range(13) if s not in thrown)
        value += 5 * both * starter
    return value


@pytest.mark.parametrize(
    "pair",
    [("5C", "5D"), ("5H", "JH"), ("JC", "JD")],
    ids=lambda p: "-".join(p),
)
@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_table_is_the_crib_of_the_discards_it_implies(pair: tuple[str, str], role: str) -> None:
    assert crib_of_pair(pair, role) == pytest.approx(table_value(list(pair), role), abs=2e-4)


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_five_card_table_follows_the_same_definition(role: str) -> None:
    # five-card's discards go round in a cycle, and its table is the running average of the rounds' cribs
    # (docs/decisions.md): within a few thousandths of the crib of its own discards
    pair = ("5H", "JH")
    assert crib_of_pair(pair, role, "five-card", 5) == pytest.approx(
        table_value(list(pair), role, "five-card"), abs=2e-3
    )
