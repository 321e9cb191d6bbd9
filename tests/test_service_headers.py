"""The headers every answer of a real ``cribstats serve`` carries: ``X-Content-Type-Options: nosniff`` on each
(API JSON, charts, errors, pages), and ``Cache-Control: no-store`` on each answer to a request that carries a
session or a key and on each answer to a request that is not GET or HEAD, unless the route set its own (the
style sheet's and the icon's, the same for everyone)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from service_server import LiveServer, cli, live_server

ROOT = Path(__file__).resolve().parent.parent
NIGHT = ROOT / "sample_logs" / "club-night.jsonl"
SHEET = "date,event,round,player1,player2,score1,score2\n2027-03-02,Card Night,1,Uma,Vic,121,97\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("headers")
    db = f"sqlite:///{folder / 'club.db'}"
    cli("import", str(NIGHT), db=db)
    with live_server(db, folder) as live:
        yield live


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page) or re.search(r"csrf_token=([^\"&]+)", page)
    assert found is not None
    return html.unescape(found.group(1))


def test_every_answer_says_nosniff(site: LiveServer) -> None:
    with site.client() as client:
        for path in ("/api/v1/players", "/api/v1/stats", "/api/v1/games/no-such-game", "/api/v1/openapi.json",
                     "/charts/skunks.svg", "/charts/averages.svg?player=Alice", "/static/style.css",
                     "/favicon.ico", "/", "/no-such-page"):  # fmt: skip
            answer = client.get(path)
            assert answer.headers.get("x-content-type-options") == "nosniff", (path, answer.status_code)
        head = client.head("/api/v1/players")
        assert head.headers.get("x-content-type-options") == "nosniff"
        # read by anyone, with no key: the answers may be cached as before
        assert "cache-control" not in client.get("/api/v1/players").headers
        assert "cache-control" not in client.get("/standings").headers


def test_answers_to_a_key_or_a_session_are_not_stored(site: LiveServer) -> None:
    key = site.add_key("headers-recorder")
    with site.client(key) as client:
        for path in ("/api/v1/players", "/charts/skunks.svg", "/api/v1/games/no-such-game"):
            assert client.get(path).headers.get("cache-control") == "no-store", path
        upload = client.post("/api/v1/logs", content=NIGHT.read_bytes(),
                             headers={"content-type": "application/x-ndjson"})  # fmt: skip
        assert upload.status_code == 200 and upload.headers["cache-control"] == "no-store"
    with httpx.Client(base_url=site.url, timeout=60) as browser:
        form = browser.get("/session?next=/upload")
        signed = browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/upload"})
        assert signed.headers["cache-control"] == "no-store"  # a POST
        for path in ("/upload", "/scorecard", "/", "/standings", "/players/Alice"):
            page = browser.get(path)
            assert page.status_code == 200 and page.headers["cache-control"] == "no-store", path
        token = _token(browser.get("/upload").text)
        done = browser.post(f"/upload?csrf_token={token}", files=[("file", ("night.jsonl", NIGHT.read_bytes()))])
        assert done.status_code == 200 and done.headers["cache-control"] == "no-store"
        token = _token(browser.get("/scorecard").text)
        for fields in ({"csrf_token": token, "action": "check", "date": "2027-03-02"}, {"sheet": SHEET,
                                                                                      "csrf_token": token}):
            result = browser.post("/scorecard", data=fields)
            assert result.status_code == 200 and result.headers["cache-control"] == "no-store", result.text[:200]
        # the same for everyone: the route's own caching is kept
        assert browser.get("/static/style.css").headers["cache-control"] == "max-age=3600"
        assert browser.get("/favicon.ico").headers["cache-control"] == "max-age=86400"


def test_answers_to_other_methods_are_not_stored(site: LiveServer) -> None:
    with site.client() as client:
        refused = client.post("/api/v1/logs", content=b"{}", headers={"content-type": "application/json"})
        assert refused.status_code == 401 and refused.headers["cache-control"] == "no-store"
        assert client.post("/session", data={"key": "crib_x"}).headers["cache-control"] == "no-store"
        assert client.delete("/api/v1/players").headers["cache-control"] == "no-store"


def test_a_failure_of_the_server_is_answered_with_the_same_headers(tmp_path: Path) -> None:
    # a store damaged by hand: a game's stored log is no longer JSON, so its replay fails inside the server
    import sqlite3

    db_file = tmp_path / "damaged.db"
    cli("import", str(NIGHT), db=f"sqlite:///{db_file}")
    with sqlite3.connect(db_file) as connection:
        (key,) = connection.execute("select game_key from game order by id limit 1").fetchone()
        connection.execute("update game set log = '{not json' where game_key = ?", (key,))
    with live_server(f"sqlite:///{db_file}", tmp_path) as live, live.client() as client:
        for path in (f"/api/v1/games/{key}", f"/games/{key}"):
            answer = client.get(path)
            assert answer.status_code == 500, (path, answer.text[:200])
            assert answer.headers.get("x-content-type-options") == "nosniff", path
            assert answer.headers.get("cache-control") == "no-store", path
            assert "Traceback" not in answer.text and "orjson" not in answer.text
            assert answer.headers.get("connection") == "close", path  # the server closes it: said, not reset
        assert client.get("/api/v1/players").status_code == 200  # the same client goes on
