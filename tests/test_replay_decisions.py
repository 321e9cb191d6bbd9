"""The readings docs/decisions.md takes where the rules and contracts leave a choice, each pinned by a log.

The logs are the seed example deal (see test_audit_findings) with one thing changed; the expected findings are
worked out in the comments.
"""

from __future__ import annotations

from test_audit_findings import GAME, audit, bare_deal, example_deal, make_game

from cribstats.replay import replay


def F(deal, event, kind, phase, player, claimed=None, due=None):
    return (GAME, deal, event, kind, phase, player, claimed, due)


def test_claims_card_by_card_win_over_pegged_totals() -> None:
    # The events claim Alice 2+3+1 and Bob 3, as due; a pegged object saying 0 each is not judged again.
    deal = example_deal(pegged={"Alice": 0, "Bob": 0})
    assert audit(make_game([deal])) == []


def test_muggins_call_in_a_game_without_muggins_takes_what_was_never_there() -> None:
    # Bob claims 7 for a 9 hand (missed 2); Alice calls muggins for 2, but the game is not played with muggins.
    # Board: Alice 24 + 2 = 26, Bob 12 - 2 = 10.
    deal = example_deal(
        show={"Bob": 7, "Alice": 12, "crib": 6},
        muggins=[{"by": "Alice", "from": "Bob", "phase": "hand", "points": 2}],
        scores={"Alice": 26, "Bob": 10},
    )
    assert audit(make_game([deal])) == [
        F(1, None, "missed", "hand", "Bob", 7, 9),
        F(1, None, "muggins-call", "hand", "Alice", 2, 0),
    ]


def test_calls_on_one_claim_share_what_it_missed() -> None:
    # Bob claims 5 for 9 (missed 4); Alice takes 3, then 2 more: only 1 was left. Board: Alice 29, Bob 8.
    deal = example_deal(
        show={"Bob": 5, "Alice": 12, "crib": 6},
        muggins=[
            {"by": "Alice", "from": "Bob", "phase": "hand", "points": 3},
            {"by": "Alice", "from": "Bob", "phase": "hand", "points": 2},
        ],
        scores={"Alice": 29, "Bob": 8},
    )
    assert audit(make_game([deal], muggins=True)) == [
        F(1, None, "missed", "hand", "Bob", 5, 9),
        F(1, None, "muggins-call", "hand", "Alice", 2, 1),
    ]


def test_a_call_after_another_on_one_claim_says_what_the_earlier_took() -> None:
    # Bob claims 5 for 9 (missed 4); Alice takes 3, then 2: the second took 2 where 1 was left, the first having
    # taken 3 of the 4; a third call of 1 after them finds nothing left at all
    deal = example_deal(
        show={"Bob": 5, "Alice": 12, "crib": 6},
        muggins=[
            {"by": "Alice", "from": "Bob", "phase": "hand", "points": 3},
            {"by": "Alice", "from": "Bob", "phase": "hand", "points": 2},
            {"by": "Alice", "from": "Bob", "phase": "hand", "points": 1},
        ],
        scores={"Alice": 30, "Bob": 8},
    )
    findings = replay(make_game([deal], muggins=True)).findings
    assert [f.kind for f in findings] == ["missed", "muggins-call", "muggins-call"]  # the board as claimed: 30, 8
    assert [f.message.split(", but ")[1] for f in findings[1:]] == [
        "only 1 was left to take there: an earlier call took 3 of the 4 missed",
        "nothing was left to take there: an earlier call took the 4 missed",
    ]


def test_muggins_call_on_a_pegged_total_shares_what_the_total_missed() -> None:
    # Play without points, pegged totals: Alice 6 (due 2+3+1), Bob 1 (due 3: pair 2 and last card 1), missed 2.
    # Alice takes 3 at Bob's 4H (event 8): 1 more than the total missed. Board: Alice 24 + 3 = 27, Bob 12 - 2 = 10.
    plain = [event[:2] for event in example_deal()["play"]]
    deal = example_deal(
        play=plain,
        pegged={"Alice": 6, "Bob": 1},
        muggins=[{"by": "Alice", "from": "Bob", "phase": "play", "points": 3, "event": 8}],
        scores={"Alice": 27, "Bob": 10},
    )
    assert audit(make_game([deal], muggins=True)) == [
        F(1, None, "missed", "play", "Bob", 1, 3),
        F(1, 8, "muggins-call", "play", "Alice", 3, 2),
    ]


def test_a_claim_a_bad_deal_makes_impossible_to_judge_is_not_judged() -> None:
    # Bob is dealt seven cards (QD too) and keeps five: his hand cannot be a four-card hand, so his claim of 3 is
    # neither missed nor over-claimed, which the audit says right after the deal's other findings (Bob's hand is
    # counted first); Alice's hand (12) and the crib (6) are still judged, and are right.
    hands = {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C", "QD"]}
    deal = bare_deal(hands=hands, show={"Bob": 3, "Alice": 12, "crib": 6})
    game = make_game([deal])
    assert audit(game) == [F(1, None, "bad-deal", "deal", "Bob"), F(1, None, "bad-deal", "deal", "Bob")]
    assert replay(game).findings[1].message == (
        "Bob's claim of 3 for the hand 6D JH 4H 7C QD with starter 5H is not judged: it holds 5 cards, not 4"
    )


def test_when_nobody_can_play_the_next_card_is_a_lead() -> None:
    # After Alice's 2S (30) neither can play (Bob 6D 4H, Alice 4S): the go is Alice's and Bob leads the next
    # series. Alice leads 4S instead: out of turn. Then Bob 6D (10) and 4H (14, last card 1).
    deal = example_deal(scores={"Alice": 24, "Bob": 10})
    deal["play"][6:] = [["Alice", "4S"], ["Bob", "6D"], ["Bob", "4H", 1]]
    assert audit(make_game([deal])) == [F(1, 6, "out-of-turn", "play", "Alice")]


def test_a_go_after_the_end_is_no_finding_but_a_card_is() -> None:
    # To 5: Alice's 6H (run 3, her own points) takes her from 2 to 5 at event 3. Bob's go after it is nothing;
    # Alice's 2S after it is the one after-end finding of the deal.
    deal = bare_deal(play=example_deal()["play"][:6])
    assert audit(make_game([deal], target=5)) == [F(1, 5, "after-end", "play", "Alice")]
