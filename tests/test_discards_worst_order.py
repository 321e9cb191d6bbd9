"""A player's worst discard, among equals, is the first played (docs/decisions.md, "Discard analysis"): the games
in the order `cribstats games` lists them (date, undated last; round, 2 before 10; the file and the place in
it), then the deal's number; not the game the store happened to number first. So is the order of the costliest
discards among equals."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.stats.discards import worst_discards


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr + str(result.exception)
    return result.stdout


def simulated_game(tmp_path: Path) -> dict[str, Any]:
    run("simulate", "--games", "1", "--seed", "3", "--out", str(tmp_path / "one.jsonl"))
    return json.loads((tmp_path / "one.jsonl").read_text().splitlines()[0])


def worst_rows(db: Path) -> dict[str, dict[str, str]]:
    return {row["player"]: row for row in csv.DictReader(io.StringIO(
        run("discards", "--db", f"sqlite:///{db}", "--format", "csv")))}  # fmt: skip


def first_worst_deal(db: Path, game: str) -> dict[str, tuple[int, float]]:
    """Per player, from the stored rows of one game: the first deal losing the most, and that loss."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT p.name, d.number, dp.loss FROM deal_player dp JOIN deal d ON d.id = dp.deal_id "
            "JOIN player p ON p.id = dp.player_id JOIN game g ON g.id = dp.game_id "
            "WHERE g.game_key = ? AND dp.loss > 0", (game,)).fetchall()  # fmt: skip
    out: dict[str, tuple[int, float]] = {}
    for name, deal, loss in sorted(rows, key=lambda r: (-round(r[2] * 1e9), r[1])):
        out.setdefault(name, (deal, loss))
    return out


# (the first file imported, the second), each: its file name and what its game says of when it was played; the
# second imported (numbered after the first in the store) was played first
PLAYED_FIRST_IMPORTED_LAST = {
    "an-earlier-date": (("a.jsonl", {"date": "2026-03-02"}), ("b.jsonl", {"date": "2026-03-01"})),
    "round-2-before-10": (("a.jsonl", {"date": "2026-03-01", "round": "10"}),
                          ("b.jsonl", {"date": "2026-03-01", "round": "2"})),
    "dated-before-undated": (("a.jsonl", {}), ("b.jsonl", {"date": "2026-03-01"})),
    "file-order": (("b.jsonl", {}), ("a.jsonl", {})),
}  # fmt: skip


@pytest.mark.parametrize("case", PLAYED_FIRST_IMPORTED_LAST)
def test_the_worst_discard_among_equals_is_the_first_played(tmp_path: Path, case: str) -> None:
    game = simulated_game(tmp_path)
    db = tmp_path / "store.db"
    url = f"sqlite:///{db}"
    for key, (name, played) in zip(("later", "earlier"), PLAYED_FIRST_IMPORTED_LAST[case], strict=True):
        # the same cards, so that every discard of one game is worth exactly what it is in the other
        (tmp_path / name).write_text(json.dumps({**game, "id": key, **played}) + "\n")
        run("import", str(tmp_path / name), "--db", url)
    listed = [g["game"] for g in json.loads(run("games", "--db", url, "--format", "json"))]
    assert listed == ["earlier", "later"]  # as `cribstats games` orders them
    with sqlite3.connect(db) as conn:  # the store numbered the later one first
        assert dict(conn.execute("SELECT game_key, id FROM game").fetchall()) == {"later": 1, "earlier": 2}
    expected = first_worst_deal(db, "earlier")
    worst = worst_rows(db)
    assert set(worst) == set(expected) == set(game["players"])
    for player, (deal, loss) in expected.items():
        assert (worst[player]["worst_game"], int(worst[player]["worst_deal"])) == ("earlier", deal), player
        assert float(worst[player]["worst_loss"]) == loss
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        costliest = worst_discards(conn, limit=50).rows(named=True)
    engine.dispose()
    for player, (deal, _) in expected.items():  # of each equal pair, the earlier game's listed first
        pair = [r["game"] for r in costliest if r["player"] == player and r["deal"] == deal]
        assert pair == ["earlier", "later"], player


def test_the_trials_three_player_store(tmp_path: Path) -> None:
    """The trial's case: 50 simulated three-player games, which the import numbers in another order than the
    file's; each player's worst is the first of the equal ones by line in the file, then deal."""
    url = f"sqlite:///{tmp_path / 'x.db'}"
    log = tmp_path / "g.jsonl"
    run("simulate", "--games", "50", "--variant", "three-player", "--seed", "5", "--out", str(log))
    run("import", str(log), "--db", url)
    with sqlite3.connect(tmp_path / "x.db") as conn:
        rows = conn.execute(
            "SELECT p.name, g.game_key, g.source_place, d.number, dp.loss FROM deal_player dp "
            "JOIN deal d ON d.id = dp.deal_id JOIN player p ON p.id = dp.player_id "
            "JOIN game g ON g.id = dp.game_id WHERE dp.loss > 0").fetchall()  # fmt: skip
    expected: dict[str, tuple[str, int]] = {}
    line = {place: int(place.split()[-1]) for _, _, place, _, _ in rows}  # "line 17"
    for name, key, _, deal, _ in sorted(rows, key=lambda r: (-round(r[4] * 1e9), line[r[2]], r[3])):
        expected.setdefault(name, (key, deal))
    worst = worst_rows(tmp_path / "x.db")
    assert {p: (r["worst_game"], int(r["worst_deal"])) for p, r in worst.items()} == expected
    assert expected["Alice"] == ("three-player-s5-g000017", 10)  # of g000017 deal 10, g000027 and g000050 deal 3
