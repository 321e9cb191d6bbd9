"""The report's head-to-head matrix holds at most :data:`~cribstats.club_report.MATRIX_PLAYERS` players, those
with the most games between them, the report's own player among them, and says so; a club that fits is shown
whole. Before, a site of 400 players got a 400 x 400 matrix (160,000 cells, 1.7 MB of the page). A real store of
simulated two-player games among 30 players; the players expected are counted from the logs here."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.club_report import MATRIX_PLAYERS
from cribstats.simulate import simulate_games

PLAYERS = [f"Player {i:02}" for i in range(30)]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Counter[str]]:
    folder = tmp_path_factory.mktemp("matrix")
    logs = folder / "games.jsonl"
    games: Counter[str] = Counter()
    with open(logs, "wb") as handle:
        for game in simulate_games(120, players=PLAYERS, seed=4):
            games.update(game.log["players"])  # a two-player game: one game against the other player
            handle.write(orjson.dumps(game.log) + b"\n")
    db = f"sqlite:///{folder / 'club.db'}"
    assert CliRunner().invoke(app, ["import", "-q", str(logs), "--db", db]).exit_code == 0
    return db, games


def _matrix(tmp_path: Path, db: str, *args: str) -> tuple[list[str], str]:
    out = tmp_path / "report.html"
    done = CliRunner().invoke(app, ["report", "--db", db, "--out", str(out), *args])
    assert done.exit_code == 0, done.output
    section = re.search(r'<section id="head-to-head">(.*?)</section>', out.read_text(), re.S)
    assert section is not None
    head = re.search(r"<thead>(.*?)</thead>", section.group(1), re.S)
    assert head is not None
    return re.findall(r'<th scope="col">(.*?)</th>', head.group(1))[1:], section.group(1)


def test_the_matrix_holds_the_players_with_the_most_games(club: tuple[str, Counter[str]], tmp_path: Path) -> None:
    db, games = club
    assert len(games) == len(PLAYERS) > MATRIX_PLAYERS
    most = sorted(sorted(games, key=lambda p: (-games[p], p))[:MATRIX_PLAYERS])
    players, section = _matrix(tmp_path, db)
    assert players == most
    assert (f"the {MATRIX_PLAYERS} players with the most games between them, of {len(PLAYERS)} "
            "(<code>cribstats head-to-head</code> lists every pair)") in section


def test_a_players_report_keeps_the_player_in_the_matrix(club: tuple[str, Counter[str]], tmp_path: Path) -> None:
    db, games = club
    least = min(games, key=lambda p: (games[p], p))
    most = sorted(sorted(games, key=lambda p: (-games[p], p))[:MATRIX_PLAYERS])
    assert least not in most
    players, _ = _matrix(tmp_path, db, "--player", least.upper())  # any spelling of the name
    # the player takes the place of the last of the most played (the fewest games of them, then the name)
    assert players == sorted((set(most) - {_last(most, games)}) | {least})


def _last(most: list[str], games: Counter[str]) -> str:
    """The one of ``most`` that gives way: the last in the order of most games, then name."""
    return sorted(most, key=lambda p: (-games[p], p))[-1]


def test_a_club_that_fits_is_shown_whole(tmp_path: Path) -> None:
    logs = tmp_path / "games.jsonl"
    logs.write_bytes(b"".join(orjson.dumps(g.log) + b"\n" for g in simulate_games(8, players=PLAYERS[:4], seed=2)))
    db = f"sqlite:///{tmp_path / 'club.db'}"
    assert CliRunner().invoke(app, ["import", "-q", str(logs), "--db", db]).exit_code == 0
    players, section = _matrix(tmp_path, db)
    assert players == PLAYERS[:4] and "most games between them" not in section
