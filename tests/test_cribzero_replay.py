"""The two cribbage-zero engine records (tests/data/cribbage-zero/, see SOURCE.md there) read and replayed.

Staples is player 1 (the first dealer, who deals the odd rounds), Stanley player 2. The points below were worked
out by hand from the cards of the records; the board after each round is the running sum of the records' own
S1/S2/SC/SP numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cribstats.cards import format_card
from cribstats.formats import read_games
from cribstats.replay import GameOutcome, replay

DATA = Path(__file__).parent / "data" / "cribbage-zero"


def outcome_of(name: str) -> GameOutcome:
    [source] = list(read_games(DATA / name))
    return replay(source.game)


@pytest.fixture(scope="module")
def game1() -> GameOutcome:
    return outcome_of("game.pgn")


@pytest.fixture(scope="module")
def game2() -> GameOutcome:
    return outcome_of("game2.pgn")


def play_rows(outcome: GameOutcome, deal: int) -> list[tuple[str, str, int, int]]:
    return [
        (p.player, format_card(p.card), p.count, p.due)
        for p in outcome.deals[deal - 1].plays
        if p.card is not None
    ]


def shows(outcome: GameOutcome, deal: int) -> list[tuple[str, str, int]]:
    return [(s.player, s.phase, s.due) for s in outcome.deals[deal - 1].shows]


@pytest.mark.parametrize("name", ["game.pgn", "game2.pgn"])
def test_no_play_or_show_finding_and_the_result_is_judged(name: str) -> None:
    outcome = outcome_of(name)
    # neither game reached 121, yet [Result "1-0"] names Staples the winner: that is the one finding
    assert [(f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due) for f in outcome.findings] == [
        (None, None, "result", "result", None, None, None)
    ]
    assert outcome.findings[0].game == outcome.key
    assert outcome.ended_in_deal is None
    for deal in outcome.deals:
        for p in deal.plays:
            assert p.claimed is None or p.claimed == p.due
        for s in deal.shows:
            assert s.claimed == s.due


def test_game1_round1_by_hand(game1: GameOutcome) -> None:
    # Stanley leads: 4C 4, Staples TH 14, AD 15 (fifteen 2), TC 25, AS 26: Staples (9S JH) and Stanley (QS)
    # cannot go on, go 1. Staples leads next: JH 10, QS 20, 9S 29 (last card 1).
    assert play_rows(game1, 1) == [
        ("Stanley", "4C", 4, 0), ("Staples", "TH", 14, 0), ("Stanley", "AD", 15, 2), ("Staples", "TC", 25, 0),
        ("Stanley", "AS", 26, 1), ("Staples", "JH", 10, 0), ("Stanley", "QS", 20, 0), ("Staples", "9S", 29, 1),
    ]
    # Stanley AD AS 4C QS + 5H: Q-5, Q-4-A twice (6), A-A (2) = 8; Staples 9S TC TH JH: T-5 twice, J-5 (6),
    # T-T (2), 9-T-J twice (6), nobs (1) = 15; crib 3D TD 8C 9H: T-5 (2), 8-9-T (3) = 5
    assert shows(game1, 1) == [("Stanley", "hand", 8), ("Staples", "hand", 15), ("Staples", "crib", 5)]
    assert game1.deals[0].scores_claimed == {"Staples": 21, "Stanley": 11}


def test_game1_boards_and_final_scores(game1: GameOutcome) -> None:
    boards = [(d.scores_claimed["Staples"], d.scores_claimed["Stanley"]) for d in game1.deals]
    assert boards == [(21, 11), (31, 30), (38, 40), (45, 57), (68, 79), (76, 97), (98, 112)]
    assert game1.scores_claimed == game1.scores_due == {"Staples": 98, "Stanley": 112}
    assert game1.winners == ()


def test_game2_round1_by_hand(game2: GameOutcome) -> None:
    # Stanley 5C 5, Staples JD 15 (2), 4D 19, JS 29 (go 1: Stanley's 5H and Staples' TS, QS do not fit);
    # Stanley leads: 5H 5, QS 15 (2), 5D 20, TS 30 (last card 1)
    assert [r[3] for r in play_rows(game2, 1)] == [0, 2, 0, 1, 0, 2, 0, 1]
    # Stanley 4D 5C 5H 5D + TC: 5-T three times, 5-5-5 (8), pair royal (6) = 14; Staples TS JS JD QS + TC:
    # T-T, J-J (4), T-J-Q four times (12) = 16; crib 2S 8D 2D 4C + TC: 2-2 = 2
    assert shows(game2, 1) == [("Stanley", "hand", 14), ("Staples", "hand", 16), ("Staples", "crib", 2)]


def test_game2_round4_the_next_series_is_led_by_the_next_player_who_holds_cards(game2: GameOutcome) -> None:
    # Stanley deals. Staples QD 10, Stanley 6S 16, Staples 9C 25, Stanley cannot go on, Staples AH 26 (go 1);
    # Stanley leads: JH 10, Staples TS 20, Stanley 9S 29 (run 9-T-J 3 + go 1); Staples is out of cards, so
    # Stanley leads again: JC 10 (last card 1)
    assert play_rows(game2, 4) == [
        ("Staples", "QD", 10, 0), ("Stanley", "6S", 16, 0), ("Staples", "9C", 25, 0), ("Staples", "AH", 26, 1),
        ("Stanley", "JH", 10, 0), ("Staples", "TS", 20, 0), ("Stanley", "9S", 29, 4), ("Stanley", "JC", 10, 1),
    ]


def test_game2_round6_pair_royal_making_31(game2: GameOutcome) -> None:
    # Staples TH 10, Stanley 4C 14, Staples 4D 18 (pair 2), QH 28, AH 29, AD 30 (pair 2),
    # AS 31 (pair royal 6 + 31 for 2 = 8, no go point on top); Stanley's 4H 4 is the last card (1)
    assert [r[2:] for r in play_rows(game2, 6)] == [
        (10, 0), (14, 0), (18, 2), (28, 0), (29, 0), (30, 2), (31, 8), (4, 1),
    ]


def test_game2_boards_and_final_scores(game2: GameOutcome) -> None:
    boards = [(d.scores_claimed["Staples"], d.scores_claimed["Stanley"]) for d in game2.deals]
    assert boards == [(24, 14), (38, 27), (50, 35), (57, 57), (80, 60), (98, 79)]
    assert game2.scores_claimed == {"Staples": 98, "Stanley": 79}
    assert game2.recorded is not None and game2.recorded.winner == "Staples"
