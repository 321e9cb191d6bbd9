"""A muggins call taking more than its victim missed is, by the rules, "itself an over-claim by the caller": what
it took beyond the miss counts in the caller's points over-claimed, in the audit's summary, the stored totals and
``cribstats stats``, and migration 0015 adds it to the totals of games stored before.

The two games are the seed example deal (Bob's hand due 9, Alice's crib due 6, board 24-12) with one change each,
worked out by hand:

* ``over-take``: Bob claims 7 for his hand (2 missed) and Alice calls muggins for 3: Alice over-claimed 3 - 2 = 1,
  Bob missed 2;
* ``empty-call``: nothing is missed and Bob calls muggins on Alice's crib for 2: Bob over-claimed 2 - 0 = 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from databases import migrate
from spec_example import example_deal

from cribstats.audit import AuditCollector
from cribstats.gamelog import validate_game
from cribstats.replay import replay


def call(by: str, victim: str, phase: str, points: int) -> dict[str, Any]:
    return {"by": by, "from": victim, "phase": phase, "points": points}


def games() -> list[dict[str, Any]]:
    over_take = example_deal(muggins=[call("Alice", "Bob", "hand", 3)], scores={"Alice": 27, "Bob": 10})
    over_take["show"]["Bob"] = 7
    empty_call = example_deal(muggins=[call("Bob", "Alice", "crib", 2)], scores={"Alice": 24, "Bob": 14})
    return [
        {"format": "cribstats/game/1", "id": key, "players": ["Alice", "Bob"], "muggins": True, "deals": [deal]}
        for key, deal in (("over-take", over_take), ("empty-call", empty_call))
    ]


OVER_CLAIMED = {"over-take": {"Alice": 1, "Bob": 0}, "empty-call": {"Alice": 0, "Bob": 2}}


def test_the_audit_summary_counts_a_call_beyond_the_miss_as_the_callers_over_claim() -> None:
    collector = AuditCollector()
    for data in games():
        replay(validate_game(data), collector)
    summary = collector.result()
    assert summary.findings_by_kind == {"missed": 1, "muggins-call": 2}
    assert summary.missed == {"Bob": 2}
    assert summary.overclaimed == {"Alice": 1, "Bob": 2}


def _stored(tmp_path: Path, db_url: str) -> sa.Engine:
    from cribstats.store.db import make_engine, upgrade
    from cribstats.store.importer import import_paths

    log = tmp_path / "calls.jsonl"
    log.write_text("".join(json.dumps(game) + "\n" for game in games()), encoding="utf-8")
    engine = make_engine(db_url)
    upgrade(engine)
    assert import_paths([log], engine).imported == 2
    return engine


def _totals(engine: sa.Engine) -> dict[str, dict[str, int]]:
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT g.game_key, p.name, t.points_overclaimed FROM game_player_totals t "
            "JOIN game g ON g.id = t.game_id JOIN player p ON p.id = t.player_id"
        )).all()
    out: dict[str, dict[str, int]] = {}
    for game, player, over in rows:
        out.setdefault(game, {})[player] = over
    return out


def test_the_store_and_stats_count_it(tmp_path: Path, db_url: str) -> None:
    from cribstats.stats import compute_stats

    engine = _stored(tmp_path, db_url)
    try:
        assert _totals(engine) == OVER_CLAIMED
        stats = {row["player"]: row for row in compute_stats(engine).to_dicts()}
        assert (stats["Alice"]["points_overclaimed"], stats["Alice"]["points_missed"]) == (1, 0)
        assert (stats["Bob"]["points_overclaimed"], stats["Bob"]["points_missed"]) == (2, 2)
    finally:
        engine.dispose()


def test_migration_0015_adds_it_to_games_stored_before_and_takes_it_off_going_back(
    tmp_path: Path, db_url: str
) -> None:
    engine = _stored(tmp_path, db_url)
    try:
        migrate(engine, "downgrade", "0014")  # the definition of before: `overclaim` findings only (none here)
        assert _totals(engine) == {game: {"Alice": 0, "Bob": 0} for game in OVER_CLAIMED}
        migrate(engine, "upgrade", "0015")
        assert _totals(engine) == OVER_CLAIMED
    finally:
        engine.dispose()
