"""Cards: every spelling of the game log reads, output is canonical, anything else is refused in fixed words."""

from __future__ import annotations

import pytest

from cribstats.cards import DECK, format_card, parse_card, parse_cards, rank, suit, value
from cribstats.errors import CardError, CribstatsError

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CANONICAL = [r + s for r in RANK_LETTERS for s in SUIT_LETTERS]


def spellings(canonical: str) -> set[str]:
    """Every way the game log lets a card be written: 10 for T, suit symbols, any case."""
    r, s = canonical[0], canonical[1]
    ranks = {r, r.lower()} | ({"10"} if r == "T" else set())
    suits = {s, s.lower(), SUIT_SYMBOLS[s]}
    return {a + b for a in ranks for b in suits}


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5H", "5H"),
        ("10s", "TS"),
        ("10S", "TS"),
        ("T♠", "TS"),
        ("t♠", "TS"),
        ("jd", "JD"),
        ("Jd", "JD"),
        ("5♥", "5H"),
        ("a♣", "AC"),
        ("K♦", "KD"),
        ("q♥", "QH"),
        ("10♦", "TD"),
        ("9c", "9C"),
    ],
)
def test_spellings_of_the_game_log(text: str, canonical: str) -> None:
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize("canonical", CANONICAL)
def test_every_spelling_of_every_card_reads_the_same(canonical: str) -> None:
    assert {format_card(parse_card(t)) for t in spellings(canonical)} == {canonical}


def test_card_numbers_are_rank_times_four_plus_suit() -> None:
    assert parse_card("AC") == 0
    assert parse_card("AS") == 3
    assert parse_card("2C") == 4
    assert parse_card("5H") == 4 * 4 + 2
    assert parse_card("TD") == 9 * 4 + 1
    assert parse_card("JC") == 40
    assert parse_card("KS") == 51
    assert [format_card(c) for c in DECK] == CANONICAL
    assert len(set(DECK)) == 52


def test_rank_suit_and_counting_value() -> None:
    expected_values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    for i, r in enumerate(RANK_LETTERS):
        for j, s in enumerate(SUIT_LETTERS):
            card = parse_card(r + s)
            assert rank(card) == i
            assert suit(card) == j
            assert value(card) == expected_values[i]


def test_parse_cards_from_text_or_list() -> None:
    assert [format_card(c) for c in parse_cards("5h 10s T♠ jd")] == ["5H", "TS", "TS", "JD"]
    assert [format_card(c) for c in parse_cards(["AC", "k♦"])] == ["AC", "KD"]
    assert parse_cards("") == []


def test_exact_error_text() -> None:
    with pytest.raises(CardError) as caught:
        parse_card("1H")
    assert str(caught.value) == "'1H' is not a card: ranks are A 2-9 T J Q K, suits C D H S"


@pytest.mark.parametrize("text", ["1H", "11H", "0S", "5X", "H5", "5", "10", "", "5HH", "ZZ", "JOKER", "5 H", "♥5"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert str(caught.value) == f"{text!r} is not a card: ranks are A 2-9 T J Q K, suits C D H S"


def test_card_error_is_a_value_error_and_a_cribstats_error() -> None:
    with pytest.raises(ValueError):
        parse_card("1H")
    with pytest.raises(CribstatsError):
        parse_card("1H")


def test_a_non_string_is_refused() -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(5)  # type: ignore[arg-type]


def test_parse_cards_reports_the_bad_card() -> None:
    with pytest.raises(CardError) as caught:
        parse_cards("5H 1H JD")
    assert str(caught.value).startswith("'1H' is not a card")
