"""``cribstats simulate-matches``, ``simulate-nights`` and the match part of ``cribstats audit``."""

from __future__ import annotations

import csv
from pathlib import Path

import orjson
from typer.testing import CliRunner

from cribstats.cli.app import app


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_simulated_matches_are_played_to_their_rules_and_audit_clean(tmp_path: Path) -> None:
    out = tmp_path / "playoffs.jsonl"
    code, _out, err = run("simulate-matches", "-n", "3", "--players", "Ann,Ben,Cat", "--rules", "best-of-5",
                          "--seed", "4", "--event", "Playoffs", "--date", "2026-11-21", "--out", str(out))
    assert code == 0, err
    records = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    for record in records:
        wins = [g["result"]["winner"] for g in record["games"]]
        winner = record["result"]["winner"]
        # best of five: the winner's third win is the last game; the other side has at most two
        assert wins.count(winner) == 3 and wins[-1] == winner and len(wins) - 3 <= 2
        for before, after in zip(record["games"], record["games"][1:], strict=False):
            loser = next(p for p in before["players"] if p != before["result"]["winner"])
            assert after["deals"][0]["dealer"] == loser
    code, stdout, _err = run("audit", "--json", str(out))
    assert (code, stdout) == (0, "")


def test_a_match_ended_by_a_triple_skunk_in_the_audit_table_and_json(tmp_path: Path) -> None:
    path = Path(__file__).resolve().parent.parent / "sample_logs" / "matches" / "points-to-7.jsonl"
    code, stdout, _err = run("audit", "--json", str(path))
    lines = [orjson.loads(line) for line in stdout.splitlines()]
    assert code == 1
    assert [(f["kind"], f["game"], f["match"]) for f in lines] == [
        ("match-after-end", "cup-2026-final-g4", "cup-2026-final")]
    code, table, _err = run("audit", str(path))
    assert code == 1 and "match cup-2026-final" in table and "matches judged" in table


def test_simulated_nights_and_their_scorecards(tmp_path: Path) -> None:
    games, cards = tmp_path / "night.jsonl", tmp_path / "cards.csv"
    code, _out, err = run("simulate-nights", "-n", "2", "--players", "Ann,Ben,Cat,Dan", "--games-each", "3",
                          "--seed", "8", "--out", str(games), "--scorecards", str(cards), "--disagree", "1")
    assert code == 0, err
    logs = [orjson.loads(line) for line in games.read_bytes().splitlines()]
    assert len(logs) == 2 * 3 * 2  # two nights, three rounds, two tables
    per_night: dict[str, dict[str, int]] = {}
    for log in logs:
        for p in log["players"]:
            per_night.setdefault(log["date"], {}).setdefault(p, 0)
            per_night[log["date"]][p] += 1
    assert all(counts == dict.fromkeys(("Ann", "Ben", "Cat", "Dan"), 3) for counts in per_night.values())
    with open(cards, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * len(logs)
    code, stdout, _err = run("audit", "--json", str(cards))
    assert code == 1
    assert [orjson.loads(line)["kind"] for line in stdout.splitlines()] == ["scorecard"]


def test_bad_options_are_usage_errors(tmp_path: Path) -> None:
    assert run("simulate-matches", "-n", "1", "--out", str(tmp_path / "m.csv"))[0] == 2
    matches = str(tmp_path / "m.jsonl")
    assert run("simulate-matches", "-n", "1", "--rules", "best-of-4", "--out", matches)[0] == 2
    nights = str(tmp_path / "n.jsonl")
    assert run("simulate-nights", "-n", "1", "--players", "Ann,Ben,Cat", "--out", nights)[0] == 2
    code, stdout, _err = run("simulate-nights", "--help")
    assert code == 0 and "Examples" in stdout
