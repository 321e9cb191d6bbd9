"""A file option given a blank name (``--out ""``) is refused before any work, exit 2, naming the option: the
empty name is no file. Before, the store commands said ": cannot write: Device or resource busy" (exit 1) and
``simulate`` wrote its games into the current folder. Real commands on a real SQLite file; the current folder
(a fresh one) must be left empty."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_logs" / "club-night.jsonl"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'club.db'}"
    assert CliRunner().invoke(app, ["import", str(SAMPLE), "--db", url]).exit_code == 0
    return url


@pytest.mark.parametrize(("args", "flag"), [
    (["games", "--out", ""], "--out"),
    (["stats", "-o", " "], "--out"),
    (["standings", "--format", "csv", "--out", ""], "--out"),
    (["report", "--out", ""], "--out"),
    (["chart", "skunks", "--out", ""], "--out"),
    (["discards", "--out", ""], "--out"),
    (["simulate", "-n", "1", "--out", ""], "--out"),
    (["simulate", "-n", "1", "--out", "games.jsonl", "--expected", ""], "--expected"),
    (["simulate-matches", "-n", "1", "--out", ""], "--out"),
    (["simulate-nights", "-n", "1", "--out", "night.jsonl", "--scorecards", ""], "--scorecards"),
])  # fmt: skip
def test_a_blank_file_name_is_refused_before_any_work(args: list[str], flag: str, db: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = ["--db", db] if not args[0].startswith("simulate") else []
    result = CliRunner().invoke(app, [*args, *store])
    blank = args[args.index(flag if flag in args else "-o") + 1]
    assert result.exit_code == 2, result.output
    assert f"error: {flag} '{blank}': name the file to write" in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []
