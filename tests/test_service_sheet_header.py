"""A CSV sheet uploaded with a header the sheets do not know (columns named otherwise) is refused for its columns,
as `cribstats import` refuses the same `.csv` file, not as JSON that does not parse: whether it is a file part
named `.csv`, a body typed `text/csv`, or a sheet pasted on the scorecard page.

The message expected is the tally sheet's header, the contract's `date,event,round,player1,player2,score1,score2`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from service_server import LiveServer, cli, live_server

# a tally sheet whose first column is named otherwise ("day", not "date")
UNKNOWN = b"day,event,round,player1,player2,score1,score2\n2026-11-01,Ladder,1,Ann,Bob,121,90\n"
HEADER = "date,event,round,player1,player2,score1,score2"


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(sqlite_url, tmp_path) as live:
        yield live


def _says_columns(errors: list[dict[str, str]], file: str) -> None:
    assert len(errors) == 1
    [error] = errors
    assert (error["file"], error["place"]) == (file, "line 1")
    assert "missing column 'date'" in error["detail"] and HEADER in error["detail"]
    assert "JSON" not in error["detail"]


def test_the_command_line_refuses_the_sheet_for_its_columns(tmp_path: Path, sqlite_url: str) -> None:
    sheet = tmp_path / "ladder.csv"
    sheet.write_bytes(UNKNOWN)
    result = cli("import", str(sheet), db=sqlite_url, check=False)
    assert result.returncode == 2
    assert "missing column 'date'" in result.stderr and HEADER in result.stderr


def test_a_file_part_named_csv_is_refused_for_its_columns(server: LiveServer) -> None:
    key = server.add_key("recorder")
    with server.client(key) as client:
        part = ("ladder.csv", UNKNOWN, "application/octet-stream")
        answer = client.post("/api/v1/logs", files=[("file", part)])
        assert answer.status_code == 400
        _says_columns(answer.json()["errors"], "ladder.csv")
        typed = client.post("/api/v1/logs", files=[("file", ("ladder", UNKNOWN, "text/csv"))])
        assert typed.status_code == 400
        _says_columns(typed.json()["errors"], "ladder")
        assert client.get("/api/v1/games").json()["total"] == 0


def test_a_body_typed_text_csv_is_refused_for_its_columns(server: LiveServer) -> None:
    key = server.add_key("recorder")
    with server.client(key) as client:
        answer = client.post("/api/v1/logs", content=UNKNOWN, headers={"content-type": "text/csv"})
    assert answer.status_code == 400
    _says_columns(answer.json()["errors"], "upload")


def test_a_good_sheet_and_a_json_part_still_import(server: LiveServer) -> None:
    key = server.add_key("recorder")
    sheet = UNKNOWN.replace(b"day", b"date", 1)
    game = b'{"format": "cribstats/game/1", "id": "g1", "players": ["Cy", "Di"]}\n'
    with server.client(key) as client:
        answer = client.post("/api/v1/logs", files=[("file", ("ladder.csv", sheet, "text/csv")),
                                                   ("file", ("one.jsonl", game, "application/octet-stream"))])
        assert answer.status_code == 200, answer.text
        assert answer.json()["imported"] == 2


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return html.unescape(found.group(1))


def test_a_sheet_pasted_on_the_scorecard_page_is_refused_for_its_columns(server: LiveServer) -> None:
    with server.client() as browser:
        form = browser.get("/session?next=/scorecard")
        key = server.add_key("cards")
        browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/scorecard"})
        page = browser.get("/scorecard")
        done = browser.post("/scorecard", data={"sheet": UNKNOWN.decode(), "csrf_token": _token(page.text)})
    assert done.status_code == 400
    text = html.unescape(done.text)
    assert "missing column 'date'" in text
    assert "not valid JSON" not in text
