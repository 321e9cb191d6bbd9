"""The API's date parameters are read as a game log's dates are (YYYY-MM-DD), against a real `cribstats serve`:
a number is not a date (pydantic alone would take `0` for 1970-01-01, a Unix time, and answer as if it were)."""

from __future__ import annotations

from pathlib import Path

import orjson
from service_server import cli, live_server

from cribstats.simulate import simulate_games


def test_a_date_parameter_takes_only_yyyy_mm_dd(sqlite_url: str, tmp_path: Path) -> None:
    logs = tmp_path / "games.jsonl"
    games = list(simulate_games(4, players=["Ann", "Bob"], seed=2, start_date="2026-11-26", games_per_night=2))
    logs.write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    cli("import", str(logs), db=sqlite_url)
    late = [g for g in games if g.log["date"] >= "2026-12-03"]
    assert 0 < len(late) < len(games)
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        assert client.get("/api/v1/games", params={"since": "2026-12-03"}).json()["total"] == len(late)
        for url, parameter, text in (("/api/v1/games", "since", "0"), ("/api/v1/games", "until", "1764633600"),
                                     ("/api/v1/standings", "date", "20261126"),
                                     ("/api/v1/nights", "date", "2026-02-30")):  # fmt: skip
            answer = client.get(url, params={parameter: text, "event": "x"})
            assert answer.status_code == 422, (url, parameter, text)
            place = answer.json()["errors"][0]
            assert place["place"] == f"query.{parameter}"
            assert place["detail"].startswith(repr(text)), place  # the game log's words, no "Value error,"
