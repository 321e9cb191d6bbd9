"""The report's standings: a player filter marks the player's row and keeps every rank as the night had it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cribstats.report import REPORT_STANDINGS_COLUMNS, build_report
from cribstats.stats.frames import StatsFilter
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

# Worked out by hand. 3 March: Ann beats Ben 121-100 (2 points) and Cy 121-85 (a skunk: 3); Cy beats Ben 121-119
# (2). Ann 5 points, Cy 2, Ben 0: Ben is third of three. 10 March (another night): Ben beats Ann.
TALLY = """date,event,round,player1,player2,score1,score2
2026-03-03,Club,1,Ann,Ben,121,100
2026-03-03,Club,2,Ann,Cy,121,85
2026-03-03,Club,3,Cy,Ben,121,119
2026-03-10,Club,1,Ben,Ann,121,60
"""
NIGHT = {"rank": ["1", "2", "3"], "player": ["Ann", "Cy", "Ben"], "game_points": ["5", "2", "0"]}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("standings")
    (folder / "club.csv").write_text(TALLY)
    engine = make_engine(f"sqlite:///{folder / 'club.db'}")
    assert import_paths([folder / "club.csv"], engine).imported == 4
    return engine


def standings_rows(html: str) -> list[tuple[bool, list[str]]]:
    """(marked, cells) of each row of the standings table."""
    section = html.split('<section id="standings">', 1)[1].split("</section>", 1)[0]
    body = section.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr([^>]*)>(.*?)</tr>", body, flags=re.S)
    return [("chosen" in attrs, re.findall(r"<td[^>]*>(.*?)</td>", cells)) for attrs, cells in rows]


def column(rows: list[tuple[bool, list[str]]], name: str) -> list[str]:
    i = REPORT_STANDINGS_COLUMNS.index(name)
    return [cells[i] for _, cells in rows]


def test_the_night_without_a_player_filter(engine) -> None:  # type: ignore[no-untyped-def]
    night = StatsFilter(event="club", since=_day(3), until=_day(3))
    rows = standings_rows(build_report(engine, night))
    assert {name: column(rows, name) for name in NIGHT} == NIGHT
    assert not any(marked for marked, _ in rows)


@pytest.mark.parametrize("asked", ["ben", "  BEN "])
def test_a_player_filter_marks_the_row_and_keeps_the_ranks(engine, asked: str) -> None:  # type: ignore[no-untyped-def]
    night = StatsFilter(player=asked, event="club", since=_day(3), until=_day(3))
    rows = standings_rows(build_report(engine, night))
    assert {name: column(rows, name) for name in NIGHT} == NIGHT  # Ben is not put first
    assert [marked for marked, _ in rows] == [False, False, True]


def test_game_points_come_right_after_the_name() -> None:
    assert REPORT_STANDINGS_COLUMNS[:3] == ("rank", "player", "game_points")


def _day(n: int):  # type: ignore[no-untyped-def]
    from datetime import date

    return date(2026, 3, n)


def test_a_long_name_has_its_whole_self_as_title(tmp_path: Path) -> None:
    long = "Bartholomew " * 4 + "Fitzwilliam"  # 59 characters: a valid name, wider than a phone's column
    sheet = f"date,event,round,player1,player2,score1,score2\n2026-03-03,C,1,{long},Ann,121,100\n"
    (tmp_path / "long.csv").write_text(sheet)
    engine = make_engine(f"sqlite:///{tmp_path / 'long.db'}")
    assert import_paths([tmp_path / "long.csv"], engine).imported == 1
    html = build_report(engine)
    assert f'<td class="name" title="{long}">{long}</td>' in html  # shortened by the page's CSS, never the text


def test_a_player_asked_for_by_an_old_spelling_is_marked(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cribstats.cli.app import app

    (tmp_path / "club.csv").write_text(TALLY)
    url = f"sqlite:///{tmp_path / 'club.db'}"
    assert import_paths([tmp_path / "club.csv"], make_engine(url)).imported == 4
    renamed = CliRunner().invoke(app, ["players", "rename", "--db", url, "Ben", "Benjamin"])
    assert renamed.exit_code == 0, renamed.output
    night = StatsFilter(player="ben", event="club", since=_day(3), until=_day(3))
    rows = standings_rows(build_report(make_engine(url), night))
    assert column(rows, "player") == ["Ann", "Cy", "Benjamin"]
    assert [marked for marked, _ in rows] == [False, False, True]


def test_the_marked_table_says_whose_row_is_marked(engine) -> None:  # type: ignore[no-untyped-def]
    assert "the row of Ben is marked" in build_report(engine, StatsFilter(player=" BEN", event="club"))
    html = build_report(engine, StatsFilter(player="<Ben>", event="club"))  # no such player: nothing is marked
    assert "&lt;Ben&gt; has no row" in html and "is marked" not in html
    assert "is marked" not in build_report(engine, StatsFilter(event="club"))


def test_partners_are_said_to_stand_as_one_side_when_they_do(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Four-player games put partnerships in the standings ("Bea & Cal"), and each partner's own row then counts
    only their games without a partner: the page says so, and says nothing of it where no partners stand."""
    import html as html_text

    import orjson

    from cribstats.report import PARTNERS_NOTE
    from cribstats.simulate import simulate_games

    assert PARTNERS_NOTE not in html_text.unescape(build_report(engine))
    logs = tmp_path / "fours.jsonl"
    games = simulate_games(2, variant="four-player", players=["Ann", "Bea", "Cal", "Dee"], seed=5)
    logs.write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    fours = make_engine(f"sqlite:///{tmp_path / 'fours.db'}")
    assert import_paths([logs], fours).imported == 2
    page = build_report(fours)
    standings = html_text.unescape(page.split('<section id="standings">', 1)[1].split("</section>", 1)[0])
    assert " & " in standings and PARTNERS_NOTE in standings
