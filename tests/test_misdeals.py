"""A misdealt deal (a ``bad-deal`` finding) counts in no per-deal figure; the game's result stands.

The expected figures are worked out a second way: from the deal facts of the same game stored without the
misdeal, leaving that deal out by hand.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from databases import migrate
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine

MISDEALT = 2  # 0-based: the third deal


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def stats(url: str) -> dict[str, dict[str, Any]]:
    result = run("stats", "--db", url, "--format", "json")
    assert result.exit_code == 0, result.output
    return {row["player"]: row for row in orjson.loads(result.stdout)}


def misdealt(log: dict[str, Any]) -> dict[str, Any]:
    """The log with the starter of one deal also dealt to the dealer (a card dealt twice)."""
    bad = copy.deepcopy(log)
    deal = bad["deals"][MISDEALT]
    kept = [c for c in deal["hands"][deal["dealer"]] if c not in deal["discards"][deal["dealer"]]]
    deal["starter"] = kept[0]
    return bad


def facts(url: str) -> list[Any]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(
                "SELECT p.name, d.number, dp.role, dp.completed, dp.pegged_due, dp.hand_due, dp.crib_due, "
                "dp.heels_due FROM deal_player dp JOIN deal d ON d.id = dp.deal_id "
                "JOIN player p ON p.id = dp.player_id")))
    finally:
        engine.dispose()


def averages_without(rows: list[Any], left_out: int) -> dict[str, dict[str, Any]]:
    """Per player: completed deals, and the hand and pegging averages by role, over the deals but ``left_out``."""
    out: dict[str, dict[str, Any]] = {}
    for name in {r.name for r in rows}:
        mine = [r for r in rows if r.name == name and r.completed and r.number != left_out]
        dealer = [r for r in mine if r.role == "dealer"]
        pone = [r for r in mine if r.role == "pone"]
        out[name] = {
            "deals": len(mine),
            "hand_per_deal_dealer": sum(r.hand_due for r in dealer) / len(dealer),
            "hand_per_deal_pone": sum(r.hand_due for r in pone) / len(pone),
            "pegging_per_deal_pone": sum(r.pegged_due for r in pone) / len(pone),
            "crib_per_deal": sum(r.crib_due for r in dealer) / len(dealer),
            "heels": sum(r.heels_due for r in rows if r.name == name and r.number != left_out),
        }
    return out


def test_a_misdealt_deal_is_left_out_of_the_per_deal_figures(db_url: str, tmp_path: Path) -> None:
    log = next(g.log for g in simulate_games(1, seed=91, players=["Ann", "Bo"]))
    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    assert run("import", "--db", clean_url, "-q", str(write_jsonl(tmp_path / "clean.jsonl", [log]))).exit_code == 0
    audit = run("audit", "--json", str(write_jsonl(tmp_path / "bad.jsonl", [misdealt(log)])))
    kinds = {orjson.loads(line)["kind"] for line in audit.stdout.splitlines()}
    assert "bad-deal" in kinds
    assert run("import", "--db", db_url, "-q", str(tmp_path / "bad.jsonl")).exit_code == 0

    expected = averages_without(facts(clean_url), left_out=MISDEALT + 1)
    clean, found = stats(clean_url), stats(db_url)
    for name, figures in expected.items():
        assert figures["deals"] == clean[name]["deals"] - 1  # the misdealt deal was a completed one
        for column, value in figures.items():
            assert found[name][column] == value, (name, column)
        # the result the table played to stands
        for column in ("games", "wins", "losses", "game_points", "spread", "skunks_won", "skunks_lost"):
            assert found[name][column] == clean[name][column], (name, column)


def test_the_hand_distribution_leaves_a_misdealt_deal_out(sqlite_url: str, tmp_path: Path) -> None:
    from cribstats.stats.frames import StatsFilter, load_frames

    log = next(g.log for g in simulate_games(1, seed=92, players=["Ann", "Bo"]))
    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    run("import", "--db", clean_url, "-q", str(write_jsonl(tmp_path / "clean.jsonl", [log])))
    run("import", "--db", sqlite_url, "-q", str(write_jsonl(tmp_path / "bad.jsonl", [misdealt(log)])))
    shown = [r for r in facts(clean_url) if r.hand_due is not None and r.number != MISDEALT + 1]
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        lazy = load_frames(conn, StatsFilter()).hand_totals
        assert lazy is not None
        hands = lazy.collect()
    engine.dispose()
    assert hands["hands"].sum() == len(shown)
    assert (hands["points"] * hands["hands"]).sum() == sum(r.hand_due for r in shown)


def test_migration_0004_works_out_the_stored_totals_again(db_url: str, tmp_path: Path) -> None:
    """A store whose totals were filled before 0004 (with the misdealt deal in them) gets the totals an import
    now writes; going back to 0003 puts the deal back in."""
    from test_store_totals import stored_totals

    from cribstats.store.db import upgrade

    logs = [g.log for g in simulate_games(3, seed=93, players=["Ann", "Bo", "Cy"], mistake_rate=0.05)]
    logs[1] = misdealt(logs[1])
    assert run("import", "--db", db_url, "-q", str(write_jsonl(tmp_path / "bad.jsonl", logs))).exit_code == 0
    engine = make_engine(db_url)
    now = stored_totals(engine)
    migrate(engine, "downgrade", "0003")
    before = stored_totals(engine)
    changed = {key for key in now if {c: now[key][c] for c in before[key]} != before[key]}  # 0003's columns
    # only the misdealt game's rows differ, by one completed deal each
    assert changed and {game for game, _ in changed} == {logs[1]["id"]}
    for key in changed:
        assert before[key]["deals"] == now[key]["deals"] + 1
    upgrade(engine)
    assert stored_totals(engine) == now
    engine.dispose()
