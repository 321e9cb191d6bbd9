"""The scorecard form against a real ``cribstats serve``: a night's cards typed in as the sheet's rows, each row
checked by the sheet's reader with its message beside it and the typed values kept, the two cards of a game
cross-checked, and the night stored as the same sheet imported by ``cribstats import`` would be."""

from __future__ import annotations

import csv
import html
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from service_server import LiveServer, cli, live_server

ROOT = Path(__file__).resolve().parent.parent
SHEET = ROOT / "sample_logs" / "nights" / "grass-roots-2026-11-05.csv"
COLUMNS = ("date", "event", "round", "table", "player", "opponent", "game_points", "spread", "variant", "target")


@pytest.fixture
def site(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(db_url, tmp_path) as live:
        yield live


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return html.unescape(found.group(1))


def _signed_in(site: LiveServer) -> tuple[httpx.Client, str]:
    browser = httpx.Client(base_url=site.url, timeout=120)
    form = browser.get("/session?next=/scorecard")
    key = site.add_key("cards")
    browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/scorecard"})
    page = browser.get("/scorecard")
    assert page.status_code == 200
    return browser, _token(page.text)


def _fields(rows: list[dict[str, str]], token: str, action: str, **night: str) -> dict[str, str]:
    fields = {"csrf_token": token, "action": action, "rows": str(len(rows))}
    fields |= {f"night-{k}": v for k, v in night.items()}
    for i, row in enumerate(rows):
        fields |= {f"row-{i}-{k}": v for k, v in row.items()}
    return fields


def _row_cells(page: str, i: int) -> tuple[dict[str, str], str]:
    """A row of the form as the page shows it: the values in its inputs and the text beside it."""
    found = re.search(rf'<tr id="row-{i}"[^>]*>(.*?)</tr>', page, re.S)
    assert found is not None, i
    values = {m[0]: html.unescape(m[1]) for m in re.findall(rf'name="row-{i}-(\w+)" value="([^"]*)"', found[1])}
    beside = html.unescape(re.sub(r"<[^>]+>", " ", found[1].rsplit("<td", 1)[1].split(">", 1)[1])).split()
    return values, " ".join(beside)


def _stored_games(site: LiveServer) -> int:
    return len(orjson.loads(cli("games", "--format", "json", db=site.db).stdout))


def test_each_row_is_checked_beside_itself_and_kept_as_typed(site: LiveServer) -> None:
    browser, token = _signed_in(site)
    rows = [
        {"round": "1", "player": "Uma", "opponent": "Vic", "game_points": "2", "spread": "+24"},
        {"round": "1", "player": "Vic", "opponent": "Uma", "game_points": "0", "spread": "-24"},
        {"round": "2", "player": "Uma", "opponent": "Wes", "game_points": "5", "spread": "+9"},
        {},  # a blank row is no card
        {"round": "2", "player": "<script>alert(1)</script>", "opponent": "Uma", "game_points": "0",
         "spread": "ten"},
        {"round": "3", "player": "Vic", "opponent": "Wes", "game_points": "2", "spread": "+40"},
        {"round": "3", "player": "Wes", "opponent": "Vic", "game_points": "0", "spread": "-40"},
    ]  # fmt: skip
    try:
        checked = browser.post("/scorecard", data=_fields(rows, token, "check", date="2027-03-02",
                                                          event="Card Night"))  # fmt: skip
        assert checked.status_code == 400
        assert "<script>alert(1)</script>" not in checked.text
        for i, row in enumerate(rows):
            values, _ = _row_cells(checked.text, i)
            assert values == {c: row.get(c, "") for c in COLUMNS}, i  # kept as typed, nothing filled in
        beside = [_row_cells(checked.text, i)[1] for i in range(len(rows))]
        assert beside[0] == beside[1] == "ok"
        assert beside[2] == "Game points: '5' is not game points: a card gives 0, 2 or 3"
        assert beside[3] == ""
        assert beside[4] == "Spread: 'ten' is not a spread: write a whole number such as +17 or -17"
        # 40 points clear of a 121 game is a skunk: 3 game points, not 2 (the rule of the sheet's reader)
        skunk = "Vic's card for Vic against Wes in round 3 gives 2 game points with a spread of +40, which gives 3"
        assert beside[5] == beside[6] == skunk  # beside both cards of the game
        assert "2 rows to put right; the cards that agree make 1 game" in checked.text
        stored = browser.post("/scorecard", data=_fields(rows, token, "store", date="2027-03-02",
                                                         event="Card Night"))  # fmt: skip
        assert stored.status_code == 400 and 'id="result"' not in stored.text
        assert _stored_games(site) == 0  # a form is stored whole or not at all

        more = browser.post("/scorecard", data=_fields(rows, token, "more"))
        assert more.status_code == 200 and more.text.count('<tr id="row-') == len(rows) + 8
        assert _row_cells(more.text, 4)[0]["player"] == "<script>alert(1)</script>"

        assert browser.post("/scorecard", data=_fields(rows, "", "check")).status_code == 403
    finally:
        browser.close()
    with httpx.Client(base_url=site.url, timeout=120) as stranger:
        assert stranger.get("/scorecard").headers["location"] == "/session?next=/scorecard"
        assert stranger.post("/scorecard", data=_fields(rows, token, "check")).status_code == 303


def test_a_night_typed_in_is_stored_as_its_sheet_imported(site: LiveServer, tmp_path: Path) -> None:
    with open(SHEET, newline="") as handle:
        rows = list(csv.DictReader(handle))
    expected = [orjson.loads(line) for line in SHEET.with_name(SHEET.stem + ".expected-findings.txt")
                .read_bytes().splitlines() if line.strip()]  # fmt: skip
    night = {"date": rows[0]["date"], "event": rows[0]["event"]}
    typed = [{k: v for k, v in row.items() if k not in night} for row in rows]  # the night typed once
    browser, token = _signed_in(site)
    try:
        done = browser.post("/scorecard", data=_fields(typed, token, "store", **night))
    finally:
        browser.close()
    assert done.status_code == 200, done.text
    assert 'id="result"' in done.text
    findings = [f for i in range(len(rows)) for f in re.findall(
        r'<span class="finding row-finding">(.*?)</span>', _row_html(done.text, i))]  # fmt: skip
    # each finding stands beside each card of its game (one card when the other is missing)
    assert sorted(set(map(html.unescape, findings))) == sorted({f["message"] for f in expected})

    own = f"sqlite:///{tmp_path / 'cli.db'}"
    cli("import", str(SHEET), db=own)
    for command in (["standings"], ["stats"]):
        assert orjson.loads(cli(*command, "--format", "json", db=site.db).stdout) == orjson.loads(
            cli(*command, "--format", "json", db=own).stdout), command
    checks = re.search(r'<ul class="error" id="checks">(.*?)</ul>', done.text, re.S)
    assert checks is not None  # the import's own list: stored as findings, as the sheet's are
    listed = [html.unescape(m) for m in re.findall(r"<li>(.*?)</li>", checks.group(1))]
    assert [line.split(": ", 1)[1] for line in listed] == [f["message"] for f in expected]


def _row_html(page: str, i: int) -> str:
    found = re.search(rf'<tr id="row-{i}"[^>]*>(.*?)</tr>', page, re.S)
    assert found is not None
    return found[1]


def test_each_input_is_named_for_its_column_and_its_row(sqlite_url: str, tmp_path: Path) -> None:
    """A screen reader reads an input by its label: the card's column and the row it is on, as the # column
    numbers the rows (row 3's spread is "Spread, row 3", never the column's place)."""
    with live_server(sqlite_url, tmp_path) as live:
        _browser, _ = _signed_in(live)
        page = _browser.get("/scorecard").text
    labels = dict(re.findall(r'name="row-(\d+-\w+)" value="[^"]*" aria-label="([^"]*)"', page))
    assert labels["0-date"] == "Date, row 1"
    assert labels["0-spread"] == "Spread, row 1"
    assert labels["2-player"] == "Player, row 3"
    assert labels["2-target"] == "Target, row 3"
    assert len(labels) == 8 * len(COLUMNS)
