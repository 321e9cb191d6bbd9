"""The per game and player totals (``cribstats.store.totals``): worked out by hand for a tally sheet, and from the
replay of simulated games of every variant; refilled, removed with their game, and backfilled by migration 0003.

Every test runs on an SQLite file and, when a server is configured, on PostgreSQL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from databases import migrate

from cribstats.formats import read_paths
from cribstats.replay import replay
from cribstats.simulate import simulate_games
from cribstats.store import tables as t
from cribstats.store import totals as totals_module
from cribstats.store.db import upgrade
from cribstats.store.importer import import_paths
from cribstats.store.tables import name_key
from cribstats.store.totals import add_game_totals, id_runs

COLUMNS = [c.name for c in t.game_player_totals_table.c if c.name not in ("id", "game_id", "player_id")]
ILLEGAL = {"illegal-card", "over-31", "false-go", "out-of-turn", "unplayed"}

# Worked out by hand (six-card, to 121; a skunk below 91, a double below 61, a triple below 31):
# Ann beats Ben 121-100: Ann 2 points, spread +21; Ben -21, no skunk.
# Ann beats Cy 121-60: a double skunk (60 < 61): Ann 3 points, spread +61, skunk level 2; Cy -61, level 2.
# Dee beats Eve 121-30: a triple skunk (30 < 31): Dee 3 points, +91, level 3; Eve -91, level 3.
TALLY = """date,event,round,player1,player2,score1,score2
2026-03-03,Club,1,Ann,Ben,121,100
2026-03-03,Club,2,Ann,Cy,121,60
2026-03-03,Club,3,Dee,Eve,121,30
"""
TALLY_EXPECTED = {  # (player, opponent): won, skunk_level, game_points, spread
    ("ann", "ben"): (True, 0, 2, 21),
    ("ben", "ann"): (False, 0, 0, -21),
    ("ann", "cy"): (True, 2, 3, 61),
    ("cy", "ann"): (False, 2, 0, -61),
    ("dee", "eve"): (True, 3, 3, 91),
    ("eve", "dee"): (False, 3, 0, -91),
}
VARIANTS = {"six-card": 11, "five-card": 12, "seven-card": 13, "three-player": 14, "four-player": 15}


@pytest.fixture
def engine(store: sa.Engine) -> sa.Engine:
    return store


def write_logs(folder: Path) -> Path:
    """Three simulated games of every variant (mistakes and muggins in some), the tally sheet, and a game that
    stops after three deals with no result."""
    folder.mkdir(parents=True, exist_ok=True)
    for variant, seed in VARIANTS.items():
        names = ["Ann", "Ben", "Cy", "Dee"]
        games = simulate_games(3, variant=variant, players=names, seed=seed, mistake_rate=0.1,
                               muggins=seed % 2 == 1)  # fmt: skip
        with open(folder / f"{variant}.jsonl", "wb") as handle:
            for game in games:
                handle.write(orjson.dumps(dict(game.log, id=f"{variant}-{game.log['id']}")) + b"\n")
    (folder / "tally.csv").write_text(TALLY)
    unfinished = next(simulate_games(1, variant="six-card", players=["Ben", "Eve"], seed=99)).log
    unfinished = dict(unfinished, id="unfinished", deals=unfinished["deals"][:3])
    unfinished.pop("result", None)
    (folder / "unfinished.json").write_text(json.dumps(unfinished))
    return folder


def import_and_fill(engine: sa.Engine, folder: Path) -> None:
    summary = import_paths([folder], engine)
    assert summary.complete, summary.refused


def stored_totals(engine: sa.Engine) -> dict[tuple[str, str], dict[str, Any]]:
    """(game key, player name key) -> the totals row, every column but the ids (those the store has: one at an
    earlier revision has fewer)."""
    gt, g, p = t.game_player_totals_table, t.game_table, t.player_table
    with engine.connect() as conn:
        has = {c["name"] for c in sa.inspect(conn).get_columns(gt.name)}
        columns = [c for c in COLUMNS if c in has]
        query = sa.select(g.c.game_key, p.c.name_key, *(gt.c[c] for c in columns)).select_from(
            gt.join(g, g.c.id == gt.c.game_id).join(p, p.c.id == gt.c.player_id)
        )
        rows = conn.execute(query).mappings().all()
    out = {}
    for row in rows:
        values = {c: row[c] for c in columns}
        values["won"] = None if values["won"] is None else bool(values["won"])
        out[(row["game_key"], row["name_key"])] = values
    return out


def _level(score: int | None, target: int) -> int:
    return 0 if score is None else sum(score < target - 30 * k for k in (1, 2, 3))


def expected_totals(folder: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Per game id (simulated games and the unfinished one) and player name key, the totals from the replay."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for source in read_paths([str(folder)]):
        game = source.game
        if game.id is None:
            continue  # the tally sheet: checked by hand
        outcome = replay(game)
        rows = {p: dict.fromkeys(COLUMNS, 0) | {"won": None} for p in game.players}
        if game.deals:  # the dealer of the log's first deal dealt first
            rows[game.deals[0].dealer]["first_dealer"] = 1
        if outcome.winners:
            partners = len(game.players) == 4
            side = {p: seat % 2 if partners else seat for seat, p in enumerate(game.players)}
            scores, target = outcome.scores_claimed, outcome.target
            levels = {p: _level(scores.get(p), target) for p in game.players if p not in outcome.winners}
            margins = {
                side[p]: max(target - scores[p], 0) if scores.get(p) is not None else 0 for p in levels
            }
            for p, row in rows.items():
                won = p in outcome.winners
                row["won"] = won
                row["skunk_level"] = max(levels.values()) if won else levels[p]
                row["game_points"] = (3 if row["skunk_level"] else 2) if won else 0
                row["spread"] = sum(margins.values()) if won else -margins[side[p]]
        for deal in outcome.deals:
            for facts in deal.players:
                row = rows[facts.player]
                row["heels_due"] += facts.heels_due
                if not deal.completed:
                    continue
                role = facts.role
                row["deals"] += 1
                row[f"deals_as_{role}"] += 1
                for what, value in (("pegged", facts.pegged_due), ("hand", facts.hand_due)):
                    if value is not None:
                        row[f"{what}_due_{role}"] += value
                        row[f"{what}_deals_{role}"] += 1
                if role == "dealer" and facts.crib_due is not None:
                    row["crib_due"] += facts.crib_due
                    row["crib_deals"] += 1
        for f in outcome.findings:
            if f.player is None:
                continue
            row = rows[f.player]
            if f.kind == "missed":
                row["points_missed"] += f.due - f.claimed
                if f.deal is not None and outcome.deals[f.deal - 1].completed:
                    row["missed_completed"] += f.due - f.claimed
            elif f.kind in ("overclaim", "muggins-call"):  # a call beyond the miss over-claims (the rules)
                row["points_overclaimed"] += f.claimed - f.due
            elif f.kind in ILLEGAL:
                row["illegal_plays"] += 1
        out[game.id] = {name_key(p): row for p, row in rows.items()}
    return out


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    return write_logs(tmp_path / "logs")


def test_tally_results_by_hand(engine: sa.Engine, logs: Path) -> None:
    import_and_fill(engine, logs)
    stored = stored_totals(engine)
    g = t.game_table
    with engine.connect() as conn:
        tally = set(conn.execute(sa.select(g.c.game_key).where(g.c.source_file.like("%tally.csv"))).scalars())
    assert len(tally) == 3
    by_game: dict[str, list[str]] = {}
    for game_key, player in stored:
        if game_key in tally:
            by_game.setdefault(game_key, []).append(player)
    seen = 0
    for game_key, players in by_game.items():
        for player, opponent in (players, players[::-1]):
            row = stored[(game_key, player)]
            assert (row["won"], row["skunk_level"], row["game_points"], row["spread"]) == TALLY_EXPECTED[
                (player, opponent)
            ]
            assert all(row[c] == 0 for c in COLUMNS[4:])  # a result-only record has no deals, no findings
            seen += 1
    assert seen == 6


def test_totals_agree_with_the_replay(engine: sa.Engine, logs: Path) -> None:
    import_and_fill(engine, logs)
    stored = stored_totals(engine)
    expected = expected_totals(logs)
    assert len(expected) == 3 * len(VARIANTS) + 1
    for game_id, rows in expected.items():
        for player, row in rows.items():
            assert stored[(game_id, player)] == row, (game_id, player)
    # the fixture holds what the columns distinguish
    every = [row for rows in expected.values() for row in rows.values()]
    assert expected["unfinished"]["ben"]["won"] is None and expected["unfinished"]["ben"]["deals"] > 0
    assert any(r["points_missed"] for r in every) and any(r["points_overclaimed"] for r in every)
    assert any(r["illegal_plays"] for r in every) and any(r["heels_due"] for r in every)
    assert len(stored) == sum(len(rows) for rows in expected.values()) + 6


def test_refilling_replaces_rows_and_ids_with_gaps(engine: sa.Engine, logs: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import_and_fill(engine, logs)
    full = stored_totals(engine)
    gt = t.game_player_totals_table
    with engine.connect() as conn:
        ids = sorted(conn.execute(sa.select(t.game_table.c.id)).scalars())
    every_other = ids[::2]
    monkeypatch.setattr(totals_module, "RUNS_PER_STATEMENT", 3)  # several statements, each several ranges
    with engine.begin() as conn:
        conn.execute(gt.delete())
        add_game_totals(conn, every_other)
        filled = set(conn.execute(sa.select(gt.c.game_id).distinct()).scalars())
    assert filled == set(every_other)
    with engine.begin() as conn:
        add_game_totals(conn, ids)  # the rows already there are replaced, not doubled
        add_game_totals(conn, ids[:5])
    assert stored_totals(engine) == full


def test_a_deleted_game_takes_its_totals_with_it(engine: sa.Engine, logs: Path) -> None:
    import_and_fill(engine, logs)
    gt, g = t.game_player_totals_table, t.game_table
    with engine.begin() as conn:
        game_id = conn.execute(sa.select(g.c.id).where(g.c.game_key == "unfinished")).scalar_one()
        assert conn.execute(sa.select(sa.func.count()).where(gt.c.game_id == game_id)).scalar_one() == 2
        conn.execute(g.delete().where(g.c.id == game_id))
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).where(gt.c.game_id == game_id)).scalar_one() == 0


def test_migration_0003_fills_the_games_already_stored(engine: sa.Engine, logs: Path) -> None:
    import_and_fill(engine, logs)
    filled = stored_totals(engine)
    migrate(engine, "downgrade", "0002")
    with engine.connect() as conn:
        assert "game_player_totals" not in sa.inspect(conn).get_table_names()
    upgrade(engine)
    assert stored_totals(engine) == filled


def test_id_runs() -> None:
    assert id_runs([]) == []
    assert id_runs([5, 3, 4, 4, 10, 12, 11, 1]) == [(1, 1), (3, 5), (10, 12)]
