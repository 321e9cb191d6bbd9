"""``--out FILE`` and ``--format``: without ``--format`` the file's extension (.csv, .json, .parquet) chooses the
format; a ``--format`` the extension contradicts is refused (exit 2, one line naming both, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from databases import tally_store
from typer.testing import CliRunner

from cribstats.cli.app import app

TALLY = """date,event,round,player1,player2,score1,score2
2026-03-03,Club,1,Ann,Ben,121,100
2026-03-03,Club,2,Ann,Cy,121,85
2026-03-10,Club,1,Ben,Ann,121,60
"""
# every command that writes a table through --format/--out, with the options it needs
COMMANDS = {
    "stats": [], "standings": [], "games": [], "players": [], "imports": [], "season": [], "head-to-head": [],
    "rating": [], "matches": [], "discards": [], "night": ["--event", "Club", "--date", "2026-03-03"],
}  # fmt: skip
READERS = {"csv": pl.read_csv, "parquet": pl.read_parquet}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return tally_store(tmp_path_factory.mktemp("formats"), TALLY)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def args_of(command: str, db: str) -> list[str]:
    return [command, *COMMANDS[command], "--db", db]


@pytest.mark.parametrize("suffix", ["csv", "json", "parquet", "CSV"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_extension_chooses_the_format(db: str, tmp_path: Path, command: str, suffix: str) -> None:
    out = tmp_path / f"{command}.{suffix}"
    code, stdout, err = run(*args_of(command, db), "--out", str(out))
    assert (code, stdout) == (0, ""), err
    assert f"wrote {out}" in err.splitlines()
    data = out.read_bytes()
    if suffix == "json":
        assert isinstance(json.loads(data), list)
    else:
        assert "─" not in data.decode("utf-8", "replace")  # no terminal table
        frame = READERS[suffix.lower()](out)
        assert frame.width > 1


def test_the_same_as_format_given(db: str, tmp_path: Path) -> None:
    for fmt in ("csv", "json", "parquet"):
        by_name, given = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
        assert run("games", "--db", db, "--out", str(by_name))[0] == 0
        assert run("games", "--db", db, "--format", fmt, "--out", str(given))[0] == 0
        assert by_name.read_bytes() == given.read_bytes()
    assert json.loads((tmp_path / "a.json").read_text())[0]["players"] == ["Ann", "Ben"]  # the games' own JSON


@pytest.mark.parametrize(("fmt", "suffix", "named"), [
    ("parquet", "csv", "csv"), ("table", "csv", "csv"), ("csv", "json", "json"), ("json", "parquet", "parquet"),
    ("table", "JSON", "json"),
])  # fmt: skip
@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("format_first", [True, False], ids=["format-first", "out-first"])
def test_a_format_the_extension_contradicts_is_refused(db: str, tmp_path: Path, command: str, fmt: str,
                                                       suffix: str, named: str, format_first: bool) -> None:
    out = tmp_path / f"x.{suffix}"
    given, to = ["--format", fmt], ["--out", str(out)]
    code, stdout, err = run(*args_of(command, db), *(given + to if format_first else to + given))
    assert (code, stdout) == (2, "")
    assert err.splitlines() == [
        f"error: --format {fmt} and --out {out} disagree (a .{suffix} file is written as {named}): leave out "
        "--format, or change the file's extension"
    ]
    assert not out.exists()


def test_a_refusal_leaves_the_old_file(db: str, tmp_path: Path) -> None:
    out = tmp_path / "stats.csv"
    out.write_text("the old file\n")
    assert run("stats", "--db", db, "-f", "parquet", "-o", str(out))[0] == 2
    assert out.read_text() == "the old file\n"


def test_analyse_and_discard_table_follow_the_extension_too(tmp_path: Path) -> None:
    hand = ["analyse", "AS", "2H", "3S", "4H", "5D", "6C"]
    assert run(*hand, "--out", str(tmp_path / "a.json"))[0] == 0
    assert json.loads((tmp_path / "a.json").read_text())[0]["keep"]  # the ranked discards' own JSON
    assert run(*hand, "--out", str(tmp_path / "a.csv"))[0] == 0
    assert pl.read_csv(tmp_path / "a.csv").columns == ["rank", "keep", "throw", "hand", "crib", "expected"]
    assert run("discard-table", "--out", str(tmp_path / "t.parquet"))[0] == 0
    assert pl.read_parquet(tmp_path / "t.parquet").columns == ["pair", "suited", "dealer", "pone"]
    assert run(*hand, "-f", "json", "--out", str(tmp_path / "b.csv"))[0] == 2
    assert not (tmp_path / "b.csv").exists()


def test_another_extension_gets_the_table_or_the_format_given(db: str, tmp_path: Path) -> None:
    for name in ("stats.txt", "stats", "stats.table"):
        out = tmp_path / name
        assert run("stats", "--db", db, "--out", str(out))[0] == 0
        assert out.read_text().startswith("Results (all games)")
    out = tmp_path / "stats.dat"
    assert run("stats", "--db", db, "--format", "csv", "--out", str(out))[0] == 0
    assert pl.read_csv(out)["player"].to_list() == ["Ann", "Ben", "Cy"]
    code, stdout, _ = run("stats", "--db", db)  # no file: the table, as ever
    assert code == 0 and stdout.startswith("Results (all games)")
