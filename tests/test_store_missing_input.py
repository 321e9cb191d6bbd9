"""A path given to ``cribstats import`` that does not exist is reported ("no such file") and makes the import
incomplete (exit 2), but was not read: it is not among the files read, and the import history has no row for it.
A file that exists but cannot be read as a game log is still a file read, with its refusal in the history."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths


def game(key: str) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "id": key, "players": ["Ann", "Bo"],
            "result": {"winner": "Ann", "scores": {"Ann": 121, "Bo": 100}}}


def history(url: str) -> list[tuple[str, int, int]]:
    """Each import run's file, games imported and refused, in order."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            query = sa.text("SELECT file, games_imported, games_refused FROM import_run ORDER BY id")
            return [tuple(r) for r in conn.execute(query)]
    finally:
        engine.dispose()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_path_that_does_not_exist_is_refused_but_not_read(db_url: str, tmp_path: Path, workers: int) -> None:
    nope = tmp_path / "nope.jsonl"
    good = write_jsonl(tmp_path / "good.jsonl", [game("g1"), game("g2")])
    engine = make_engine(db_url)
    try:
        summary = import_paths([nope, good, tmp_path / "gone.jsonl"], engine, workers=workers)
    finally:
        engine.dispose()
    assert (summary.files, summary.imported, summary.refused_count, summary.complete) == (1, 2, 2, False)
    gone = tmp_path / "gone.jsonl"
    assert [str(r) for r in summary.refused] == [f"{nope}: no such file", f"{gone}: no such file"]
    assert history(db_url) == [(str(good), 2, 0)]  # the missing paths counted against no file


def test_the_command_says_so_and_counts_no_file_read(sqlite_url: str, tmp_path: Path) -> None:
    nope = tmp_path / "nope.jsonl"
    result = CliRunner().invoke(app, ["import", "--db", sqlite_url, str(nope)], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert f"{nope}: no such file" in result.stderr
    assert "files read             │ 0" in result.stdout
    assert history(sqlite_url) == []


def test_a_file_that_exists_but_is_not_a_game_log_is_still_a_file_read(sqlite_url: str, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a log\n")
    engine = make_engine(sqlite_url)
    try:
        summary = import_paths([notes], engine)
    finally:
        engine.dispose()
    assert (summary.files, summary.refused_count) == (1, 1)
    assert history(sqlite_url) == [(str(notes), 0, 1)]
