"""A rating history names each game as ``cribstats games`` does (its number in the store and its key), and the
order games are rated in depends on the games alone: not on how a path was typed, nor on the order they came in.
Checked against the store itself, read with sqlite3."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
NIGHT = ROOT / "sample_logs" / "club-night.jsonl"
HEADER = "date,event,round,player1,player2,score1,score2\n"
# two tables of one round of one night: Bob plays at both, so which is rated first changes everyone's rating
TABLE_A = HEADER + "2026-01-06,Night,1,Ann,Bob,121,100\n"
TABLE_B = HEADER + "2026-01-06,Night,1,Bob,Cat,121,90\n"


def _cli(*args: str, db: Path, stdin: str | None = None) -> str:
    result = CliRunner().invoke(app, [*args, "--db", f"sqlite:///{db}"], input=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def _ratings(db: Path) -> dict[str, tuple[float, float]]:
    rows = json.loads(_cli("rating", "--format", "json", db=db))
    return {row["player"]: (round(row["mu"], 9), round(row["sigma"], 9)) for row in rows}


def test_each_history_row_names_the_game_it_follows(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    _cli("import", str(NIGHT), "-q", db=db)
    history = json.loads(_cli("rating", "--history", "--format", "json", db=db))
    assert history
    with sqlite3.connect(db) as store:
        games = {gid: (key, day) for gid, key, day in store.execute("select id, game_key, date from game")}
        seats = set(store.execute("select gp.game_id, p.name from game_player gp "
                                  "join player p on p.id = gp.player_id"))
    places: dict[int, int] = {}
    for row in history:
        assert games[row["id"]] == (row["game"], row["date"]), row  # its key and date are the game's
        assert (row["id"], row["player"]) in seats, row  # the player sat in it
        assert places.setdefault(row["id"], row["rated"]) == row["rated"]  # one place a game
    assert sorted(places.values()) == list(range(1, len(places) + 1))  # 1, 2, 3, ... in the order rated
    assert [row["rated"] for row in history] == sorted(row["rated"] for row in history)
    # under a filter the same game keeps its number and key; its place is its place among the games rated then
    dave = json.loads(_cli("rating", "Dave", "--history", "--format", "json", db=db))
    assert dave and all(games[row["id"]][0] == row["game"] and (row["id"], "Dave") in seats for row in dave)


@pytest.fixture
def tables(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "a.csv").write_text(TABLE_A)
    (tmp_path / "b.csv").write_text(TABLE_B)
    return tmp_path / "a.csv", tmp_path / "b.csv"


def test_the_order_does_not_depend_on_how_a_path_was_typed(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    a, b = tables
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        _cli("import", "a.csv", "b.csv", "-q", db=tmp_path / "typed.db")
        _cli("import", "a.csv", str(b.resolve()), "-q", db=tmp_path / "mixed.db")
        _cli("import", f"./{b.name}", f"../{tmp_path.name}/{a.name}", "-q", db=tmp_path / "reversed.db")
    finally:
        os.chdir(here)
    typed = _ratings(tmp_path / "typed.db")
    assert _ratings(tmp_path / "mixed.db") == typed
    assert _ratings(tmp_path / "reversed.db") == typed
    # and the order matters: the same tables with B's file named first are rated the other way round
    (tmp_path / "0.csv").write_text(TABLE_B)
    _cli("import", str(a), str(tmp_path / "0.csv"), "-q", db=tmp_path / "b-first.db")
    assert _ratings(tmp_path / "b-first.db") != typed


def test_the_order_does_not_depend_on_the_order_games_came_in(tmp_path: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    for db, first, second in ((one, TABLE_A, TABLE_B), (two, TABLE_B, TABLE_A)):
        _cli("import", "-", "-q", db=db, stdin=first)
        _cli("import", "-", "-q", db=db, stdin=second)
    assert _ratings(one) == _ratings(two)
    history = [json.loads(_cli("rating", "--history", "--format", "json", db=db)) for db in (one, two)]
    assert [row["game"] for row in history[0]] == [row["game"] for row in history[1]]
