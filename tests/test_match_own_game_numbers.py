"""A game's own ``match_game`` is the number the table wrote: a record that lists the match's games in another
order is refused at the game it misplaces, whether the games came in an earlier import, in the same import before
the record or after it, and in the audit either way; the match then stands on its games' own numbers. Real
commands on real SQLite files; every expected value is worked out by hand from the games written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app


def _game(number: int, winner: str, loser: str) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "id": f"mN-{number}", "players": ["Alice", "Bob"],
            "result": {"winner": winner, "scores": {winner: 121, loser: 100}}, "match": "mN", "match_game": number}


# written in the order 3, 1, 2; Alice wins games 1 and 2 (the match, 2-0), Bob game 3, after the end
GAMES = [_game(3, "Bob", "Alice"), _game(1, "Alice", "Bob"), _game(2, "Alice", "Bob")]
RECORD = {"format": "cribstats/match/1", "id": "mN", "players": ["Alice", "Bob"],
          "games": ["mN-3", "mN-1", "mN-2"],
          "result": {"winner": "Alice", "points": {"Alice": 2, "Bob": 0}}}  # fmt: skip
REFUSED = "record.jsonl:line 1: games[0]: game 'mN-3' is game 3 of match 'mN' by its own match_game, but the " \
          "record lists it as game 1"


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _files(tmp_path: Path) -> tuple[Path, Path]:
    games, record = tmp_path / "games.jsonl", tmp_path / "record.jsonl"
    games.write_text("".join(json.dumps(g) + "\n" for g in GAMES))
    record.write_text(json.dumps(RECORD) + "\n")
    return games, record


@pytest.mark.parametrize("order", ["two imports", "games then record", "record then games"])
def test_a_record_against_its_games_own_numbers_is_refused_in_any_order(tmp_path: Path, order: str) -> None:
    games, record = _files(tmp_path)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    if order == "two imports":
        assert _run("import", str(games), "--db", db).exit_code == 0
        done = _run("import", str(record), "--db", db)
    else:
        paths = [games, record] if order == "games then record" else [record, games]
        done = _run("import", *map(str, paths), "--db", db)
    assert done.exit_code == 2
    assert REFUSED in " ".join(done.stderr.split())
    matches = json.loads(_run("matches", "--db", db, "--format", "json").stdout)
    got = [(m["score"], m["winner"], m["games"], m["games_after_end"], m["recorded_winner"]) for m in matches]
    assert got == [("2-0", "Alice", 3, 1, None)]  # no record: the match is its games'
    listed = json.loads(_run("matches", "--db", db, "--games", "--format", "json").stdout)
    assert [(g["number"], g["game"], g["counted"]) for g in listed] == [
        (1, "mN-1", True), (2, "mN-2", True), (3, "mN-3", False)]


@pytest.mark.parametrize("record_first", [False, True])
def test_the_audit_refuses_the_record_the_same_way(tmp_path: Path, record_first: bool) -> None:
    games, record = _files(tmp_path)
    done = _run("audit", *map(str, [record, games] if record_first else [games, record]), "--json")
    assert done.exit_code == 2
    assert REFUSED in " ".join(done.stderr.split())
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(f["kind"], f["game"]) for f in found] == [("match-after-end", "mN-3")]
