"""``show`` prints each finding right after the thing it is about, in the replay's game order: a muggins call on a
hand comes after the claim it corrects, not under the caller's own hand (game-log.md: a call is "taken right after
the claim it corrects")."""

from __future__ import annotations

import json
from pathlib import Path

from cribstats.gamelog import validate_game
from cribstats.replay import replay
from cribstats.textview import TextView


def three_player_game() -> dict:
    # Cy deals, starter 4S; counting from the pone round: Di, Ed, Cy, then the crib. Ed's hand 3D 6C TD JH with 4S
    # holds nothing (no fifteen: 6+4+3 is 13, T+4 14; no pair, no run): he claims 2. Cy's 5C 5D 6H 9S with 4S:
    # fifteens 6+9, 5C+6+4, 5D+6+4 (6), the pair of fives (2), runs 4-5-6 twice (6): 14, he claims 12. Di calls
    # muggins for the 2 Cy missed, Ed calls for 2 more, which nothing left to take.
    return {
        "format": "cribstats/game/1", "id": "t3m2", "variant": "three-player", "muggins": True,
        "players": ["Cy", "Di", "Ed"],
        "deals": [{
            "dealer": "Cy",
            "hands": {"Cy": ["5C", "5D", "6H", "9S", "KH"], "Di": ["4H", "7D", "8C", "QS", "2S"],
                      "Ed": ["3D", "6C", "TD", "JH", "AC"]},
            "crib_card": "9D",
            "discards": {"Cy": ["KH"], "Di": ["2S"], "Ed": ["AC"]},
            "starter": "4S",
            "play": [["Di", "7D", 0], ["Ed", "3D", 0], ["Cy", "5C", 2], ["Di", "8C", 0], ["Ed", "6C", 1],
                     ["Cy", "go"], ["Di", "go"], ["Cy", "5D", 0], ["Di", "4H", 0], ["Ed", "TD", 0],
                     ["Cy", "6H", 1], ["Di", "go"], ["Ed", "go"], ["Di", "QS", 0], ["Ed", "JH", 0],
                     ["Cy", "9S", 1]],
            "show": {"Di": 6, "Ed": 2, "Cy": 12, "crib": 4},
            "muggins": [{"by": "Di", "from": "Cy", "phase": "hand", "points": 2},
                        {"by": "Ed", "from": "Cy", "phase": "hand", "points": 2}],
            "scores": {"Cy": 20, "Di": 8, "Ed": 5},
        }],
    }


def test_a_muggins_call_is_shown_after_the_claim_it_corrects() -> None:
    view = TextView()
    outcome = replay(validate_game(three_player_game()), view)
    assert [(f.kind, f.player, f.claimed, f.due) for f in outcome.findings] == [
        ("overclaim", "Ed", 2, 0), ("missed", "Cy", 12, 14), ("muggins-call", "Ed", 2, 0),
    ]
    lines = [line.strip() for line in view.result().splitlines()]
    show = lines[lines.index("The show") + 1:]
    assert [line.split(":")[0] if line.startswith("!") else line.split("  ")[0] for line in show[:7]] == [
        "Di", "Ed", "! overclaim (hand)", "Cy", "! missed (hand)", "! muggins-call (hand)", "Cy",
    ]
    assert show[1].startswith("Ed  hand 3D 6C TD JH  0 (claimed 2)")
    assert show[3].startswith("Cy  hand 5C 5D 6H 9S  14 (claimed 12)")
    assert show[6].startswith("Cy  crib")


def test_the_bid_is_shown_before_his_heels() -> None:
    # sample_logs/options/bidding.json with the starter JC: the bid (before the cut) takes 3 off Alice's score,
    # then the cut gives the crib's holder, Alice, his heels (RULES: the bid is made before the cut)
    log = json.loads((Path(__file__).parent.parent / "sample_logs" / "options" / "bidding.json").read_text())
    log["deals"][0]["starter"] = "JC"
    view = TextView()
    replay(validate_game(log), view)
    lines = view.result().splitlines()
    bid = lines.index("    Alice bid 3 for the crib: 3 taken off Alice's score")
    assert lines[bid + 1] == "    Alice his heels: 2"
