"""Result-only records (no deals: a club tally sheet, a scorecard pair, a match's result-only games) are judged
against themselves: findings.md's `result` kind covers "a recorded winner for a game in which no side reached the
target", and docs/decisions.md promises it for tally rows ("the winner is the higher score, even below the target
(the audit then reports the result)").

The expected values are read off RULES.md by hand: a six-card game is to 121, so a record of 50-20 has no side at
the target; a winner who did not reach it while the other side did is the wrong winner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cribstats.formats.tally import read_tally
from cribstats.gamelog import validate_game
from cribstats.replay import replay


def result_only(winner: str, alice: int, bob: int, **fields: Any) -> Any:
    data = {"format": "cribstats/game/1", "id": "r1", "players": ["Alice", "Bob"],
            "result": {"winner": winner, "scores": {"Alice": alice, "Bob": bob}}, **fields}
    return validate_game(data)


def kinds(game: Any) -> list[tuple[str, str, str | None]]:
    return [(f.kind, f.phase, f.player) for f in replay(game).findings]


def test_a_result_only_record_that_agrees_with_itself_is_clean() -> None:
    assert kinds(result_only("Alice", 121, 100)) == []
    assert kinds(result_only("Bob", 97, 121)) == []
    # five-card is to 61: Alice at 61 has reached it
    assert kinds(result_only("Alice", 61, 40, variant="five-card")) == []


def test_a_winner_recorded_when_no_side_reached_the_target_is_a_result_finding() -> None:
    outcome = replay(result_only("Alice", 50, 20))
    assert [(f.kind, f.phase, f.player, f.claimed, f.due) for f in outcome.findings] == [
        ("result", "result", None, None, None)
    ]
    assert "no side reached 121" in outcome.findings[0].message


def test_a_winner_other_than_the_side_at_the_target_is_a_result_finding() -> None:
    # Alice is recorded at 121 and Bob at 20, but Bob is recorded as the winner
    assert kinds(result_only("Bob", 121, 20)) == [("result", "result", None)]


def test_a_target_of_the_log_counts_not_the_variants() -> None:
    # to 61 by the log's own target: 50 is short of it
    assert kinds(result_only("Alice", 50, 20, target=61)) == [("result", "result", None)]


def test_a_tally_row_whose_winner_is_below_the_target_is_reported(tmp_path: Path) -> None:
    sheet = ["date,event,round,player1,player2,score1,score2", "2026-11-03,Club,3,Alice,Bob,50,20"]
    (source,) = list(read_tally(sheet, "club.csv"))
    assert kinds(source.game) == [("result", "result", None)]


def test_partners_recorded_at_different_scores_is_a_result_finding() -> None:
    # game-log.md: in four-player games each player's entry is the team's position; N and S are partners (seats 0
    # and 2) but the record has N at 121 and S at 100. The first seat's entry stands; S's is the one reported.
    game = validate_game({"format": "cribstats/game/1", "id": "p1", "variant": "four-player",
                          "players": ["N", "E", "S", "W"],
                          "result": {"winner": "N", "scores": {"N": 121, "E": 90, "S": 100, "W": 90}}})
    assert [(f.kind, f.player, f.claimed, f.due) for f in replay(game).findings] == [("result", "S", 100, 121)]


def test_a_giveaway_record_naming_the_side_at_the_target_as_winner_is_a_result_finding() -> None:
    # seed 002's giveaway: the first to 121 loses, so Alice (121) lost to Bob (20) whatever the record says
    assert kinds(result_only("Alice", 121, 20, giveaway=True)) == [("result", "result", None)]
    assert kinds(result_only("Bob", 121, 20, giveaway=True)) == []


def test_two_sides_recorded_at_the_target_is_a_result_finding() -> None:
    # RULES.md: the game ends the moment a side reaches the target, so the loser's score is below it. A record of
    # 130-121 (six-card, to 121) or 62-61 (five-card, to 61) cannot be a finished game, whoever it names.
    for winner in ("Alice", "Bob", None):
        outcome = replay(result_only(winner, 130, 121) if winner else validate_game(
            {"format": "cribstats/game/1", "id": "r2", "players": ["Alice", "Bob"],
             "result": {"scores": {"Alice": 130, "Bob": 121}}}))
        assert [(f.kind, f.phase, f.player) for f in outcome.findings] == [("result", "result", None)]
        assert "Alice at 130 and Bob at 121" in outcome.findings[0].message
        assert "reaches 121" in outcome.findings[0].message
    assert kinds(result_only("Alice", 62, 61, variant="five-card")) == [("result", "result", None)]
    assert kinds(result_only("Bob", 121, 125, giveaway=True)) == [("result", "result", None)]
    # one short of the target is a finished game
    assert kinds(result_only("Alice", 131, 120)) == []
    assert kinds(result_only("Alice", 61, 60, variant="five-card")) == []


def test_partners_at_the_target_with_their_opponents_is_one_finding_for_the_game() -> None:
    # N and S (one side) at 121, E and W (the other) at 121 too: one side only can have reached it
    game = validate_game({"format": "cribstats/game/1", "id": "p2", "variant": "four-player",
                          "players": ["N", "E", "S", "W"],
                          "result": {"winner": "N", "scores": {"N": 121, "E": 121, "S": 121, "W": 121}}})
    assert [(f.kind, f.player) for f in replay(game).findings] == [("result", None)]


def three_player_giveaway(winner: str | None, kim: int, lou: int, max_: int) -> Any:
    result: dict[str, Any] = {"scores": {"Kim": kim, "Lou": lou, "Max": max_}}
    if winner is not None:
        result["winner"] = winner
    return validate_game({"format": "cribstats/game/1", "id": "g3", "variant": "three-player", "giveaway": True,
                          "players": ["Kim", "Lou", "Max"], "result": result})


def test_a_three_player_giveaway_record_has_two_winners() -> None:
    # docs/rules.md, giveaway: the side that reaches the target loses and every other side wins. Kim reached 121,
    # so Lou and Max both won, whichever of them the record names (the contract has room for one winner) or if it
    # names none; the game points follow (2 each, no skunks in giveaway)
    for named in ("Lou", "Max", None):
        outcome = replay(three_player_giveaway(named, 121, 70, 100))
        assert (outcome.findings, sorted(outcome.winners)) == ([], ["Lou", "Max"])
        assert outcome.skunk_levels == {"Kim": 0, "Lou": 0, "Max": 0}


def test_a_three_player_giveaway_record_that_contradicts_itself_stands_as_recorded() -> None:
    # Kim at the target is named the winner: the record is judged wrong, and its winner stands as recorded
    outcome = replay(three_player_giveaway("Kim", 121, 70, 100))
    assert (kinds_of(outcome), outcome.winners) == ([("result", "result", None)], ("Kim",))
    # nobody at the target: the named winner alone (a finding says no side reached it)
    outcome = replay(three_player_giveaway("Lou", 90, 70, 100))
    assert (kinds_of(outcome), outcome.winners) == ([("result", "result", None)], ("Lou",))


def kinds_of(outcome: Any) -> list[tuple[str, str, str | None]]:
    return [(f.kind, f.phase, f.player) for f in outcome.findings]


def test_a_tally_row_won_short_of_the_target_counts_as_recorded_in_the_statistics(tmp_path: Path) -> None:
    """docs/exports.md: a decided game is one with a winner, a record naming him short of the target included.
    By hand: Bob 110, Carol 100 to 121 is Bob's win; Carol, at 100, is not skunked (91 or more), so it is worth
    2 game points (RULES.md); the winner's score counts as the target, so the spread is 121 - 100 = 21."""
    import json
    import subprocess
    import sys

    sheet = tmp_path / "short.csv"
    sheet.write_text("date,event,round,player1,player2,score1,score2\n2026-11-03,Club,1,Bob,Carol,110,100\n",
                     encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'short.db'}"
    cli = [sys.executable, "-m", "cribstats.cli"]
    subprocess.run([*cli, "import", "--db", db, "-q", str(sheet)], check=True, capture_output=True)
    out = subprocess.run([*cli, "stats", "--db", db, "--format", "json"], check=True, capture_output=True).stdout
    rows = {row["player"]: row for row in json.loads(out)}
    assert (rows["Bob"]["games"], rows["Bob"]["wins"], rows["Bob"]["game_points"], rows["Bob"]["spread"]) == (
        1, 1, 2, 21)
    assert (rows["Carol"]["games"], rows["Carol"]["losses"], rows["Carol"]["game_points"],
            rows["Carol"]["spread"]) == (1, 1, 0, -21)
