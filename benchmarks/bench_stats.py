"""How fast the statistics and the report are: ``cribstats stats`` over 100,000 stored games, and the report.

Run: ``.venv/bin/python benchmarks/bench_stats.py [GAMES]`` (default 100,000). It prints medians of a few runs,
each measured in the same run as its baseline:

- ``stats``: :func:`cribstats.stats.compute_stats` (grouped SQL totals read into polars, then the measures),
  against a baseline of plain SQL ``GROUP BY`` aggregates of the same sums and counts over the same tables (no
  polars, no spread, no completed-deal join, no ratios): the ratio says what the figures cost over the bare sums.
- ``stats --format json`` through the command line in a new process (start-up and imports included), and the
  same command over an empty store: the start-up alone (imports, the schema check).
- ``report``: :func:`cribstats.report.build_report` for the sample season (``sample_logs/``, or a simulated one
  when the folder is empty), against the same season's ``stats`` (so the ratio is what charts and HTML cost).

The 100,000-game store is built once and kept in the temp folder (``cribstats-bench/``): 250 simulated games
of every variant are imported with the importer, then their rows are copied with shifted ids by
``INSERT ... SELECT`` until the store holds GAMES games (play events are not copied: statistics do not read them).
A store kept from an older cribstats is brought up to the current schema (``cribstats.store.db.upgrade``: the
statistics' indexes) and analysed before it is measured.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import sqlalchemy as sa

from cribstats.report import build_report
from cribstats.simulate import simulate_games
from cribstats.stats import compute_stats
from cribstats.store import tables as t
from cribstats.store.db import current_revision, head_revision, make_engine, upgrade
from cribstats.store.importer import import_paths

ROOT = Path(__file__).resolve().parent.parent
SEED_GAMES = {"six-card": 150, "five-card": 25, "seven-card": 25, "three-player": 25, "four-player": 25}
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Hank", "Irene", "Jack", "Kate", "Leo"]
REPEATS = 3
COPIED = ("game", "game_player", "deal", "deal_player", "finding")


def median_time(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def seed_logs(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, (variant, n) in enumerate(SEED_GAMES.items()):
        with open(folder / f"{variant}.jsonl", "wb") as handle:
            games = simulate_games(n, variant=variant, players=NAMES, seed=100 + i, mistake_rate=0.03,
                                   events=["League"], start_date="2026-01-06", games_per_night=24)  # fmt: skip
            for game in games:
                handle.write(orjson.dumps(dict(game.log, id=f"{variant}-{game.log['id']}")) + b"\n")


def _copy_statement(table: sa.Table, copies: int, id_step: dict[str, int]) -> sa.Insert:
    """Copy every row of ``table`` ``copies`` times, ids shifted by k * (the table's id span), keys made unique."""
    k = sa.select(sa.literal(1).label("k")).cte("k", recursive=True)
    k = k.union_all(sa.select((k.c.k + 1).label("k")).where(k.c.k < copies))
    columns = []
    for column in table.c:
        if column.name == "id":
            columns.append(column + k.c.k * id_step[table.name])
        elif column.name == "game_id":
            columns.append(column + k.c.k * id_step["game"])
        elif column.name == "deal_id":
            columns.append(column + k.c.k * id_step["deal"])
        elif column.name in ("content_hash", "game_key", "source_id"):
            columns.append(column + "-" + sa.cast(k.c.k, sa.String))
        else:
            columns.append(column)
    rows = sa.select(*columns).select_from(table.join(k, sa.true()))
    return table.insert().from_select([c.name for c in table.c], rows)


def build_store(path: Path, games: int) -> None:
    """Import the seed games, then copy them up to ``games`` games."""
    engine = make_engine(f"sqlite:///{path}")
    summary = import_paths([path.parent / "seed"], engine)
    seeded = summary.imported
    copies = max(0, games // seeded - 1)
    tables = {name: t.metadata.tables[name] for name in COPIED}
    with engine.begin() as conn:
        spans = {name: conn.execute(sa.select(sa.func.max(tables[name].c.id))).scalar() or 0 for name in COPIED}
        for name in COPIED:
            conn.execute(_copy_statement(tables[name], copies, spans))
    with engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE")
    engine.dispose()


def store_path(games: int) -> Path:
    folder = Path(tempfile.gettempdir()) / "cribstats-bench"
    path = folder / f"stats-{games}.db"
    if not path.exists():
        seed_logs(folder / "seed")
        partial = path.with_suffix(".building")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{partial}{suffix}").unlink(missing_ok=True)
        start = time.perf_counter()
        build_store(partial, games)
        partial.rename(path)
        print(f"built {path} in {time.perf_counter() - start:.1f} s")
    bring_up_to_date(path)
    return path


def bring_up_to_date(path: Path) -> None:
    """Migrate a store kept from an older cribstats to the current schema, then refresh the planner's figures."""
    engine = make_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        revision = current_revision(conn)
    if revision != head_revision():
        start = time.perf_counter()
        upgrade(engine)
        with engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
        print(f"upgraded {path} from revision {revision} in {time.perf_counter() - start:.1f} s")
    engine.dispose()


BASELINE_SQL = [
    """SELECT player_id, count(*), sum(won), sum(skunk_level = 1), sum(skunk_level = 2), sum(skunk_level = 3),
              sum(final_score_claimed) FROM game_player GROUP BY player_id""",
    """SELECT player_id, role, completed, count(*), sum(pegged_due), count(pegged_due), sum(hand_due),
              count(hand_due), sum(crib_due), count(crib_due), sum(heels_due)
       FROM deal_player GROUP BY player_id, role, completed""",
    """SELECT kind, player_id, phase, count(*), sum(due - claimed) FROM finding GROUP BY kind, player_id, phase""",
]


def sql_baseline(engine: sa.Engine) -> None:
    with engine.connect() as conn:
        for query in BASELINE_SQL:
            conn.exec_driver_sql(query).all()


def cli_time(url: str, repeats: int = REPEATS) -> float:
    """``cribstats stats --format json`` in a new process, as a user runs it."""
    env = dict(os.environ, CRIBSTATS_DB=url)
    command = [str(Path(sys.executable).parent / "cribstats"), "stats", "--format", "json"]
    return median_time(lambda: subprocess.run(command, env=env, check=True, capture_output=True), repeats)


def empty_store(folder: Path) -> str:
    path = folder / "empty.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return f"sqlite:///{path}"


def bench_stats(games: int) -> None:
    path = store_path(games)
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    with engine.connect() as conn:
        stored = conn.execute(sa.select(sa.func.count()).select_from(t.game_table)).scalar()
        facts = conn.execute(sa.select(sa.func.count()).select_from(t.deal_player_table)).scalar()
    frame = compute_stats(engine)  # warm the page cache once
    base = median_time(lambda: sql_baseline(engine))
    ours = median_time(lambda: compute_stats(engine))
    cli = cli_time(url)
    start_up = cli_time(empty_store(path.parent))
    print(f"stats over {stored:,} games ({facts:,} deal_player rows, {frame.height} players):")
    print(f"  plain SQL GROUP BY baseline   {base:7.3f} s")
    print(f"  compute_stats (SQL + polars)  {ours:7.3f} s   {ours / base:5.2f}x baseline   (target < 3 s)")
    print(f"  cribstats stats --format json {cli:7.3f} s   {cli / base:5.2f}x baseline   (target < 3 s)")
    print(f"    of which start-up           {start_up:7.3f} s   (the same command over an empty store)")


def bench_report() -> None:
    folder = Path(tempfile.gettempdir()) / "cribstats-bench"
    samples = ROOT / "sample_logs"
    source = samples if samples.is_dir() and any(samples.rglob("*.json*")) else folder / "seed"
    if source != samples and not source.exists():
        seed_logs(source)
    path = folder / "report-season.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    engine = make_engine(f"sqlite:///{path}")
    summary = import_paths([source], engine)
    stats = median_time(lambda: compute_stats(engine))
    report = median_time(lambda: build_report(engine))
    print(f"report of {source} ({summary.imported:,} games imported, {summary.refused_count} refused):")
    print(f"  compute_stats baseline       {stats:7.3f} s")
    print(f"  build_report                 {report:7.3f} s   {report / stats:5.1f}x stats   (target < 10 s)")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    bench_stats(games)
    bench_report()


if __name__ == "__main__":
    main()
