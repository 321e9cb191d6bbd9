"""A match record refused for an input error still has its whole games: each is a game, audited and stored as any
other (docs/match.md: "the game itself is still a game"). Before, a record with a game between other sides, a
game naming another match, or a game that is no game lost every game it held. Real commands on a real SQLite
file; what is expected is worked out from the records written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app


def _game(game_id: str, winner: str, loser: str, **more: Any) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "id": game_id, "players": [winner, loser],
            "result": {"winner": winner, "scores": {winner: 121, loser: 100}}, **more}


def _record(match_id: str, games: list[Any]) -> dict[str, Any]:
    return {"format": "cribstats/match/1", "id": match_id, "players": ["Alice", "Bob"], "rules": "best-of-3",
            "games": games}


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _stored(db: str) -> dict[str, dict[str, Any]]:
    listed = json.loads(_run("games", "--db", db, "--format", "json").stdout)
    return {g["game"]: g for g in listed}


def test_a_game_between_other_sides_refuses_the_record_not_its_games(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    path = tmp_path / "cup.jsonl"
    other_sides = _game("cup-2", "Carol", "Alice")
    path.write_bytes(orjson.dumps(_record("cup", [_game("cup-1", "Alice", "Bob"), other_sides])))
    audit = _run("audit", "--json", str(path))
    assert audit.exit_code == 2
    assert "line 1: games[1].players: this game is between" in " ".join(audit.output.split())
    imported = _run("import", str(path), "--db", db)
    assert imported.exit_code == 2
    stored = _stored(db)
    assert set(stored) == {"cup-1", "cup-2"}
    assert stored["cup-1"]["winners"] == ["Alice"] and stored["cup-2"]["winners"] == ["Carol"]
    # the record put right and read again: the game kept is found stored as it is, the record is taken
    right = _record("cup", [_game("cup-1", "Alice", "Bob"), _game("cup-3", "Alice", "Bob")])
    path.write_bytes(orjson.dumps(right))
    again = _run("import", str(path), "--db", db)
    assert again.exit_code == 0, again.output
    matches = json.loads(_run("matches", "--db", db, "--format", "json").stdout)
    (cup,) = [m for m in matches if m["match"] == "cup"]
    assert (cup["winner"], cup["score"]) == ("Alice", "2-0")


BROKEN = {"format": "cribstats/game/1", "id": "cup-2", "players": ["Alice", "Bob"],
          "deals": [{"dealer": "Alice", "hands": {}, "discards": {}, "starter": "1H"}]}


@pytest.mark.parametrize(("record", "refused", "kept"), [
    # a game naming another match: stored as written
    (_record("cup", [_game("x-1", "Alice", "Bob", match="other")]),
     "line 1: games[0].match: this game names match 'other', not 'cup'", {"x-1"}),
    # a game that is no game refuses the record; the other is kept
    (_record("cup", [_game("cup-1", "Alice", "Bob"), BROKEN]),
     "line 1: games[1].deals[0].starter: '1H' is not a card", {"cup-1"}),
    # sides that are no names
    (_record("cup", [_game("cup-1", "Alice", "Bob")]) | {"players": ["Alice", 7]},
     "line 1: players: a match has two sides", {"cup-1"}),
])  # fmt: skip
def test_a_refused_record_keeps_its_games(record: dict[str, Any], refused: str, kept: set[str],
                                          tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    path = tmp_path / "cup.jsonl"
    path.write_bytes(orjson.dumps(record))
    imported = _run("import", str(path), "--db", db)
    assert imported.exit_code == 2
    assert refused in " ".join(imported.output.split())
    assert set(_stored(db)) == kept
