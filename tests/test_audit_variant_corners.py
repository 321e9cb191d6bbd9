"""Corners of the variants and options, each a small hand-written log with its findings worked out by hand.

- Five-card's three for last is scored before the first deal (RULES.md): when it alone takes the first pone to the
  target, the game is over before a card is dealt, so the whole first deal comes after the end (findings.md:
  "a whole deal after the end: phase `deal`, `event` null", player null).
- A hand or crib whose cards, with the starter, hold one card twice (a card dealt twice, or the three-player
  crib card also cut as the starter) cannot be counted: a card does not pair with itself. The claim is credited
  as claimed and not judged, as for a hand of the wrong size (docs/decisions.md, "The deal").
"""

from __future__ import annotations

from typing import Any

from spec_example import example_deal

from cribstats.gamelog import GameLog, validate_game
from cribstats.replay import replay
from cribstats.textview import TextView

GAME = "corner-1"


def make_game(deals: list[dict[str, Any]], players: list[str], **fields: Any) -> GameLog:
    data: dict[str, Any] = {"format": "cribstats/game/1", "id": GAME, "players": players, "deals": deals}
    data.update(fields)
    return validate_game(data)


def findings(game: GameLog) -> list[tuple[Any, ...]]:
    found = replay(game).findings
    return [(f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due, f.message) for f in found]


def five_card_deal() -> dict[str, Any]:
    """Ann deals, Ben is the first pone. Ann keeps 4S 5S 6S, Ben AC 2C 3C; the crib is 8H 9H KH QH; starter 7H.

    The single series lays every card: AC 1, 4S 5, 2C 7, 5S 12, 3C 15 (fifteen 2, run A-2-3-4-5 5: 7),
    6S 21 (run of six 6, last card 1: 7). Ben's hand AC 2C 3C + 7H: flush 3, run 3 = 6; Ann's 4S 5S 6S + 7H:
    fifteen 4-5-6 2, run of four 4, flush 3 = 9; the crib 8H 9H KH QH + 7H: flush 5, fifteen 7-8 2, run 7-8-9
    3, = 10. Board: Ben 3 (three for last) + 7 + 6 = 16, Ann 7 + 9 + 10 = 26.
    """
    return {
        "dealer": "Ann",
        "hands": {"Ann": ["4S", "5S", "6S", "8H", "9H"], "Ben": ["AC", "2C", "3C", "KH", "QH"]},
        "discards": {"Ann": ["8H", "9H"], "Ben": ["KH", "QH"]},
        "starter": "7H",
        "play": [["Ben", "AC", 0], ["Ann", "4S", 0], ["Ben", "2C", 0], ["Ann", "5S", 0], ["Ben", "3C", 7],
                 ["Ann", "6S", 7]],
        "show": {"Ben": 6, "Ann": 9, "crib": 10},
        "scores": {"Ann": 26, "Ben": 16},
    }


def test_the_five_card_deal_is_clean() -> None:
    assert findings(make_game([five_card_deal()], ["Ann", "Ben"], variant="five-card")) == []


def test_three_for_last_reaching_the_target_ends_the_game_before_the_first_deal() -> None:
    # to 3: Ben's three for last takes him there before the deal, so all of deal 1 is after the end
    game = make_game([five_card_deal()], ["Ann", "Ben"], variant="five-card", target=3,
                     result={"winner": "Ben", "scores": {"Ann": 0, "Ben": 3}})
    assert findings(game) == [
        (1, None, "after-end", "deal", None, None, None,
         "the game had already ended at 3, but the log goes on: a whole deal"),
    ]
    view = TextView()
    outcome = replay(game, view)
    assert outcome.scores_claimed == {"Ann": 0, "Ben": 3}
    assert outcome.winners == ("Ben",)
    assert outcome.deals[0].after_end
    # show still tells the three for last, so that the board (Ben 3) adds up
    assert "    Ben three for last: 3" in view.result().splitlines()


def test_three_for_last_short_of_the_target_does_not_end_the_game() -> None:
    # to 4: Ben is at 3 after the three for last, and 3 + AC 0 + 2C 0 + 3C 7 = 10 reaches 4 on 3C (its own
    # points: fifteen and run); 6S is laid after the end
    deal = five_card_deal()
    deal["scores"] = {"Ann": 0, "Ben": 10}
    game = make_game([deal], ["Ann", "Ben"], variant="five-card", target=4)
    assert [f[:5] for f in findings(game)] == [(1, 5, "after-end", "play", "Ann")]


