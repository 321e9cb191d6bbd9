"""Digests of everything cribstats derives from a set of game logs: the replay's facts and findings, the audit's
JSON lines and summary, every stored row and the statistics and standings.

``tests/test_equivalence.py`` compares them with ``tests/data/equivalence.json``, written by running this module
(``python tests/equivalence.py OUT``) with the cribstats of an earlier release, so that a change to how the replay,
the audit or the importer are built cannot change what they find, store or compute.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import orjson

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
LOG_SUFFIXES = {".json", ".jsonl", ".csv", ".pgn"}
SIMULATED_VARIANTS = ("six-card", "five-card", "seven-card", "three-player", "four-player")
SIMULATED_PER_VARIANT = 2000  # 10,000 games in all
SIMULATED_CHUNK = 500  # games per digest of the replay
VOLATILE = {"imported_at", "started_at", "finished_at"}
# samples and tables that came with matches, after the reference was written: what they give is pinned by the
# match tests (tests/test_match_*.py, tests/test_sample_logs.py), not here
LATER_SAMPLES = {"nights", "matches", "options"}
# the service's keys and signed-out sessions: no import writes them
LATER_TABLES = {"match", "match_game", "match_player", "match_finding"} | {"api_key", "ended_session"}
# added after the reference release, and checked by their own tests (tests/test_discard_store.py): the value of
# every discard, and the statistics' discard loss per deal
ADDED_TABLES = {"deal_discard"}
# the store's version (tests/test_service_freshness.py): a count of writes, not a figure
ADDED_TABLES |= {"store_version"}
ADDED_COLUMNS = {"discard_loss_per_deal_dealer", "discard_loss_per_deal_pone"}
# the statistics added since that the design names (accuracy, the spread per game): checked by their own tests
# (tests/test_stats.py by hand, tests/test_stats_recompute.py by an independent computation)
ADDED_COLUMNS |= {"accuracy", "spread_per_game"}
# the first dealer's games, wins and win rate, and who dealt first kept with the per game totals: likewise
ADDED_COLUMNS |= {"first_dealer_games", "first_dealer_wins", "first_dealer_win_rate"}
# a deal's play is one value since (``deal.play``): the reference's ``play_event`` rows are made from it, numbered
# in the order they were written (deal by deal, event by event), and the value itself is left out of ``deal``
PLAY_VALUE = {("deal", "play")}
# the value of every discard (``deal_discard`` above) is kept in ``deal_player`` since: its columns are left out of
# ``deal_player`` as ``deal_discard`` is (tests/test_discard_store.py checks them)
DISCARD_VALUES = {("deal_player", c) for c in ("hand_only", "kept", "thrown", "hand_value", "crib_value",
                                               "expected", "best_kept", "best_thrown", "best_expected", "loss")}
FIRST_DEALER = {("game_player_totals", "first_dealer")}
# each event's key (migration 0013), what the filters compare: names.event_key of its name, which is digested
EVENT_KEY = {("event", "name_key")}
# whether a game is giveaway (migration 0018), which its log (digested) says: pinned by
# tests/test_giveaway_spread.py and tests/test_discards_giveaway.py
GIVEAWAY = {("game", "giveaway")}
LEFT_OUT = PLAY_VALUE | DISCARD_VALUES | FIRST_DEALER | EVENT_KEY | GIVEAWAY


def _play_event_rows(engine: Any) -> list[tuple[Any, ...]]:
    """The ``play_event`` rows (``id, deal_id, seq, player_id, card, count, due, claimed, after_end``) the store
    held before a deal's play became one value."""
    from stored_play import play_events

    with engine.connect() as conn:
        return [(n, *event) for n, event in enumerate(play_events(conn), start=1)]


def sample_files() -> list[Path]:
    return sorted(p for p in SAMPLES.rglob("*")
                  if p.suffix in LOG_SUFFIXES and p.relative_to(SAMPLES).parts[0] not in LATER_SAMPLES)


def simulated_lines() -> Iterator[bytes]:
    """10,000 simulated games with mistakes (and muggins calls in half the variants), as JSON lines."""
    from cribstats.simulate import simulate_games

    for k, variant in enumerate(SIMULATED_VARIANTS):
        for sim in simulate_games(
            SIMULATED_PER_VARIANT, variant=variant, seed=11 + k, mistake_rate=0.05, muggins=k % 2 == 0
        ):
            yield orjson.dumps(sim.log)


def _sha(data: Iterable[bytes]) -> str:
    digest = hashlib.sha256()
    for chunk in data:
        digest.update(chunk)
    return digest.hexdigest()


def _finding(f: Any) -> list[Any]:
    return [f.game, f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due, f.message]


def deal_record(d: Any) -> dict[str, Any]:
    """A replayed deal as plain data: the fields the reference release had, in its order."""
    return {
        "number": d.number,
        "dealer": d.dealer,
        "starter": d.starter,
        "completed": d.completed,
        "after_end": d.after_end,
        "players": [asdict(p) for p in d.players],
        "plays": [asdict(p) for p in d.plays],
        "shows": [asdict(s) for s in d.shows],
        "scores_claimed": d.scores_claimed,
        "scores_due": d.scores_due,
    }


