"""A false go counts as a go (findings.md: "a false go still counts as a go"), on the lead as in mid-series.

Worked by hand on the spec's example deal (Alice deals, Bob is pone and leads). Bob says go at 0 holding 6D, JH,
4H and 7C: a false go. It counts as his go, so the lead passes to Alice, who plays her series alone: 5S (5), 4S
(9), 2S (11), 6H (17), no fifteen, pair or run, and 6H takes the go, 1. Bob, who still holds cards, leads the next
series: JH (10), 7C (17), 6D (23), 4H (27), the last card, 1. The only finding is the false go.
"""

from __future__ import annotations

from typing import Any

from spec_example import example_deal

from cribstats.gamelog import validate_game
from cribstats.replay import replay


def findings(play: list[list[Any]]) -> list[tuple[Any, ...]]:
    deal = example_deal(play=play)
    del deal["show"], deal["scores"]
    game = validate_game({"format": "cribstats/game/1", "id": "g", "players": ["Alice", "Bob"], "deals": [deal]})
    return [(f.kind, f.event, f.player) for f in replay(game).findings]


def test_a_false_go_on_the_lead_passes_the_lead() -> None:
    play: list[list[Any]] = [
        ["Bob", "go"], ["Alice", "5S", 0], ["Alice", "4S", 0], ["Alice", "2S", 0], ["Alice", "6H", 1],
        ["Bob", "JH", 0], ["Bob", "7C", 0], ["Bob", "6D", 0], ["Bob", "4H", 1],
    ]
    assert findings(play) == [("false-go", 0, "Bob")]


def test_a_false_go_mid_series_passes_the_turn() -> None:
    # Bob leads JH (10), Alice 5S (15, fifteen 2); Bob says go at 15 holding 7C, 6D and 4H: false, but a go, so
    # Alice plays on alone: 4S (19), 2S (21), 6H (27, the go: 1). Bob leads the next series: 7C, 6D, 4H (17, last
    # card: 1; 7-6-4 is no run)
    play: list[list[Any]] = [
        ["Bob", "JH", 0], ["Alice", "5S", 2], ["Bob", "go"], ["Alice", "4S", 0], ["Alice", "2S", 0],
        ["Alice", "6H", 1], ["Bob", "7C", 0], ["Bob", "6D", 0], ["Bob", "4H", 1],
    ]
    assert findings(play) == [("false-go", 2, "Bob")]
