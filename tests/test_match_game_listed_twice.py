"""A game counts once in a match: a match record whose ``games`` name one game twice (by id, or the same game
written twice inline) is refused at the repeated entry, by the import and the audit alike, and nothing of the
record is stored; the match then stands on its games, as for any refused record. Real commands on real SQLite
files; every expected value is worked out by hand from the games written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cribstats.cli.app import app

X1 = {"format": "cribstats/game/1", "id": "x1", "players": ["Alice", "Bob"],
      "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 100}}}  # fmt: skip


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _said(result: Any) -> str:
    return " ".join(result.stderr.split())


def _json(db: str, *args: str) -> Any:
    done = _run(*args, "--db", db, "--format", "json")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_a_record_listing_a_stored_game_twice_is_refused_and_stores_no_match(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    games, record = tmp_path / "games.jsonl", tmp_path / "record.jsonl"
    games.write_text(json.dumps(X1) + "\n")
    # one game won by Alice, listed twice: were it counted twice, Alice would win the match 2-0 from it
    record.write_text(json.dumps({"format": "cribstats/match/1", "id": "mX", "players": ["Alice", "Bob"],
                                  "games": ["x1", "x1"], "event": "Dup", "date": "2026-08-01",
                                  "result": {"winner": "Alice", "points": {"Alice": 2, "Bob": 0}}}) + "\n")
    assert _run("import", str(games), "--db", db).exit_code == 0
    done = _run("import", str(record), "--db", db)
    assert done.exit_code == 2
    assert (f"{record}:line 1: games[1]: game 'x1' is game 1 of this match already: a game counts once in a "
            "match") in _said(done)
    assert _json(db, "matches") == []  # x1 carries no match id: without the record there is no match
    audited = _run("audit", str(games), str(record), "--json")
    assert audited.exit_code == 2
    assert "games[1]: game 'x1' is game 1 of this match already" in _said(audited)
    assert audited.stdout == ""  # the record refused, no match is judged: no finding


def test_one_game_written_twice_in_a_record_is_refused_and_read_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    path = tmp_path / "final.jsonl"
    game = {**X1, "id": "e1-1"}
    path.write_text(json.dumps({"format": "cribstats/match/1", "id": "e1", "players": ["Alice", "Bob"],
                                "games": [game, game], "result": {"winner": "Alice"}}) + "\n")
    done = _run("import", str(path), "--db", db)
    assert done.exit_code == 2
    said = _said(done)
    assert f"{path}:line 1: games[1]: game 'e1-1' is game 1 of this match already" in said
    assert "different content" not in said  # the same game written again is no conflict
    # the record refused, its first game is still game 1 of e1: a match known from its games, best of three,
    # Alice one game up, unfinished, and no recorded result
    matches = _json(db, "matches")
    assert [(m["match"], m["score"], m["winner"], m["games"], m["recorded_winner"]) for m in matches] == [
        ("e1", "1-0", None, 1, None)]
    listed = _json(db, "matches", "--games")
    assert [(g["number"], g["game"], g["winner"]) for g in listed] == [(1, "e1-1", "Alice")]
    assert [g["game"] for g in _json(db, "games")] == ["e1-1"]
    audited = _run("audit", str(path), "--json")
    assert audited.exit_code == 2
    assert "games[1]: game 'e1-1' is game 1 of this match already" in _said(audited)
    assert "is in this input already" not in _said(audited)  # read once
    assert audited.stdout == ""