def outcome_record(outcome: Any) -> dict[str, Any]:
    """A replayed game as plain data: every fact, finding, score and winner."""
    return {
        "key": outcome.key,
        "variant": outcome.variant.name,
        "target": outcome.target,
        "deals": [deal_record(d) for d in outcome.deals],
        "findings": [_finding(f) for f in outcome.findings],
        "scores_claimed": outcome.scores_claimed,
        "scores_due": outcome.scores_due,
        "winners": list(outcome.winners),
        "winners_due": list(outcome.winners_due),
        "skunk_level": outcome.skunk_level,
        "skunk_levels": outcome.skunk_levels,
        "ended_in_deal": outcome.ended_in_deal,
    }


def replay_digests(paths: list[Path], chunk: int) -> tuple[list[str], list[str], dict[str, Any]]:
    """Digests of the replay records and of the audit's finding lines, ``chunk`` games each; the audit summary."""
    from cribstats.audit import AuditCollector, finding_json_line
    from cribstats.formats import read_paths
    from cribstats.replay import replay

    collector = AuditCollector(keep=False)
    records: list[str] = []
    lines: list[str] = []
    record_hash, line_hash, in_chunk = hashlib.sha256(), hashlib.sha256(), 0
    for source in read_paths([str(p) for p in paths], on_error=collector.refuse):
        outcome = replay(source.game)
        record_hash.update(orjson.dumps(outcome_record(outcome), option=orjson.OPT_SORT_KEYS) + b"\n")
        for finding in collector.add(outcome).findings:
            line_hash.update(finding_json_line(finding))
        in_chunk += 1
        if in_chunk == chunk:
            records.append(record_hash.hexdigest())
            lines.append(line_hash.hexdigest())
            record_hash, line_hash, in_chunk = hashlib.sha256(), hashlib.sha256(), 0
    if in_chunk:
        records.append(record_hash.hexdigest())
        lines.append(line_hash.hexdigest())
    summary = collector.result()
    totals = {
        "games": summary.games,
        "deals": summary.deals,
        "games_with_findings": summary.games_with_findings,
        "findings_by_kind": summary.findings_by_kind,
        "missed": summary.missed,
        "overclaimed": summary.overclaimed,
        "refused": summary.refused,
        "errors": [e.replace(str(SAMPLES), "<samples>") for e in summary.errors],
    }
    return records, lines, totals


def store_digests(paths: list[Path], database: Path, home: Path) -> dict[str, Any]:
    """Import ``paths`` into a new SQLite file; a digest of every table's rows (``home`` and times left out), and
    of the statistics and standings."""
    from cribstats.stats import compute_standings, compute_stats
    from cribstats.stats.measures import PLAYER_COLUMNS
    from cribstats.store.db import make_engine
    from cribstats.store.importer import import_paths

    engine = make_engine(f"sqlite:///{database}")
    summary = import_paths([str(p) for p in paths], engine)
    out: dict[str, Any] = {"imported": summary.imported, "refused": summary.refused_count}
    with sqlite3.connect(database) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for table in tables:
            if table == "alembic_version" or table in LATER_TABLES | ADDED_TABLES:
                continue
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            names = [c[0] for c in cursor.description]
            keep = [i for i, n in enumerate(names) if n not in VOLATILE and (table, n) not in LEFT_OUT]
            rows = sorted(
                orjson.dumps([_plain(row[i], home) for i in keep]) for row in cursor.fetchall()
            )
            out[table] = [len(rows), _sha(r + b"\n" for r in rows)]
        if "play_event" not in tables:  # a deal's play as one value: its events as the rows they were
            rows = sorted(orjson.dumps([_plain(v, home) for v in row]) for row in _play_event_rows(engine))
            out["play_event"] = [len(rows), _sha(r + b"\n" for r in rows)]
    # the per player figures of the earlier release (the club columns added since are recomputed from the logs
    # in test_club_recompute)
    stats = compute_stats(engine).select([c for c in PLAYER_COLUMNS if c not in ADDED_COLUMNS])
    for name, frame in (("stats", stats), ("standings", compute_standings(engine))):
        rows = [{k: _plain(v, home) for k, v in row.items()} for row in frame.to_dicts()]
        out[name] = [len(rows), _sha([orjson.dumps(rows, option=orjson.OPT_SORT_KEYS)])]
    engine.dispose()
    return out


def _plain(value: Any, home: Path) -> Any:
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, str):
        return value.replace(str(home), "<home>").replace(str(SAMPLES), "<samples>")
    if isinstance(value, bytes):
        return value.hex()
    return value if value is None or isinstance(value, int | str) else str(value)


def all_digests(work: Path) -> dict[str, Any]:
    """Every digest, for the sample logs and for the simulated games (written under ``work``)."""
    simulated = work / "simulated.jsonl"
    with simulated.open("wb") as out:
        for line in simulated_lines():
            out.write(line + b"\n")
    result: dict[str, Any] = {"simulated_log": _sha([simulated.read_bytes()])}
    for name, paths, chunk in (("samples", sample_files(), 50), ("simulated", [simulated], SIMULATED_CHUNK)):
        records, lines, totals = replay_digests(paths, chunk)
        result[name] = {
            "replay": records,
            "audit_lines": lines,
            "audit_summary": totals,
            "store": store_digests(paths, work / f"{name}.db", work),
        }
    return result


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        digests = all_digests(Path(folder))
    Path(sys.argv[1]).write_bytes(orjson.dumps(digests, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
