"""A match's sides and its games' players are one player by the player key (case and spacing folded, as the store
knows players: ``cribstats.names.name_key``): a record that says Alice and Bob and a game that says alice and bob,
``Mary  Ann`` and ``Mary Ann``, or a result naming ``ALICE`` are one match, for the audit and the import alike.
Real commands on real SQLite files; every expected value is worked out by hand from the games written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.match.judge import MatchGame, judge_match
from cribstats.match.model import MatchRules, same_sides


def _game(game_id: str, winner: str, loser: str, **more: Any) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "id": game_id, "players": [winner, loser],
            "result": {"winner": winner, "scores": {winner: 121, loser: 99}}, **more}


def _record(match_id: str, sides: list[str], games: list[Any], result: dict[str, Any]) -> dict[str, Any]:
    return {"format": "cribstats/match/1", "id": match_id, "players": sides, "games": games, "result": result}


CASES = {
    # the record's sides Alice and Bob, its first game's alice and bob: Alice wins both games, 2-0 as recorded
    "case": [_record("mG3", ["Alice", "Bob"], [_game("mG3-1", "alice", "bob"), _game("mG3-2", "Alice", "Bob")],
                     {"winner": "Alice", "points": {"Alice": 2, "Bob": 0}})],
    "spacing": [_record("mG4", ["Mary Ann", "Bob"],
                        [_game("mG4-1", "Mary  Ann", "Bob"), _game("mG4-2", "Mary Ann", "Bob")],
                        {"winner": "Mary Ann", "points": {"Mary Ann": 2, "Bob": 0}})],
    # no record: the match is its games', the sides those of the first game
    "games only": [_game("mG5-1", "Alice", "Bob", match="mG5", match_game=1),
                   _game("mG5-2", "alice", "BOB", match="mG5", match_game=2)],
    "result": [_record("mG6", ["Alice", "Bob"], [_game("mG6-1", "Alice", "Bob"), _game("mG6-2", "Alice", "Bob")],
                       {"winner": "ALICE", "points": {"alice": 2, "BOB": 0}})],
}
WINNER = {"case": "Alice", "spacing": "Mary Ann", "games only": "Alice", "result": "Alice"}


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("case", list(CASES))
def test_names_apart_in_case_or_spacing_are_one_side(tmp_path: Path, case: str) -> None:
    path = tmp_path / "match.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in CASES[case]))
    audited = _run("audit", str(path), "--json")
    # had a game's win counted for nobody, the match would be 1-0 and unfinished: a match-result finding
    assert (audited.exit_code, audited.stdout, audited.stderr) == (0, "", "")
    db = f"sqlite:///{tmp_path / 'club.db'}"
    done = _run("import", str(path), "--db", db)
    assert done.exit_code == 0, done.output
    matches = json.loads(_run("matches", "--db", db, "--format", "json").stdout)
    assert [(m["score"], m["winner"], m["games"], m["findings"]) for m in matches] == [("2-0", WINNER[case], 2, 0)]


def test_a_record_whose_two_sides_are_one_player_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_text(json.dumps(_record("m", ["Alice", "alice "], [], {})) + "\n")
    for args in (["audit", str(path)], ["import", str(path), "--db", f"sqlite:///{tmp_path / 'club.db'}"]):
        done = _run(*args)
        assert done.exit_code == 2
        assert ("line 1: players: players 'Alice' and 'alice' differ only in case or spacing: they would be one "
                "player") in " ".join(done.stderr.split())


def test_the_judge_counts_a_game_by_the_player_key_and_finds_in_the_sides_spelling() -> None:
    sides = (("Mary Ann",), ("Bob",))
    # game 1 won by Mary Ann, who dealt first; by the loser rule Bob deals game 2, but "mary  ann" does
    games = [MatchGame(1, "g1", ("Mary Ann", "Bob"), "six-card", ("mary ann",), 0, "Mary Ann"),
             MatchGame(2, "g2", ("bob", "mary  ann"), "six-card", ("MARY ANN",), 0, "mary  ann")]
    outcome = judge_match("m", sides, MatchRules(), games)
    assert (outcome.points, outcome.winner_side, outcome.ended_after_game) == ([2, 0], 0, 2)
    assert [(f.kind, f.player) for f in outcome.findings] == [("match-dealer", "Mary Ann")]
    assert same_sides((("Al", "Cy"), ("Bo", "Di")), ["bo", "AL", "di", "cy"])  # partnerships: seats 1 and 3
