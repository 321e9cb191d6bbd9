"""The games page ("Newest first") and a player's latest games list the dated games newest first and the undated
ones after them, as the findings list does: a game with no date is not known to be new (it was listed first, ahead
of the newest night).

Three result-only games by hand: `old` on 2026-01-05, `new` on 2026-06-01, `nodate` with no date.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from service_server import LiveServer, cli, live_server


def _game(key: str, day: str | None) -> bytes:
    game = {"format": "cribstats/game/1", "id": key, "players": ["Ann", "Bob"],
            "result": {"winner": "Ann", "scores": {"Ann": 121, "Bob": 100}}}  # fmt: skip
    if day:
        game["date"] = day
    return orjson.dumps(game) + b"\n"


@pytest.fixture
def site(sqlite_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    log = tmp_path / "games.jsonl"
    log.write_bytes(_game("nodate", None) + _game("old", "2026-01-05") + _game("new", "2026-06-01"))
    cli("import", "-q", str(log), db=sqlite_url)
    with live_server(sqlite_url, tmp_path) as live:
        yield live


def _listed(page: str) -> list[str]:
    return re.findall(r'<td><a href="/games/[^"]*">([^<]*)</a></td>', page)


def test_newest_first_lists_undated_games_last(site: LiveServer) -> None:
    with site.client() as client:
        assert _listed(client.get("/games").text) == ["new", "old", "nodate"]
        assert _listed(client.get("/players/Ann").text) == ["new", "old", "nodate"]
        recent = client.get("/api/v1/players/Bob").json()["recent_games"]
        assert [g["game"] for g in recent] == ["new", "old", "nodate"]
        # the oldest first, as `cribstats games` lists them: undated last there too
        assert [g["game"] for g in client.get("/api/v1/games").json()["items"]] == ["old", "new", "nodate"]
