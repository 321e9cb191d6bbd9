"""A player renamed or merged is found by the old spelling everywhere a player is named, as `stats --player`
finds them: `head-to-head PLAYER`, `rating PLAYER`, `matches --player`, and the service's player page and
matches. The service's matches compare events by key, as every `--event` filter does.

The expected figures are worked out by hand from the sheet below.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

SHEET = """date,event,round,player1,player2,score1,score2
2026-10-01,Ladder,1,Ann,Bob,121,80
2026-10-01,Ladder,2,Bob,Ann,121,100
2026-10-01,Ladder,3,Bob,Cy,121,95
"""
# Bob's record against Ann: game 1 lost by 121 - 80 = 41 (skunked: 80 is under 91), game 2 won by 121 - 100 = 21;
# against Cy: game 3 won by 121 - 95 = 26.
BOB_V_ANN = {"games": 2, "wins": 1, "losses": 1, "spread": 21 - 41, "skunks_given": 0, "skunks_taken": 1}
BOB_V_CY = {"games": 1, "wins": 1, "losses": 0, "spread": 26, "skunks_given": 0, "skunks_taken": 0}


def _game(key: str, winner: str, loser_score: int) -> dict[str, Any]:
    loser = "Bob" if winner == "Ann" else "Ann"
    return {"format": "cribstats/game/1", "id": key, "players": ["Ann", "Bob"],
            "result": {"winner": winner, "scores": {winner: 121, loser: loser_score}}}


MATCH = {"format": "cribstats/match/1", "id": "ladder-final", "event": "Ladder Final", "date": "2026-10-08",
         "players": ["Ann", "Bob"], "rules": "best-of-3",
         "games": [_game("lf-1", "Ann", 110), _game("lf-2", "Ann", 101)]}


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture
def renamed_store(tmp_path: Path) -> str:
    """The sheet and the match stored, then Bob renamed Robert (Bob stays an alias)."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    (tmp_path / "ladder.csv").write_text(SHEET)
    (tmp_path / "final.jsonl").write_bytes(orjson.dumps(MATCH) + b"\n")
    result = run("import", "--db", url, "-q", str(tmp_path / "ladder.csv"), str(tmp_path / "final.jsonl"))
    assert result.exit_code == 0, result.output
    assert run("players", "rename", "--db", url, "Bob", "Robert").exit_code == 0
    return url


def _json(*args: str) -> list[dict[str, Any]]:
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return list(orjson.loads(result.stdout))


def test_head_to_head_finds_a_renamed_player_by_the_old_spelling(renamed_store: str) -> None:
    for spelling in ("bob", "Robert"):
        rows = {r["opponent"]: r for r in _json("head-to-head", spelling, "--db", renamed_store)}
        assert {r["player"] for r in rows.values()} == {"Robert"}
        # games of the sheet and of the match (Ann won both games of the final, by 11 and by 20)
        assert {k: rows["Ann"][k] for k in BOB_V_ANN} == {
            **BOB_V_ANN, "games": 4, "losses": 3, "spread": BOB_V_ANN["spread"] - 11 - 20}
        assert (rows["Ann"]["matches"], rows["Ann"]["matches_lost"]) == (1, 1)
        assert {k: rows["Cy"][k] for k in BOB_V_CY} == BOB_V_CY


def test_rating_finds_a_renamed_player_by_the_old_spelling(renamed_store: str) -> None:
    everyone = {r["player"]: r for r in _json("rating", "--db", renamed_store)}
    assert _json("rating", "bob", "--db", renamed_store) == [everyone["Robert"]]
    assert everyone["Robert"]["games"] == 3 + 2
    history = _json("rating", "BOB", "--history", "--db", renamed_store)
    assert len(history) == 5 and {r["player"] for r in history} == {"Robert"}


def test_matches_finds_a_renamed_player_by_the_old_spelling(renamed_store: str) -> None:
    assert [m["match"] for m in _json("matches", "--player", "bob", "--db", renamed_store)] == ["ladder-final"]
    assert _json("matches", "--player", "Cy", "--db", renamed_store) == []


def test_the_service_finds_a_renamed_player_and_an_event_in_any_case(renamed_store: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from cribstats.service.app import create_app
    from cribstats.service.settings import Settings

    client = TestClient(create_app(Settings(db=renamed_store, secret="test")))
    detail = client.get("/api/v1/players/bob")
    assert detail.status_code == 200
    assert (detail.json()["name"], detail.json()["stats"]["games"]) == ("Robert", 5)
    assert client.get("/players/Bob").status_code == 200
    for params in ({"player": "bob"}, {"event": "ladder final"}, {"event": " LADDER FINAL"}):
        found = client.get("/api/v1/matches", params=params).json()
        assert [m["match"] for m in found["items"]] == ["ladder-final"], params
    assert client.get("/api/v1/matches", params={"event": "ladder"}).json()["items"] == []
