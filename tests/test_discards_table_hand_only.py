"""``cribstats discards``' table shows the loss per deal of three- and four-player deals (judged by the hand alone)
beside their count: a club playing only those had a table of dashes and a count, its losses only in CSV."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app


def test_the_table_shows_the_hand_only_loss_per_deal(tmp_path: Path) -> None:
    logs, db = tmp_path / "three.jsonl", tmp_path / "club.db"
    runner = CliRunner()
    simulate = ["simulate", "-n", "6", "--variant", "three-player", "--seed", "3", "--out", str(logs)]
    assert runner.invoke(app, simulate).exit_code == 0
    assert runner.invoke(app, ["import", "--db", f"sqlite:///{db}", str(logs)]).exit_code == 0
    with sqlite3.connect(db) as conn:  # the stored losses, averaged here rather than by cribstats
        losses = dict(
            conn.execute(
                "SELECT p.name, sum(dp.loss) / count(dp.loss) FROM deal_player dp"
                " JOIN player p ON p.id = dp.player_id WHERE dp.hand_only AND dp.loss IS NOT NULL GROUP BY p.name"
            ).fetchall()
        )
    assert set(losses) == {"Alice", "Bob", "Carol"}
    shown = runner.invoke(app, ["discards", "--db", f"sqlite:///{db}"], env={"COLUMNS": "80"})
    assert shown.exit_code == 0
    rows: dict[str, list[str]] = {}
    for line in shown.stdout.splitlines():  # the first table's rows (the costliest discards come after)
        words = line.split()
        if words[:1] in (["Alice"], ["Bob"], ["Carol"]):
            rows.setdefault(words[0], words)
    for name, loss in losses.items():
        assert rows[name][-1] == f"{loss:.3f}", (name, rows[name])
