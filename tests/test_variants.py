"""Variants: each row of the table in the rules, field by field, and the skunk lines."""

from __future__ import annotations

import pytest

from cribstats.errors import CribstatsError, VariantError
from cribstats.variants import DEFAULT_VARIANT, VARIANT_NAMES, VARIANTS, Variant, find_variant

# name: (players, dealt each, to crib each, crib from deck, hand in show, target, first-deal bonus,
#        single series, partnerships), read off the variant table of the rules
TABLE = {
    "six-card": (2, 6, 2, 0, 4, 121, 0, False, False),
    "five-card": (2, 5, 2, 0, 3, 61, 3, True, False),
    "seven-card": (2, 7, 2, 0, 5, 181, 0, False, False),
    "three-player": (3, 5, 1, 1, 4, 121, 0, False, False),
    "four-player": (4, 5, 1, 0, 4, 121, 0, False, True),
}


def test_the_five_variants_in_order() -> None:
    assert VARIANT_NAMES == ("six-card", "five-card", "seven-card", "three-player", "four-player")
    assert DEFAULT_VARIANT.name == "six-card"


@pytest.mark.parametrize("name", list(TABLE))
def test_each_row_field_by_field(name: str) -> None:
    players, dealt, to_crib, from_deck, hand, target, bonus, single, partners = TABLE[name]
    v = find_variant(name)
    assert v.name == name
    assert v.players == players
    assert v.dealt == dealt
    assert v.to_crib == to_crib
    assert v.crib_from_deck == from_deck
    assert v.hand_size == hand
    assert v.target == target
    assert v.first_deal_bonus == bonus
    assert v.single_series is single
    assert v.partnerships is partners


@pytest.mark.parametrize("v", VARIANTS, ids=VARIANT_NAMES)
def test_the_crib_always_ends_with_four_cards(v: Variant) -> None:
    assert v.players * v.to_crib + v.crib_from_deck == 4
    assert v.dealt - v.to_crib == v.hand_size


def test_find_variant_ignores_case_and_spaces() -> None:
    assert find_variant("Six-Card") is find_variant("six-card")
    assert find_variant("  FIVE-CARD ").name == "five-card"


def test_unknown_variant() -> None:
    with pytest.raises(VariantError) as caught:
        find_variant("nine-card")
    assert str(caught.value) == (
        "unknown variant 'nine-card': use one of six-card, five-card, seven-card, three-player, four-player"
    )
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, CribstatsError)


def test_sides_and_partners() -> None:
    four = find_variant("four-player")
    assert four.sides == 2
    assert [four.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    three = find_variant("three-player")
    assert three.sides == 3
    assert [three.side_of(seat) for seat in range(3)] == [0, 1, 2]
    assert find_variant("six-card").sides == 2


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("six-card", (91, 61, 31)),
        ("five-card", (31, 1, -29)),
        ("seven-card", (151, 121, 91)),
        ("three-player", (91, 61, 31)),
        ("four-player", (91, 61, 31)),
    ],
)
def test_skunk_lines(name: str, lines: tuple[int, int, int]) -> None:
    assert find_variant(name).skunk_lines() == lines


@pytest.mark.parametrize(
    ("score", "level"),
    [(120, 0), (91, 0), (90, 1), (61, 1), (60, 2), (31, 2), (30, 3), (0, 3)],
)
def test_skunk_levels_in_a_121_game(score: int, level: int) -> None:
    # skunked below 91, double below 61, triple below 31
    assert find_variant("six-card").skunk_level(score) == level


@pytest.mark.parametrize(("score", "level"), [(60, 0), (31, 0), (30, 1), (1, 1), (0, 2)])
def test_skunk_levels_in_a_61_game(score: int, level: int) -> None:
    # under 31 is a skunk in a 61 game; under 1 a double; no score is under -29
    assert find_variant("five-card").skunk_level(score) == level


def test_skunk_lines_follow_an_overridden_target() -> None:
    six = find_variant("six-card")
    assert six.skunk_lines(61) == (31, 1, -29)
    assert six.skunk_level(30, target=61) == 1
    assert six.skunk_level(30) == 3
    assert find_variant("seven-card").skunk_level(150) == 1
    assert find_variant("seven-card").skunk_level(151) == 0
    assert find_variant("seven-card").skunk_level(90) == 3
