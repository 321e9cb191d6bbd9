"""Request bodies against a real ``cribstats serve``: every body is held to a limit as it is sent (the uploads to
``--max-upload``, every other request to 64 KiB), refused 413 in the service's own form before the rest is kept;
and a multipart upload that cannot be read says what is wrong with it (a file name too long for a part's header,
a body cut short before its closing boundary)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import httpx
import orjson
import pytest
from service_server import LiveServer, live_server

from cribstats.simulate import simulate_games

SMALL = 64 * 1024
MAX_UPLOAD = 300_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("limits")
    with live_server(f"sqlite:///{folder / 'club.db'}", folder, "--max-upload", str(MAX_UPLOAD)) as live:
        yield live


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return html.unescape(found.group(1))


def _chunks(total: int, size: int = 16 * 1024) -> Iterator[bytes]:
    """``total`` bytes of a form's field in pieces: sent chunked, with no ``Content-Length``."""
    yield b"key=crib_x&junk="
    for start in range(0, total, size):
        yield b"a" * min(size, total - start)


def _game() -> bytes:
    [game] = simulate_games(1, players=["Ann", "Bob"], seed=11, start_date="2026-11-26")
    return orjson.dumps(game.log) + b"\n"


def _refused(answer: httpx.Response, limit: int) -> None:
    """A 413 page (the sign-in and sign-out forms, the scorecard page are pages) naming the limit."""
    assert answer.status_code == 413, answer.text[:300]
    assert answer.headers["content-type"].startswith("text/html")
    assert f"({limit:,} bytes)" in html.unescape(answer.text)


def test_the_sign_in_and_sign_out_forms_take_a_small_body(site: LiveServer) -> None:
    form = {"content-type": "application/x-www-form-urlencoded"}
    with httpx.Client(base_url=site.url, timeout=60) as client:
        for path in ("/session", "/session/end"):
            declared = client.post(path, content=b"key=" + b"a" * (SMALL + 1), headers=form)
            _refused(declared, SMALL)
            _refused(client.post(path, content=_chunks(2 * SMALL), headers=form), SMALL)
            # a file part, which the forms' reader would spool to disk: refused as it passes the limit
            parts = {"content-type": "multipart/form-data; boundary=zz"}
            body = iter([b'--zz\r\nContent-Disposition: form-data; name="junk"; filename="j.bin"\r\n\r\n',
                         *(b"a" * (1 << 20) for _ in range(3)), b"\r\n--zz--\r\n"])  # fmt: skip
            _refused(client.post(path, content=body, headers=parts), SMALL)
        # a sign-in form as a browser sends it is far under the limit
        page = client.get("/session")
        wrong = client.post("/session", data={"key": "crib_nope", "csrf_token": _token(page.text)})
        assert wrong.status_code == 401


def test_any_other_request_takes_a_small_body_and_the_api_answers_problem_details(site: LiveServer) -> None:
    with site.client() as client:
        answer = client.request("GET", "/api/v1/players", content=b"x" * (SMALL + 1))
        assert answer.status_code == 413
        assert answer.headers["content-type"] == "application/problem+json"
        assert f"({SMALL:,} bytes)" in answer.json()["detail"]
        assert client.request("GET", "/api/v1/players", content=b"x" * 100).status_code == 200


def test_the_uploads_keep_their_own_limit(site: LiveServer) -> None:
    key = site.add_key("limits-recorder")
    game = _game()
    copies = game * (SMALL // len(game) + 2)  # over 64 KiB, under --max-upload: one game many times
    assert SMALL < len(copies) < MAX_UPLOAD
    with site.client(key) as client:
        taken = client.post("/api/v1/logs", content=copies, headers={"content-type": "application/x-ndjson"})
        assert taken.status_code == 200 and taken.json()["imported"] == 1
        over = client.post("/api/v1/logs", files=[("file", ("big.jsonl", game * (MAX_UPLOAD // len(game) + 1)))])
        assert over.status_code == 413 and over.json()["detail"].startswith("the upload is larger")
    with httpx.Client(base_url=site.url, timeout=60) as browser:
        page = browser.get("/session?next=/scorecard")
        browser.post("/session", data={"key": key, "csrf_token": _token(page.text), "next": "/scorecard"})
        token = _token(browser.get("/scorecard").text)
        fields = [b"csrf_token=" + token.encode() + b"&action=check"]
        fields += [b"&date_%d=" % i + b"a" * 60_000 for i in range(8)]  # 480 kB in all, no field over the limit
        form = {"content-type": "application/x-www-form-urlencoded"}
        _refused(browser.post("/scorecard", content=iter(fields), headers=form), MAX_UPLOAD)
        checked = browser.post("/scorecard", data={"csrf_token": token, "action": "check", "date": "2026-11-26"})
        assert checked.status_code == 200  # a form within the limit is read


def test_a_file_name_too_long_for_a_part_header_is_told(site: LiveServer) -> None:
    key = site.add_key("long-names")
    game = _game()
    with site.client(key) as client:
        kept = client.post("/api/v1/logs", files=[("file", ("n" * 4000 + ".jsonl", game))])
        assert kept.status_code == 200 and [len(g["file"]) for g in kept.json()["games"]] == [200]
        refused = client.post("/api/v1/logs", files=[("file", ("n" * 8000 + ".jsonl", game))])
        assert refused.status_code == 400, refused.text
        detail = refused.json()["detail"]
        assert "header line is longer than this service reads" in detail and "shorter name" in detail


def test_a_form_cut_short_before_its_closing_boundary_is_told(site: LiveServer) -> None:
    key = site.add_key("cut-short")
    head = b'--zz\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n'
    with site.client(key) as client:
        for ending in (b"\r\n--zz", b"", b"\r\n--z"):
            cut = client.post("/api/v1/logs", content=head + _game() + ending,
                              headers={"content-type": "multipart/form-data; boundary=zz"})  # fmt: skip
            assert cut.status_code == 400, cut.text
            assert "cut short" in cut.json()["detail"] and "no file field" not in cut.text
        whole = client.post("/api/v1/logs", content=head + _game() + b"\r\n--zz--\r\n",
                            headers={"content-type": "multipart/form-data; boundary=zz"})  # fmt: skip
        assert whole.status_code == 200
        assert client.get("/api/v1/games").json()["total"] == 1
