"""The report with ``--player``: its standings are the table of the report without it (the same other filters),
partners standing as one side, with the rows of the player's sides marked and the player named as stored.

The store is built from hand-written, result-only game logs: two four-player games of partners (seats 0 and 2
against 1 and 3) and two six-card games on the pairs night, one six-card game of another night and one
four-player game of a cup.
"""

from __future__ import annotations

import html as html_text
import re

import orjson
import pytest
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.report import PARTNERS_NOTE, REPORT_STANDINGS_COLUMNS, build_report
from cribstats.stats.frames import StatsFilter
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

DAN = "<Dan>"  # a name the page must escape; its key "<dan>" sorts before "ann", so it leads its partnerships


def _game(n: int, variant: str, players: list[str], scores: list[int], *, event: str = "Pairs Night",
          date: str = "2026-04-07") -> dict[str, object]:  # fmt: skip
    winner = players[scores.index(max(scores))]
    return {"format": "cribstats/game/1", "id": f"g{n}", "event": event, "date": date, "round": str(n),
            "variant": variant, "players": players, "deals": [],
            "result": {"winner": winner, "scores": dict(zip(players, scores, strict=True))}}  # fmt: skip


GAMES = [
    # Ann & Cat beat Ben & <Dan> 121-100
    _game(1, "four-player", ["Ann", "Ben", "Cat", DAN], [121, 100, 121, 100]),
    # Ben & Cat skunk Ann & <Dan> 121-80 (3 game points)
    _game(2, "four-player", ["Ann", "Ben", DAN, "Cat"], [80, 121, 80, 121]),
    _game(3, "six-card", ["Ann", "Ben"], [121, 110]),
    _game(4, "six-card", ["Cat", DAN], [119, 121]),
    _game(5, "six-card", ["Ben", "Ann"], [121, 60], event="Other night", date="2026-04-14"),
    # Ann & Cat beat Ben & <Dan> 121-95, at the cup
    _game(6, "four-player", ["Ann", "Ben", "Cat", DAN], [121, 95, 121, 95], event="Cup", date="2026-04-21"),
]
# The pairs night by hand, in the ACC order (game points, wins, spread): rank, side, game points, games, wins,
# losses, spread, skunks given, skunks taken.
PAIRS_NIGHT = [
    ["1", "Ben & Cat", "3", "1", "1", "0", "41", "1", "0"],
    ["2", "Ann & Cat", "2", "1", "1", "0", "21", "0", "0"],
    ["3", "Ann", "2", "1", "1", "0", "11", "0", "0"],
    ["4", DAN, "2", "1", "1", "0", "2", "0", "0"],
    ["5", "Cat", "0", "1", "0", "1", "-2", "0", "0"],
    ["6", "Ben", "0", "1", "0", "1", "-11", "0", "0"],
    ["7", f"{DAN} & Ben", "0", "1", "0", "1", "-21", "0", "0"],
    ["8", f"{DAN} & Ann", "0", "1", "0", "1", "-41", "0", "1"],
]
PAIRS = StatsFilter(event="pairs night")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, str]:
    folder = tmp_path_factory.mktemp("pairs")
    logs = folder / "pairs.jsonl"
    logs.write_bytes(b"".join(orjson.dumps(game) + b"\n" for game in GAMES))
    url = f"sqlite:///{folder / 'pairs.db'}"
    engine = make_engine(url)
    assert import_paths([logs], engine).imported == len(GAMES)
    return engine, url


def _section(page: str) -> str:
    return page.split('<section id="standings">', 1)[1].split("</section>", 1)[0]


