"""The pages and the report for a reader who cannot see them whole: on a phone, zoomed in, or with a screen reader.

- The scorecard page's column headings stand over their fields (the report's card grid, ``.cards``, once laid
  its ``<table class="cards">`` out as a grid: the headings in one cell of it, the fields in the next).
- A game's replay reflows at a phone's width (WCAG 1.4.10): no line is wider than the screen, and each deal has a
  heading of its own, so that a screen reader goes deal to deal.
- Headings go down one level at a time (a player's page went from its h1 to its cards' h3s), and every box that
  scrolls sideways takes the keyboard's focus, says what it holds and is a region (WCAG 2.1.1).

In Debian's chromium (skipped, saying why, without it and chromedriver) and, for the markup, over HTTP."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from itertools import pairwise
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

SCRIPT_NAME = "<script>alert(1)</script>"
LONG = "Bartholomew Fitzwilliam-Smythe of Lower Wallop"
PHONE = 360


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("a11y")
    games = simulate_games(8, players=[LONG, "Bob", SCRIPT_NAME, "Ann"], seed=9, mistake_rate=0.1,
                           start_date="2026-05-05", games_per_night=4)  # fmt: skip
    (folder / "games.jsonl").write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    url = f"sqlite:///{folder / 'club.db'}"
    engine = make_engine(url)
    assert import_paths([folder / "games.jsonl"], engine).imported == 8
    write_report(engine, folder / "report.html")
    engine.dispose()
    return url, folder / "report.html"


@pytest.fixture(scope="module")
def site(club: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(club[0], tmp_path_factory.mktemp("a11y-site")) as live:
        yield live


@pytest.fixture(scope="module")
def game(site: LiveServer) -> dict[str, Any]:
    """The game of the store with the most findings, as the API gives it."""
    with site.client() as client:
        key = client.get("/api/v1/findings", params={"limit": 1}).json()["items"][0]["game"]
        return client.get(f"/api/v1/games/{quote(key, safe='')}").json()  # type: ignore[no-any-return]


def _pages(game: dict[str, Any]) -> list[str]:
    return ["/", "/standings", "/players", f"/players/{quote(LONG)}", f"/players/{quote(SCRIPT_NAME, safe='')}",
            "/games", f"/games/{quote(game['game'], safe='')}", "/audit", "/api/docs"]  # fmt: skip


# --- the markup -----------------------------------------------------------------------------------------------


class Outline(HTMLParser):
    """A page's headings in order, and every ``.scroll`` box with its attributes and whether it is in a card."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[int] = []
        self.boxes: list[tuple[dict[str, str | None], bool]] = []
        self._cards: list[int] = []  # the depths of the open cards
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "input", "meta", "link", "hr"):
            return
        self._depth += 1
        named = dict(attrs)
        classes = (named.get("class") or "").split()
        if "card" in classes:
            self._cards.append(self._depth)
        if "scroll" in classes:
            self.boxes.append((named, bool(self._cards)))
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "input", "meta", "link", "hr"):
            return
        if self._cards and self._cards[-1] == self._depth:
            self._cards.pop()
        self._depth -= 1


def outline(page: str) -> Outline:
    found = Outline()
    found.feed(page)
    return found


def _marked_up_for_all(page: str, where: str) -> None:
    found = outline(page)
    assert found.headings and found.headings[0] == 1, where
    # each heading at most one level below the one before it
    levels = found.headings
    assert all(b <= a + 1 for a, b in pairwise(levels)), (where, levels)
    for attrs, in_card in found.boxes:
        if in_card:  # a card's figures: its labels wrap, so its box never scrolls (tested below, in chromium)
            continue
        assert attrs.get("tabindex") == "0" and attrs.get("role") == "region", (where, attrs)
        assert (attrs.get("aria-label") or "").strip(), (where, attrs)


def test_headings_go_down_a_level_at_a_time_and_every_box_is_a_named_region(
        site: LiveServer, club: tuple[str, Path], game: dict[str, Any]) -> None:  # fmt: skip
    with site.client() as client:
        for path in _pages(game):
            answer = client.get(path)
            assert answer.status_code == 200, path
            _marked_up_for_all(answer.text, path)
        # the player page's cards now stand under a heading of their level
        assert outline(client.get(f"/players/{quote(LONG)}").text).headings[:3] == [1, 2, 3]
    _marked_up_for_all(club[1].read_text(encoding="utf-8"), "report")


