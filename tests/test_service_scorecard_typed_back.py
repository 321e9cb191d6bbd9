"""A refused scorecard comes back in its fields exactly as typed, against a real `cribstats serve`: a hidden
character (`Ann` followed by U+200B) came back as the escape text `Ann\\u200b`, so sending the form again
unchanged stored a player whose name held a backslash. The escape belongs in the messages, where it is seen."""

from __future__ import annotations

import html
import re
from pathlib import Path

import httpx
from service_server import LiveServer, live_server

HEADER = "date,event,round,player,opponent,game_points,spread"
ANN = "Ann\u200b"


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return html.unescape(found.group(1))


def _signed_in(site: LiveServer, browser: httpx.Client) -> str:
    form = browser.get("/session?next=/scorecard")
    browser.post("/session", data={"key": site.add_key("cards"), "csrf_token": _token(form.text),
                                   "next": "/scorecard"})  # fmt: skip
    return _token(browser.get("/scorecard").text)


def _read(text: str) -> str:
    """An attribute's or a box's text as a browser reads it: a control character's reference is that character
    (Python's ``html.unescape`` drops it)."""
    return html.unescape(re.sub(r"&#(\d+);", lambda found: chr(int(found.group(1))), text))


def _box(page: str) -> str:
    found = re.search(r'<textarea name="sheet"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None
    return _read(found.group(1))


def test_a_refused_paste_comes_back_as_typed(sqlite_url: str, tmp_path: Path) -> None:
    # both cards refused for their spread: nothing of the night is stored
    sheet = f"{HEADER}\n2026-11-26,Club,1,{ANN},Bob,2,x\n2026-11-26,Club,1,Bob,{ANN},0,y\n"
    with live_server(sqlite_url, tmp_path) as site, httpx.Client(base_url=site.url, timeout=120) as browser:
        token = _signed_in(site, browser)
        answer = browser.post("/scorecard", data={"sheet": sheet, "csrf_token": token})
        assert answer.status_code == 400
        assert _box(answer.text) == sheet  # the hidden character itself, not its escape
        assert "\\u200b" not in _box(answer.text)
        assert "line 2" in answer.text and "line 3" in answer.text
        # sent again unchanged but for the spreads: the name is refused for its hidden character, as a log's is
        again = _box(answer.text).replace(",x\n", ",10\n").replace(",y\n", ",-10\n")
        second = browser.post("/scorecard", data={"sheet": again, "csrf_token": _token(answer.text)})
        assert second.status_code == 400
        assert "U+200B" in html.unescape(second.text)
        names = [p["name"] for p in browser.get("/api/v1/players").json()["items"]]
        assert not any("\\" in name for name in names), names


def test_a_checked_row_keeps_its_typed_text(sqlite_url: str, tmp_path: Path) -> None:
    control = "Zed\x1b"
    fields = {"rows": "2", "action": "check", "night-date": "2026-11-26", "night-event": f"Club{ANN}",
              "row-0-round": "1", "row-0-player": ANN, "row-0-opponent": "Bob", "row-0-game_points": "2",
              "row-0-spread": "+10", "row-1-round": "1", "row-1-player": "Bob", "row-1-opponent": control,
              "row-1-game_points": "0", "row-1-spread": "-10"}  # fmt: skip
    with live_server(sqlite_url, tmp_path) as site, httpx.Client(base_url=site.url, timeout=120) as browser:
        token = _signed_in(site, browser)
        answer = browser.post("/scorecard", data={**fields, "csrf_token": token})
        page = answer.text
        assert "\x1b" not in page  # a control character goes back as a character reference
        for name, value in fields.items():
            if name.startswith(("row-", "night-")):
                found = re.search(rf'name="{name}" (?:type="\w+" )?value="([^"]*)"', page)
                assert found is not None, name
                assert _read(found.group(1)) == value, name
        # the messages beside the rows name the hidden characters, where they can be seen: a card's names follow
        # the name rule, so "check" refuses them as the import would
        shown = html.unescape(" ".join(re.findall(r'<td class="word">(.*?)</td>', page, re.S)))
        assert "Player: a player's name may not hold U+200B" in shown, shown
        assert "Opponent: a player's name may not hold U+001B" in shown, shown
