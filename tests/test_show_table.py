"""The shipped table of the show's rank part: what :mod:`cribstats.scoring` counts, for every five ranks."""

from __future__ import annotations

from itertools import combinations_with_replacement

from cribstats import scoring
from cribstats.cards import parse_cards
from cribstats.scoring import rank_points, score_show, score_show_total
from cribstats.show_table import RANK_POINTS, counted

MULTISETS = list(combinations_with_replacement(range(13), 5))


def test_the_shipped_table_is_the_count_of_every_five_ranks() -> None:
    assert len(RANK_POINTS) == len(MULTISETS) == 6188
    assert counted() == RANK_POINTS
    assert [RANK_POINTS[i] for i in range(len(MULTISETS))] == [rank_points(ranks) for ranks in MULTISETS]


def test_worked_examples_in_the_table() -> None:
    index = {ranks: i for i, ranks in enumerate(MULTISETS)}
    # 5 5 5 5 J: six pairs (12), four fifteens of three fives (8), four of a five and the jack (8)
    assert RANK_POINTS[index[(4, 4, 4, 4, 10)]] == 28
    # A 2 3 4 5: a run of five (5) and one fifteen (2)
    assert RANK_POINTS[index[(0, 1, 2, 3, 4)]] == 7
    # A A 2 2 3, a double double run: two pairs (4), four runs of three (12); no fifteen (they sum to 9)
    assert RANK_POINTS[index[(0, 0, 1, 1, 2)]] == 16
    # 2 4 6 8 Q: every value even, so no fifteen; no pair, no run
    assert RANK_POINTS[index[(1, 3, 5, 7, 11)]] == 0


def test_the_fast_total_reads_the_table_for_every_five_ranks() -> None:
    scoring._SHOW_RANKS.clear()  # filled afresh from the table on the first look
    suits = (0, 1, 2, 3)
    for ranks in MULTISETS:
        if max(ranks.count(r) for r in ranks) > 4:
            continue  # five of a rank: not five cards of one deck
        cards: list[int] = []
        used: set[int] = set()
        for r in ranks:
            suit = next(s for s in suits if r * 4 + s not in used)
            used.add(r * 4 + suit)
            cards.append(r * 4 + suit)
        hand, starter = cards[:4], cards[4]
        assert score_show_total(hand, starter) == score_show(hand, starter).total
    assert len(scoring._SHOW_RANKS) == len(MULTISETS)
    assert score_show_total(parse_cards("5C 5D 5H JS"), parse_cards("5S")[0]) == 29
