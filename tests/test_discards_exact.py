"""Every discard of a dealt hand valued independently (tests/discard_brute.py: every starter one at a time, the
show counted from the rules, the crib row read from the data file by its pair name) and set beside cribstats'
analysis, for every variant: duplicate ranks, flushes, nobs, ties and their order."""

from __future__ import annotations

from itertools import combinations, pairwise

import pytest
from discard_brute import card_key, hand_value, show, table_value

from cribstats.cards import parse_cards
from cribstats.discards.analysis import analyse, judge_discard
from cribstats.variants import find_variant

HANDS = [
    ("six-card", "5H 5C JD 4S 6H KC"),  # the club player's hand
    ("six-card", "5C 5D 5H JS 2C 9D"),  # three fives and the jack
    ("six-card", "2H 4H 6H 8H TH QH"),  # six of one suit: every keep a flush, every throw suited
    ("six-card", "7C 7D 8H 8S 9C 9D"),  # duplicate ranks: double runs
    ("six-card", "JC JD JH JS 5C 5D"),  # four jacks: nobs in every suit
    ("five-card", "5H 5C JD 4S 6H"),
    ("five-card", "3S 4S 5S JS KD"),  # three-card flushes and nobs in a three-card hand
    ("five-card", "AH AD 2C 3S 7H"),
    ("seven-card", "5H 5C JD 4S 6H KC 2D"),
    ("seven-card", "3D 5D 7D 9D JD KD AH"),  # five-card flushes kept
    ("seven-card", "6C 6D 7H 8S 9C 9D TH"),
    ("three-player", "5H 5C JD 4S 6H"),
    ("three-player", "2C 3C 4C 5C JC"),
    ("four-player", "5H 5C JD 4S 6H"),
    ("four-player", "TC JC QD KH 5S"),
]


def brute_options(
    variant: str, dealt: list[str], role: str
) -> list[tuple[tuple[str, ...], float, float | None, float]]:
    """(throw, hand, crib, expected) of every throw, the crib from the table of the variant (two players), none
    for three and four players (valued by the hand alone, as docs/decisions.md says)."""
    v = find_variant(variant)
    out = []
    for throw in combinations(dealt, v.to_crib):
        keep = [c for c in dealt if c not in throw]
        hand = hand_value(dealt, keep)
        if v.players == 2:
            crib = table_value(list(throw), role, variant)
            out.append(
                (tuple(sorted(throw, key=card_key)), hand, crib, hand + crib if role == "dealer" else hand - crib)
            )
        else:
            out.append((tuple(sorted(throw, key=card_key)), hand, None, hand))
    return out


@pytest.mark.parametrize(("variant", "text"), HANDS, ids=[f"{v}:{h}" for v, h in HANDS])
@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_every_discard_is_valued_as_brute_force_values_it(variant: str, text: str, role: str) -> None:
    dealt = text.split()
    expected = {throw: (hand, crib, ev) for throw, hand, crib, ev in brute_options(variant, dealt, role)}
    ranked = analyse(parse_cards(text), variant, role)
    assert len(ranked) == len(expected)
    for d in ranked:
        hand, crib, ev = expected[tuple(d.throw_text)]
        assert d.hand == pytest.approx(hand, abs=1e-12)
        assert (d.crib is None) == (crib is None)
        if crib is not None:
            assert d.crib == pytest.approx(crib, abs=1e-12)
        assert d.expected == pytest.approx(ev, abs=1e-12)
        assert d.keep_text == sorted((c for c in dealt if c not in d.throw_text), key=card_key)
    best = max(ev for _, _, ev in expected.values())
    for d in ranked:  # best first, and every loss the best less its own
        choice = judge_discard(parse_cards(text), d.throw, variant, role)
        assert choice.loss == pytest.approx(max(0.0, best - expected[tuple(d.throw_text)][2]), abs=1e-9)
    values = [d.expected for d in ranked]
    assert values == sorted(values, reverse=True)


def test_the_scorer_of_these_tests_counts_the_known_hands() -> None:
    # the 29 hand, a crib flush needing the starter, a four-card hand flush without it, 2-3-3-4-4 = 16
    assert show(["5C", "5D", "5H", "JS"], "5S") == 29
    assert (
        show(["2H", "4H", "6H", "8H"], "QH", crib=True) == 5
        and show(["2H", "4H", "6H", "8H"], "QS", crib=True) == 0
    )
    assert show(["2H", "4H", "6H", "8H"], "QS") == 4 and show(["2H", "4H", "6H", "8H"], "QH") == 5
    assert show(["2C", "3D", "3H", "4S"], "4C") == 16
    assert show(["3S", "5S", "JS"], "KS") == 3 + 1 + 1 + 2 * 2  # three-card flush, its fourth, nobs, 5+J and 5+K


# The count of every show total over all 12,994,800 four-card hands with a starter, under hand rules: copied from
# the project's shared reference data (shared/data/hand-distribution.json, "hand"), which the tests do not read.
HAND_DISTRIBUTION = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324, 8: 1137236,
    9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708,
    20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680, 28: 76, 29: 4,
}  # fmt: skip


def test_the_hand_values_of_every_five_card_deal_add_up_to_the_hand_distribution() -> None:
    # Every five cards dealt (a three- or four-player hand) and every card thrown: the shows of the four kept
    # summed over the 47 starters unseen. Each four cards K with a starter s is counted once for every card thrown
    # beside them (the 47 cards that are neither), so the whole sum is 47 times the distribution's total.
    import numpy as np

    from cribstats.discards.hands import four_card_points

    assert sum(HAND_DISTRIBUTION.values()) == 12_994_800
    hands = np.fromiter(combinations(range(52), 5), dtype=np.dtype((np.int64, 5)))
    total = 0
    for start in range(0, len(hands), 200_000):
        points, starters = four_card_points(hands[start : start + 200_000])
        assert starters == 47
        total += int(points.sum())
    assert total == 47 * sum(t * n for t, n in HAND_DISTRIBUTION.items())


def test_equal_discards_are_listed_in_card_order() -> None:
    # 2C 2D 7H 8S KC KD: swapping clubs and diamonds makes 2C KC and 2D KD worth the same, and 2C KD and 2D KC;
    # among equals the throw of the lower cards (by rank, then suit C D H S) comes first
    dealt = "2C 2D 7H 8S KC KD"
    for role in ("dealer", "pone"):
        ranked = analyse(parse_cards(dealt), "six-card", role)
        throws = [d.throw_text for d in ranked]
        for first, second in ([["2C", "KC"], ["2D", "KD"]], [["2C", "KD"], ["2D", "KC"]]):
            assert ranked[throws.index(first)].expected == ranked[throws.index(second)].expected
            assert throws.index(first) + 1 == throws.index(second)
        for a, b in pairwise(ranked):  # and so every run of equals
            if a.expected == b.expected:
                assert [card_key(c) for c in a.throw_text] < [card_key(c) for c in b.throw_text]
