"""The contracts' own JSON examples, copied here as data (docs/game-log.md and docs/findings.md), read and audited
by the real ``cribstats audit --json`` in a process of its own, with what the contracts say they give worked out
by hand in the comments."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
from test_gamelog import spec_deal, spec_game

# The spec's example game (docs/game-log.md, "The game"), its "deals": [ ... ] filled with the spec's example deal
# (docs/game-log.md, "A deal"), both as the spec writes them, "heels": 0 and "muggins": [] included.
SPEC_DEAL: dict[str, Any] = spec_deal()
SPEC_GAME: dict[str, Any] = spec_game()
# The spec's examples of a `pegged` object and of a muggins call (docs/game-log.md, "A deal").
SPEC_PEGGED = {"Alice": 6, "Bob": 3}
SPEC_CALL = {"by": "Bob", "from": "Alice", "phase": "hand", "points": 2}

# By hand, the example deal. The play: JH 10; 5S 15, fifteen 2; 7C 22; 6H 28, run 5-7-6 3; Bob cannot play (6D 34,
# 4H 32): go; 2S 30, go 1 for Alice; then 6D 6, 4S 10, 4H 14, pair 2 and last card 1: Alice 2+3+1 = 6, Bob 3.
# Bob's hand 6D JH 4H 7C, starter 5H: fifteens J+5, 6+4+5 = 4, run 4-5-6-7 = 4, nobs (JH, starter a heart) 1 = 9.
# Alice's 5S 4S 2S 6H with 5H: fifteens 5S+4+6, 5H+4+6 = 4, pair of fives 2, runs 4-5-6 twice 6 = 12.
# The crib 8D 8C TS KC with 5H: fifteens T+5, K+5 = 4, pair of eights 2 = 6.
ALICE_AFTER_DEAL = 6 + 12 + 6
BOB_AFTER_DEAL = 3 + 9
KEYS = ["game", "deal", "event", "kind", "phase", "player", "claimed", "due", "message"]


def audit(tmp_path: Path, game: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """``cribstats audit --json`` on the game as a one-game ``.json`` file: exit status and the finding lines."""
    path = tmp_path / "game.json"
    path.write_bytes(orjson.dumps(game))
    done = subprocess.run([sys.executable, "-c", "from cribstats.cli.app import main; main()", "audit", "--json",
                           str(path)], capture_output=True, check=False)
    assert done.stderr == b""
    lines = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert all(list(line) == KEYS for line in lines)
    return done.returncode, lines


def without_message(lines: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(line[key] for key in KEYS[:-1]) for line in lines]


def test_the_example_deal_as_the_spec_writes_it_is_clean(tmp_path: Path) -> None:
    game = copy.deepcopy(SPEC_GAME) | {"result": {"winner": None, "scores": {"Alice": ALICE_AFTER_DEAL,
                                                                              "Bob": BOB_AFTER_DEAL}}}
    assert game["deals"][0]["scores"] == {"Alice": ALICE_AFTER_DEAL, "Bob": BOB_AFTER_DEAL}
    assert audit(tmp_path, game) == (0, [])


def test_the_example_game_s_result_is_judged_against_its_one_deal(tmp_path: Path) -> None:
    # the game records Alice winning 121-88, but after its one deal no side reached 121: one finding for the
    # winner (player, claimed and due null), and one for each recorded score (the score, the replayed score)
    status, lines = audit(tmp_path, SPEC_GAME)
    assert status == 1
    key = "tuesday-2026-11-03-r2-t4"
    assert without_message(lines) == [
        (key, None, None, "result", "result", None, None, None),
        (key, None, None, "result", "result", "Alice", 121, ALICE_AFTER_DEAL),
        (key, None, None, "result", "result", "Bob", 88, BOB_AFTER_DEAL),
    ]
    assert "121" in lines[0]["message"]


def test_the_example_pegged_totals_are_the_example_play_s(tmp_path: Path) -> None:
    deal = copy.deepcopy(SPEC_DEAL) | {"play": [event[:2] for event in SPEC_DEAL["play"]], "pegged": SPEC_PEGGED}
    game = copy.deepcopy(SPEC_GAME) | {"deals": [deal]}
    del game["result"]
    assert audit(tmp_path, game) == (0, [])
    # one point short for Alice: one `missed` for her total, `event` null; the board follows the claim
    deal["pegged"] = SPEC_PEGGED | {"Alice": 5}
    deal["scores"] = {"Alice": ALICE_AFTER_DEAL - 1, "Bob": BOB_AFTER_DEAL}
    status, lines = audit(tmp_path, game)
    assert (status, without_message(lines)) == (1, [
        ("tuesday-2026-11-03-r2-t4", 1, None, "missed", "play", "Alice", 5, 6)])


def test_the_example_muggins_call_takes_what_the_hand_missed(tmp_path: Path) -> None:
    # Alice claims 10 of her 12: `missed` (10, 12); Bob's call takes the 2 she missed, a call the audit accepts;
    # the board: Alice 24 - 2, Bob 12 + 2
    deal = copy.deepcopy(SPEC_DEAL) | {"show": {"Bob": 9, "Alice": 10, "crib": 6}, "muggins": [SPEC_CALL],
                                       "scores": {"Alice": ALICE_AFTER_DEAL - 2, "Bob": BOB_AFTER_DEAL + 2}}
    game = copy.deepcopy(SPEC_GAME) | {"deals": [deal]}
    del game["result"]
    status, lines = audit(tmp_path, game)
    assert (status, without_message(lines)) == (1, [
        ("tuesday-2026-11-03-r2-t4", 1, None, "missed", "hand", "Alice", 10, 12)])
    # the call on a hand claimed in full takes points never missed: `muggins-call`, the points taken and 0
    deal["show"] = SPEC_DEAL["show"]
    deal["scores"] = {"Alice": ALICE_AFTER_DEAL, "Bob": BOB_AFTER_DEAL + 2}
    status, lines = audit(tmp_path, game)
    assert (status, without_message(lines)) == (1, [
        ("tuesday-2026-11-03-r2-t4", 1, None, "muggins-call", "hand", "Bob", 2, 0)])


def test_the_example_finding_s_place_is_found_where_the_spec_puts_it(tmp_path: Path) -> None:
    # docs/findings.md's example line: a missed fifteen by Alice, claimed 0, due 2, on her 5S; here at deal 1,
    # event 1 of the example deal
    deal = copy.deepcopy(SPEC_DEAL)
    deal["play"][1] = ["Alice", "5S", 0]
    deal["scores"] = {"Alice": ALICE_AFTER_DEAL - 2, "Bob": BOB_AFTER_DEAL}
    game = copy.deepcopy(SPEC_GAME) | {"deals": [deal]}
    del game["result"]
    status, lines = audit(tmp_path, game)
    assert (status, without_message(lines)) == (1, [
        ("tuesday-2026-11-03-r2-t4", 1, 1, "missed", "play", "Alice", 0, 2)])
    assert "5S" in lines[0]["message"] and "Alice" in lines[0]["message"]
