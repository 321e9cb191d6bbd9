"""The report's player cards keep every figure in sight at the widths where three or four of them stand abreast
(a laptop's window, a tablet), in chromium: a card narrower than its longest label and figure used to scroll,
so "Games 346" read "Games 34" until scrolled."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from chromium_driver import chromium_driver

from cribstats.report import write_report
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

pytestmark = pytest.mark.browser
HIDDEN = """return [...document.querySelectorAll('.card .scroll')]
  .filter(box => box.scrollWidth > box.clientWidth + 1).length"""


def test_a_player_cards_figures_are_not_cut_off(sqlite_url: str, tmp_path: Path) -> None:
    logs = tmp_path / "games.jsonl"
    games = simulate_games(4, players=["Ann", "Bob"], seed=6, start_date="2026-11-26")
    logs.write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    engine = make_engine(sqlite_url)
    import_paths([logs], engine)
    report = tmp_path / "report.html"
    write_report(engine, report)
    with chromium_driver(tmp_path / "profile") as driver:
        for width in (1000, 1300, 700):
            driver.set_window_size(width, 900)
            driver.get(report.as_uri())
            cards = driver.execute_script("return document.querySelectorAll('.card .scroll').length")
            assert cards > 0
            assert driver.execute_script(HIDDEN) == 0, width
