"""The game ends the moment a side's claimed score reaches the target, muggins takings included (game-log.md,
"When the game ends"). A go or last-card point is due only when its series closes: if the game ends first, on a
muggins taking at a card while the series is still open, that card earned no go.

Worked by hand on the spec's example deal (Alice deals, Bob leads JH; Alice's 5S makes fifteen for 2; Bob still
holds 7C, 6D and 4H, all of which fit at 15, so the series is open), with muggins on and a target of 2: Alice
claims 0 for 5S, Bob calls muggins and takes the 2 she missed, and reaches 2. The game is over; what was due for
5S is the fifteen, 2, and Bob's taking is no more than she missed.
"""

from __future__ import annotations

from typing import Any

from spec_example import example_deal

from cribstats.gamelog import validate_game
from cribstats.replay import replay


def game(play: list[list[Any]], **fields: Any) -> Any:
    call = {"by": "Bob", "from": "Alice", "phase": "play", "points": 2, "event": 1}
    deal = example_deal(play=play, muggins=[call])
    del deal["show"], deal["scores"]
    return validate_game({"format": "cribstats/game/1", "id": "m1", "muggins": True, "target": 2,
                          "players": ["Alice", "Bob"], "deals": [deal], **fields})


def findings(g: Any) -> list[tuple[Any, ...]]:
    return [(f.kind, f.phase, f.event, f.player, f.claimed, f.due) for f in replay(g).findings]


def test_a_game_ended_by_a_muggins_taking_mid_series_gives_the_card_no_go() -> None:
    play: list[list[Any]] = [["Bob", "JH"], ["Alice", "5S", 0], ["Bob", "7C"]]
    assert findings(game(play)) == [
        ("missed", "play", 1, "Alice", 0, 2),  # the fifteen only: the series had not closed
        ("after-end", "play", 2, "Bob", None, None),
    ]


def test_the_same_when_the_log_stops_at_the_end() -> None:
    play: list[list[Any]] = [["Bob", "JH"], ["Alice", "5S", 0]]
    assert findings(game(play)) == [("missed", "play", 1, "Alice", 0, 2)]


def test_without_the_end_the_fifteen_is_all_that_is_due_there() -> None:
    # to 121, the taking ends nothing; the series goes on (Bob lays 7C), and 5S earned the fifteen: 2
    play: list[list[Any]] = [["Bob", "JH"], ["Alice", "5S", 0], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"],
            ["Alice", "2S", 1], ["Bob", "6D"], ["Alice", "4S"], ["Bob", "4H", 3]]
    assert findings(game(play, target=121)) == [("missed", "play", 1, "Alice", 0, 2)]


def test_a_game_ended_by_the_go_in_a_claim_gives_that_go() -> None:
    # to 6, without muggins: Alice's 5S (fifteen, 2) and 6H (a run of three, 3) bring her to 5; Bob says go, and
    # her 2S (30) earns the go, 1, which she claims: the game ends on that go, so it is due, and Bob's 6D after it
    # counts for nothing
    play: list[list[Any]] = [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"],
                             ["Alice", "2S", 1], ["Bob", "6D"]]
    data = game(play, target=6).model_dump(mode="json", by_alias=True, exclude_none=True)
    del data["deals"][0]["muggins"], data["muggins"]
    g = validate_game(data)
    outcome = replay(g)
    assert findings(g) == [("after-end", "play", 6, "Bob", None, None)]
    assert outcome.scores_claimed == outcome.scores_due == {"Alice": 6, "Bob": 0}
    assert outcome.deals[0].play_dues[:6] == [0, 2, 0, 3, 0, 1]
