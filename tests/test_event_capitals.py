"""An event written in capitals with letters beyond ASCII (ÉCOLE NIGHT, ÖREBRO OPEN) is found by `--event`
however it is typed, case ignored, on SQLite as on PostgreSQL: every command that takes `--event` (and the
service's `event` parameter, which calls the same functions) reads the same games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.importer import import_paths

# Ann beats Bob 121-100 (+21, 2 game points) and Cat 121-80 (+41, a skunk: 3); a week later Bob beats Ann 121-111
SHEET = """date,event,round,player1,player2,score1,score2
2026-11-25,ÉCOLE ÖREBRO,1,Ann,Bob,121,100
2026-11-25,ÉCOLE ÖREBRO,2,Ann,Cat,121,80
2026-12-02,ÉCOLE ÖREBRO,1,Bob,Ann,121,111
"""
TYPED = ["ÉCOLE ÖREBRO", "école örebro", "École Örebro"]


def _json(*args: str) -> list[dict[str, object]]:
    done = CliRunner().invoke(app, [*args, "--format", "json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


@pytest.fixture
def club(db_url: str, store: sa.Engine, tmp_path: Path) -> str:
    (tmp_path / "ecole.csv").write_text(SHEET, encoding="utf-8")
    assert import_paths([tmp_path / "ecole.csv"], store).complete
    return db_url


@pytest.mark.parametrize("typed", TYPED)
def test_the_event_is_found_however_its_capitals_are_typed(club: str, typed: str) -> None:
    db = ["--db", club, "--event", typed]
    standings = _json("standings", *db)
    assert [(r["player"], r["games"], r["game_points"], r["spread"]) for r in standings] == [
        ("Ann", 3, 5, 52), ("Bob", 2, 2, -11), ("Cat", 1, 0, -41)]  # fmt: skip
    assert {r["player"]: r["games"] for r in _json("stats", *db)} == {"Ann": 3, "Bob": 2, "Cat": 1}
    night = _json("night", *db, "--date", "2026-11-25")
    assert [(r["player"], r["card"]) for r in night] == [
        ("Ann", "5/2 +62"), ("Bob", "0/0 -21"), ("Cat", "0/0 -41")]  # fmt: skip
    assert [r["player"] for r in _json("season", *db)] == ["Ann", "Bob", "Cat"]
    assert len(_json("games", *db)) == 3
    assert {(r["player"], r["opponent"]) for r in _json("head-to-head", *db)} >= {("Ann", "Bob"), ("Ann", "Cat")}
    drawn = CliRunner().invoke(app, ["bracket", *db])
    assert drawn.exit_code == 0 and "3 entrants" in " ".join(drawn.stdout.split())
