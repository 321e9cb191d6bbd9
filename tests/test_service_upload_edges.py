"""Uploads at their edges, against a real ``cribstats serve``: a body in a content coding (gzip) is refused 415 and
not read as binary data, one game sent twice in one upload is listed once and the list is whole, and a client that
closes the connection mid-body is no server failure (no traceback in the server's log, nothing stored)."""

from __future__ import annotations

import gzip
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from service_server import LiveServer, live_server

from cribstats.simulate import simulate_games


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(sqlite_url, tmp_path) as live:
        yield live


def _games(count: int, seed: int) -> list[bytes]:
    games = simulate_games(count, players=["Ann", "Bob"], seed=seed, start_date="2026-11-26")
    return [orjson.dumps(game.log) for game in games]


def test_a_compressed_body_is_refused_415_and_not_read(server: LiveServer) -> None:
    key = server.add_key("recorder")
    [game] = _games(1, seed=3)
    with server.client(key) as client:
        for coding, body in (("gzip", gzip.compress(game)), ("br", game), ("gzip, identity", gzip.compress(game))):
            answer = client.post("/api/v1/logs", content=body, headers={"content-type": "application/x-ndjson",
                                                                        "content-encoding": coding})  # fmt: skip
            assert answer.status_code == 415, (coding, answer.text)
            assert answer.headers["content-type"] == "application/problem+json"
            assert answer.headers["accept-encoding"] == "identity"
            problem = answer.json()
            assert "not accepted" in problem["detail"] and "uncompressed" in problem["detail"]
            assert "binary" not in answer.text
            assert problem["errors"][0]["place"] == "header.content-encoding"
        form = client.post("/api/v1/logs", files=[("file", ("a.jsonl", gzip.compress(game)))],
                           headers={"content-encoding": "gzip"})  # fmt: skip
        assert form.status_code == 415
        assert client.get("/api/v1/games").json()["total"] == 0
        plain = client.post("/api/v1/logs", content=game, headers={"content-type": "application/x-ndjson",
                                                                   "content-encoding": "identity"})  # fmt: skip
        assert plain.status_code == 200 and plain.json()["imported"] == 1


def test_a_game_sent_twice_in_one_upload_is_listed_once_and_the_list_is_whole(server: LiveServer) -> None:
    key = server.add_key("recorder")
    first, second = _games(2, seed=5)
    with server.client(key) as client:
        twice = client.post("/api/v1/logs", content=first + b"\n" + first + b"\n",
                            headers={"content-type": "application/x-ndjson"})  # fmt: skip
        body = twice.json()
        assert twice.status_code == 200, twice.text
        assert (body["imported"], body["present"], len(body["games"])) == (1, 1, 1)
        assert body["games"][0]["place"] == "line 1" and body["games_listed_all"] is True
        again = client.post("/api/v1/logs", content=b"\n".join([second, first, second, first]),
                            headers={"content-type": "application/x-ndjson"})  # fmt: skip
        body = again.json()
        assert (body["imported"], body["present"]) == (1, 3)
        listed = [(g["place"], g["status"]) for g in body["games"]]
        assert listed == [("line 1", "imported"), ("line 2", "present")]
        assert body["games_listed_all"] is True


def _send_half(server: LiveServer, key: str, head: str, body: bytes) -> None:
    """Send the head of a POST that declares the whole body, half the body, and close the connection."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(f"POST /api/v1/logs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n{head}"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body[: len(body) // 2])  # fmt: skip
        time.sleep(0.5)


def test_a_client_that_closes_mid_body_is_not_a_server_failure(server: LiveServer) -> None:
    key = server.add_key("recorder")
    body = b"\n".join(_games(6, seed=7)) + b"\n"
    boundary = "cribstatsboundary"
    form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"n.jsonl\"\r\n"
            f"Content-Type: application/x-ndjson\r\n\r\n").encode() + body + f"\r\n--{boundary}--\r\n".encode()
    _send_half(server, key, "Content-Type: application/x-ndjson\r\n", body)
    _send_half(server, key, f"Content-Type: multipart/form-data; boundary={boundary}\r\n", form)
    time.sleep(2)
    with server.client() as client:
        assert client.get("/api/v1/games").json()["total"] == 0
    log = server.log.read_text()
    assert "Traceback" not in log and "failed" not in log and "Exception in ASGI application" not in log, log
    assert "ERROR" not in log, log
