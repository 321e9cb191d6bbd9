"""The replay against the rules: the seed example deal, a legal deal of every variant, and the rules of play.

Every expected value here is worked out by hand from RULES.md (the working is in the comments), not taken from
the code's output.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from spec_example import example_deal as spec_example_deal

from cribstats.cards import parse_card
from cribstats.gamelog import GameLog, validate_game
from cribstats.replay import GameOutcome, replay

# --- helpers (kept small and local: each test file stands alone) ----------------------------------------------


def make_game(
    deals: list[dict[str, Any]], *, players: tuple[str, ...] = ("Alice", "Bob"), **fields: Any
) -> GameLog:
    data: dict[str, Any] = {"format": "cribstats/game/1", "id": "t1", "players": list(players), "deals": deals}
    data.update(fields)
    return validate_game(data)


def example_deal(**changes: Any) -> dict[str, Any]:
    """The seed's example deal (game-log.md): Alice deals, Bob is pone, starter 5H; his heels claimed as 0 and no
    muggins call written out."""
    return spec_example_deal(**{"heels": 0, "muggins": [], **changes})


def setup_deal(alice: int, bob: int) -> dict[str, Any]:
    """A deal dealt by Bob with no play and no pegged: the board is taken up again from its scores."""
    return {
        "dealer": "Bob",
        "hands": {"Alice": ["TS", "6D", "JH", "4H", "KC", "7C"], "Bob": ["5S", "4S", "2S", "8D", "6H", "8C"]},
        "discards": {"Alice": ["TS", "KC"], "Bob": ["8D", "8C"]},
        "starter": "5H",
        "show": {"Alice": 9, "Bob": 12, "crib": 6},
        "scores": {"Alice": alice, "Bob": bob},
    }


def rows(outcome: GameOutcome) -> list[tuple[Any, ...]]:
    return [(f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due) for f in outcome.findings]


def plays(outcome: GameOutcome, deal: int = 0) -> list[tuple[str, str | None, int, int, int | None]]:
    from cribstats.cards import format_card

    return [
        (p.player, None if p.card is None else format_card(p.card), p.count, p.due, p.claimed)
        for p in outcome.deals[deal].plays
    ]


def person(outcome: GameOutcome, deal: int, name: str):  # type: ignore[no-untyped-def]
    return next(p for p in outcome.deals[deal].players if p.player == name)


# --- the seed example ------------------------------------------------------------------------------------------


def test_seed_example_deal_replays_with_the_points_of_its_tables() -> None:
    outcome = replay(make_game([example_deal()]))
    assert outcome.findings == []
    # the play table: JH 10, 5S 15 (fifteen 2), 7C 22, 6H 28 (run 5-6-7: 3), go, 2S 30 (go 1), 6D 6, 4S 10,
    # 4H 14 (pair 2 and last card 1); a go carries no claim of its own
    assert plays(outcome) == [
        ("Bob", "JH", 10, 0, 0), ("Alice", "5S", 15, 2, 2), ("Bob", "7C", 22, 0, 0), ("Alice", "6H", 28, 3, 3),
        ("Bob", None, 28, 0, None), ("Alice", "2S", 30, 1, 1), ("Bob", "6D", 6, 0, 0), ("Alice", "4S", 10, 0, 0),
        ("Bob", "4H", 14, 3, 3),
    ]
    deal = outcome.deals[0]
    assert deal.number == 1 and deal.dealer == "Alice" and deal.starter == parse_card("5H")
    assert deal.completed and not deal.after_end
    alice, bob = person(outcome, 0, "Alice"), person(outcome, 0, "Bob")
    assert (alice.role, alice.seat, bob.role, bob.seat) == ("dealer", 0, "pone", 1)
    # Alice: 2 + 3 + 1 pegged; hand 5S 4S 2S 6H + 5H: fifteens 6-5S-4, 6-5H-4 (4), 4-5-5-6 double run (8) = 12;
    # crib TS 8D KC 8C + 5H: T-5, K-5 (4), 8-8 (2) = 6
    assert (alice.pegged_due, alice.pegged_claimed, alice.hand_due, alice.hand_claimed) == (6, 6, 12, 12)
    assert (alice.crib_due, alice.crib_claimed, alice.heels_due, alice.heels_claimed) == (6, 6, 0, 0)
    # Bob: 3 pegged; hand 6D JH 4H 7C + 5H: J-5, 6-4-5 (4), run 4-5-6-7 (4), nobs JH (1) = 9; no crib
    assert (bob.pegged_due, bob.pegged_claimed, bob.hand_due, bob.hand_claimed) == (3, 3, 9, 9)
    assert bob.crib_due is None and bob.crib_claimed is None
    assert alice.dealt == tuple(parse_card(c) for c in ["5S", "4S", "2S", "8D", "6H", "8C"])
    assert alice.discards == (parse_card("8D"), parse_card("8C"))
    assert [(s.player, s.phase, s.due, s.claimed) for s in deal.shows] == [
        ("Bob", "hand", 9, 9), ("Alice", "hand", 12, 12), ("Alice", "crib", 6, 6),
    ]
    assert deal.scores_claimed == deal.scores_due == {"Alice": 24, "Bob": 12}
    assert outcome.scores_claimed == {"Alice": 24, "Bob": 12}
    assert outcome.winners == () and outcome.ended_in_deal is None
    assert outcome.key == "t1" and outcome.target == 121


def test_the_play_by_event_is_kept_as_lists_beside_the_facts() -> None:
    """The per-event lists of a deal (for readers that want no object per event) hold the seed example's play
    table: points due, counts and claims by event index (a go claims nothing)."""
    deal = replay(make_game([example_deal()])).deals[0]
    assert deal.play_dues == [0, 2, 0, 3, 0, 1, 0, 0, 3]
    assert deal.play_counts == [10, 15, 22, 28, 28, 30, 6, 10, 14]
    assert deal.play_claims() == [0, 2, 0, 3, None, 1, 0, 0, 3]
    assert deal.play_after_end_from == 9 and deal.play_claims_by_card
    assert [e[0] for e in deal.play_events] == ["Bob", "Alice"] * 4 + ["Bob"]
    # without card claims every card claims nothing at all (None), not 0
    bare = example_deal(play=[e[:2] for e in example_deal()["play"]])
    assert replay(make_game([bare])).deals[0].play_claims() == [None] * 9


def test_the_cards_laid_after_the_end_are_marked_from_the_first_one() -> None:
    """To 5: Alice's 6H (run 3) takes her from 2 to 5 at event 3; Bob's go (event 4) is no card, Alice's 2S
    (event 5) is the first card laid after the end, due nothing and counted on nothing."""
    deal = example_deal(play=example_deal()["play"][:6], show=None, scores=None)
    del deal["show"], deal["scores"]
    facts = replay(make_game([deal], target=5)).deals[0]
    assert facts.play_after_end_from == 5
    assert [p.after_end for p in facts.plays] == [False] * 5 + [True]
    assert facts.play_dues == [0, 2, 0, 3, 0, 0]
    assert facts.play_counts == [10, 15, 22, 28, 28, 28]


def test_seed_example_without_any_claim_is_taken_as_due() -> None:
    """Claims a log leaves out (no play points, no show, no heels) are taken to be due: no finding."""
    deal = example_deal(play=[e[:2] for e in example_deal()["play"]])
    for key in ("show", "heels", "muggins"):
        del deal[key]
    outcome = replay(make_game([deal]))
    assert outcome.findings == []
    assert outcome.deals[0].scores_due == {"Alice": 24, "Bob": 12}
    assert outcome.scores_claimed == {"Alice": 24, "Bob": 12}
    # the board counts what was left out as due: a board off by one is found against 24
    deal["scores"] = {"Alice": 23, "Bob": 12}
    assert rows(replay(make_game([deal]))) == [(1, None, "board", "deal", "Alice", 23, 24)]


def test_a_show_left_out_of_a_deal_without_play_is_still_due() -> None:
    """A deal with no play (the board unknown until its scores) still shows: a hand or crib the log does not claim
    is taken as claimed at what is due, and its points due are the deal's facts, as with the play logged."""
    # the example's cards, no play: Bob's hand JH 7C 6D 4H with 5H is 15-2 twice (J-5, 6-4-5), the run 4-5-6-7
    # (4) and his nobs (JH, starter 5H): 9; Alice's crib 8D 8C TS KC with 5H: 15-2 twice (T-5, K-5) and the pair
    # of eights: 6. Bob's hand and the crib are not claimed; Alice's hand is (12).
    deal = example_deal(show={"Alice": 12})
    del deal["play"]
    second = setup_deal(30, 20)
    second["dealer"] = "Bob"
    outcome = replay(make_game([deal, second]))
    assert outcome.findings == []
    first = outcome.deals[0]
    assert first.completed
    bob, alice = (next(p for p in first.players if p.player == name) for name in ("Bob", "Alice"))
    assert (bob.hand_due, bob.hand_claimed) == (9, 9)
    assert (alice.hand_due, alice.hand_claimed, alice.crib_due, alice.crib_claimed) == (12, 12, 6, 6)
    assert [(s.player, s.phase, s.due) for s in first.shows] == [("Bob", "hand", 9), ("Alice", "hand", 12),
                                                                 ("Alice", "crib", 6)]


