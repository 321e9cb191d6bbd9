"""Show and pegging scores: worked examples, the breakdowns, and property tests against a naive scorer.

Every expected value below was counted by hand from the rules (the working is in the comments), never taken
from the code under test.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribstats.cards import Card, format_card, parse_card, parse_cards
from cribstats.errors import CribstatsError
from cribstats.pegging import PegScore, check_series, peg_points_ranks, score_peg
from cribstats.scoring import (
    CountError,
    HandError,
    ScoreItem,
    ShowScore,
    check_show,
    flush_and_nobs_many,
    heels_points,
    rank_key,
    rank_key_of,
    rank_points,
    rank_points_many,
    rank_table,
    score_show,
    score_show_many,
    score_show_total,
)

# --- a naive scorer: brute force over subsets, written as plainly as possible --------------------------------

NAIVE_VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}
NAIVE_ORDER = "A23456789TJQK"


def naive_rank(card: Card) -> int:
    return NAIVE_ORDER.index(format_card(card)[0])


def naive_value(card: Card) -> int:
    return NAIVE_VALUES[format_card(card)[0]]


def naive_suit(card: Card) -> str:
    return format_card(card)[1]


def all_subsets(cards: list[Card]) -> list[tuple[Card, ...]]:
    return [s for size in range(len(cards) + 1) for s in combinations(cards, size)]


def is_run(cards: tuple[Card, ...]) -> bool:
    ranks = sorted(naive_rank(c) for c in cards)
    return len(cards) >= 3 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def naive_show(hand: list[Card], starter: Card, crib: bool = False) -> dict[str, int]:
    """Points by kind of a hand with the starter, by brute force."""
    cards = [*hand, starter]
    subsets = all_subsets(cards)
    fifteens = 2 * sum(1 for s in subsets if len(s) >= 2 and sum(naive_value(c) for c in s) == 15)
    pairs = 2 * sum(1 for a, b in combinations(cards, 2) if naive_rank(a) == naive_rank(b))
    runs_found = [s for s in subsets if is_run(s)]
    runs = 0
    for run in runs_found:
        inside_longer = any(len(other) > len(run) and set(run) <= set(other) for other in runs_found)
        if not inside_longer:
            runs += len(run)
    flush = 0
    if len({naive_suit(c) for c in hand}) == 1:
        if naive_suit(starter) == naive_suit(hand[0]):
            flush = len(hand) + 1
        elif not crib:
            flush = len(hand)
    nobs = sum(1 for c in hand if format_card(c)[0] == "J" and naive_suit(c) == naive_suit(starter))
    total = fifteens + pairs + runs + flush + nobs
    return {"fifteens": fifteens, "pairs": pairs, "runs": runs, "flush": flush, "nobs": nobs, "total": total}


def naive_peg(series: list[Card]) -> int:
    """Points for the last card of a series, by checking each rule directly."""
    count = sum(naive_value(c) for c in series)
    points = 0
    if count == 15:
        points += 2
    if count == 31:
        points += 2
    same = 1
    for earlier in reversed(series[:-1]):
        if naive_rank(earlier) != naive_rank(series[-1]):
            break
        same += 1
    points += 2 * len(list(combinations(range(same), 2)))
    for k in range(len(series), 2, -1):
        if is_run(tuple(series[-k:])):
            points += k
            break
    return points


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def show(text: str, starter: str, *, crib: bool = False) -> ShowScore:
    return score_show(cards(text), parse_card(starter), crib=crib)


def fast(text: str, starter: str, *, crib: bool = False) -> int:
    return int(score_show_many(np.array([cards(text)]), np.array([parse_card(starter)]), crib=crib)[0])


def items_of(score: ShowScore) -> set[tuple[str, frozenset[str], int]]:
    return {(i.kind, frozenset(format_card(c) for c in i.cards), i.points) for i in score.items}


def item(kind: str, text: str, points: int) -> tuple[str, frozenset[str], int]:
    return (kind, frozenset(text.split()), points)


# --- the show: the examples ----------------------------------------------------------------------------

# (hand, starter, crib rules, fifteens, pairs, runs, flush, nobs, total)
SHOW_EXAMPLES = [
    # seed 000: Bob. JH+5H, 6D+5H+4H: 4; run 4-5-6-7: 4; JH with a heart starter: 1
    ("6D JH 4H 7C", "5H", False, 4, 0, 4, 0, 1, 9),
    # seed 000: Alice. 6H+5S+4S, 6H+5H+4S: 4; 5S 5H: 2; 4-5-6 twice: 6
    ("5S 4S 2S 6H", "5H", False, 4, 2, 6, 0, 0, 12),
    # seed 000: the crib. TS+5H, KC+5H: 4; 8D 8C: 2
    ("TS 8D KC 8C", "5H", True, 4, 2, 0, 0, 0, 6),
    # seed 003: 4-5-5-6-7. 4+5+6 twice: 4; 5 5: 2; 4-5-6-7 twice: 8
    ("4H 5S 5D 6C", "7S", False, 4, 2, 8, 0, 0, 14),
    # 29: four fives three at a time (4) and each five with the jack (4): 16; four of a kind 12; nobs
    ("5C 5D 5H JS", "5S", False, 16, 12, 0, 0, 1, 29),
    # 24: 4+5+6 four ways: 8; two pairs: 4; four runs of three: 12
    ("4H 4S 5C 5D", "6H", False, 8, 4, 12, 0, 0, 24),
    # 24: 7+8 four ways: 8; two pairs: 4; four runs of three: 12
    ("6H 7S 7C 8D", "8H", False, 8, 4, 12, 0, 0, 24),
    # double run: 2+3+K twice: 4; 2 2: 2; 2-3-4 twice: 6
    ("2H 2S 3D 4C", "KS", False, 4, 2, 6, 0, 0, 12),
    # triple run: the cards add to 13, no fifteen; three 2s: 6; 2-3-4 three ways: 9
    ("2H 2S 2D 3C", "4S", False, 0, 6, 9, 0, 0, 15),
    # double-double run: the cards add to 16 and no card is a 1: no fifteen; two pairs 4; four runs 12
    ("2H 3S 3D 4C", "4S", False, 0, 4, 12, 0, 0, 16),
    # all values even: no fifteen; a four-card flush counts for a hand, not for a crib
    ("2H 4H 6H 8H", "KC", False, 0, 0, 0, 4, 0, 4),
    ("2H 4H 6H 8H", "KC", True, 0, 0, 0, 0, 0, 0),
    # a crib flush with the starter: 5
    ("2H 4H 6H 8H", "KH", True, 0, 0, 0, 5, 0, 5),
    ("2H 4H 6H 8H", "KH", False, 0, 0, 0, 5, 0, 5),
    # J+5 and 2+4+9: 4; nobs
    ("JH 2C 4D 9S", "5H", False, 4, 0, 0, 0, 1, 5),
    # 2+4+9: 2; a jack starter is not nobs
    ("2C 4D 9S KD", "JH", False, 2, 0, 0, 0, 0, 2),
    # 2+3+K, 2+3+Q: 4; A-2-3: 3; Q-K-A is no run
    ("AH 2C 3D KS", "QH", False, 4, 0, 3, 0, 0, 7),
    # five-card hands (3 cards): 4+5+6: 2; 4-5-6-7: 4; flush of 3 and the starter: 4
    ("4H 5H 6H", "7H", False, 2, 0, 4, 4, 0, 10),
    # the same without the starter's suit: a flush of 3
    ("4H 5H 6H", "7C", False, 2, 0, 4, 3, 0, 9),
    # 2+3+4+6: 2; 2-3-4: 3; no flush (4S)
    ("2D 3D 4S", "6D", False, 2, 0, 3, 0, 0, 5),
    # 5+5+5 once and K+5 three ways: 8; three fives: 6
    ("5C 5D 5H", "KS", False, 8, 6, 0, 0, 0, 14),
    # seven-card hands (5 cards): {2..7} in fifteens: 2+6+7, 3+5+7, 4+5+6, 2+3+4+6: 8; a run of six: 6;
    # a five-card flush and the starter: 6
    ("2H 3H 4H 5H 6H", "7H", False, 8, 0, 6, 6, 0, 20),
    ("2H 3H 4H 5H 6H", "7C", False, 8, 0, 6, 5, 0, 19),
    # four fives three at a time: 4; each five with the jack or the king: 8; 24 in fifteens; 12 in pairs
    ("5C 5D 5H 5S JD", "KS", False, 24, 12, 0, 0, 0, 36),
    # J+5, J+2+3, 9+A+5, 9+A+2+3: 8; A-2-3: 3; JS with a spade starter: nobs
    ("JS AC 2C 3D 9H", "5S", False, 8, 0, 3, 0, 1, 12),
]


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "fifteens", "pairs", "runs", "flush", "nobs", "total"), SHOW_EXAMPLES
)
def test_show_examples(
    hand: str, starter: str, crib: bool, fifteens: int, pairs: int, runs: int, flush: int, nobs: int, total: int
) -> None:
    s = show(hand, starter, crib=crib)
    assert (s.fifteens, s.pairs, s.runs, s.flush, s.nobs, s.total) == (fifteens, pairs, runs, flush, nobs, total)
    assert fast(hand, starter, crib=crib) == total
    assert score_show_total(cards(hand), parse_card(starter), crib=crib) == total
    assert naive_show(cards(hand), parse_card(starter), crib) == {
        "fifteens": fifteens, "pairs": pairs, "runs": runs, "flush": flush, "nobs": nobs, "total": total,
    }


def test_breakdown_of_a_double_run() -> None:
    assert items_of(show("2H 2S 3D 4C", "KS")) == {
        item("fifteen", "2H 3D KS", 2),
        item("fifteen", "2S 3D KS", 2),
        item("pair", "2H 2S", 2),
        item("run", "2H 3D 4C", 3),
        item("run", "2S 3D 4C", 3),
    }


def test_breakdown_of_the_seed_deal() -> None:
    assert items_of(show("6D JH 4H 7C", "5H")) == {
        item("fifteen", "JH 5H", 2),
        item("fifteen", "6D 5H 4H", 2),
        item("run", "4H 5H 6D 7C", 4),
        item("nobs", "JH", 1),
    }
    assert items_of(show("5S 4S 2S 6H", "5H")) == {
        item("fifteen", "6H 5S 4S", 2),
        item("fifteen", "6H 5H 4S", 2),
        item("pair", "5S 5H", 2),
        item("run", "4S 5S 6H", 3),
        item("run", "4S 5H 6H", 3),
    }
    assert items_of(show("TS 8D KC 8C", "5H", crib=True)) == {
        item("fifteen", "TS 5H", 2),
        item("fifteen", "KC 5H", 2),
        item("pair", "8D 8C", 2),
    }


def test_breakdown_of_flushes() -> None:
    assert items_of(show("2H 4H 6H 8H", "KC")) == {item("flush", "2H 4H 6H 8H", 4)}
    assert items_of(show("2H 4H 6H 8H", "KH", crib=True)) == {item("flush", "2H 4H 6H 8H KH", 5)}
    assert items_of(show("4H 5H 6H", "7C")) >= {item("flush", "4H 5H 6H", 3)}


def test_items_come_in_kind_order_and_describe_themselves() -> None:
    s = show("5C 5D 5H JS", "5S")
    kinds = [i.kind for i in s.items]
    assert kinds == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    assert s.items[-1].describe() == "nobs JS: 1"
    assert ScoreItem("fifteen", (parse_card("5H"), parse_card("JS")), 2).describe() == "fifteen 5H JS: 2"


def test_to_dict() -> None:
    d = show("5C 5D 5H JS", "5S").to_dict()
    assert {k: d[k] for k in ("fifteens", "pairs", "runs", "flush", "nobs", "total")} == {
        "fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1, "total": 29,
    }
    combos = d["combinations"]
    assert isinstance(combos, list)
    assert len(combos) == 15
    assert {"kind": "nobs", "cards": ["JS"], "points": 1} in combos
    assert sum(c["points"] for c in combos) == 29


@pytest.mark.parametrize("total", [19, 25, 26, 27])
def test_impossible_totals_are_never_scored(total: int) -> None:
    # a cheap spot check; the full enumeration in test_distribution.py covers every hand
    rng = np.random.default_rng(19)
    deck = np.array([rng.permutation(52)[:5] for _ in range(20_000)])
    assert total not in set(score_show_many(deck[:, :4], deck[:, 4]).tolist())


# --- input checks -------------------------------------------------------------------------------------------


def test_check_show_accepts_hands_of_three_to_five() -> None:
    for text in ("4H 5H 6H", "4H 5H 6H 7H", "4H 5H 6H 7H 8H"):
        check_show(cards(text), parse_card("KS"))
    check_show(cards("4H 5H 6H 7H"), parse_card("KS"), crib=True)


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "message"),
    [
        ("4H 5H", "KS", False, "3 cards given: give a hand of 3, 4 or 5 cards, then the starter"),
        ("4H 5H 6H 7H 8H 9H", "KS", False, "7 cards given: give a hand of 3, 4 or 5 cards, then the starter"),
        ("4H 5H 6H", "KS", True, "4 cards given: give a crib of 4 cards, then the starter"),
        ("4H 5H 4H 7H", "KS", False, "4H is there twice: every card exists once"),
        ("4H 5H 6H 7H", "5H", False, "5H is there twice: every card exists once"),
    ],
)
def test_check_show_refuses(hand: str, starter: str, crib: bool, message: str) -> None:
    with pytest.raises(HandError) as caught:
        check_show(cards(hand), parse_card(starter), crib=crib)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, CribstatsError)


def test_check_series() -> None:
    check_series(cards("KH QH JH AC"))  # 31 is fine
    with pytest.raises(CountError) as caught:
        check_series(cards("KH QH JH 2C"))
    assert str(caught.value) == "KH QH JH 2C count 32: a series stops at 31"
    with pytest.raises(HandError, match=r"^6H is there twice"):
        check_series(cards("6H 4D 6H"))
    with pytest.raises(HandError, match=r"^no cards"):
        check_series([])


# --- the fast path -------------------------------------------------------------------------------------------


def test_rank_points_many_examples() -> None:
    # ranks are 0 (ace) to 12 (king). 5 5 5 5 J: 16 + 12; 2 2 3 4 K: 4 + 2 + 6; A 2 3 Q K: 4 + 3
    rows = np.array([[4, 4, 4, 4, 10], [1, 1, 2, 3, 12], [0, 1, 2, 11, 12]])
    assert rank_points_many(rows).tolist() == [28, 12, 7]
    # a run up to the king: J Q K with a 5: J+5, Q+5, K+5: 6; run 3
    assert rank_points_many(np.array([[10, 11, 12, 4]])).tolist() == [9]
    # six ranks A..6: a run of six, 6; the subsets of {1..6} making 15 are the complements of those making 6
    # ({6}, {1,5}, {2,4}, {1,2,3}): 4 fifteens, 8
    assert rank_points_many(np.array([[0, 1, 2, 3, 4, 5]])).tolist() == [14]


def test_the_rank_table_against_the_naive_scorer_for_every_five_ranks() -> None:
    table = rank_table()
    assert table.shape == (13**5,)
    seen = 0
    for ranks in combinations(range(13 + 4), 5):  # every multiset of five ranks, as a combination with repeats
        multiset = [r - i for i, r in enumerate(ranks)]
        if len(set(multiset)) == 1:
            continue  # five of one rank cannot be dealt
        # each repeat of a rank takes the next suit, so the cards are distinct; compare the rank part only
        held = [r * 4 + multiset[:i].count(r) for i, r in enumerate(multiset)]
        expected = naive_show(held[:4], held[4], crib=True)
        expected_rank_part = expected["fifteens"] + expected["pairs"] + expected["runs"]
        for order in {(0, 1, 2, 3, 4), (4, 3, 2, 1, 0), (2, 0, 4, 1, 3)}:
            key = rank_key(np.array([[multiset[i] for i in order]]))
            assert int(table[key[0]]) == expected_rank_part, multiset
        seen += 1
    assert seen == 6188 - 13


def test_the_rank_table_does_not_depend_on_the_order_of_the_ranks() -> None:
    grid = np.indices((13,) * 5).reshape(5, -1).T
    assert (rank_table()[rank_key(grid)] == rank_table()[rank_key(np.sort(grid, axis=1))]).all()


def test_flush_and_nobs_many() -> None:
    hands = np.array([cards("2H 4H 6H 8H"), cards("2H 4H 6H 8H"), cards("JH 2C 4D 9S"), cards("2C 4D 9S KD")])
    starters = np.array(cards("KC KH 5H JH"))
    assert flush_and_nobs_many(hands, starters).tolist() == [4, 5, 1, 0]
    assert flush_and_nobs_many(hands, starters, crib=True).tolist() == [0, 5, 1, 0]


@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("crib", [False, True])
def test_fast_path_equals_breakdown_on_many_random_hands(size: int, crib: bool) -> None:
    rng = np.random.default_rng(size * 2 + crib)
    deals = np.array([rng.permutation(52)[: size + 1] for _ in range(3000)])
    got = score_show_many(deals[:, :size], deals[:, size], crib=crib)
    expected = [score_show(list(d[:size]), int(d[size]), crib=crib).total for d in deals.tolist()]
    assert got.tolist() == expected


# --- property tests ------------------------------------------------------------------------------------------


@st.composite
def deals(draw: st.DrawFn, size: int | None = None) -> tuple[list[Card], Card]:
    """A hand of 3, 4 or 5 distinct cards and a starter: random, crowded ranks (pairs, runs) or one suit."""
    k = draw(st.sampled_from([3, 4, 5])) if size is None else size
    style = draw(st.sampled_from(["any", "crowded", "suited"]))
    if style == "any":
        pool = list(range(52))
    elif style == "crowded":
        low = draw(st.integers(0, 9))
        pool = [c for c in range(52) if low <= c >> 2 <= low + 3]
    else:
        which = draw(st.integers(0, 3))
        pool = [c for c in range(52) if c & 3 == which] + draw(st.lists(st.integers(0, 51), max_size=3))
        pool = list(dict.fromkeys(pool))
    chosen = draw(st.lists(st.sampled_from(pool), min_size=k + 1, max_size=k + 1, unique=True))
    return chosen[:k], chosen[k]


@settings(max_examples=400, deadline=None)
@given(deal=deals(), crib=st.booleans())
def test_fast_path_breakdown_and_naive_agree(deal: tuple[list[Card], Card], crib: bool) -> None:
    hand, starter = deal
    s = score_show(hand, starter, crib=crib)
    naive = naive_show(hand, starter, crib)
    assert (s.fifteens, s.pairs, s.runs, s.flush, s.nobs, s.total) == (
        naive["fifteens"], naive["pairs"], naive["runs"], naive["flush"], naive["nobs"], naive["total"],
    )
    assert int(score_show_many(np.array([hand]), np.array([starter]), crib=crib)[0]) == naive["total"]
    assert score_show_total(hand, starter, crib=crib) == naive["total"]


@settings(max_examples=100, deadline=None)
@given(batch=st.lists(deals(size=4), min_size=1, max_size=30), crib=st.booleans())
def test_fast_path_on_a_batch(batch: list[tuple[list[Card], Card]], crib: bool) -> None:
    hands = np.array([h for h, _ in batch])
    starters = np.array([s for _, s in batch])
    expected = [naive_show(h, s, crib)["total"] for h, s in batch]
    assert score_show_many(hands, starters, crib=crib).tolist() == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=5, max_size=5))
def test_one_rank_key_for_both_paths(ranks: list[int]) -> None:
    """The scalar key and the bulk key are one key, the first rank the lowest base-13 digit."""
    by_hand = ranks[0] + 13 * ranks[1] + 169 * ranks[2] + 2197 * ranks[3] + 28561 * ranks[4]
    assert rank_key_of(ranks) == int(rank_key(np.array([ranks]))[0]) == by_hand
    assert rank_points(ranks) == int(rank_table()[by_hand])


def test_his_heels_is_a_jack_turned() -> None:
    assert [heels_points(parse_card(f"J{s}")) for s in "CDHS"] == [2, 2, 2, 2]
    assert {heels_points(parse_card(f"{r}H")) for r in "A23456789TQK"} == {0}


# --- pegging ------------------------------------------------------------------------------------------------

# (series, points for the last card, count)
PEG_EXAMPLES = [
    ("6H 4D 5S", 5, 15),  # fifteen 2 and a run of three
    ("5C 5D 5H 5S", 12, 20),  # four of a kind
    ("4C 5D 5H 6S", 0, 20),  # the pair breaks the run; no pair for the 6
    ("4C 5D 4H 6S", 3, 19),  # the last three, 5-4-6, are a run
    ("7C 7D 7H 5S 5C", 4, 31),  # a pair and 31
    ("AC 2D 3H 4S 5C 6D 7H", 7, 28),  # a run of seven
    ("KH QH JH AC", 2, 31),  # 31
    ("5H TS", 2, 15),  # fifteen
    ("3C 4D 5H 6S 2C", 5, 20),  # 3, 4, 5, 6 then a 2: a run of five
    ("7C 7D 7H", 6, 21),  # three of a kind
    ("QC KD JH", 3, 30),  # a run of three at the top
    ("KC AD 2H", 0, 13),  # no run round the corner
    ("QC KD AH", 0, 21),  # the ace is low: Q-K-A is no run
    ("8C", 0, 8),
]


@pytest.mark.parametrize(("series", "points", "count"), PEG_EXAMPLES)
def test_peg_examples(series: str, points: int, count: int) -> None:
    score = score_peg(cards(series))
    assert score.points == points
    assert score.count == count
    assert naive_peg(cards(series)) == points


def test_peg_breakdown() -> None:
    assert score_peg(cards("6H 4D 5S")) == PegScore(count=15, fifteen=2, thirty_one=0, pairs=0, run=3)
    assert score_peg(cards("7C 7D 7H 5S 5C")) == PegScore(count=31, fifteen=0, thirty_one=2, pairs=2, run=0)
    assert score_peg(cards("6H 4D 5S")).to_dict() == {
        "points": 5, "count": 15, "fifteen": 2, "thirty_one": 0, "pairs": 0, "run": 3,
    }


def test_the_seed_play_table() -> None:
    # seed 000: Bob JH, Alice 5S (15: 2), Bob 7C, Alice 6H (run 5-6-7: 3), Bob go, Alice 2S (30; 1 for the go,
    # not counted here); a new series: Bob 6D, Alice 4S, Bob 4H (pair: 2; 1 for the last card, not here)
    first = cards("JH 5S 7C 6H 2S")
    second = cards("6D 4S 4H")
    first_points = [score_peg(first[: i + 1]).points for i in range(len(first))]
    second_points = [score_peg(second[: i + 1]).points for i in range(len(second))]
    assert first_points == [0, 2, 0, 3, 0]
    assert second_points == [0, 0, 2]
    assert [score_peg(first[: i + 1]).count for i in range(len(first))] == [10, 15, 22, 28, 30]
    assert score_peg(second).count == 14


def test_over_31() -> None:
    with pytest.raises(CountError) as caught:
        score_peg(cards("KH QH JH 2C"))
    assert str(caught.value) == "the count would be 32: a series stops at 31"


def test_peg_points_ranks_of_an_empty_series() -> None:
    assert peg_points_ranks([], 0).points == 0


@st.composite
def series(draw: st.DrawFn) -> list[Card]:
    """A legal series: distinct cards, the count never past 31; often from a few ranks, for pairs and runs."""
    if draw(st.booleans()):
        low = draw(st.integers(0, 8))
        pool = [c for c in range(52) if low <= c >> 2 <= low + draw(st.integers(0, 4))]
    else:
        pool = list(range(52))
    drawn = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=min(len(pool), 13), unique=True))
    laid: list[Card] = []
    count = 0
    for c in drawn:
        v = min((c >> 2) + 1, 10)
        if count + v > 31:
            break
        laid.append(c)
        count += v
    return laid


@settings(max_examples=250, deadline=None)
@given(laid=series())
def test_pegging_agrees_with_the_naive_scorer(laid: list[Card]) -> None:
    assert score_peg(laid).points == naive_peg(laid)
    check_series(laid)
