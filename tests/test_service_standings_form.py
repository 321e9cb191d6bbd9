"""The standings page's own filter form, submitted with some fields left empty, shows the standings those filters
give: a browser sends every field of a GET form, the empty ones as `name=`, and an empty field is no filter (it
was answered 422, "input is too short", for each empty date).

The standings of the sheet below are worked out by hand, for the event `Ladder` (the third game is another
event's): Ann won one game by 121 - 80 = 41, a skunk (80 is under 91): 3 game points; Bob lost that one (-41)
and won one by 121 - 100 = 21: 2 game points, spread -20; Cy lost that one: 0 game points, spread -21.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium_driver import chromium_driver
from service_server import LiveServer, cli, live_server

SHEET = """date,event,round,player1,player2,score1,score2
2026-10-01,Ladder,1,Ann,Bob,121,80
2026-10-01,Ladder,2,Bob,Cy,121,100
2026-10-02,Other,1,Cy,Ann,121,95
"""
# rank, player, games, won, lost, game points, spread
LADDER = [["1", "Ann", "1", "1", "0", "3", "41"], ["2", "Bob", "2", "1", "1", "2", "-20"],
          ["3", "Cy", "1", "0", "1", "0", "-21"]]  # fmt: skip
FIELDS = ("event", "date", "since", "until", "variant")


@pytest.fixture
def site(sqlite_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    sheet = tmp_path / "ladder.csv"
    sheet.write_text(SHEET)
    cli("import", "-q", str(sheet), db=sqlite_url)
    with live_server(sqlite_url, tmp_path) as live:
        yield live


def _rows(page: str) -> list[list[str]]:
    """The standings table's body rows, each cell's text, up to the spread."""
    body = re.search(r'<section id="standings">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body is not None, page
    rows = re.findall(r"<tr>(.*?)</tr>", body[1], re.S)
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S) for r in rows]
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in row][:7] for row in cells]


def test_the_form_with_empty_fields_filters_by_the_filled_one(site: LiveServer) -> None:
    with site.client() as client:
        page = client.get("/standings").text
        names = re.findall(r'<form method="get" action="/standings".*?</form>', page, re.S)[0]
        assert tuple(re.findall(r'name="(\w+)"', names)) == FIELDS
        # every field, as the browser sends the form: the event typed, the others empty
        sent = client.get("/standings", params={name: "Ladder" if name == "event" else "" for name in FIELDS})
        assert sent.status_code == 200, sent.text
        assert _rows(sent.text) == LADDER
        everyone = client.get("/standings", params=dict.fromkeys(FIELDS, ""))
        assert everyone.status_code == 200
        # every game: Ann 3 game points; Cy (beat Ann by 121 - 95 = 26) and Bob 2 each, one win each, and Cy's
        # spread 26 - 21 = +5 above Bob's -20
        assert [[row[1], row[5], row[6]] for row in _rows(everyone.text)] == [["Ann", "3", "15"], ["Cy", "2", "5"],
                                                                        ["Bob", "2", "-20"]]  # fmt: skip
        night = client.get("/standings", params={**dict.fromkeys(FIELDS, ""), "date": "2026-10-02"})
        assert [[row[1], row[5]] for row in _rows(night.text)] == [["Cy", "2"], ["Ann", "0"]]
        wrong = client.get("/standings", params={**dict.fromkeys(FIELDS, ""), "since": "2026-13-01"})
        assert wrong.status_code == 400 and "since" in html.unescape(wrong.text)
        # a date as the game logs and the commands write it, or refused in their words
        compact = client.get("/standings", params={**dict.fromkeys(FIELDS, ""), "until": "20261002"})
        assert compact.status_code == 400 and "write YYYY-MM-DD" in html.unescape(compact.text)


@pytest.mark.browser
def test_the_form_filled_in_chromium_shows_the_events_standings(site: LiveServer, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with chromium_driver(tmp_path / "profile") as driver:
        driver.get(site.url + "/standings")
        driver.find_element(By.NAME, "event").send_keys("Ladder")
        driver.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
        # the click starts the page's load: wait for the answer's address (the page before has a table too)
        WebDriverWait(driver, 30).until(lambda d: "event=Ladder" in d.current_url)
        driver.find_element(By.CSS_SELECTOR, "#standings tbody")
        assert "date=" in driver.current_url  # the empty fields were sent
        rows = [[td.text.strip() for td in tr.find_elements(By.TAG_NAME, "td")][:7]
                for tr in driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")]  # fmt: skip
        assert rows == LADDER