# --- every variant: a legal deal, no finding, the right points ------------------------------------------------


def test_five_card_three_for_last_and_one_series() -> None:
    # Bob (pone of the first deal) scores 3 before the deal. One series: JH 10, 5S 15 (2), 6D 21,
    # 4S 25 (run 5-6-4: 3), 4H 29 (pair 2); Alice's 9S cannot go (38) and Bob is out: go 1 to 4H (3 in all).
    # Alice's 9S stays in hand. Show (3 cards + 5H): Bob 6D JH 4H: J-5, 6-4-5, run 4-5-6, nobs = 8;
    # Alice 5S 4S 9S: pair 5-5 (2) + three-card flush (3) = 5; crib 8D 8C TS KC: 6.
    deal = {
        "dealer": "Alice",
        "hands": {"Alice": ["5S", "4S", "9S", "8D", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC"]},
        "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
        "starter": "5H",
        "play": [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "6D"], ["Alice", "4S", 3], ["Bob", "4H", 3]],
        "show": {"Bob": 8, "Alice": 5, "crib": 6},
        "scores": {"Alice": 16, "Bob": 14},
    }
    outcome = replay(make_game([deal], variant="five-card"))
    assert outcome.findings == []
    assert outcome.target == 61
    assert [p[3] for p in plays(outcome)] == [0, 2, 0, 3, 3]
    alice, bob = person(outcome, 0, "Alice"), person(outcome, 0, "Bob")
    assert (alice.pegged_due, alice.hand_due, alice.crib_due) == (5, 5, 6)
    assert (bob.pegged_due, bob.hand_due) == (3, 8)
    assert outcome.scores_claimed == {"Alice": 16, "Bob": 14}


def test_five_card_three_for_last_goes_to_the_first_pone_only() -> None:
    # Without the 3 for Bob the board would be 11: the replay must find the recorded 11 wrong, by 3.
    deal = {
        "dealer": "Alice",
        "hands": {"Alice": ["5S", "4S", "9S", "8D", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC"]},
        "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
        "starter": "5H",
        "play": [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "6D"], ["Alice", "4S", 3], ["Bob", "4H", 3]],
        "show": {"Bob": 8, "Alice": 5, "crib": 6},
        "scores": {"Alice": 16, "Bob": 11},
    }
    assert rows(replay(make_game([deal], variant="five-card"))) == [(1, None, "board", "deal", "Bob", 11, 14)]


def test_seven_card_thirty_one_is_two_in_all() -> None:
    # Bob JH 10, Alice 5S 15 (2), Bob 7C 22, Alice 6H 28 (run 3), Bob 3D 31 (2 in all, not 3); next series led by
    # Alice (the player after Bob): 2S 2, 6D 8, 4S 12, 4H 16 (pair 2), AC 17 (last card 1).
    # Show with 5H: Bob 6D JH 4H 7C 3D: J-5, 6-4-5, 7-3-5 (6), run 3-4-5-6-7 (5), nobs (1) = 12;
    # Alice 5S 4S 2S 6H AC: fifteens 6-5-4 twice, 6-5-2-1... (the complements of 6-2, 5S-2-A, 5H-2-A) = 6,
    # pair 5-5 (2), double run 4-5-6 (6) = 14; crib TS 8D KC 8C: 6.
    deal = {
        "dealer": "Alice",
        "hands": {
            "Alice": ["5S", "4S", "2S", "8D", "6H", "8C", "AC"],
            "Bob": ["TS", "6D", "JH", "4H", "KC", "7C", "3D"],
        },
        "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
        "starter": "5H",
        "play": [
            ["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "3D", 2],
            ["Alice", "2S"], ["Bob", "6D"], ["Alice", "4S"], ["Bob", "4H", 2], ["Alice", "AC", 1],
        ],
        "show": {"Bob": 12, "Alice": 14, "crib": 6},
        "scores": {"Alice": 26, "Bob": 16},
    }
    outcome = replay(make_game([deal], variant="seven-card"))
    assert outcome.findings == []
    assert outcome.target == 181
    assert [(p[2], p[3]) for p in plays(outcome)] == [
        (10, 0), (15, 2), (22, 0), (28, 3), (31, 2), (2, 0), (8, 0), (12, 0), (16, 2), (17, 1),
    ]
    alice, bob = person(outcome, 0, "Alice"), person(outcome, 0, "Bob")
    assert (alice.pegged_due, alice.hand_due, alice.crib_due) == (6, 14, 6)
    assert (bob.pegged_due, bob.hand_due) == (4, 12)


THREE_PLAYER_DEAL: dict[str, Any] = {
    "dealer": "Alice",
    "hands": {
        "Alice": ["5S", "4S", "2S", "6H", "8D"],
        "Bob": ["6D", "JH", "4H", "7C", "TS"],
        "Carol": ["3C", "9C", "QH", "8H", "KS"],
    },
    "crib_card": "8C",
    "discards": {"Alice": ["8D"], "Bob": ["TS"], "Carol": ["KS"]},
    "starter": "5H",
    # order Bob, Carol, Alice. JH 10, 3C 13, 2S 15 (2), 4H 19 (run 3-2-4: 3), 8H 27, 4S 31 (2).
    # Next after Alice: Bob 7C 7, Carol 9C 16, Alice 5S 21, Bob 6D 27, Carol go (QH 37), Alice go (6H 33):
    # Bob is out, 6D takes the go (1). Next after Bob who holds cards: Carol QH 10, Alice 6H 16 (last card 1).
    "play": [
        ["Bob", "JH"], ["Carol", "3C"], ["Alice", "2S", 2], ["Bob", "4H", 3], ["Carol", "8H"], ["Alice", "4S", 2],
        ["Bob", "7C"], ["Carol", "9C"], ["Alice", "5S"], ["Bob", "6D", 1], ["Carol", "go"], ["Alice", "go"],
        ["Carol", "QH"], ["Alice", "6H", 1],
    ],
    # Bob 9 (the seed hand); Carol 3C 9C QH 8H + 5H: Q-5 = 2; Alice 12; crib 8D TS KS 8C: T-5, K-5, 8-8 = 6
    "show": {"Bob": 9, "Carol": 2, "Alice": 12, "crib": 6},
    "scores": {"Alice": 23, "Bob": 13, "Carol": 2},
}


def test_three_player_with_crib_card() -> None:
    outcome = replay(make_game([THREE_PLAYER_DEAL], players=("Alice", "Bob", "Carol"), variant="three-player"))
    assert outcome.findings == []
    assert [p[3] for p in plays(outcome)] == [0, 0, 2, 3, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1]
    roles = {p.player: p.role for p in outcome.deals[0].players}
    assert roles == {"Alice": "dealer", "Bob": "pone", "Carol": "pone"}
    assert [(s.player, s.phase, s.due) for s in outcome.deals[0].shows] == [
        ("Bob", "hand", 9), ("Carol", "hand", 2), ("Alice", "hand", 12), ("Alice", "crib", 6),
    ]
    assert {p.player: p.pegged_due for p in outcome.deals[0].players} == {"Alice": 5, "Bob": 4, "Carol": 0}


def test_three_player_next_series_skips_a_player_out_of_cards() -> None:
    """After Bob's go point the next series is led by Carol (the next after Bob who still holds cards)."""
    deal = copy.deepcopy(THREE_PLAYER_DEAL)
    deal["play"][12], deal["play"][13] = ["Alice", "6H", 0], ["Carol", "QH", 1]
    deal["scores"] = {"Alice": 22, "Bob": 13, "Carol": 3}
    outcome = replay(make_game([deal], players=("Alice", "Bob", "Carol"), variant="three-player"))
    assert rows(outcome) == [(1, 12, "out-of-turn", "play", "Alice", None, None)]


def test_four_player_partners_score_together() -> None:
    # order Bob, Carol, Dave, Alice. JH 10, 3C 13, AD 14, 2S 16 (run A-2-3: 3), 4H 20 (run A-2-3-4: 4), 8H 28,
    # 3H 31 (2). Next after Dave: Alice 4S 4, Bob 7C 11, Carol 9C 20, Dave 2D 22, Alice 5S 27, then no one fits:
    # go 1 to Alice. Next after Alice: Bob 6D 6, Carol QH 16, Dave 9D 25, Alice 6H 31 (2 in all, last card).
    # Show: Bob 9, Carol 2, Dave AD 2D 3H 9D + 5H: 9-5-A, 9-3-2-A (4), run A-2-3 (3) = 7, Alice 12, crib 6.
    # Alice and Carol: 3 + 1 + 2 + 2 + 12 + 6 = 26; Bob and Dave: 4 + 2 + 9 + 7 = 22.
    deal = {
        "dealer": "Alice",
        "hands": {
            "Alice": ["5S", "4S", "2S", "6H", "8D"],
            "Bob": ["6D", "JH", "4H", "7C", "TS"],
            "Carol": ["3C", "9C", "QH", "8H", "KS"],
            "Dave": ["AD", "2D", "3H", "9D", "8C"],
        },
        "discards": {"Alice": ["8D"], "Bob": ["TS"], "Carol": ["KS"], "Dave": ["8C"]},
        "starter": "5H",
        "play": [
            ["Bob", "JH"], ["Carol", "3C"], ["Dave", "AD"], ["Alice", "2S", 3], ["Bob", "4H", 4], ["Carol", "8H"],
            ["Dave", "3H", 2], ["Alice", "4S"], ["Bob", "7C"], ["Carol", "9C"], ["Dave", "2D"],
            ["Alice", "5S", 1], ["Bob", "6D"], ["Carol", "QH"], ["Dave", "9D"], ["Alice", "6H", 2],
        ],
        "show": {"Bob": 9, "Carol": 2, "Dave": 7, "Alice": 12, "crib": 6},
        "scores": {"Alice": 26, "Bob": 22, "Carol": 26, "Dave": 22},
    }
    players = ("Alice", "Bob", "Carol", "Dave")
    outcome = replay(make_game([deal], players=players, variant="four-player"))
    assert outcome.findings == []
    assert [p[3] for p in plays(outcome)] == [0, 0, 0, 3, 4, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert {p.player: (p.pegged_due, p.hand_due) for p in outcome.deals[0].players} == {
        "Alice": (6, 12), "Bob": (4, 9), "Carol": (0, 2), "Dave": (2, 7),
    }
    assert outcome.scores_claimed == {"Alice": 26, "Bob": 22, "Carol": 26, "Dave": 22}
    # a board that credits Carol alone with her own points is wrong: the team's position is recorded
    deal["scores"] = {"Alice": 24, "Bob": 22, "Carol": 26, "Dave": 22}
    assert rows(replay(make_game([deal], players=players, variant="four-player"))) == [
        (1, None, "board", "deal", "Alice", 24, 26),
    ]


# --- rules of the play ---------------------------------------------------------------------------------------


def test_end_of_game_on_a_cards_own_points_leaves_no_last_card_point() -> None:
    """Bob at 119 lays 4H (pair 2): 121, the game ends on that card and no last-card point is due."""
    deal = example_deal(scores={"Alice": 106, "Bob": 121})
    del deal["show"]
    deal["play"][8] = ["Bob", "4H", 2]
    game = make_game([setup_deal(100, 119), deal], result={"winner": "Bob", "scores": {"Alice": 106, "Bob": 121}})
    outcome = replay(game)
    assert outcome.findings == []
    assert outcome.deals[1].plays[8].due == 2
    assert outcome.winners == ("Bob",) and outcome.ended_in_deal == 2
    assert not outcome.deals[1].completed
    assert person(outcome, 1, "Bob").hand_due is None
    # claiming the last-card point too is an over-claim of 1
    deal["play"][8] = ["Bob", "4H", 3]
    deal["scores"] = {"Alice": 106, "Bob": 122}
    game = make_game([setup_deal(100, 119), deal], result={"winner": "Bob", "scores": {"Alice": 106, "Bob": 122}})
    assert rows(replay(game)) == [(2, 8, "overclaim", "play", "Bob", 3, 2)]


def test_go_point_reaching_the_target_ends_the_game() -> None:
    """Alice at 115: 5S (2) 117, 6H (3) 120, Bob's go, 2S's go point 121 ends the game; nothing follows."""
    deal = example_deal(scores={"Alice": 121, "Bob": 100})
    del deal["show"]
    deal["play"] = deal["play"][:6]
    result = {"winner": "Alice", "scores": {"Alice": 121, "Bob": 100}}
    game = make_game([setup_deal(115, 100), deal], result=result)
    outcome = replay(game)
    assert outcome.findings == []
    assert outcome.winners == ("Alice",) and outcome.ended_in_deal == 2
    assert outcome.scores_claimed == {"Alice": 121, "Bob": 100}
    assert outcome.skunk_level == 0


def test_skunk_level_from_claimed_scores() -> None:
    deal = example_deal(scores={"Alice": 121, "Bob": 60})
    del deal["show"]
    deal["play"] = deal["play"][:6]
    outcome = replay(make_game([setup_deal(115, 60), deal]))
    assert outcome.winners == ("Alice",)
    assert outcome.skunk_level == 2  # 60 is below 61: a double skunk


def test_pegged_totals_one_finding_per_player_and_deal() -> None:
    deal = example_deal(play=[e[:2] for e in example_deal()["play"]], pegged={"Alice": 5, "Bob": 4})
    deal["scores"] = {"Alice": 23, "Bob": 13}
    found = sorted(rows(replay(make_game([deal]))), key=lambda r: r[4])
    assert found == [(1, None, "missed", "play", "Alice", 5, 6), (1, None, "overclaim", "play", "Bob", 4, 3)]


def test_pegged_totals_that_are_right() -> None:
    deal = example_deal(play=[e[:2] for e in example_deal()["play"]], pegged={"Alice": 6, "Bob": 3})
    outcome = replay(make_game([deal]))
    assert outcome.findings == []
    assert person(outcome, 0, "Alice").pegged_claimed == 6


def test_card_by_card_claims_an_event_without_points_claims_zero() -> None:
    deal = example_deal(scores={"Alice": 21, "Bob": 12})
    deal["play"][3] = ["Alice", "6H"]
    outcome = replay(make_game([deal]))
    assert rows(outcome) == [(1, 3, "missed", "play", "Alice", 0, 3)]
    assert outcome.deals[0].plays[3].claimed == 0


def test_a_deal_with_neither_play_nor_pegged_takes_the_board_from_its_scores() -> None:
    """Deal 1's pegging is unknown: its board (50, 40) is taken as is, and deal 2 is judged from there."""
    deal2 = example_deal(scores={"Alice": 74, "Bob": 52})
    outcome = replay(make_game([setup_deal(50, 40), deal2]))
    assert outcome.findings == []
    assert person(outcome, 0, "Bob").pegged_due is None
    assert outcome.scores_claimed == {"Alice": 74, "Bob": 52}
    deal2["scores"] = {"Alice": 74, "Bob": 53}
    assert rows(replay(make_game([setup_deal(50, 40), deal2]))) == [(2, None, "board", "deal", "Bob", 53, 52)]


def test_after_a_deal_whose_pegging_cannot_be_known_the_board_as_due_is_not_known() -> None:
    """Deal 1 has neither play nor pegged: what its play was due cannot be known, so neither can the board as due,
    then or later. Its shows alone (Alice 9, Bob 12 + 6) are no board: the pegging would be missing from it, and a
    side's due could seem to lag its claims by what nobody logged. The board as claimed is taken up from the
    scores, as before."""
    deal2 = example_deal(scores={"Alice": 74, "Bob": 52})
    outcome = replay(make_game([setup_deal(50, 40), deal2]))
    assert [d.scores_due for d in outcome.deals] == [{}, {}]
    assert (outcome.scores_due, outcome.winners_due) == ({}, ())
    assert [d.scores_claimed for d in outcome.deals] == [{"Alice": 50, "Bob": 40}, {"Alice": 74, "Bob": 52}]
    # pegging totals without play are claims: credited to the board as claimed, but what was due is not known
    by_totals = example_deal(pegged={"Alice": 6, "Bob": 3})
    del by_totals["play"]
    totals = replay(make_game([by_totals]))
    assert (totals.scores_claimed, totals.scores_due, totals.deals[0].scores_due) == (
        {"Alice": 24, "Bob": 12}, {}, {})
    # a log whose every deal has its play: the board as due is known, and here (no claim wrong) the claims'
    played = replay(make_game([example_deal(scores={"Alice": 24, "Bob": 12})]))
    assert played.scores_due == played.scores_claimed == {"Alice": 24, "Bob": 12}


def test_the_board_is_judged_from_claims_so_far_not_from_a_wrong_board() -> None:
    """One wrong board gives one finding: the next deal's board is judged against the claims, not the record."""
    first = example_deal(scores={"Alice": 25, "Bob": 12})
    second = {
        "dealer": "Bob",
        "hands": {"Alice": ["TS", "6D", "JH", "4H", "KC", "7C"], "Bob": ["5S", "4S", "2S", "8D", "6H", "8C"]},
        "discards": {"Alice": ["TS", "KC"], "Bob": ["8D", "8C"]},
        "starter": "5H",
        # the seed deal with the seats swapped: Alice pone leads JH, Bob 5S 2, 7C, 6H 3, go, 2S 1, 6D, 4S, 4H 3
        "play": [
            ["Alice", "JH"], ["Bob", "5S", 2], ["Alice", "7C"], ["Bob", "6H", 3], ["Alice", "go"],
            ["Bob", "2S", 1], ["Alice", "6D"], ["Bob", "4S"], ["Alice", "4H", 3],
        ],
        "show": {"Alice": 9, "Bob": 12, "crib": 6},
        "scores": {"Alice": 36, "Bob": 36},
    }
    outcome = replay(make_game([first, second]))
    assert rows(outcome) == [(1, None, "board", "deal", "Alice", 25, 24)]
    assert outcome.scores_claimed == {"Alice": 36, "Bob": 36}


@pytest.mark.parametrize("deals", [None, []])
def test_result_only_record(deals: list[dict[str, Any]] | None) -> None:
    """A club tally: no deals, the result as recorded. Nothing to judge; 88 is below 91, a skunk."""
    fields: dict[str, Any] = {"result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 88}}}
    if deals is not None:
        fields["deals"] = deals
    data = {"format": "cribstats/game/1", "id": "tally-1", "players": ["Alice", "Bob"], **fields}
    outcome = replay(validate_game(data))
    assert outcome.findings == [] and outcome.deals == []
    assert outcome.winners == ("Alice",)
    assert outcome.scores_claimed == {"Alice": 121, "Bob": 88}
    assert outcome.skunk_level == 1


# --- the visitor's order -------------------------------------------------------------------------------------


def test_the_visitor_is_told_events_in_game_order_each_finding_beside_its_event() -> None:
    """Alice pegs 0 for 5S (2 due) at event 1, Bob claims 8 for his hand (9 due), and the board is recorded
    wrong: the visitor hears each finding right after the play or show it is about, the board's after the
    shows, and the game's result finding after the last deal."""
    from cribstats.replay import ReplayVisitor

    deal = example_deal()
    deal["play"][1] = ["Alice", "5S", 0]
    deal["show"] = {"Bob": 8, "Alice": 12, "crib": 6}
    deal["scores"] = {"Alice": 30, "Bob": 11}  # claims: Alice 22, Bob 11
    heard: list[str] = []

    class Recorder(ReplayVisitor):
        def begin_deal(self, number: int, deal: Any) -> None:
            heard.append(f"deal {number}")

        def visit_play(self, fact: Any) -> None:
            heard.append(f"play {fact.index}")

        def visit_show(self, fact: Any) -> None:
            heard.append(f"show {fact.player} {fact.phase}")

        def visit_finding(self, finding: Any) -> None:
            heard.append(f"finding {finding.kind} {finding.player}")

        def end_deal(self, facts: Any) -> None:
            heard.append("end deal")

    result = {"winner": "Alice", "scores": {"Alice": 22, "Bob": 11}}  # no side reached 121: a finding
    replay(make_game([deal], result=result), Recorder())
    assert heard == [
        "deal 1",
        "play 0", "play 1", "finding missed Alice",
        *[f"play {i}" for i in range(2, 9)],
        "show Bob hand", "finding missed Bob", "show Alice hand", "show Alice crib",
        "finding board Alice",
        "end deal",
        "finding result None",
    ]


def test_deal_facts_made_by_hand_give_their_players_shows_and_plays() -> None:
    """A reader may make a DealFacts itself (the store's doctests do): the players given, no shows, and the
    play's facts built from its lists (a go's count is the count it was said on)."""
    from cribstats.replay import DealFacts

    facts = DealFacts(1, "Ann", 0, True, False, [], play_events=[("Bob", "6C"), ("Ann", "go")],
                      play_dues=[0, 0], play_counts=[6, 6], play_after_end_from=2)
    assert facts.players == [] and facts.shows == []
    assert [(p.index, p.player, p.card, p.count, p.due, p.claimed, p.after_end) for p in facts.plays] == [
        (0, "Bob", parse_card("6C"), 6, 0, None, False), (1, "Ann", None, 6, 0, None, False),
    ]
