"""Whole numbers beyond what the store holds (a signed 64-bit integer) are refused at their place.

A tally sheet's cells and a match rule's shorthand are read as Python integers, which have no bound; the store's
columns and the canonical JSON text (and so the content hash) hold 64 bits. Such a number is refused by the model
with its place, the command exits 2 and stores no such number (a refused match record's games are still games),
and the audit of the rest goes on.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from cribstats.gamelog import GameLogError, validate_game
from cribstats.gamelog.fast import convert_game

BEYOND = 2**63  # one more than the largest signed 64-bit integer
LARGEST = 2**63 - 1
HEADER = "date,event,round,player1,player2,score1,score2,first_dealer\n"
MATCHES = Path(__file__).parents[1] / "sample_logs" / "matches" / "playoffs-best-of-3.jsonl"


def cribstats(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from cribstats.cli.app import main; main()", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, timeout=120)


def result_only(score: int) -> dict[str, object]:
    return {"format": "cribstats/game/1", "players": ["Alice", "Bob"],
            "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": score}}}


@pytest.mark.parametrize(("score", "accepted"), [(LARGEST, True), (BEYOND, False), (-(2**63) - 1, False)])
def test_a_score_is_taken_up_to_64_bits_by_both_readers(score: int, accepted: bool) -> None:
    data = result_only(score)
    fast = convert_game(copy.deepcopy(data))
    if accepted:
        game = validate_game(data)
        assert game.result is not None and game.result.scores == {"Alice": 121, "Bob": score}
        assert fast is not None and fast.result is not None and fast.result.scores == game.result.scores
    else:
        assert fast is None  # the fast reader leaves it to the model, which refuses it at its place
        bound = "-9223372036854775808 or more" if score < 0 else "9223372036854775807 or less"
        with pytest.raises(GameLogError, match=rf"^result\.scores\.Bob: must be {bound}, not {score}$"):
            validate_game(data)


def test_a_tally_sheet_with_a_score_beyond_64_bits_is_refused_at_its_line(tmp_path: Path) -> None:
    sheet = tmp_path / "ladder.csv"
    sheet.write_text(HEADER + "2026-09-08,Ladder,1,Frank,Irene,118,121,Frank\n"
                     f"2026-09-08,Ladder,1,Grace,Alice,72,{BEYOND},Grace\n", encoding="utf-8")
    audit = cribstats("audit", "--json", str(sheet), cwd=tmp_path)
    assert audit.returncode == 2
    assert "Traceback" not in audit.stderr
    assert "ladder.csv:line 3: result.scores.Alice:" in audit.stderr
    imported = cribstats("import", "--db", "sqlite:///club.db", str(sheet), cwd=tmp_path)
    assert imported.returncode == 2, imported.stderr
    assert "Traceback" not in imported.stderr and "ladder.csv:line 3" in imported.stderr
    games = cribstats("games", "--db", "sqlite:///club.db", "--format", "json", cwd=tmp_path)
    assert [g["players"] for g in orjson.loads(games.stdout)] == [["Frank", "Irene"]]  # the good row is kept


def test_a_match_rule_beyond_64_bits_is_refused_and_its_games_kept(tmp_path: Path) -> None:
    record = orjson.loads(MATCHES.read_bytes().splitlines()[0])
    record["rules"] = f"points-{BEYOND}"
    path = tmp_path / "match.jsonl"
    path.write_bytes(orjson.dumps(record) + b"\n")
    imported = cribstats("import", "--db", "sqlite:///club.db", str(path), cwd=tmp_path)
    assert imported.returncode == 2
    assert "Traceback" not in imported.stderr
    assert "match.jsonl:line 1: rules.first_to:" in imported.stderr
    # the record is refused; each of its games is still a game (docs/match.md), and no number beyond 64 bits
    # reaches the store
    games = cribstats("games", "--db", "sqlite:///club.db", "--format", "json", cwd=tmp_path)
    assert sorted(g["game"] for g in orjson.loads(games.stdout)) == sorted(g["id"] for g in record["games"])
    matches = cribstats("matches", "--db", "sqlite:///club.db", "--format", "json", cwd=tmp_path)
    assert [m["rules"] for m in orjson.loads(matches.stdout)] == ["first to 2 games"]
