"""`loss_per_game` is over two-player deals only, as `loss_per_deal` is (docs/decisions.md, "Discard analysis":
three- and four-player deals are judged by the hand alone and counted apart, in `hand_only_*`): the two-player
loss over the games with a valued two-player discard; null for a player of three- and four-player games only."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_loss_per_game_counts_two_player_games_only(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'mixed.db'}"
    for variant, games in (("six-card", 3), ("three-player", 2)):  # Alice and Bob in both, Carol in three-player
        log = tmp_path / f"{variant}.jsonl"
        run("simulate", "--games", str(games), "--variant", variant, "--seed", "7", "--out", str(log))
        run("import", str(log), "--db", url)
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(run("discards", "--db", url, "--format", "csv")))}
    with sqlite3.connect(tmp_path / "mixed.db") as conn:
        two = dict(conn.execute(
            "SELECT p.name, sum(dp.loss) / count(DISTINCT dp.game_id) FROM deal_player dp "
            "JOIN player p ON p.id = dp.player_id JOIN game g ON g.id = dp.game_id "
            "WHERE dp.loss IS NOT NULL AND g.variant = 'six-card' GROUP BY p.name").fetchall())  # fmt: skip
        every = dict(conn.execute(
            "SELECT p.name, count(DISTINCT dp.game_id) FROM deal_player dp JOIN player p ON p.id = dp.player_id "
            "WHERE dp.loss IS NOT NULL GROUP BY p.name").fetchall())  # fmt: skip
    assert set(two) == {"Alice", "Bob"} and set(rows) == set(every) == {"Alice", "Bob", "Carol"}
    assert every["Alice"] == 5 and every["Carol"] == 2  # the three-player games are there, and not counted
    for name, per_game in two.items():
        assert abs(float(rows[name]["loss_per_game"]) - per_game) < 1e-8, name
    assert rows["Carol"]["loss_per_game"] == "" and int(rows["Carol"]["hand_only_deals"]) > 0
