"""Every finding kind (docs/findings.md), each from a small hand-written log, every field asserted.

Most logs are the seed example deal (Alice deals, Bob is pone, starter 5H; play Bob JH, Alice 5S 2, Bob 7C,
Alice 6H 3, Bob go, Alice 2S 1, Bob 6D, Alice 4S, Bob 4H 3; show Bob 9, Alice 12, crib 6; board 24-12) with
one thing changed; the expected findings are worked out by hand in the comments.
"""

from __future__ import annotations

from typing import Any

import pytest
from spec_example import example_deal

from cribstats.findings import FINDING_KINDS, Finding
from cribstats.gamelog import GameLog, validate_game
from cribstats.replay import replay

GAME = "club-1"


def make_game(
    deals: list[dict[str, Any]], *, players: tuple[str, ...] = ("Alice", "Bob"), **fields: Any
) -> GameLog:
    data: dict[str, Any] = {"format": "cribstats/game/1", "id": GAME, "players": list(players), "deals": deals}
    data.update(fields)
    return validate_game(data)


def bare_deal(**changes: Any) -> dict[str, Any]:
    """The example's cards only: no play, no show, no board, so nothing but the deal itself is judged."""
    deal = example_deal(**changes)
    for key in ("play", "show", "scores"):
        if key not in changes:
            del deal[key]
    return deal


def setup_deal(alice: int, bob: int) -> dict[str, Any]:
    """Dealt by Bob, no play and no pegged: the board is taken up again from its scores."""
    return {
        "dealer": "Bob",
        "hands": {"Alice": ["TS", "6D", "JH", "4H", "KC", "7C"], "Bob": ["5S", "4S", "2S", "8D", "6H", "8C"]},
        "discards": {"Alice": ["TS", "KC"], "Bob": ["8D", "8C"]},
        "starter": "5H",
        "show": {"Alice": 9, "Bob": 12, "crib": 6},
        "scores": {"Alice": alice, "Bob": bob},
    }


def audit(game: GameLog) -> list[tuple[Any, ...]]:
    """The findings as (game, deal, event, kind, phase, player, claimed, due), after checking each message."""
    findings = replay(game).findings
    for f in findings:
        check_message(f)
    return [(f.game, f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due) for f in findings]


def check_message(f: Finding) -> None:
    assert isinstance(f, Finding)
    assert f.kind in FINDING_KINDS
    assert f.message.strip(), f
    assert "\n" not in f.message
    if f.player is not None:
        assert f.player in f.message, f.message


def F(deal: int | None, event: int | None, kind: str, phase: str, player: str | None,
      claimed: int | None = None, due: int | None = None) -> tuple[Any, ...]:
    return (GAME, deal, event, kind, phase, player, claimed, due)


# --- missed and overclaim ------------------------------------------------------------------------------------


def test_the_example_is_clean() -> None:
    assert audit(make_game([example_deal()])) == []


def test_missed_in_the_play() -> None:
    deal = example_deal(scores={"Alice": 22, "Bob": 12})
    deal["play"][1] = ["Alice", "5S", 0]
    assert audit(make_game([deal])) == [F(1, 1, "missed", "play", "Alice", 0, 2)]


def test_overclaim_in_the_play() -> None:
    deal = example_deal(scores={"Alice": 26, "Bob": 12})
    deal["play"][3] = ["Alice", "6H", 5]
    assert audit(make_game([deal])) == [F(1, 3, "overclaim", "play", "Alice", 5, 3)]


@pytest.mark.parametrize(
    ("who", "claim", "scores", "expected"),
    [
        ("Bob", 7, {"Alice": 24, "Bob": 10}, F(1, None, "missed", "hand", "Bob", 7, 9)),
        ("Bob", 10, {"Alice": 24, "Bob": 13}, F(1, None, "overclaim", "hand", "Bob", 10, 9)),
        ("Alice", 8, {"Alice": 20, "Bob": 12}, F(1, None, "missed", "hand", "Alice", 8, 12)),
        ("crib", 8, {"Alice": 26, "Bob": 12}, F(1, None, "overclaim", "crib", "Alice", 8, 6)),
        ("crib", 4, {"Alice": 22, "Bob": 12}, F(1, None, "missed", "crib", "Alice", 4, 6)),
    ],
)
def test_show_claims(who: str, claim: int, scores: dict[str, int], expected: tuple[Any, ...]) -> None:
    deal = example_deal(scores=scores)
    deal["show"][who] = claim
    assert audit(make_game([deal])) == [expected]