def three_player_deal(**changes: Any) -> dict[str, Any]:
    """Ann deals, Ben is pone, Cat next; the crib card 5D from the deck; starter 4S.

    Play: Ben TC 10, Cat 5H 15 (2), Ann KS 25, Ben 3D 28, Cat 2C 30, Ann go, Ben go, Cat AS 31 (31 for 2, run
    3-2-A 3: 5); Ann leads: QS 10, Ben 9C 19, Cat 7S 26, Ann 2H 28, Ben go, Cat out of cards, Ann cannot lay JS:
    go to Ann (1); Ben leads 8C 8, Ann JS 18 (last card 1). Shows: Ben TC 9C 8C 3D + 4S: fifteen 8-3-4 2, run
    8-9-T 3 = 5; Cat 5H 2C AS 7S + 4S: fifteen 5-2-A-7 2 = 2; Ann KS QS JS 2H + 4S: run J-Q-K 3, nobs 1 = 4;
    the crib 9D 4D 6C 5D + 4S: fifteens 9-6, 6-5-4D, 6-5-4S 6, pair of fours 2, runs 4-5-6 twice 6 = 14.
    Board: Ann 2 + 4 + 14 = 20, Ben 5, Cat 7 + 2 = 9.
    """
    deal: dict[str, Any] = {
        "dealer": "Ann",
        "hands": {"Ann": ["KS", "QS", "JS", "2H", "9D"], "Ben": ["TC", "9C", "8C", "3D", "4D"],
                  "Cat": ["5H", "2C", "AS", "7S", "6C"]},
        "crib_card": "5D",
        "discards": {"Ann": ["9D"], "Ben": ["4D"], "Cat": ["6C"]},
        "starter": "4S",
        "play": [["Ben", "TC", 0], ["Cat", "5H", 2], ["Ann", "KS", 0], ["Ben", "3D", 0], ["Cat", "2C", 0],
                 ["Ann", "go"], ["Ben", "go"], ["Cat", "AS", 5], ["Ann", "QS", 0], ["Ben", "9C", 0],
                 ["Cat", "7S", 0], ["Ann", "2H", 1], ["Ben", "go"], ["Ben", "8C", 0], ["Ann", "JS", 1]],
        "show": {"Ben": 5, "Cat": 2, "Ann": 4, "crib": 14},
        "scores": {"Ann": 20, "Ben": 5, "Cat": 9},
    }
    deal.update(changes)
    return deal


THREE = ["Ann", "Ben", "Cat"]


def test_the_three_player_deal_is_clean() -> None:
    assert findings(make_game([three_player_deal()], THREE, variant="three-player")) == []


def test_a_crib_card_also_cut_as_the_starter_leaves_the_crib_unjudged() -> None:
    # the crib card 4S is the starter too: one bad-deal, player null (the later copy is the starter). The crib
    # 9D 4D 6C 4S with starter 4S would pair 4S with itself; it cannot be counted, so the claim of 14 stands on
    # the board as claimed (Ann 20) and is not judged, which the audit says, right after the hands
    game = make_game([three_player_deal(crib_card="4S")], THREE, variant="three-player")
    assert findings(game) == [
        (1, None, "bad-deal", "deal", None, None, None, "4S appears twice in the deal (again as the starter)"),
        (1, None, "bad-deal", "deal", "Ann", None, None, "Ann's claim of 14 for the crib 9D 4D 6C 4S with starter "
         "4S is not judged: 4S is in it twice, the starter taken"),
    ]
    assert replay(game).scores_claimed == {"Ann": 20, "Ben": 5, "Cat": 9}


def test_a_hand_holding_the_starter_is_not_judged() -> None:
    # six-card, the example with the starter 5S, which Alice also keeps: her hand 5S 4S 2S 6H with starter 5S
    # cannot be counted (counted, 5S would pair with itself and make two runs 4-5-6: 12), so her claim of 10
    # is not judged and stands on the board (Alice 6 pegged + 10 + 6 for the crib = 22). Bob's hand 6D JH 4H 7C
    # with starter 5S holds no card twice: fifteens 6-4-5 and J-5 4, run 4-5-6-7 4, no nobs (JH, starter a
    # spade) = 8 against his claim of 9
    deal = example_deal(starter="5S", show={"Bob": 9, "Alice": 10, "crib": 6}, scores={"Alice": 22, "Bob": 12})
    game = make_game([deal], ["Alice", "Bob"])
    assert [f[:7] for f in findings(game)] == [
        (1, None, "bad-deal", "deal", None, None, None),
        (1, None, "overclaim", "hand", "Bob", 9, 8),
        (1, None, "bad-deal", "deal", "Alice", None, None),
    ]
    assert findings(game)[2][7] == (
        "Alice's claim of 10 for the hand 5S 4S 2S 6H with starter 5S is not judged: 5S is in it twice, the "
        "starter taken"
    )


def test_a_crib_holding_a_card_twice_is_not_judged() -> None:
    # Bob is dealt 8D as well as Alice and discards it: the crib 8D 8C 8D KC holds 8D twice; it is not judged
    # (counted, the copy would make a pair royal of 8D 8C 8D). His play and hand are untouched by it.
    deal = example_deal()
    deal["hands"]["Bob"][0] = "8D"
    deal["discards"]["Bob"] = ["8D", "KC"]
    assert [f[:5] for f in findings(make_game([deal], ["Alice", "Bob"]))] == [
        (1, None, "bad-deal", "deal", "Bob"),
        (1, None, "bad-deal", "deal", "Alice"),  # her crib's claim, not judged
    ]
    assert findings(make_game([deal], ["Alice", "Bob"]))[1][7] == (
        "Alice's claim of 6 for the crib 8D 8C 8D KC with starter 5H is not judged: 8D is in it twice, the "
        "starter taken"
    )
