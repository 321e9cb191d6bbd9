"""A game is a game of one match: a match record that lists a game another stored match already holds is refused
with its place, as the other input errors of a match record are, and the game counts once, for its own match
(on SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.importer import import_paths


def _game(key: str, winner: str, loser_score: int) -> dict[str, object]:
    loser = "Dan" if winner == "Ivy" else "Ivy"
    return {"format": "cribstats/game/1", "id": key, "players": ["Ivy", "Dan"],
            "result": {"winner": winner, "scores": {winner: 121, loser: loser_score}}}  # fmt: skip


FINAL = {"format": "cribstats/match/1", "id": "final", "players": ["Ivy", "Dan"], "rules": "best-of-3",
         "games": [_game("f1", "Ivy", 95), _game("f2", "Dan", 100), _game("f3", "Ivy", 99)]}  # fmt: skip
# the exhibition the day after, first to one game, listing the final's first game by mistake
EXHIBITION = {"format": "cribstats/match/1", "id": "exhibition", "players": ["Ivy", "Dan"],
              "rules": {"first_to": 1, "count": "games"}, "games": ["f1"]}  # fmt: skip


def test_a_record_listing_another_matchs_game_is_refused(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    (tmp_path / "final.json").write_text(json.dumps(FINAL))
    assert import_paths([tmp_path / "final.json"], store).complete
    (tmp_path / "exhibition.json").write_text(json.dumps(EXHIBITION))
    done = CliRunner().invoke(app, ["import", str(tmp_path / "exhibition.json"), "--db", db_url])
    assert done.exit_code == 2
    said = " ".join(done.stderr.split())
    assert "exhibition.json" in said and "games[0]" in said
    assert "'f1' is already game 1 of match 'final'" in said
    matches = json.loads(CliRunner().invoke(app, ["matches", "--db", db_url, "--format", "json"]).stdout)
    assert [(m["match"], m["winner"], m["games"]) for m in matches] == [("final", "Ivy", 3)]
    head = json.loads(CliRunner().invoke(app, ["head-to-head", "Ivy", "--db", db_url, "--format", "json"]).stdout)
    assert [(r["opponent"], r["matches"], r["matches_won"]) for r in head] == [("Dan", 1, 1)]


def test_the_audit_refuses_a_game_listed_by_two_records(tmp_path: Path) -> None:
    (tmp_path / "cup.jsonl").write_text(json.dumps(FINAL) + "\n" + json.dumps(EXHIBITION) + "\n")
    done = CliRunner().invoke(app, ["audit", str(tmp_path / "cup.jsonl")])
    assert done.exit_code == 2
    assert "'f1' is already game 1 of match 'final'" in " ".join(done.stderr.split())
