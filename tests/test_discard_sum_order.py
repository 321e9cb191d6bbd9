"""The discard figures are the same whatever order the games were stored in, and on either database: a player's
losses are summed as whole billionths. Summed as floats, the total moved in its last digits with the order of the
rows (SQLite and PostgreSQL, or one store after a delete and a new import, gave 0.09770409059260432 and ...411)."""

from __future__ import annotations

from pathlib import Path

import orjson
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.simulate import simulate_games


def _discards(logs: list[bytes], path: Path, db: str) -> str:
    path.write_bytes(b"".join(log + b"\n" for log in logs))
    imported = CliRunner().invoke(app, ["import", "-q", str(path), "--db", db])
    assert imported.exit_code == 0, imported.output
    return CliRunner().invoke(app, ["discards", "--db", db, "--format", "json"]).stdout


def test_the_discard_figures_do_not_hang_on_the_order_of_the_rows(tmp_path: Path, db_url: str) -> None:
    logs = [orjson.dumps(g.log) for g in simulate_games(200, seed=5, players=["Ann", "Bob", "Cat", "Dan"])]
    forward = _discards(logs, tmp_path / "forward.jsonl", f"sqlite:///{tmp_path / 'forward.db'}")
    backward = _discards(logs[::-1], tmp_path / "backward.jsonl", db_url)
    assert forward == backward and '"loss_per_deal"' in forward
