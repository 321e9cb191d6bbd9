"""A pasted sheet refused for a row comes back in its box line by line, as typed, against a real `cribstats serve`:
its line breaks were shown as the text `\\x0a`, so the box held one long line and sending it again was no sheet."""

from __future__ import annotations

import html
import re
from pathlib import Path

import httpx
from service_server import live_server


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return html.unescape(found.group(1))


def test_a_refused_paste_comes_back_as_typed(sqlite_url: str, tmp_path: Path) -> None:
    rows = ["date,event,round,player,opponent,game_points,spread",
            "2026-11-26,<b>Club</b>,1,Ann,Bob,2,+6", "2026-11-26,<b>Club</b>,1,Bob,Ann,0,-6",
            "2026-11-26,<b>Club</b>,2,Ann,Bob,9,+4"]  # fmt: skip
    sheet = "\r\n".join(rows) + "\r\n"  # as a browser sends a box's lines
    with live_server(sqlite_url, tmp_path) as site, httpx.Client(base_url=site.url, timeout=120) as browser:
        form = browser.get("/session?next=/scorecard")
        key = site.add_key("cards")
        browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/scorecard"})
        token = _token(browser.get("/scorecard").text)
        answer = browser.post("/scorecard", data={"sheet": sheet, "csrf_token": token})
        assert answer.status_code == 400
        assert "line 4" in answer.text  # the bad row named
        box = re.search(r'<textarea name="sheet"[^>]*>(.*?)</textarea>', answer.text, re.S)
        assert box is not None
        assert html.unescape(box.group(1)).splitlines() == rows
        assert "<b>" not in box.group(1)