# --- in chromium ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium_driver(tmp_path_factory.mktemp("profile")) as driver:
        yield driver


def at_width(driver: Any, width: int, url: str) -> None:
    """``url`` on a screen ``width`` px wide (headless chromium makes no window narrower than 500 px): a phone's
    below 500 px (its scroll bars drawn over the page, taking none of its width)."""
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.get(url)


HEADINGS_OVER_FIELDS = """
  const table = document.querySelector('table.cards');
  const heads = [...table.querySelectorAll('thead th')];
  const cells = [...document.querySelectorAll('#row-0 td')];
  return {display: getComputedStyle(table).display, heads: heads.length, cells: cells.length,
    columns: heads.map((th, i) => { const h = th.getBoundingClientRect();
      const under = (cells[i].querySelector('input') || cells[i]).getBoundingClientRect();
      return [th.textContent, h.left, h.right, h.bottom, under.left, under.right, under.top]; })}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, PHONE])
def test_the_scorecards_headings_stand_over_their_fields(browser: Any, site: LiveServer, width: int) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    key = site.add_key(f"a11y-{width}")
    at_width(browser, width, site.url + "/scorecard")
    if "/session" in browser.current_url:
        browser.find_element(By.NAME, "key").send_keys(key)
        browser.find_element(By.CSS_SELECTOR, "#sign-in form.stack button").click()
        WebDriverWait(browser, 30).until(lambda d: d.current_url.endswith("/scorecard"))
    found = browser.execute_script(HEADINGS_OVER_FIELDS)
    assert found["display"] == "table" and found["heads"] == found["cells"] > 5
    for name, left, right, bottom, field_left, field_right, field_top in found["columns"]:
        assert min(right, field_right) - max(left, field_left) > 0, (width, name, found["columns"])  # over it
        assert bottom <= field_top + 0.5, (width, name)  # and above it


REPLAY = """const width = document.documentElement.clientWidth;
  const lines = [...document.querySelectorAll('pre.replay .line')];
  return {width, page: document.documentElement.scrollWidth, lines: lines.length,
    wide: lines.filter(l => l.getBoundingClientRect().right > width + 0.5).map(l => l.textContent),
    scrolled: [...document.querySelectorAll('pre.replay')].filter(p => p.scrollWidth > p.clientWidth).length,
    deals: [...document.querySelectorAll('#replay h3.deal')].map(h => h.textContent)}"""


@pytest.mark.browser
def test_a_games_replay_reflows_on_a_phone_a_heading_a_deal(browser: Any, site: LiveServer,
                                                            game: dict[str, Any]) -> None:  # fmt: skip
    at_width(browser, PHONE, site.url + f"/games/{quote(game['game'], safe='')}")
    found = browser.execute_script(REPLAY)
    assert found["width"] == PHONE and found["page"] <= PHONE
    assert found["lines"] > 20 and found["wide"] == [] and found["scrolled"] == 0
    assert len(found["deals"]) == len(game["deals"])
    assert [re.match(r"Deal (\d+): ", d).group(1) for d in found["deals"]] == [  # type: ignore[union-attr]
        str(d["number"]) for d in game["deals"]]


SCROLLERS = """return [...document.querySelectorAll('body *')].filter(e => {
    const s = getComputedStyle(e);
    return ['auto', 'scroll'].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
  }).map(e => ({what: e.tagName + '.' + e.className + ' in #' + ((e.closest('section') || {}).id || ''),
    tabindex: e.getAttribute('tabindex'), role: e.getAttribute('role'), label: e.getAttribute('aria-label'),
    card: !!e.closest('.card'), replay: e.matches('pre.replay')}))"""


@pytest.mark.browser
def test_every_box_that_scrolls_on_a_phone_takes_the_focus(browser: Any, site: LiveServer, club: tuple[str, Path],
                                                           game: dict[str, Any]) -> None:  # fmt: skip
    scrolled = []
    for url in [club[1].as_uri(), *(site.url + path for path in _pages(game))]:
        at_width(browser, PHONE, url)
        for box in browser.execute_script(SCROLLERS):
            scrolled.append(box)
            assert not box["card"] and not box["replay"], (url, box)  # a card's figures and a replay wrap
            assert box["tabindex"] == "0" and box["role"] == "region" and box["label"], (url, box)
    assert len(scrolled) > 5  # wide tables do scroll on a phone, in their boxes
