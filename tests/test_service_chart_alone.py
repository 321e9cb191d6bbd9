"""A chart of the pages opened on its own in chromium (as "Open image in new tab" does) is drawn in its colours,
against a real `cribstats serve`: its shapes are styled inline, which the pages' own policy would refuse, leaving
every shape black. Still nothing in it may run."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from chromium_driver import chromium_driver
from service_server import cli, live_server

from cribstats.simulate import simulate_games

pytestmark = pytest.mark.browser
SCRIPT_NAME = "<script>alert(1)</script>"


def test_a_chart_opened_alone_keeps_its_colours(sqlite_url: str, tmp_path: Path) -> None:
    logs = tmp_path / "games.jsonl"
    games = simulate_games(3, players=[SCRIPT_NAME, "Bob"], seed=1, start_date="2026-11-26")
    logs.write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    cli("import", str(logs), db=sqlite_url)
    with live_server(sqlite_url, tmp_path) as site, chromium_driver(tmp_path / "p", console_log=True) as driver:
        driver.get(site.url + "/charts/averages.svg?player=%3Cscript%3Ealert%281%29%3C%2Fscript%3E")
        svg = site.client().get("/charts/averages.svg").text
        assert 'id="patch_1"' in svg and "fill: #ffffff" in svg  # the figure's ground, as the file writes it
        ground = driver.execute_script("return getComputedStyle(document.querySelector('#patch_1 path')).fill")
        assert ground == "rgb(255, 255, 255)"
        assert driver.execute_script("return document.querySelectorAll('script').length") == 0
        assert driver.get_log("browser") == []
