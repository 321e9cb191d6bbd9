"""The pages in Debian's chromium (Selenium with /usr/bin/chromedriver, no browser download): sign in, upload a
night, open a player page and a game page, with no console message, and a player named like a script shown as
text. Skipped, saying why, without chromium or chromedriver."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import orjson
import pytest
from chromium_driver import chromium_driver
from service_server import LiveServer, live_server

from cribstats.simulate import simulate_games

SCRIPT_NAME = "<script>alert(1)</script>"
pytestmark = pytest.mark.browser


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    with chromium_driver(tmp_path / "profile", console_log=True) as driver:
        yield driver


@pytest.fixture
def site(tmp_path: Path, sqlite_url: str) -> Iterator[LiveServer]:
    with live_server(sqlite_url, tmp_path) as live:
        yield live


def follow(driver: object, element: object) -> None:
    """Click what brings a new page, and wait until that page has loaded. The old page is marked first and the wait
    ends on a loaded page without the mark: waiting instead for the clicked element to go stale races chromedriver,
    which may answer mid-navigation that the node "does not belong to the document"."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("window.oldPage = true")  # type: ignore[attr-defined]
    element.click()  # type: ignore[attr-defined]
    loaded = "return window.oldPage === undefined && document.readyState === 'complete'"
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(  # type: ignore[arg-type]
        lambda d: d.execute_script(loaded))


def test_upload_then_player_and_game_pages_in_chromium(browser: object, site: LiveServer, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver = browser
    night = tmp_path / "night.jsonl"
    games = [g.log for g in simulate_games(4, players=[SCRIPT_NAME, "Bob"], seed=8, mistake_rate=0.05,
                                           start_date="2026-03-03")]  # fmt: skip
    night.write_bytes(b"".join(orjson.dumps(g) + b"\n" for g in games))
    key = site.add_key("browser")

    driver.get(site.url + "/upload")  # type: ignore[attr-defined]
    assert driver.current_url.endswith("/session?next=/upload")  # type: ignore[attr-defined]
    driver.find_element(By.NAME, "key").send_keys(key)  # type: ignore[attr-defined]
    follow(driver, driver.find_element(By.CSS_SELECTOR, "#sign-in form.stack button"))  # type: ignore[attr-defined]
    assert driver.current_url.endswith("/upload")  # type: ignore[attr-defined]
    driver.find_element(By.NAME, "file").send_keys(str(night))  # type: ignore[attr-defined]
    follow(driver, driver.find_element(By.CSS_SELECTOR, "#upload button"))  # type: ignore[attr-defined]
    result = driver.find_element(By.ID, "result").text  # type: ignore[attr-defined]
    assert f"Imported\n{len(games)}" in result

    driver.get(site.url + "/players/" + quote(SCRIPT_NAME, safe=""))  # type: ignore[attr-defined]
    heading = driver.find_element(By.TAG_NAME, "h1").text  # type: ignore[attr-defined]
    assert heading == SCRIPT_NAME
    images = driver.find_elements(By.CSS_SELECTOR, "#charts img")  # type: ignore[attr-defined]
    assert len(images) == 3
    assert all(driver.execute_script("return arguments[0].naturalWidth", img) > 0 for img in images)  # type: ignore[attr-defined]

    follow(driver, driver.find_element(By.CSS_SELECTOR, "#recent-games td a"))  # type: ignore[attr-defined]
    replay = driver.find_element(By.CSS_SELECTOR, "pre.replay").text  # type: ignore[attr-defined]
    assert replay.startswith("Game ") and SCRIPT_NAME in replay
    assert driver.execute_script("return document.querySelectorAll('script').length") == 0  # type: ignore[attr-defined]
    assert driver.get_log("browser") == []  # type: ignore[attr-defined]


def test_scorecards_typed_in_chromium(browser: object, site: LiveServer) -> None:
    """A night's two cards typed into the form (one row more asked for, no script on the page), a row put right
    after its message, then stored."""
    from selenium.webdriver.common.by import By

    driver = browser
    key = site.add_key("browser-cards")
    driver.get(site.url + "/scorecard")  # type: ignore[attr-defined]
    driver.find_element(By.NAME, "key").send_keys(key)  # type: ignore[attr-defined]
    follow(driver, driver.find_element(By.CSS_SELECTOR, "#sign-in form.stack button"))  # type: ignore[attr-defined]
    assert driver.current_url.endswith("/scorecard")  # type: ignore[attr-defined]

    def type_row(i: int, values: dict[str, str]) -> None:
        for column, value in values.items():
            cell = driver.find_element(By.NAME, f"row-{i}-{column}")  # type: ignore[attr-defined]
            cell.clear()
            cell.send_keys(value)

    def press(action: str) -> None:  # a button of the form, and the page it brings
        follow(driver, driver.find_element(By.CSS_SELECTOR, f"button[value={action}]"))  # type: ignore[attr-defined]

    def beside(i: int) -> str:
        return driver.find_element(By.CSS_SELECTOR, f"#row-{i} td:last-child").text  # type: ignore[attr-defined,no-any-return]

    driver.find_element(By.NAME, "night-date").send_keys("03022027")  # type: ignore[attr-defined]
    driver.find_element(By.NAME, "night-event").send_keys("Card Night")  # type: ignore[attr-defined]
    type_row(0, {"round": "1", "player": SCRIPT_NAME, "opponent": "Vic", "game_points": "2", "spread": "+24"})
    type_row(1, {"round": "1", "player": "Vic", "opponent": SCRIPT_NAME, "game_points": "0", "spread": "-42"})
    rows = len(driver.find_elements(By.CSS_SELECTOR, "table.cards tbody tr"))  # type: ignore[attr-defined]
    press("more")
    assert len(driver.find_elements(By.CSS_SELECTOR, "table.cards tbody tr")) > rows  # type: ignore[attr-defined]
    assert driver.find_element(By.NAME, "row-0-player").get_attribute("value") == SCRIPT_NAME  # type: ignore[attr-defined]

    press("store")
    assert beside(0) == beside(1) == (f"the cards of {SCRIPT_NAME} against Vic in round 1 disagree: "
                                     f"{SCRIPT_NAME}'s spread is +24 but Vic's is -42, not -24")  # as text
    type_row(1, {"spread": "-24"})
    press("store")
    assert beside(0) == beside(1) == "ok"
    assert "Imported\n1" in driver.find_element(By.ID, "result").text  # type: ignore[attr-defined]
    assert driver.execute_script("return document.querySelectorAll('script').length") == 0  # type: ignore[attr-defined]
    assert driver.get_log("browser") == []  # type: ignore[attr-defined]
    with site.client() as client:
        assert client.get("/api/v1/players/" + quote(SCRIPT_NAME, safe="")).json()["name"] == SCRIPT_NAME
