"""The API's season and rating views take the options the commands take (``season --quarters --drop-lowest``,
``rating --history``), typed in the OpenAPI document, and answer what the commands print for the same store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from service_server import LiveServer, cli, live_server

ROOT = Path(__file__).resolve().parent.parent
SEASON = ROOT / "sample_logs" / "season-2026.jsonl"  # March to August: three quarters, many nights each


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    cli("import", str(SEASON), db=db_url)
    with live_server(db_url, tmp_path) as live:
        yield live


def _command(live: LiveServer, *args: str) -> list[dict[str, object]]:
    return orjson.loads(cli(*args, "--format", "json", db=live.db).stdout)  # type: ignore[no-any-return]


def _api(live: LiveServer, path: str, **params: object) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    with live.client() as client:
        while True:
            answer = client.get(path, params={**params, "limit": 500, "offset": len(items)})
            assert answer.status_code == 200, answer.text
            page = answer.json()
            items += page["items"]
            if len(items) >= page["total"]:
                return items


@pytest.mark.parametrize(("quarters", "drop"), [(True, False), (False, True), (True, True)])
def test_season_options_answer_as_the_command(server: LiveServer, quarters: bool, drop: bool) -> None:
    flags = (["--quarters"] if quarters else []) + (["--drop-lowest"] if drop else [])
    expected = _command(server, "season", *flags)
    got = _api(server, "/api/v1/seasons", quarters=str(quarters).lower(), drop_lowest=str(drop).lower())
    assert got == expected
    plain = _command(server, "season")
    assert got != plain  # the option changes the table: the comparison above says something
    if quarters:
        assert {r["period"] for r in got} == {"2026-Q1", "2026-Q2", "2026-Q3"}
    if drop:
        assert any(r["dropped"] == 1 for r in got)
    league = _command(server, "season", "--event", "tuesday league", "--since", "2026-04-01", *flags)
    assert _api(server, "/api/v1/seasons", event="Tuesday League", since="2026-04-01",
                quarters=str(quarters).lower(), drop_lowest=str(drop).lower()) == league  # fmt: skip


def test_rating_history_answers_as_the_command(server: LiveServer) -> None:
    steps = _command(server, "rating", "--history")
    assert _api(server, "/api/v1/ratings", history="true") == steps
    assert len(steps) > len(_command(server, "rating"))  # one row a player and game, not a player
    one = steps[0]["player"]
    assert isinstance(one, str)
    mine = _command(server, "rating", one, "--history", "--until", "2026-06-30")
    assert mine and {r["player"] for r in mine} == {one}
    assert _api(server, "/api/v1/ratings", player=one.upper(), history="true", until="2026-06-30") == mine
    assert _api(server, "/api/v1/ratings", history="false") == _command(server, "rating")


def test_the_document_types_the_options(server: LiveServer) -> None:
    document = httpx.get(server.url + "/api/v1/openapi.json").json()

    def parameters(path: str) -> dict[str, dict[str, object]]:
        return {p["name"]: p["schema"] for p in document["paths"][path]["get"]["parameters"]}

    seasons = parameters("/api/v1/seasons")
    assert seasons["quarters"] == {"type": "boolean", "default": False, "title": "Quarters",
                                   "description": "Standings for each calendar quarter."}  # fmt: skip
    assert seasons["drop_lowest"]["type"] == "boolean" and seasons["drop_lowest"]["default"] is False
    assert parameters("/api/v1/ratings")["history"]["type"] == "boolean"
    answer = document["paths"]["/api/v1/ratings"]["get"]["responses"]["200"]["content"]["application/json"]
    pages = {ref["$ref"].rsplit("/", 1)[1] for ref in answer["schema"]["anyOf"]}
    assert pages == {"Page_RatingRow_", "Page_RatingStep_"}
    step = document["components"]["schemas"]["RatingStep"]
    assert set(step["properties"]) == {"player", "rated", "id", "game", "date", "rating", "mu", "sigma"}
