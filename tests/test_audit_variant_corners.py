"""Corners of the variants and options, each a small hand-written log with its findings worked out by hand.

- Five-card's three for last is scored before the first deal (RULES.md): when it alone takes the first pone to the
  target, the game is over before a card is dealt, so the whole first deal comes after the end (findings.md:
  "a whole deal after the end: phase `deal`, `event` null", player null).
"""

from __future__ import annotations

from typing import Any

from cribstats.gamelog import GameLog, validate_game
from cribstats.replay import replay
from cribstats.textview import render_game

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
    outcome = replay(game)
    assert outcome.scores_claimed == {"Ann": 0, "Ben": 3}
    assert outcome.winners == ("Ben",)
    assert outcome.deals[0].after_end
    # show still tells the three for last, so that the board (Ben 3) adds up
    assert "    Ben three for last: 3" in render_game(game, outcome).splitlines()


def test_three_for_last_short_of_the_target_does_not_end_the_game() -> None:
    # to 4: Ben is at 3 after the three for last, and 3 + AC 0 + 2C 0 + 3C 7 = 10 reaches 4 on 3C (its own
    # points: fifteen and run); 6S is laid after the end
    deal = five_card_deal()
    deal["scores"] = {"Ann": 0, "Ben": 10}
    game = make_game([deal], ["Ann", "Ben"], variant="five-card", target=4)
    assert [f[:5] for f in findings(game)] == [(1, 5, "after-end", "play", "Ann")]
