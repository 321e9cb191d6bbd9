"""The exact distribution: every four-card hand with every starter, under hand and crib rules.

The reference counts are the published table copied into ``cribstats/data/hand-distribution.json``.
"""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

import numpy as np
import pytest

from cribstats.enumerate import (
    COMBINATIONS,
    REFERENCE_FILE,
    all_hands,
    load_reference_distribution,
    load_reference_means,
    mean_total,
    show_distribution,
    show_distributions,
    show_totals,
    starters_of,
)
from cribstats.scoring import score_show


@pytest.fixture(scope="module")
def reference() -> dict:
    return json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def enumerated() -> dict[str, dict[int, int]]:
    return show_distributions()


def test_the_reference_file(reference: dict) -> None:
    assert reference["combinations"] == 12_994_800 == comb(52, 4) * 48 == COMBINATIONS
    for rules in ("hand", "crib"):
        assert sum(reference[rules].values()) == 12_994_800


@pytest.mark.parametrize("rules", ["hand", "crib"])
def test_every_count_matches(rules: str, reference: dict, enumerated: dict[str, dict[int, int]]) -> None:
    expected = {int(total): count for total, count in reference[rules].items()}
    assert enumerated[rules] == expected


@pytest.mark.parametrize("rules", ["hand", "crib"])
def test_the_means_match(rules: str, reference: dict, enumerated: dict[str, dict[int, int]]) -> None:
    assert round(mean_total(enumerated[rules]), 6) == reference["mean"][rules]


@pytest.mark.parametrize("rules", ["hand", "crib"])
def test_totals_that_never_occur(rules: str, enumerated: dict[str, dict[int, int]]) -> None:
    assert set(range(30)) - set(enumerated[rules]) == {19, 25, 26, 27}
    assert enumerated[rules][29] == 4  # the jack of the starter's suit with the other three fives


def test_the_rule_sets_differ_only_by_the_four_card_flush(enumerated: dict[str, dict[int, int]]) -> None:
    # 4 * C(13, 4) one-suit hands, each with 39 starters of another suit, score 4 more as a hand than as a crib
    moved = 4 * comb(13, 4) * 39
    points = {rules: sum(t * c for t, c in enumerated[rules].items()) for rules in ("hand", "crib")}
    assert points["hand"] - points["crib"] == 4 * moved


def test_the_loaders_read_the_reference(reference: dict) -> None:
    loaded = load_reference_distribution()
    assert loaded["crib"][0] == 1_022_208
    assert {rules: {str(t): c for t, c in loaded[rules].items()} for rules in loaded} == {
        "hand": reference["hand"], "crib": reference["crib"],
    }
    assert load_reference_means() == {"hand": 4.769152, "crib": 4.734819}


def test_show_distribution_of_one_rule_set(enumerated: dict[str, dict[int, int]]) -> None:
    assert show_distribution(crib=True) == enumerated["crib"]


def test_all_hands_and_their_starters() -> None:
    hands = all_hands()
    assert hands.shape == (270_725, 4)
    assert hands[:1000].tolist() == [list(h) for h in combinations(range(52), 4)][:1000]
    assert (np.diff(hands, axis=1) > 0).all()
    assert len(np.unique(hands.astype(np.int64) @ np.array([1, 52, 52**2, 52**3]))) == 270_725
    sample = hands[::997]
    starters = starters_of(sample)
    assert starters.shape == (len(sample), 48)
    for hand, rest in zip(sample.tolist(), starters.tolist(), strict=True):
        assert rest == [c for c in range(52) if c not in hand]


def test_enumerated_totals_agree_with_the_breakdown_path() -> None:
    rng = np.random.default_rng(2)
    hands = all_hands()[np.sort(rng.choice(270_725, size=300, replace=False))]
    crib, hand = show_totals(hands)
    starters = starters_of(hands)
    for i, cards in enumerate(hands.tolist()):
        for j, starter in enumerate(starters[i].tolist()):
            assert crib[i, j] == score_show(cards, starter, crib=True).total
            assert hand[i, j] == score_show(cards, starter).total
