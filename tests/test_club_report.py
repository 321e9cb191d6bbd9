"""The report's club sections: the latest night (placings, cards, special hands), the season standings, the
head-to-head matrix and the ratings with their chart, all names as text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_club_tables import HANDS_GAME, NIGHT

from cribstats.report import build_report
from cribstats.stats.frames import StatsFilter
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

SCRIPT = "<script>x</script>"


@pytest.fixture(scope="module")
def html(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("club-report")
    (folder / "night.csv").write_text(NIGHT.replace("Eve", SCRIPT))
    (folder / "hands.json").write_text(json.dumps(HANDS_GAME))
    engine = make_engine(f"sqlite:///{folder / 'club.db'}")
    assert import_paths([folder / "night.csv", folder / "hands.json"], engine).complete
    return build_report(engine, StatsFilter())


def _section(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}">')
    return html[start : html.index("</section>", start)]


def _cells(row_html: str) -> list[str]:
    return re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row_html)


def test_the_latest_night_is_the_tenth_of_march(html: str) -> None:
    night = _section(html, "night")
    assert "Grass Roots, 2026-03-10" in night
    rows = [_cells(r) for r in re.findall(r"<tr>(.*?)</tr>", night)][1:]
    assert rows[:2] == [["1", "Bob", "2/1 +21", "1", "1", "2", "21", "yes"], ["2", "Ann", "0/0 -21", "1", "0", "0",
                                                                               "-21", ""]]  # fmt: skip
    assert "Grand Slam:</strong> Bob." in night
    assert "No hand or crib of 24 or more" in night  # the side pots were on the third


def test_season_and_matrix(html: str) -> None:
    season = _section(html, "season")
    first = _cells(re.findall(r"<tr>(.*?)</tr>", season)[1])
    # Ann: two nights, 5 game points and 2 wins, spread 55 - 21 = +34; Dan the same points and wins, +33
    assert first[:4] == ["1", "Ann", "2", "5"]
    matrix = _section(html, "head-to-head")
    escaped = "&lt;script&gt;x&lt;/script&gt;"
    assert SCRIPT not in html and escaped in matrix
    ann = next(_cells(r) for r in re.findall(r"<tr>(.*?)</tr>", matrix) if r.startswith('<th scope="row">Ann'))
    # columns in name order ("<" before letters): <script>..., Ann, Bob, Cat, Dan; Ann and Bob won one each
    assert ann == ["Ann", "", "", "1-1", "1-0", "0-1"]


def test_ratings_section(html: str) -> None:
    ratings = _section(html, "ratings")
    assert 'id="chart-ratings"' in ratings and 'src="data:image/png;base64,iVBORw0KGgo' in ratings
    names = [_cells(r)[1] for r in re.findall(r"<tr>(.*?)</tr>", ratings)[1:]]
    assert sorted(names) == sorted(["Ann", "Bob", "Cat", "Dan", "&lt;script&gt;x&lt;/script&gt;"])


def test_a_report_of_no_games_says_so(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    from cribstats.store.db import upgrade

    upgrade(engine)
    html = build_report(engine)
    assert "No dated, finished games." in _section(html, "night")
    assert "No finished games between players." in _section(html, "head-to-head")
