"""The service's findings, filtered by a player, find a player renamed (or merged) by the old spelling too, as
`stats --player` and the service's games, statistics and player page do.

The game is the one deal of the game-log contract's example, with Bob claiming 10 for his hand. His hand, 6D JH 4H
7C with the starter 5H, is worth 9 (worked out by hand): fifteens 6+4+5 and J+5 (4), the run 4-5-6-7 (4) and nobs
(the jack of hearts, the starter's suit: 1). So the game has one finding: Bob over-claimed 10 where 9 was due.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from service_server import LiveServer, cli, live_server

GAME = {
    "format": "cribstats/game/1", "id": "alias-findings", "players": ["Alice", "Bob"],
    "deals": [{
        "dealer": "Alice",
        "hands": {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]},
        "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]}, "starter": "5H", "heels": 0,
        "play": [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"],
                 ["Alice", "2S", 1], ["Bob", "6D"], ["Alice", "4S"], ["Bob", "4H", 3]],
        "show": {"Bob": 10, "Alice": 12, "crib": 6},
    }],
}  # fmt: skip


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    log = tmp_path / "game.json"
    log.write_bytes(orjson.dumps(GAME))
    cli("import", "-q", str(log), db=sqlite_url)
    cli("players", "rename", "Bob", "Robert", db=sqlite_url)
    with live_server(sqlite_url, tmp_path) as live:
        yield live


@pytest.mark.parametrize("spelling", ["Robert", "Bob", " bob "])
def test_findings_of_a_renamed_player_are_found_by_any_of_his_spellings(server: LiveServer, spelling: str) -> None:
    with server.client() as client:
        page = client.get("/api/v1/findings", params={"player": spelling}).json()
    assert page["total"] == 1
    [found] = page["items"]
    assert (found["player"], found["kind"], found["phase"], found["claimed"], found["due"]) == (
        "Robert", "overclaim", "hand", 10, 9)


def test_a_player_with_no_findings_has_none_under_either_name(server: LiveServer) -> None:
    with server.client() as client:
        assert client.get("/api/v1/findings", params={"player": "Alice"}).json()["total"] == 0
        assert client.get("/api/v1/findings", params={"player": "Nobody"}).json()["total"] == 0