def heels_deal(heels: int | None, scores: dict[str, int]) -> dict[str, Any]:
    """The example with starter JC: his heels 2 to Alice. Show with JC: Bob 6D JH 4H 7C: pair J-J = 2;
    Alice 5S 4S 2S 6H: J-5, 4-5-6 (4), run 4-5-6 (3) = 7; crib TS 8D KC 8C: 8-8 = 2."""
    deal = example_deal(starter="JC", show={"Bob": 2, "Alice": 7, "crib": 2}, scores=scores)
    if heels is not None:
        deal["heels"] = heels
    return deal


def test_heels_claimed_right_or_left_out() -> None:
    # Alice: heels 2 + pegged 6 + hand 7 + crib 2 = 17; Bob: 3 + 2 = 5
    assert audit(make_game([heels_deal(2, {"Alice": 17, "Bob": 5})])) == []
    assert audit(make_game([heels_deal(None, {"Alice": 17, "Bob": 5})])) == []


def test_heels_missed_and_overclaimed() -> None:
    assert audit(make_game([heels_deal(0, {"Alice": 15, "Bob": 5})])) == [
        F(1, None, "missed", "heels", "Alice", 0, 2)
    ]
    deal = example_deal(heels=2, scores={"Alice": 26, "Bob": 12})
    assert audit(make_game([deal])) == [F(1, None, "overclaim", "heels", "Alice", 2, 0)]


# --- muggins -------------------------------------------------------------------------------------------------


def call(by: str, victim: str, phase: str, points: int, event: int | None = None) -> dict[str, Any]:
    c: dict[str, Any] = {"by": by, "from": victim, "phase": phase, "points": points}
    if event is not None:
        c["event"] = event
    return c


def test_muggins_call_taking_what_was_missed_is_no_finding_of_its_own() -> None:
    deal = example_deal(muggins=[call("Alice", "Bob", "hand", 2)], scores={"Alice": 26, "Bob": 10})
    deal["show"]["Bob"] = 7
    assert audit(make_game([deal], muggins=True)) == [F(1, None, "missed", "hand", "Bob", 7, 9)]


def test_muggins_call_taking_more_than_was_missed() -> None:
    deal = example_deal(muggins=[call("Alice", "Bob", "hand", 3)], scores={"Alice": 27, "Bob": 10})
    deal["show"]["Bob"] = 7
    assert audit(make_game([deal], muggins=True)) == [
        F(1, None, "missed", "hand", "Bob", 7, 9),
        F(1, None, "muggins-call", "hand", "Alice", 3, 2),
    ]


def test_muggins_call_when_nothing_was_missed() -> None:
    deal = example_deal(muggins=[call("Bob", "Alice", "crib", 2)], scores={"Alice": 24, "Bob": 14})
    assert audit(make_game([deal], muggins=True)) == [F(1, None, "muggins-call", "crib", "Bob", 2, 0)]


def test_muggins_call_in_the_play() -> None:
    deal = example_deal(muggins=[call("Bob", "Alice", "play", 2, event=1)], scores={"Alice": 22, "Bob": 14})
    deal["play"][1] = ["Alice", "5S", 0]
    assert audit(make_game([deal], muggins=True)) == [F(1, 1, "missed", "play", "Alice", 0, 2)]


def test_muggins_does_not_apply_to_his_heels() -> None:
    # Alice misses her heels (0 of 2); Bob's call of 2 on heels is a muggins-call finding with due 0
    deal = heels_deal(0, {"Alice": 15, "Bob": 7})
    deal["muggins"] = [call("Bob", "Alice", "heels", 2)]
    assert audit(make_game([deal], muggins=True)) == [
        F(1, None, "missed", "heels", "Alice", 0, 2),
        F(1, None, "muggins-call", "heels", "Bob", 2, 0),
    ]


