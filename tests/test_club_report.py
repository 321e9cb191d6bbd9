"""The report's club sections: the latest night (placings, cards, special hands), the season standings, the
head-to-head matrix and the ratings with their chart, all names as text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_club_tables import HANDS_GAME, MATCHES, NIGHT

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
    (folder / "matches.json").write_text(json.dumps(MATCHES[:1]))  # Ann beats Bob 2-1 on 7 April
    engine = make_engine(f"sqlite:///{folder / 'club.db'}")
    assert import_paths([folder / "night.csv", folder / "hands.json", folder / "matches.json"], engine).complete
    return build_report(engine, StatsFilter())


def _section(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}">')
    return html[start : html.index("</section>", start)]


def _cells(row_html: str) -> list[str]:
    return re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row_html)


def test_the_latest_night_is_the_final(html: str) -> None:
    """The best of three on 7 April is the latest night: Ann won 121-100 and 121-80 (a skunk), lost 90-121 (a
    skunk): 2 + 3 = 5 game points, +21 + 41 - 31 = +31."""
    night = _section(html, "night")
    assert "<bdi>Tuesday League</bdi>, 2026-04-07" in night  # the event isolated from the date beside it
    rows = [_cells(r) for r in re.findall(r"<tr>(.*?)</tr>", night)][1:]
    assert rows == [["1", "Ann", "5/2 +31", "3", "2", "5", "31", ""], ["2", "Bob", "3/1 -31", "3", "1", "3", "-31",
                                                                        ""]]  # fmt: skip
    assert "Grand Slam:</strong>" not in night
    assert "No hand or crib of 24 or more" in night  # the side pots were on the third of March


def test_matches_section(html: str) -> None:
    matches = _section(html, "matches")
    rows = [_cells(r) for r in re.findall(r"<tr>(.*?)</tr>", matches)][1:]
    assert rows == [["2026-04-07", "Tuesday League", "final", "Ann", "2-1", "Bob", "Ann", "first to 2 games", ""]]


def test_season_and_matrix(html: str) -> None:
    season = _section(html, "season")
    first = _cells(re.findall(r"<tr>(.*?)</tr>", season)[1])
    # Ann: three nights (the final included), 5 + 0 + 5 = 10 game points
    assert first[:4] == ["1", "Ann", "3", "10"]
    matrix = _section(html, "head-to-head")
    escaped = "&lt;script&gt;x&lt;/script&gt;"
    assert SCRIPT not in html and escaped in matrix
    ann = next(_cells(r) for r in re.findall(r"<tr>(.*?)</tr>", matrix) if r.startswith('<th scope="row">Ann'))
    # columns in name order ("<" before letters): <script>..., Ann, Bob, Cat, Dan; Ann beat Bob on 3 March and
    # twice in the final, lost to him on 10 March and once in the final
    assert ann == ["Ann", "", "", "3-2", "1-0", "0-1"]


def test_ratings_section(html: str) -> None:
    ratings = _section(html, "ratings")
    assert 'id="chart-ratings"' in ratings and 'src="data:image/png;base64,iVBORw0KGgo' in ratings
    table = ratings[ratings.index("</details>"):]  # the ratings table, after the chart and its figures as text
    names = [_cells(r)[1] for r in re.findall(r"<tr>(.*?)</tr>", table)[1:]]
    assert sorted(names) == sorted(["Ann", "Bob", "Cat", "Dan", "&lt;script&gt;x&lt;/script&gt;"])


def test_a_report_of_no_games_says_so(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    from cribstats.store.db import upgrade

    upgrade(engine)
    html = build_report(engine)
    assert "No dated, finished games." in _section(html, "night")
    assert "No finished games between players." in _section(html, "head-to-head")


def test_words_stand_flush_left_and_numbers_flush_right(html: str) -> None:
    """A column of words (names, events, rules) is set as text is, flush left (``class="word"``); numbers, cards
    and dates stand flush right, as in every table of the report."""
    night_row = re.findall(r"<tr>(.*?)</tr>", _section(html, "night"))[1]
    # place, player, card, games, won, game points, spread, Grand Slam
    assert re.findall(r"<td([^>]*)>", night_row) == ["", ' class="word"', "", "", "", "", "", ""]
    match_row = re.findall(r"<tr>(.*?)</tr>", _section(html, "matches"))[1]
    # date, event, round, side 1, score, side 2, winner, rules, findings
    assert re.findall(r"<td([^>]*)>", match_row) == [
        "", ' class="word"', "", ' class="word"', "", ' class="word"', ' class="word"', ' class="word"',
        ' class="word"',
    ]
    assert "td.word, th.word { text-align: left; }" in html
