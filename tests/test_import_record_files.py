"""A file whose inputs are all records (a scorecard sheet whose only game has one card, a match record naming
stored games) is still a file the import read: it is counted in "files read" and has its line in
`cribstats imports`, as a file of games does (real SQLite files)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app

CARDS = "date,event,round,player,opponent,game_points,spread\n2026-11-21,Paper Night,1,Zoë,Bob,2,+30\n"
GAME = {"format": "cribstats/game/1", "id": "final-g1", "players": ["Ivy", "Dan"],
        "result": {"winner": "Ivy", "scores": {"Ivy": 121, "Dan": 95}}}  # fmt: skip
RECORD = {"format": "cribstats/match/1", "id": "final", "players": ["Ivy", "Dan"], "rules": "best-of-3",
          "games": ["final-g1"]}  # fmt: skip


def _imports(db: str) -> list[str]:
    done = CliRunner().invoke(app, ["imports", "--db", db, "--format", "json"])
    assert done.exit_code == 0, done.output
    return [Path(row["file"]).name for row in json.loads(done.stdout)]


def test_a_sheet_of_one_card_is_a_file_read(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    (tmp_path / "cards.csv").write_text(CARDS, encoding="utf-8")
    done = CliRunner().invoke(app, ["import", str(tmp_path / "cards.csv"), "--db", db])
    assert done.exit_code == 0, done.output
    assert "files read │ 1" in " ".join(done.stdout.split())
    assert _imports(db) == ["cards.csv"]


def test_a_file_of_one_match_record_is_a_file_read(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    (tmp_path / "game.json").write_text(json.dumps(GAME))
    (tmp_path / "record.json").write_text(json.dumps(RECORD))
    assert CliRunner().invoke(app, ["import", str(tmp_path / "game.json"), "--db", db]).exit_code == 0
    done = CliRunner().invoke(app, ["import", str(tmp_path / "record.json"), "--db", db])
    assert done.exit_code == 0, done.output
    said = " ".join(done.stdout.split())
    assert "files read │ 1" in said and "match records stored │ 1" in said
    assert _imports(db) == ["game.json", "record.json"]
