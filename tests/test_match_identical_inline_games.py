"""Games imported alone, then written again, identical, inside a match record (with the record's event, date and
round): the record's games are those stored games. They are attached to the match and take the record's event,
date and round on their rows, so that ``standings --event`` finds them. Real commands on a real SQLite file; every
expected value is worked out by hand from the games written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cribstats.cli.app import app


def _game(game_id: str, winner: str, loser: str) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "id": game_id, "players": ["Alice", "Bob"],
            "result": {"winner": winner, "scores": {winner: 121, loser: 100}}}


# Alice wins games 1 and 3, Bob game 2: 2-1 to Alice (the table recorded Bob: a match-result finding)
GAMES = [_game("mA-1", "Alice", "Bob"), _game("mA-2", "Bob", "Alice"), _game("mA-3", "Alice", "Bob")]
RECORD = {"format": "cribstats/match/1", "id": "mA", "players": ["Alice", "Bob"], "games": GAMES,
          "result": {"winner": "Bob", "points": {"Alice": 1, "Bob": 2}}, "event": "Cup", "date": "2026-06-01",
          "round": "final"}  # fmt: skip


def _json(db: str, *args: str) -> Any:
    done = CliRunner().invoke(app, [*args, "--db", db, "--format", "json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_games_stored_alone_then_sent_in_a_record_take_its_event(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    plain, record = tmp_path / "games.jsonl", tmp_path / "final.jsonl"
    plain.write_text("".join(json.dumps(g) + "\n" for g in GAMES))
    record.write_text(json.dumps(RECORD) + "\n")
    for path in (plain, record, record):  # the record read again changes nothing
        CliRunner().invoke(app, ["import", str(path), "--db", db])
        assert [(g["game"], g["event"], g["date"], g["round"]) for g in _json(db, "games")] == [
            (key, None, None, None) if path == plain else (key, "Cup", "2026-06-01", "final")
            for key in ("mA-1", "mA-2", "mA-3")]
    # each game 121-100: Alice 2 wins (4 game points), spread +21 +21 -21 = 21; Bob the other way round
    standings = _json(db, "standings", "--event", "Cup")
    assert [(r["player"], r["games"], r["wins"], r["game_points"], r["spread"]) for r in standings] == [
        ("Alice", 3, 2, 4, 21), ("Bob", 3, 1, 2, -21)]
    matches = _json(db, "matches", "--event", "Cup")
    assert [(m["match"], m["score"], m["winner"], m["games"], m["recorded_winner"], m["findings"])
            for m in matches] == [("mA", "2-1", "Alice", 3, "Bob", 3)]
    assert [(g["number"], g["game"], g["stored"]) for g in _json(db, "matches", "--games")] == [
        (1, "mA-1", True), (2, "mA-2", True), (3, "mA-3", True)]


def test_the_record_read_after_its_games_is_no_conflict(tmp_path: Path) -> None:
    """The games stored alone are the record's games, not conflicts: the import exits 0 and counts the three
    games as present; a game of the record that differs from the stored one in more than the match id it is
    given is a conflict still (exit 2, one conflict)."""
    db = f"sqlite:///{tmp_path / 'club.db'}"
    plain, record = tmp_path / "games.jsonl", tmp_path / "final.jsonl"
    plain.write_text("".join(json.dumps(g) + "\n" for g in GAMES))
    record.write_text(json.dumps(RECORD) + "\n")
    assert CliRunner().invoke(app, ["import", str(plain), "--db", db]).exit_code == 0
    done = CliRunner().invoke(app, ["import", str(record), "--db", db])
    assert done.exit_code == 0, done.output
    assert "conflict" not in done.stderr.lower()
    runs = _json(db, "imports")
    assert [(r["present"], r["conflicting"]) for r in runs][-1] == (3, 0)

    changed = {**RECORD, "id": "mB", "games": [GAMES[0], GAMES[1], {**GAMES[2], "site": "Hall"}]}
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps(changed) + "\n")
    done = CliRunner().invoke(app, ["import", str(other), "--db", db])
    assert done.exit_code == 2, done.output
    assert "'mA-3' is already stored with different content" in done.stderr
