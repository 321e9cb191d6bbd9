"""A list in CSV and Parquet is the list JSON gives: Parquet has list columns, and a CSV cell holds the list as a
JSON array. Joined into text (``"Bob, Smith, John"``), the players of a game with a name holding a comma could not
be told apart, nor whose score is whose. Names here hold commas, quotes, semicolons and brackets."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app

SMITH = "Smith, John"
NAMES = (SMITH, "Bob", 'Ann "Red" Lee', "O'Neil; Pat", "[Zed]", "=SUM(A1), B", "Ed, [Jr.]; \"Ted\"")
LISTS = {"games": ("players", "scores", "winners"), "players": ("aliases",)}


def run(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result


def game(key: str, one: str, two: str, score: int) -> dict[str, Any]:
    """A result-only game that ``one`` won 121 to ``score``."""
    return {"format": "cribstats/game/1", "id": key, "event": "-Open, night", "date": "2026-04-07",
            "players": [one, two], "result": {"winner": one, "scores": {one: 121, two: score}}}


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Games between the awkward names; two of them renamed since, so that aliases hold them too."""
    folder = tmp_path_factory.mktemp("lists")
    url = f"sqlite:///{folder / 'club.db'}"
    logs = [game("g1", SMITH, "Bob", 95), game("g2", "Bob", SMITH, 88), game("g3", NAMES[2], NAMES[3], 60),
            game("g4", NAMES[4], NAMES[5], 120), game("g5", NAMES[6], "Bob", 30)]
    run("import", "-q", "--db", url, str(write_jsonl(folder / "night.jsonl", logs)))
    run("players", "rename", "--db", url, NAMES[3], "Pat, the second")
    run("players", "rename", "--db", url, "Pat, the second", "Pat [2]")
    return url


def as_csv(url: str, command: str) -> list[dict[str, Any]]:
    """The rows of the command's CSV, read back with csv and json: each list cell a JSON array."""
    rows = list(csv.DictReader(io.StringIO(run(command, "--db", url, "--format", "csv").stdout)))
    for row in rows:
        for column in LISTS[command]:
            assert row[column].startswith("["), row[column]  # never a formula: no apostrophe before it
            row[column] = json.loads(row[column])
    return rows


def as_json(url: str, command: str) -> list[dict[str, Any]]:
    return json.loads(run(command, "--db", url, "--format", "json").stdout)


def as_parquet(url: str, command: str, folder: Path) -> list[dict[str, Any]]:
    out = folder / f"{command}.parquet"
    run(command, "--db", url, "--out", str(out))
    return pl.read_parquet(out).to_dicts()


@pytest.mark.parametrize("command", sorted(LISTS))
def test_csv_and_parquet_lists_are_the_json_lists(club: str, command: str, tmp_path: Path) -> None:
    wanted = [{c: row[c] for c in LISTS[command]} for row in as_json(club, command)]
    assert wanted and all(isinstance(row[c], list) for row in wanted for c in LISTS[command])
    assert [{c: row[c] for c in LISTS[command]} for row in as_csv(club, command)] == wanted
    assert [{c: row[c] for c in LISTS[command]} for row in as_parquet(club, command, tmp_path)] == wanted


def test_the_lists_hold_the_names_whole(club: str) -> None:
    games = {row["game"]: row for row in as_csv(club, "games")}
    g1 = games["g1"]
    assert (g1["players"], g1["scores"], g1["winners"]) == ([SMITH, "Bob"], [121, 95], [SMITH])
    assert games["g2"]["winners"] == ["Bob"] and games["g2"]["scores"] == [121, 88]
    assert [games[g]["players"] for g in ("g3", "g4", "g5")] == [["Ann \"Red\" Lee", "Pat [2]"],
                                                                 ["[Zed]", "=SUM(A1), B"], [NAMES[6], "Bob"]]
    aliases = {row["name"]: row["aliases"] for row in as_csv(club, "players")}
    assert aliases["Pat [2]"] == ["O'Neil; Pat", "Pat, the second"] and aliases[SMITH] == []


def test_a_text_cell_still_gets_the_formula_guard(club: str, tmp_path: Path) -> None:
    games = as_csv(club, "games")
    assert {row["event"] for row in games} == {"'-Open, night"}  # text: the apostrophe, as before
    assert {row["event"] for row in as_parquet(club, "games", tmp_path)} == {"-Open, night"}  # exact


def test_a_text_cell_gives_back_its_value_without_the_one_leading_apostrophe(tmp_path: Path) -> None:
    # a name that begins with the apostrophe the guard writes, beside the name the guard writes it for: "=X" is
    # written "'=X", so "'=X" must be written "''=X", or the two names would be one cell
    names = ("'=X", "=X", "'Tis Kate", "Ann")
    path = tmp_path / "guarded.jsonl"
    write_jsonl(path, [game("g1", names[0], names[1], 100), game("g2", names[2], names[3], 90)])
    db = f"sqlite:///{tmp_path / 'guarded.db'}"
    run("import", str(path), "--db", db, "-q")
    stored = sorted(row["player"] for row in json.loads(run("stats", "--db", db, "--format", "json").stdout))
    sheet = run("stats", "--db", db, "--format", "csv").stdout
    cells = [row["player"] for row in csv.DictReader(io.StringIO(sheet))]
    assert len(set(cells)) == len(names)
    assert sorted(cell[1:] if cell.startswith("'") else cell for cell in cells) == stored == sorted(names)