def test_without_muggins_missed_points_are_simply_lost() -> None:
    deal = example_deal(scores={"Alice": 24, "Bob": 10})
    deal["show"]["Bob"] = 7
    assert audit(make_game([deal], muggins=False)) == [F(1, None, "missed", "hand", "Bob", 7, 9)]
    deal["scores"] = {"Alice": 24, "Bob": 12}  # the board may not give Bob the 2 he missed
    assert audit(make_game([deal], muggins=False)) == [
        F(1, None, "missed", "hand", "Bob", 7, 9),
        F(1, None, "board", "deal", "Bob", 12, 10),
    ]


# --- illegal play --------------------------------------------------------------------------------------------


def test_illegal_card_goes_on_the_count_and_later_claims_are_judged_from_there() -> None:
    # Bob lays 7D (never dealt) instead of 7C: the count is 22 as before, 6H still makes the run 5-7-6 (3).
    # Bob still holds 7C and plays it at the end: 4H at 14 is a pair (2), 7C at 21 the last card (1).
    deal = example_deal()
    deal["play"][2] = ["Bob", "7D"]
    deal["play"][8] = ["Bob", "4H", 2]
    deal["play"].append(["Bob", "7C", 1])
    assert audit(make_game([deal])) == [F(1, 2, "illegal-card", "play", "Bob")]


def test_illegal_card_already_laid() -> None:
    # Bob lays JH a second time at 6 (instead of 6D): count 16, nothing; Alice 4S 20; Bob 4H 24 (pair 2);
    # Bob still holds 6D and lays it last: 30, last card 1.
    deal = example_deal()
    deal["play"][6] = ["Bob", "JH"]
    deal["play"][8] = ["Bob", "4H", 2]
    deal["play"].append(["Bob", "6D", 1])
    assert audit(make_game([deal])) == [F(1, 6, "illegal-card", "play", "Bob")]


