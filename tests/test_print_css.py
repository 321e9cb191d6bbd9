"""On paper (A4, the stylesheet's 12 mm margins) the report and the pages keep every column: cells wrap, nothing
scrolls, and no table or replay is wider than the page (before, the standings' "Rating points", the head-to-head
matrix's last columns, the discards' columns and a player's "Recent games" were cut off at the right edge, and
chromium shrank the whole page to 8 pt to get the rest in). A player's card, a chart and its caption, and a
table's row are kept whole, and a heading is kept with what follows it.

Measured in chromium in print media emulation at the page's content width (what the printed page lays out), and
printed to PDF. A club of 24 players fills the head-to-head matrix; two of them have long names. Skipped, saying
why, without chromium and chromedriver."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import pytest
from chromium_driver import chromium_driver
from service_server import LiveServer, live_server

from cribstats.report import write_report
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

pytestmark = pytest.mark.browser
LONG = "Bartholomew Fitzwilliam-Smythe of Lower Wallop"
UNBROKEN = "Maximilianwolfgangamadeusbartholdy"
PLAYERS = [LONG, UNBROKEN, *(f"Player {chr(ord('A') + i)}" for i in range(22))]
A4_CONTENT = int((210 - 2 * 12) / 25.4 * 96)  # px: A4's width less the stylesheet's @page margins
TOO_WIDE = """const width = arguments[0];
  return [...document.querySelectorAll('table, pre')].filter(e => e.getBoundingClientRect().width > 0)
    .filter(e => e.scrollWidth > width || e.getBoundingClientRect().right > width + 0.5)
    .map(e => ((e.closest('section') || {}).id || '') + ' ' + e.tagName + ' ' + e.scrollWidth)
    .concat(document.documentElement.scrollWidth > width ? ['the page is ' + document.documentElement.scrollWidth]
      : [])"""


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("print")
    games = simulate_games(70, players=PLAYERS, seed=12, mistake_rate=0.05, start_date="2026-01-06",
                           games_per_night=10)  # fmt: skip
    (folder / "games.jsonl").write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    url = f"sqlite:///{folder / 'club.db'}"
    engine = make_engine(url)
    assert import_paths([folder / "games.jsonl"], engine).imported == 70
    write_report(engine, folder / "report.html")
    engine.dispose()
    return url, folder / "report.html"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium_driver(tmp_path_factory.mktemp("profile")) as driver:
        yield driver


@pytest.fixture(scope="module")
def site(club: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(club[0], tmp_path_factory.mktemp("print-site")) as live:
        yield live


def on_paper(driver: Any, url: str, width: int = A4_CONTENT) -> None:
    """``url`` laid out as printed: print media, a page ``width`` wide."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 1100, "deviceScaleFactor": 1, "mobile": False})  # fmt: skip
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    driver.get(url)


def _pages(site: LiveServer) -> list[str]:
    with site.client() as client:
        game = client.get("/api/v1/findings", params={"limit": 1}).json()["items"][0]["game"]
    return ["/", "/standings", f"/players/{quote(LONG)}", f"/players/{UNBROKEN}", "/players", "/games",
            f"/games/{quote(game, safe='')}", "/audit", "/api/docs"]  # fmt: skip


def test_the_report_fits_the_width_of_an_a4_page(browser: Any, club: tuple[str, Path]) -> None:
    on_paper(browser, club[1].as_uri())
    assert browser.execute_script("return document.querySelectorAll('table.matrix thead th').length") == 25
    assert browser.execute_script(TOO_WIDE, A4_CONTENT) == []
    # cells wrap on paper (on a screen they do not: a wide table scrolls in its box there)
    assert browser.execute_script("return getComputedStyle(document.querySelector('#season td')).whiteSpace") == (
        "normal")  # fmt: skip
    pdf = base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", {
        "paperWidth": 210 / 25.4, "paperHeight": 297 / 25.4, "printBackground": True})["data"])  # fmt: skip
    assert pdf.startswith(b"%PDF-")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "screen"})
    assert browser.execute_script("return getComputedStyle(document.querySelector('#season td')).whiteSpace") == (
        "nowrap")  # fmt: skip


def test_the_pages_fit_the_width_of_an_a4_page(browser: Any, site: LiveServer) -> None:
    for path in _pages(site):
        on_paper(browser, site.url + path)
        assert browser.execute_script(TOO_WIDE, A4_CONTENT) == [], path


BREAKS = """return {
  cards: [...document.querySelectorAll('.card')].map(e => getComputedStyle(e).breakInside),
  figures: [...document.querySelectorAll('figure')].map(e => getComputedStyle(e).breakInside),
  rows: [...document.querySelectorAll('tr')].slice(0, 5).map(e => getComputedStyle(e).breakInside),
  headings: [...document.querySelectorAll('h1, h2, h3, h4')].map(e => getComputedStyle(e).breakAfter)}"""


def _kept_whole(found: dict[str, list[str]], *kinds: str) -> None:
    for kind in kinds:
        assert found[kind], kind
    assert set(found["cards"] + found["figures"] + found["rows"]) <= {"avoid"}, found
    assert set(found["headings"]) == {"avoid"}, found


def test_printing_keeps_cards_charts_and_headings_with_what_follows(browser: Any, club: tuple[str, Path],
                                                                    site: LiveServer) -> None:  # fmt: skip
    on_paper(browser, club[1].as_uri())
    _kept_whole(browser.execute_script(BREAKS), "cards", "figures", "rows", "headings")
    pages = _pages(site)
    on_paper(browser, site.url + pages[2])  # a player's page: cards and charts
    _kept_whole(browser.execute_script(BREAKS), "cards", "figures", "rows", "headings")
    on_paper(browser, site.url + pages[6])  # a game: a heading a deal
    _kept_whole(browser.execute_script(BREAKS), "headings")
    # on a screen nothing of it applies
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "screen"})
    assert set(browser.execute_script(BREAKS)["headings"]) == {"auto"}