def standings_rows(page: str) -> list[tuple[bool, list[str]]]:
    """(marked, cells as text) of each row of the report's standings."""
    body = _section(page).split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr([^>]*)>(.*?)</tr>", body, flags=re.S)
    return [("chosen" in attrs, [html_text.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", cells)])
            for attrs, cells in rows]  # fmt: skip


def cells(page: str) -> list[list[str]]:
    return [row for _, row in standings_rows(page)]


def marked(page: str) -> list[str]:
    name = REPORT_STANDINGS_COLUMNS.index("player")
    return [row[name] for chosen, row in standings_rows(page) if chosen]


def test_the_pairs_night_has_its_partnerships_as_sides(store: tuple[Engine, str]) -> None:
    assert cells(build_report(store[0], PAIRS)) == PAIRS_NIGHT


@pytest.mark.parametrize("asked", ["ann", " ANN", "<dan>", "cat"])
def test_the_player_report_keeps_the_table_of_the_report_without_the_player(store: tuple[Engine, str],
                                                                            asked: str) -> None:  # fmt: skip
    page = build_report(store[0], StatsFilter(player=asked, event="pairs night"))
    assert cells(page) == PAIRS_NIGHT  # no side broken up into its players, no rank changed


def test_the_player_report_agrees_with_the_standings_command(store: tuple[Engine, str]) -> None:
    result = CliRunner().invoke(app, ["standings", "--db", store[1], "--event", "Pairs Night", "--format", "json"])
    assert result.exit_code == 0, result.output
    table = [[str(row[c]) for c in REPORT_STANDINGS_COLUMNS] for row in orjson.loads(result.stdout)]
    assert cells(build_report(store[0], StatsFilter(player=" ANN", event="pairs night"))) == table


def test_every_game_of_the_store_too(store: tuple[Engine, str]) -> None:
    everyone = cells(build_report(store[0]))
    assert any(" & " in row[1] for row in everyone)
    assert cells(build_report(store[0], StatsFilter(player="ben"))) == everyone


@pytest.mark.parametrize(
    ("asked", "rows"),
    [
        (" ANN", ["Ann & Cat", "Ann", f"{DAN} & Ann"]),
        ("<DAN>", [DAN, f"{DAN} & Ben", f"{DAN} & Ann"]),
        ("cat", ["Ben & Cat", "Ann & Cat", "Cat"]),
    ],
)  # fmt: skip
def test_the_rows_of_the_players_sides_are_marked(store: tuple[Engine, str], asked: str, rows: list[str]) -> None:
    assert marked(build_report(store[0], StatsFilter(player=asked, event="pairs night"))) == rows


def test_a_player_who_played_only_in_partners_has_their_side_marked(store: tuple[Engine, str]) -> None:
    page = build_report(store[0], StatsFilter(player="ben", event="cup"))  # Ann & Cat beat Ben & <Dan>
    assert cells(page) == [["1", "Ann & Cat", "2", "1", "1", "0", "26", "0", "0"],
                           ["2", f"{DAN} & Ben", "0", "1", "0", "1", "-26", "0", "0"]]  # fmt: skip
    assert marked(page) == [f"{DAN} & Ben"]
    page = build_report(store[0], StatsFilter(player="ben", event="pairs night", variant="four-player"))
    assert marked(page) == ["Ben & Cat", f"{DAN} & Ben"]


def test_the_partners_note_stays_with_a_player_filter(store: tuple[Engine, str]) -> None:
    section = html_text.unescape(_section(build_report(store[0], StatsFilter(player="ann", event="pairs night"))))
    assert PARTNERS_NOTE in section


def test_the_caption_names_the_player_as_stored_and_escaped(store: tuple[Engine, str]) -> None:
    ann = _section(build_report(store[0], StatsFilter(player=" ANN", event="pairs night")))
    assert "the rows of Ann's sides are marked" in ann and "ANN" not in ann
    dan = _section(build_report(store[0], StatsFilter(player="<dan>", event="pairs night")))
    assert "the rows of &lt;Dan&gt;'s sides are marked" in dan and "<Dan>" not in dan
    alone = _section(build_report(store[0], StatsFilter(player="ann", event="pairs night", variant="six-card")))
    assert "the row of Ann is marked" in alone
    side = _section(build_report(store[0], StatsFilter(player="ben", event="cup")))
    assert "the row of Ben's side is marked" in side


def test_a_player_without_a_finished_game_of_them_has_no_row_marked(store: tuple[Engine, str]) -> None:
    page = build_report(store[0], StatsFilter(player="cat", event="other night"))
    # Ben skunks Ann 121-60: 3 game points
    assert cells(page) == [["1", "Ben", "3", "1", "1", "0", "61", "1", "0"],
                           ["2", "Ann", "0", "1", "0", "1", "-61", "0", "1"]]  # fmt: skip
    assert marked(page) == [] and "Cat has no row" in _section(page) and "is marked" not in page


def test_the_club_sections_are_those_of_the_report_without_the_player(store: tuple[Engine, str]) -> None:
    """Not a change: a guard that the club sections, like the standings, cover everyone in the other filters'
    games (docs/decisions.md, ratings)."""

    def club(page: str) -> dict[str, str]:
        return {s: page.split(f'<section id="{s}">', 1)[1].split("</section>", 1)[0]
                for s in ("night", "season", "matches", "head-to-head", "ratings")}  # fmt: skip

    assert club(build_report(store[0], StatsFilter(player="ann", event="pairs night"))) == club(
        build_report(store[0], PAIRS))
