"""A giveaway game's spread (docs/decisions.md, "Spread"): the side that reaches the target loses, so each winning
side's margin is its own distance under the target, given to it, and the losing side is given minus their sum;
head-to-head, the spread between a winner and the loser is that winner's margin, and two winners of one game have
no result between them. Before, the margins were the
losers' distances under the target, always 0 in a giveaway game. Result-only games, on a real SQLite file and on
PostgreSQL; every figure worked out by hand below. Migration 0018 gives stores kept before the same figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from databases import migrate


def _game(game_id: str, variant: str, scores: dict[str, int], winner: str | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {"scores": scores}
    if winner is not None:
        result["winner"] = winner
    return {"format": "cribstats/game/1", "id": game_id, "variant": variant, "giveaway": True,
            "players": list(scores), "result": result}


# g1: Ann reaches 121 and loses; Ben, 95, wins by 121 - 95 = 26
# g2: Ann reaches 121; Ben (100) and Cat (90) both win, by 21 and 31; Ann is given -(21 + 31) = -52
# g3: partners Ann and Cat (seats 0 and 2) reach 121; Ben and Dan (110) win by 11 each; Ann and Cat -11 each
GAMES = [
    _game("g1", "six-card", {"Ann": 121, "Ben": 95}, "Ben"),
    _game("g2", "three-player", {"Ann": 121, "Ben": 100, "Cat": 90}),
    _game("g3", "four-player", {"Ann": 121, "Ben": 110, "Cat": 121, "Dan": 110}, "Ben"),
]
SPREAD = {"Ann": -26 - 52 - 11, "Ben": 26 + 21 + 11, "Cat": 31 - 11, "Dan": 11}
# head-to-head, (player, opponent): (games, wins, spread); Ben and Cat both won g2, which is no result between
# them (neither beat the other), and Ben's side won g3 by 11
BETWEEN = {("Ben", "Ann"): (3, 3, 26 + 21 + 11), ("Cat", "Ann"): (1, 1, 31), ("Ben", "Cat"): (1, 1, 11),
           ("Dan", "Ann"): (1, 1, 11), ("Dan", "Cat"): (1, 1, 11)}  # fmt: skip


def _stored(tmp_path: Path, db_url: str) -> sa.Engine:
    from cribstats.store.db import make_engine, upgrade
    from cribstats.store.importer import import_paths

    log = tmp_path / "giveaway.jsonl"
    log.write_text("".join(json.dumps(game) + "\n" for game in GAMES), encoding="utf-8")
    engine = make_engine(db_url)
    upgrade(engine)
    assert import_paths([log], engine).imported == len(GAMES)
    return engine


def _spreads(engine: sa.Engine) -> dict[str, int]:
    from cribstats.stats import compute_stats

    return {row["player"]: row["spread"] for row in compute_stats(engine).to_dicts()}


def test_each_winner_is_given_its_distance_under_the_target(tmp_path: Path, db_url: str) -> None:
    from typer.testing import CliRunner

    from cribstats.cli.app import app

    engine = _stored(tmp_path, db_url)
    try:
        assert _spreads(engine) == SPREAD
        done = CliRunner().invoke(app, ["head-to-head", "--db", db_url, "--format", "json"])
        assert done.exit_code == 0, done.output
        rows = json.loads(done.stdout)
        pairs = {(r["player"], r["opponent"]): (r["games"], r["wins"], r["spread"]) for r in rows}
        lost = {(them, me): (games, 0, -spread) for (me, them), (games, _, spread) in BETWEEN.items()}
        expected = {**BETWEEN, **lost}
        assert pairs == expected
    finally:
        engine.dispose()


def test_migration_0018_works_it_out_for_games_stored_before(tmp_path: Path, db_url: str) -> None:
    engine = _stored(tmp_path, db_url)
    try:
        migrate(engine, "downgrade", "0017")  # as stored before: every giveaway spread 0
        assert _spreads(engine) == dict.fromkeys(SPREAD, 0)
        migrate(engine, "upgrade", "0018")
        assert _spreads(engine) == SPREAD
    finally:
        engine.dispose()
