"""``cribstats simulate --out``: standard output, names it refuses, and messages without errno noise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.simulate import simulate_games


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["simulate", *args], env={"COLUMNS": "200"})


def test_out_dash_writes_json_lines_to_standard_output() -> None:
    result = run("-n", "3", "--seed", "4", "--out", "-")
    assert result.exit_code == 0, result.output
    logs = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert logs == [g.log for g in simulate_games(3, seed=4)]
    assert result.stderr.startswith("3 six-card games (") and "written to standard output" in result.stderr
    assert not Path("-").exists()


def test_a_suffix_cribstats_does_not_write_is_refused_not_made_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "games.csv"
    result = run("-n", "2", "--out", str(out))
    assert result.exit_code == 2
    assert result.stdout == "" and not out.exists()
    assert result.stderr.startswith(f"error: --out '{out}': cribstats writes .jsonl or .json logs, not .csv files")


def test_an_existing_file_as_a_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "night.jsonl").write_text("")
    out = tmp_path / "night.jsonl" / "more.jsonl"
    result = run("-n", "2", "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: --out '{out}': {tmp_path / 'night.jsonl'} is a file, not a folder"


def test_a_folder_with_a_dot_that_exists_is_written_into(tmp_path: Path) -> None:
    folder = tmp_path / "season.2026"
    folder.mkdir()
    result = run("-n", "2", "--out", str(folder))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == [f"{g.log['id']}.json" for g in simulate_games(2)]


def test_an_unwritable_expected_file_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "e.txt"
    result = run("-n", "1", "--out", str(tmp_path / "g.jsonl"), "--expected", str(missing))
    assert result.exit_code == 1
    assert result.stderr.strip() == f"error: {missing}: cannot write: No such file or directory"
    assert list(tmp_path.iterdir()) == []  # the games' file is not left half made either


def test_expected_and_out_cannot_be_one_file(tmp_path: Path) -> None:
    out = tmp_path / "night.jsonl"
    result = run("-n", "2", "--mistakes", "0.1", "--out", str(out), "--expected", str(out))
    assert result.exit_code == 2 and not out.exists()
    assert "--expected names the same file" in result.stderr


def test_one_of_each_is_said_in_the_singular(tmp_path: Path) -> None:
    """One night of one game, one match, one game: the summaries count them as a person would."""
    night = CliRunner().invoke(app, ["simulate-nights", "-n", "1", "--players", "Ann,Ben", "--games-each", "1",
                                     "--out", str(tmp_path / "night.jsonl")])
    assert night.exit_code == 0 and night.stderr.startswith("1 night (1 game) written to ")
    match = CliRunner().invoke(app, ["simulate-matches", "-n", "1", "--out", str(tmp_path / "m.jsonl")])
    games = len(orjson.loads((tmp_path / "m.jsonl").read_bytes())["games"])
    assert match.exit_code == 0 and match.stderr.startswith(f"1 match ({games} games) written to ")
    one = run("-n", "1", "--out", str(tmp_path / "one.jsonl"))
    deals = len(orjson.loads((tmp_path / "one.jsonl").read_bytes())["deals"])
    assert one.exit_code == 0 and one.stderr.startswith(f"1 six-card game ({deals} deals) written to ")
