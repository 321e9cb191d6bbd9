"""The report in a real headless browser (Debian's chromium): it loads without a console message, lays out every
section, and shows a player named like a script tag as text, with no script but the page's own having run.

Needs chromium: ``CRIBSTATS_TEST_CHROMIUM`` names it (``.ci/run`` sets it), else ``/usr/bin/chromium`` is used
when present; without one the test is skipped, saying why.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from cribstats.report import write_report
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

CHROMIUM_ENV = "CRIBSTATS_TEST_CHROMIUM"
SCRIPT_NAME = "<script>alert(1)</script>"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-logging=stderr", "--v=0",
]  # fmt: skip

pytestmark = pytest.mark.browser


def _chromium() -> str:
    path = os.environ.get(CHROMIUM_ENV) or "/usr/bin/chromium"
    if not (os.path.isfile(path) and os.access(path, os.X_OK)) and not shutil.which(path):
        pytest.skip(f"browser test skipped: no chromium at {path} (set {CHROMIUM_ENV})")
    return path


def _run(chromium: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    profile.mkdir()
    return subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("browser")
    logs = folder / "night.jsonl"
    with open(logs, "wb") as handle:
        for game in simulate_games(6, players=[SCRIPT_NAME, "Bob"], seed=8, mistake_rate=0.05,
                                   start_date="2026-03-03"):  # fmt: skip
            handle.write(orjson.dumps(game.log) + b"\n")
    engine = make_engine(f"sqlite:///{folder / 'club.db'}")
    assert import_paths([logs], engine).imported == 6
    out = folder / "report.html"
    write_report(engine, out)
    return out


def test_report_loads_in_chromium(report_file: Path, tmp_path: Path) -> None:
    chromium = _chromium()
    done = _run(chromium, tmp_path, "--dump-dom", report_file.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    # the page's own script ran (the CSP allowed it by hash) and found every section laid out
    ready = re.search(r'<html[^>]*data-report-ready="([^"]*)"', dom)
    assert ready is not None, dom[:500]
    sections = ["summary", "standings", "night", "season", "matches", "head-to-head", "ratings", "players",
                "charts", "audit", "discards"]  # fmt: skip
    assert ready.group(1).split() == sections
    # no console message: no script error, no blocked script, no failed load
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    assert console == []
    # the player named like a script tag is a text node in the live document, in the heading of her table
    assert "<h3>&lt;script&gt;alert(1)&lt;/script&gt;</h3>" in dom
    assert dom.count("<script") == 1  # only the page's own
    assert dom.count('src="data:image/png;base64,') == 7  # the club's charts and the discard chart


def test_report_renders_on_a_phone(report_file: Path, tmp_path: Path) -> None:
    chromium = _chromium()
    shot = tmp_path / "phone.png"
    done = _run(chromium, tmp_path, "--window-size=390,1600", "--hide-scrollbars", f"--screenshot={shot}",
                report_file.as_uri())  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000


def test_a_phone_shows_the_game_points_beside_a_long_name(tmp_path: Path) -> None:
    """At 390 px wide, the standings' game points (what they are ranked by) are on the screen without scrolling,
    however long the names (the page's script measures where the column's heading ends)."""
    chromium = _chromium()
    logs = tmp_path / "night.jsonl"
    long = "Bartholomew Fitzwilliam-Smythe of Lower Wallop"  # a valid name of 46 characters
    with open(logs, "wb") as handle:
        for game in simulate_games(2, players=[long, "Bob"], seed=3, start_date="2026-03-03"):
            handle.write(orjson.dumps(game.log) + b"\n")
    engine = make_engine(f"sqlite:///{tmp_path / 'club.db'}")
    assert import_paths([logs], engine).imported == 2
    out = tmp_path / "report.html"
    write_report(engine, out)
    # Headless chromium will not make a window narrower than 500 px: the report is shown in a frame 390 px wide
    # (a phone's screen), and the frame's page copies the report's measurements up when it has loaded.
    phone = tmp_path / "phone.html"
    phone.write_text(
        '<!DOCTYPE html><html><body style="margin:0"><iframe id="p" src="report.html" '
        'style="width:390px;height:1600px;border:0"></iframe><script>'
        "document.getElementById('p').addEventListener('load', function () {"
        " var root = this.contentDocument.documentElement; ['data-points-right', 'data-screen-width']"
        ".forEach(function (a) { document.body.setAttribute(a, root.getAttribute(a)); }); });"
        "</script></body></html>"
    )
    done = _run(chromium, tmp_path, "--allow-file-access-from-files", "--dump-dom", phone.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    right = re.search(r'data-points-right="(\d+)"', done.stdout)
    screen = re.search(r'data-screen-width="(\d+)"', done.stdout)
    assert right is not None and screen is not None, done.stdout[:500]
    assert int(screen.group(1)) == 390
    assert int(right.group(1)) <= 390