def test_over_31() -> None:
    # Alice lays 4S at 22 (26). Bob, in turn, holds 4H (30 fits) but lays 6D: 32. It is laid, scores nothing and
    # closes the series; Alice (after Bob) leads the next: 6H 6, Bob 4H 10, Alice 2S 12 (last card 1).
    deal = example_deal(scores={"Alice": 21, "Bob": 9})
    deal["play"] = [
        ["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "4S"], ["Bob", "6D"], ["Alice", "6H"],
        ["Bob", "4H"], ["Alice", "2S", 1],
    ]
    assert audit(make_game([deal])) == [F(1, 4, "over-31", "play", "Bob")]


def test_over_31_by_the_player_in_turn_with_no_card_that_fits() -> None:
    # At 28 Bob (in turn, 6D and 4H, neither fits) lays 6D instead of saying go: 34. The series closes with no
    # go point; Alice leads the next: 2S 2, Bob 4H 6, Alice 4S 10 (pair 2 and last card 1).
    deal = example_deal(scores={"Alice": 26, "Bob": 9})
    deal["play"][4:] = [["Bob", "6D"], ["Alice", "2S"], ["Bob", "4H"], ["Alice", "4S", 3]]
    assert audit(make_game([deal])) == [F(1, 4, "over-31", "play", "Bob")]


def test_false_go_still_counts_as_a_go() -> None:
    # Bob says go at 15 holding 7C: Alice plays on alone, 6H 21, 2S 23, 4S 27 (go 1); Bob leads the next series:
    # 7C 7, 6D 13, 4H 17 (last card 1).
    deal = example_deal(scores={"Alice": 21, "Bob": 10})
    deal["play"] = [
        ["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "go"], ["Alice", "6H"], ["Alice", "2S"], ["Alice", "4S", 1],
        ["Bob", "7C"], ["Bob", "6D"], ["Bob", "4H", 1],
    ]
    assert audit(make_game([deal])) == [F(1, 2, "false-go", "play", "Bob")]


def test_cards_kept_back_by_a_false_go_are_not_unplayed() -> None:
    # Bob says go at 10 holding 4H: Alice's 4S was the last card laid (1); Bob's 4H is not unplayed.
    deal = example_deal(scores={"Alice": 25, "Bob": 9})
    deal["play"][7:] = [["Alice", "4S", 1], ["Bob", "go"]]
    assert audit(make_game([deal])) == [F(1, 8, "false-go", "play", "Bob")]


def test_out_of_turn() -> None:
    # Bob lays JH then 7C (Alice was in turn and could play): 17. Alice 5S 22, Bob 6D 28 (run 7-5-6: 3),
    # Alice 2S 30 (go 1); Bob leads: 4H 4, Alice 6H 10, 4S 14 (last card 1).
    deal = example_deal(scores={"Alice": 20, "Bob": 12})
    deal["play"] = [
        ["Bob", "JH"], ["Bob", "7C"], ["Alice", "5S"], ["Bob", "6D", 3], ["Alice", "2S", 1],
        ["Bob", "4H"], ["Alice", "6H"], ["Alice", "4S", 1],
    ]
    assert audit(make_game([deal])) == [F(1, 1, "out-of-turn", "play", "Bob")]


def test_go_out_of_turn_while_holding_a_card_that_fits() -> None:
    # After Bob's JH it is Alice's turn; Bob says go (he holds 7C, which fits): out-of-turn by Bob.
    deal = example_deal()
    deal["play"].insert(1, ["Bob", "go"])
    assert audit(make_game([deal])) == [F(1, 1, "out-of-turn", "play", "Bob")]


def test_redundant_go_is_harmless() -> None:
    # At 30 after 2S neither player fits: a go by Alice (holding only 4S, 34) is no finding, whoever's turn it
    # is, and neither is a go after the play is over.
    deal = example_deal()
    deal["play"].insert(6, ["Alice", "go"])
    deal["play"].append(["Alice", "go"])
    assert audit(make_game([deal])) == []


def test_unplayed() -> None:
    # The log stops before Bob's 4H: the rules made him play it. No claims and no board, so nothing else is judged.
    deal = bare_deal(play=[e[:2] for e in example_deal()["play"][:8]])
    assert audit(make_game([deal])) == [F(1, None, "unplayed", "play", "Bob")]


@pytest.mark.parametrize("claim", [0, 1])
def test_unplayed_card_leaves_the_last_card_before_it_unjudged(claim: int) -> None:
    # The log stops after Alice's 4S at 10 while Bob still holds 4H (14 fits). Had Bob played it, 4S would earn
    # nothing and 4H a pair and the last card; as logged, whether 4S earned a go point cannot be known.
    deal = example_deal(scores={"Alice": 24 + claim, "Bob": 9})
    deal["play"] = [*deal["play"][:7], ["Alice", "4S", claim]]
    assert audit(make_game([deal])) == [F(1, None, "unplayed", "play", "Bob")]


# --- the deal ------------------------------------------------------------------------------------------------


def test_bad_deal_wrong_number_dealt() -> None:
    deal = bare_deal()
    deal["hands"]["Bob"].append("QD")
    assert audit(make_game([deal])) == [F(1, None, "bad-deal", "deal", "Bob")]


def test_bad_deal_card_dealt_twice() -> None:
    deal = bare_deal()
    deal["hands"]["Bob"][5] = "4S"  # Alice holds 4S too: Bob holds the later copy
    deal["discards"]["Bob"] = ["TS", "KC"]
    assert audit(make_game([deal])) == [F(1, None, "bad-deal", "deal", "Bob")]


def test_bad_deal_starter_also_dealt() -> None:
    # the later copy is the starter, which no player holds
    assert audit(make_game([bare_deal(starter="6H")])) == [F(1, None, "bad-deal", "deal", None)]


def test_bad_deal_dealer_out_of_rotation_gives_one_finding() -> None:
    # deal 2 should be Bob's; deal 3 follows the dealer listed for deal 2 (Alice), so Bob is right there
    deals = [bare_deal(), bare_deal(), bare_deal(dealer="Bob")]
    assert audit(make_game(deals)) == [F(2, None, "bad-deal", "deal", "Alice")]


def three_player_bare(**changes: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {
        "dealer": "Alice",
        "hands": {
            "Alice": ["5S", "4S", "2S", "6H", "8D"],
            "Bob": ["6D", "JH", "4H", "7C", "TS"],
            "Carol": ["3C", "9C", "QH", "8H", "KS"],
        },
        "crib_card": "8C",
        "discards": {"Alice": ["8D"], "Bob": ["TS"], "Carol": ["KS"]},
        "starter": "5H",
    }
    deal.update(changes)
    return deal


def test_bad_deal_crib_card_missing_or_extra() -> None:
    players = ("Alice", "Bob", "Carol")
    deal = three_player_bare()
    assert audit(make_game([deal], players=players, variant="three-player")) == []
    del deal["crib_card"]
    assert audit(make_game([deal], players=players, variant="three-player")) == [
        F(1, None, "bad-deal", "deal", None)
    ]
    assert audit(make_game([bare_deal(crib_card="QD")])) == [F(1, None, "bad-deal", "deal", None)]


def test_bad_discard_not_from_own_cards() -> None:
    deal = bare_deal()
    deal["discards"]["Bob"] = ["TS", "QD"]  # QD was never dealt to Bob
    assert audit(make_game([deal])) == [F(1, None, "bad-discard", "deal", "Bob")]


def test_bad_discard_wrong_number() -> None:
    deal = bare_deal()
    deal["discards"]["Alice"] = ["8D"]
    assert audit(make_game([deal])) == [F(1, None, "bad-discard", "deal", "Alice")]


def test_a_discard_never_dealt_is_one_finding_not_also_unplayed() -> None:
    # P0 discards 7C and 8D, but 8D was never dealt: only 7C leaves the hand, so P0 seems to hold five cards and
    # QD is left when the play (which is otherwise right) ends. The bad discard is the one error; QD held is
    # only its consequence, so no `unplayed` follows from the hand's wrong size.
    log = {
        "format": "cribstats/game/1", "id": GAME, "players": ["P0", "P1"],
        "deals": [{
            "dealer": "P1",
            "hands": {"P0": ["6S", "7C", "JD", "JH", "QD", "QH"], "P1": ["AS", "4H", "9C", "TD", "TH", "JC"]},
            "discards": {"P0": ["7C", "8D"], "P1": ["9C", "JC"]},
            "starter": "KC",
            "play": [["P0", "JH"], ["P1", "AS"], ["P0", "QH"], ["P1", "TH"], ["P0", "JD"], ["P1", "4H"],
                     ["P0", "6S"], ["P1", "TD"]],
        }],
    }
    findings = replay(validate_game(log)).findings
    assert [(f.kind, f.player) for f in findings] == [("bad-discard", "P0")]
    assert findings[0].message == "P0 discarded 8D, which was not dealt to P0"


def test_a_hand_left_short_by_a_discard_count_is_not_unplayed() -> None:
    deal = example_deal()
    deal["discards"]["Alice"] = ["8D"]  # 8C stays in Alice's hand and is never laid
    kinds = [(f.kind, f.player) for f in replay(make_game([deal])).findings]
    assert ("bad-discard", "Alice") in kinds
    assert ("unplayed", "Alice") not in kinds


def test_counts_in_messages_agree_with_their_nouns() -> None:
    deal = bare_deal()
    deal["discards"]["Alice"] = ["8D"]
    deal["hands"]["Bob"] = ["TS"]
    deal["discards"]["Bob"] = ["TS"]
    messages = sorted(f.message for f in replay(make_game([deal])).findings)
    assert "Alice discarded 1 card, not 2" in messages
    assert "Bob was dealt 1 card, not 6" in messages
    deal["discards"]["Alice"] = ["8D", "8C", "5S"]
    messages = [f.message for f in replay(make_game([deal])).findings]
    assert "Alice discarded 3 cards, not 2" in messages


# --- after the end -------------------------------------------------------------------------------------------


def test_after_end_mid_play() -> None:
    # Alice at 118: 5S (2) 120, 6H (3) 123 ends the game; her 2S is the first thing after the end.
    deal = example_deal(scores={"Alice": 123, "Bob": 100})
    del deal["play"][4]  # Bob's go (left out; he held no card that fits)
    result = {"winner": "Alice", "scores": {"Alice": 123, "Bob": 100}}
    assert audit(make_game([setup_deal(118, 100), deal], result=result)) == [
        F(2, 4, "after-end", "play", "Alice")
    ]


def test_after_end_on_his_heels() -> None:
    # Alice at 119 turns JC: his heels 121 ends the game before the play; Bob's JH is the first thing after.
    deal = heels_deal(2, {"Alice": 121, "Bob": 100})
    result = {"winner": "Alice", "scores": {"Alice": 121, "Bob": 100}}
    assert audit(make_game([setup_deal(119, 100), deal], result=result)) == [
        F(2, 0, "after-end", "play", "Bob")
    ]


def test_after_end_mid_show_in_counting_order() -> None:
    # Alice 110 + 6 pegged = 116, Bob 112 + 3 = 115. Bob (pone) counts first: 9 makes 124 and ends the game;
    # Alice's hand (which would have made 128) comes after the end.
    deal = example_deal(scores={"Alice": 116, "Bob": 124})
    result = {"winner": "Bob", "scores": {"Alice": 116, "Bob": 124}}
    assert audit(make_game([setup_deal(110, 112), deal], result=result)) == [
        F(2, None, "after-end", "hand", "Alice")
    ]


def test_after_end_a_muggins_call_on_a_hand_never_counted() -> None:
    # As above, the game ends on Bob's hand; the log then has Bob calling muggins on Alice's hand, which is never
    # counted: the call is the first thing after the end.
    deal = example_deal(scores={"Alice": 116, "Bob": 124}, show={"Bob": 9})
    deal["muggins"] = [call("Bob", "Alice", "hand", 2)]
    result = {"winner": "Bob", "scores": {"Alice": 116, "Bob": 124}}
    assert audit(make_game([setup_deal(110, 112), deal], muggins=True, result=result)) == [
        F(2, None, "after-end", "hand", "Bob")
    ]


def test_after_end_a_whole_deal() -> None:
    # Alice 99 + 6 + 12 = 117, the crib (6) makes 123 and ends the game at the last claim; deal 3 comes after.
    deal = example_deal(scores={"Alice": 123, "Bob": 112})
    result = {"winner": "Alice", "scores": {"Alice": 123, "Bob": 112}}
    game = make_game([setup_deal(99, 100), deal, setup_deal(123, 112)], result=result)
    assert audit(game) == [F(3, None, "after-end", "deal", None)]


# --- board and result ----------------------------------------------------------------------------------------


def test_board() -> None:
    assert audit(make_game([example_deal(scores={"Alice": 24, "Bob": 15})])) == [
        F(1, None, "board", "deal", "Bob", 15, 12)
    ]


def swapped_deal(scores: dict[str, int]) -> dict[str, Any]:
    """The example with the seats swapped (Bob deals): Alice pegs 3 and shows 9, Bob pegs 6, 12 and crib 6."""
    return {
        "dealer": "Bob",
        "hands": {"Alice": ["TS", "6D", "JH", "4H", "KC", "7C"], "Bob": ["5S", "4S", "2S", "8D", "6H", "8C"]},
        "discards": {"Alice": ["TS", "KC"], "Bob": ["8D", "8C"]},
        "starter": "5H",
        "play": [
            ["Alice", "JH"], ["Bob", "5S", 2], ["Alice", "7C"], ["Bob", "6H", 3], ["Alice", "go"],
            ["Bob", "2S", 1], ["Alice", "6D"], ["Bob", "4S"], ["Alice", "4H", 3],
        ],
        "show": {"Alice": 9, "Bob": 12, "crib": 6},
        "scores": scores,
    }


def test_board_put_right_in_the_next_deal_is_one_finding() -> None:
    first = example_deal(scores={"Alice": 25, "Bob": 12})
    assert audit(make_game([first, swapped_deal({"Alice": 36, "Bob": 36})])) == [
        F(1, None, "board", "deal", "Alice", 25, 24)
    ]


def test_board_slip_carried_into_the_next_deals_is_one_finding() -> None:
    """One misplaced peg is one error: carried on (25, then 37 for 36) it is not found again; a new slip is."""
    first = example_deal(scores={"Alice": 25, "Bob": 12})
    assert audit(make_game([first, swapped_deal({"Alice": 37, "Bob": 36})])) == [
        F(1, None, "board", "deal", "Alice", 25, 24)
    ]
    assert audit(make_game([first, swapped_deal({"Alice": 39, "Bob": 36})])) == [
        F(1, None, "board", "deal", "Alice", 25, 24),
        F(2, None, "board", "deal", "Alice", 39, 36),
    ]


def end_game(result: dict[str, Any]) -> GameLog:
    """Alice at 115 pegs 5S (2), 6H (3), and 2S's go point makes 121: the game ends there."""
    deal = example_deal(scores={"Alice": 121, "Bob": 100})
    del deal["show"]
    deal["play"] = deal["play"][:6]
    return make_game([setup_deal(115, 100), deal], result=result)


def test_result_right() -> None:
    assert audit(end_game({"winner": "Alice", "scores": {"Alice": 121, "Bob": 100}})) == []


def test_result_wrong_winner() -> None:
    assert audit(end_game({"winner": "Bob", "scores": {"Alice": 121, "Bob": 100}})) == [
        F(None, None, "result", "result", None)
    ]


def test_result_wrong_score() -> None:
    assert audit(end_game({"winner": "Alice", "scores": {"Alice": 120, "Bob": 100}})) == [
        F(None, None, "result", "result", "Alice", 120, 121)
    ]


def test_result_winner_when_no_side_reached_the_target() -> None:
    game = make_game([example_deal()], result={"winner": "Alice", "scores": {"Alice": 24, "Bob": 12}})
    assert audit(game) == [F(None, None, "result", "result", None)]


# --- one error must not hide or cause others -----------------------------------------------------------------


def test_several_errors_in_one_deal_are_all_found_in_game_order() -> None:
    # Bob lays 7D (not held) at event 2; Alice under-pegs 6H (0 of 3); Bob over-claims his hand (10 of 9);
    # the board follows the claims (Alice 21, Bob 13) so no board finding.
    deal = example_deal(scores={"Alice": 21, "Bob": 13})
    deal["play"][2] = ["Bob", "7D"]
    deal["play"][3] = ["Alice", "6H", 0]
    deal["play"][8] = ["Bob", "4H", 2]
    deal["play"].append(["Bob", "7C", 1])
    deal["show"]["Bob"] = 10
    assert audit(make_game([deal])) == [
        F(1, 2, "illegal-card", "play", "Bob"),
        F(1, 3, "missed", "play", "Alice", 0, 3),
        F(1, None, "overclaim", "hand", "Bob", 10, 9),
    ]


def test_illegal_card_from_the_players_own_discards() -> None:
    # Bob lays TS (which he put in the crib) at 15: 25. Alice 6H 31 (2). Bob, still holding 7C 6D 4H, leads:
    # 7C 7, Alice 2S 9, Bob 6D 15 (2), Alice 4S 19, Bob 4H 23 (pair 2 and last card 1).
    deal = example_deal(scores={"Alice": 22, "Bob": 14})
    deal["play"] = [
        ["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "TS"], ["Alice", "6H", 2], ["Bob", "7C"], ["Alice", "2S"],
        ["Bob", "6D", 2], ["Alice", "4S"], ["Bob", "4H", 3],
    ]
    assert audit(make_game([deal])) == [F(1, 2, "illegal-card", "play", "Bob")]


# --- the collector and the JSON lines ------------------------------------------------------------------------


def test_collector_as_a_visitor_sums_up_findings() -> None:
    from cribstats.audit import AuditCollector

    collector = AuditCollector()
    clean = make_game([example_deal()])
    missed = example_deal(scores={"Alice": 19, "Bob": 12})
    missed["play"][1] = ["Alice", "5S", 0]
    missed["show"]["Alice"] = 9
    over = example_deal(scores={"Alice": 24, "Bob": 13})
    over["show"]["Bob"] = 10
    for game in (clean, make_game([missed, swapped_deal({"Alice": 31, "Bob": 36})]), make_game([over])):
        replay(game, collector)
    summary = collector.result()
    assert (summary.games, summary.deals, summary.games_with_findings) == (3, 4, 2)
    assert summary.findings_by_kind == {"missed": 2, "overclaim": 1}
    assert summary.missed == {"Alice": 5} and summary.overclaimed == {"Bob": 1}
    assert summary.findings == 3 and summary.refused == 0 and summary.exit_status == 1
    assert [g.key for g in collector.games] == [GAME, GAME, GAME]
    assert [len(g.findings) for g in collector.games] == [0, 2, 1]
    collector.refuse("bad.json:line 2: not JSON")
    assert collector.result().exit_status == 2
    assert collector.result().errors == ["bad.json:line 2: not JSON"]


def test_collector_on_clean_games_exits_0() -> None:
    from cribstats.audit import AuditCollector

    collector = AuditCollector(keep=False)
    collector.add(replay(make_game([example_deal()])))
    assert collector.result().exit_status == 0
    assert collector.games == []


def test_finding_json_line_key_order_and_values() -> None:
    import orjson

    from cribstats.audit import finding_json_line

    deal = example_deal(scores={"Alice": 22, "Bob": 12})
    deal["play"][1] = ["Alice", "5S", 0]
    [finding] = replay(make_game([deal])).findings
    line = finding_json_line(finding)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    obj = orjson.loads(line)
    assert list(obj) == ["game", "deal", "event", "kind", "phase", "player", "claimed", "due", "message"]
    assert obj == finding.to_dict()
    assert (obj["game"], obj["deal"], obj["event"], obj["claimed"], obj["due"]) == (GAME, 1, 1, 0, 2)
    game_level = Finding(GAME, None, None, "result", "result", None, None, None, "the result names no winner")
    assert orjson.loads(finding_json_line(game_level))["deal"] is None


def test_a_go_left_out_is_taken_as_said() -> None:
    """Bob, in turn at 28 with 6D and 4H (neither fits), has said go even though the log does not say so."""
    deal = example_deal()
    del deal["play"][4]
    assert audit(make_game([deal])) == []


def test_a_card_laid_in_place_of_a_player_who_could_play_is_out_of_turn_even_with_goes_left_out() -> None:
    # At 22 (after Bob's 7C) Alice is in turn and holds 6H; Bob lays 6D himself: out-of-turn (28).
    # Then Alice (after Bob) 2S 30 (go 1: Bob's 4H and Alice's 6H, 4S do not fit); Bob leads: 4H 4, Alice 6H 10,
    # 4S 14 (last card 1). Run at 28? 5-7-6: the 6D after 7C after 5S makes 3 for Bob.
    deal = example_deal(scores={"Alice": 22, "Bob": 12})
    deal["play"] = [
        ["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Bob", "6D", 3], ["Alice", "2S", 1], ["Bob", "4H"],
        ["Alice", "6H"], ["Alice", "4S", 1],
    ]
    assert audit(make_game([deal])) == [F(1, 3, "out-of-turn", "play", "Bob")]


# --- a claim whose go is not known -----------------------------------------------------------------------------

def stopped_play(last_claim: int) -> GameLog:
    """The example's cards; Bob lays QD (never dealt to him) in place of 7C, which he keeps back, and the log
    stops with 7C still to lay. Worked by hand: JH 10, 5S 15 (fifteen 2), QD 25 (illegal, on the count), 6H 31
    (thirty-one 2, the series closes); Bob leads 6D 6, 2S 8, 4H 12, 4S 16 (a pair: 2). Bob's 7C still fits (23):
    had he laid it, the last-card point was his; had he not held it, 4S took it. So 4S earned 2 or 3."""
    play = [["Bob", "JH", 0], ["Alice", "5S", 2], ["Bob", "QD", 0], ["Alice", "6H", 2], ["Bob", "6D", 0],
            ["Alice", "2S", 0], ["Bob", "4H", 0], ["Alice", "4S", last_claim]]
    deal = bare_deal(play=play)
    return make_game([deal])


def test_a_claim_whose_go_is_not_known_is_judged_only_where_wrong_either_way() -> None:
    illegal = F(1, 2, "illegal-card", "play", "Bob")
    for right_either_way in (2, 3):
        assert audit(stopped_play(right_either_way)) == [illegal]
    assert audit(stopped_play(0)) == [illegal, F(1, 7, "missed", "play", "Alice", 0, 2)]
    assert audit(stopped_play(5)) == [illegal, F(1, 7, "overclaim", "play", "Alice", 5, 3)]
    messages = [f.message for f in replay(stopped_play(0)).findings + replay(stopped_play(5)).findings]
    assert "at least 2 was due" in messages[1] and "at least 2 missed" in messages[1]
    assert "at most 3 was due" in messages[3] and "at least 2 too many" in messages[3]
    assert all("not known" in m for m in (messages[1], messages[3]))
