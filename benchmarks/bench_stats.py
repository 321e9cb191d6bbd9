"""How fast the statistics and the report are: ``cribstats stats`` over 100,000 stored games, and the report.

Run: ``.venv/bin/python benchmarks/bench_stats.py [GAMES]`` (default 100,000; ``--help`` for the rest). It
prints medians of a few runs in CPU seconds (``time.process_time``; a command run in a new process is timed by
its own CPU seconds, from ``getrusage``), each measured in the same run as its baseline:

- ``stats``: :func:`cribstats.stats.compute_stats` (the per game totals added up per player in SQL, read into
  polars, then the ratios), against a baseline of plain SQL ``GROUP BY`` sums straight from the fact tables
  (``game_player``, ``deal_player``, ``finding``; no spread, no completed-deal join, no ratios), as the figures
  were read before the per game totals. Also timed: a plain ``GROUP BY`` of the totals table, and
  ``player_totals_query`` alone (read into a frame).
- the totals' share of the import: :func:`cribstats.store.totals.add_game_totals` for 1,000 stored games (a
  batch of the importer), rolled back, against writing the same games' deal fact rows again (also rolled back).
- ``stats --format json`` through the command line in a new process (start-up and imports included), and the
  same command over an empty store: the start-up alone (imports, the schema check).
- the club tables: ``season``, ``head-to-head`` and ``rating`` (``--format json``) in a new process each, wall
  and CPU seconds, against ``stats --format json`` in the same run (``bench_stats.py --club [GAMES]`` runs only
  these).
- ``report``: :func:`cribstats.report.build_report` for the sample season (``sample_logs/``, or a simulated one
  when the folder is empty), against the same season's ``stats`` (so the ratio is what charts and HTML cost).

The 100,000-game store is built once and kept in the temp folder (``cribstats-bench/``, or ``--folder``): 250
simulated games (150 six-card, 25 of each other variant; ``--seed-games N`` makes them 6N and N) are imported
with the importer, then their rows are copied with shifted ids by ``INSERT ... SELECT`` until the store holds
GAMES games (play events are not copied: statistics do not read them; the per game totals are). A store kept
from an older cribstats is brought up to the current schema (``cribstats.store.db.upgrade``) and analysed
before it is measured.
"""

from __future__ import annotations

import argparse
import os
import resource
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
from cribstats.stats.frames import PLAYER_TOTALS_SCHEMA, SUMMED, StatsFilter, player_totals_query, read_frame
from cribstats.store import tables as t
from cribstats.store.db import current_revision, head_revision, make_engine, upgrade
from cribstats.store.importer import import_paths
from cribstats.store.totals import add_game_totals

ROOT = Path(__file__).resolve().parent.parent
SEED_SHARES = {"six-card": 6, "five-card": 1, "seven-card": 1, "three-player": 1, "four-player": 1}
"""How the seed games are shared among the variants: six of every ten are six-card."""
SEED_GAMES = {variant: 25 * share for variant, share in SEED_SHARES.items()}
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Hank", "Irene", "Jack", "Kate", "Leo"]
REPEATS = 3
COPIED = ("game", "game_player", "deal", "deal_player", "finding", "game_player_totals")
TOTALS_BATCH = 1000  # games per add_game_totals call timed, as in an import batch


def median_time(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    """The median CPU seconds of ``fn`` (this process's, and those of the processes it ran and waited for)."""
    times = []
    for _ in range(repeats):
        start = _cpu()
        fn()
        times.append(_cpu() - start)
    return statistics.median(times)


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def seed_logs(folder: Path, seed_games: dict[str, int] = SEED_GAMES) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, (variant, n) in enumerate(seed_games.items()):
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


def build_store(path: Path, games: int, seed: Path) -> None:
    """Import the seed games (the logs in ``seed``), then copy them up to ``games`` games."""
    engine = make_engine(f"sqlite:///{path}")
    summary = import_paths([seed], engine)
    seeded = summary.imported
    copies = max(0, games // seeded - 1)
    tables = {name: t.metadata.tables[name] for name in COPIED}
    with engine.begin() as conn:
        # the id span of each table with its own id (the totals have none: they are keyed by player and game)
        spans = {name: conn.execute(sa.select(sa.func.max(table.c.id))).scalar() or 0
                 for name, table in tables.items() if "id" in table.c}
        for name in COPIED if copies else ():
            conn.execute(_copy_statement(tables[name], copies, spans))
    with engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE")
    engine.dispose()


def store_path(games: int, folder: Path, seed_games: dict[str, int]) -> Path:
    seeded = sum(seed_games.values())
    path = folder / f"stats-{games}-seed{seeded}.db"
    if not path.exists():
        seed_logs(folder / f"seed{seeded}", seed_games)
        partial = path.with_suffix(".building")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{partial}{suffix}").unlink(missing_ok=True)
        start = time.perf_counter()
        build_store(partial, games, folder / f"seed{seeded}")
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
"""The bare sums of the stored facts, straight from the fact tables (as ``stats`` read them before the per game
totals): no spread, no completed-deal join, no ratios."""
TOTALS_SQL = f"""SELECT player_id, count(won), {", ".join(f"sum({c})" for c in SUMMED)}
FROM game_player_totals GROUP BY player_id"""
"""The plain sums of the per game totals per player (no skunk counts, no names)."""


def sql_baseline(engine: sa.Engine, queries: list[str]) -> None:
    with engine.connect() as conn:
        for query in queries:
            conn.exec_driver_sql(query).all()


def totals_query(engine: sa.Engine) -> None:
    with engine.connect() as conn:
        read_frame(conn, player_totals_query(StatsFilter()), PLAYER_TOTALS_SCHEMA)


def totals_cost(engine: sa.Engine, repeats: int) -> tuple[float, float]:
    """Seconds to fill the totals of ``TOTALS_BATCH`` stored games, and to write their deal fact rows again
    (both rolled back): what the totals add to an import batch, against part of what it already writes."""
    dp = t.deal_player_table
    with engine.connect() as conn:
        last = conn.execute(sa.select(sa.func.max(t.game_table.c.id))).scalar_one()
    ids = list(range(max(1, last - TOTALS_BATCH + 1), last + 1))

    def fill() -> None:
        with engine.connect() as conn, conn.begin() as transaction:
            add_game_totals(conn, ids)
            transaction.rollback()

    def rewrite_facts() -> None:
        with engine.connect() as conn, conn.begin() as transaction:
            rows = conn.execute(sa.select(dp).where(dp.c.game_id.between(ids[0], ids[-1]))).mappings().all()
            conn.execute(dp.delete().where(dp.c.game_id.between(ids[0], ids[-1])))
            conn.execute(dp.insert(), [dict(r) for r in rows])
            transaction.rollback()

    return median_time(fill, repeats), median_time(rewrite_facts, repeats)


def cli_time(url: str, repeats: int) -> float:
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


def bench_stats(games: int, folder: Path, seed_games: dict[str, int], repeats: int) -> None:
    path = store_path(games, folder, seed_games)
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    with engine.connect() as conn:
        stored = conn.execute(sa.select(sa.func.count()).select_from(t.game_table)).scalar_one()
        facts = conn.execute(sa.select(sa.func.count()).select_from(t.deal_player_table)).scalar_one()
        totals = conn.execute(sa.select(sa.func.count()).select_from(t.game_player_totals_table)).scalar_one()
    frame = compute_stats(engine)  # warm the page cache once
    base = median_time(lambda: sql_baseline(engine, BASELINE_SQL), repeats)
    plain = median_time(lambda: sql_baseline(engine, [TOTALS_SQL]), repeats)
    query = median_time(lambda: totals_query(engine), repeats)
    ours = median_time(lambda: compute_stats(engine), repeats)
    fill, facts_again = totals_cost(engine, repeats)
    cli = cli_time(url, repeats)
    start_up = cli_time(empty_store(path.parent), repeats)
    print(f"stats over {stored:,} games ({facts:,} deal_player rows, {totals:,} game_player_totals rows, "
          f"{frame.height} players):")
    print(f"  plain SQL GROUP BY of the fact tables (baseline)   {base:7.3f} s")
    print(f"  plain SQL GROUP BY of game_player_totals           {plain:7.3f} s   {plain / base:5.2f}x baseline")
    print(f"  player_totals_query, read into a frame             {query:7.3f} s   {query / base:5.2f}x baseline")
    print(f"  compute_stats (SQL + polars)                       {ours:7.3f} s   {ours / base:5.2f}x baseline"
          "   (target < 3 s)")
    print(f"  cribstats stats --format json                      {cli:7.3f} s   {cli / base:5.2f}x baseline"
          "   (target < 3 s)")
    print(f"    of which start-up                                {start_up:7.3f} s   (empty store)")
    print(f"import: add_game_totals for {len_batch(stored):,} games           {fill:7.3f} s   "
          f"{fill / facts_again:5.2f}x writing their deal_player rows again ({facts_again:.3f} s)")


def len_batch(stored: int) -> int:
    return min(TOTALS_BATCH, stored)


def bench_report(folder: Path, logs: Path, seed_games: dict[str, int], repeats: int) -> None:
    source = logs if logs.is_dir() and any(logs.rglob("*.json*")) else folder / f"seed{sum(seed_games.values())}"
    if source != logs and not source.exists():
        seed_logs(source, seed_games)
    path = folder / "report-season.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    engine = make_engine(f"sqlite:///{path}")
    summary = import_paths([source], engine)
    stats = median_time(lambda: compute_stats(engine), repeats)
    report = median_time(lambda: build_report(engine), repeats)
    print(f"report of {source} ({summary.imported:,} games imported, {summary.refused_count} refused):")
    print(f"  compute_stats baseline       {stats:7.3f} s")
    print(f"  build_report                 {report:7.3f} s   {report / stats:5.1f}x stats   (target < 10 s)")


CLUB_COMMANDS: tuple[list[str], ...] = (
    ["season", "--format", "json"],
    ["head-to-head", "--format", "json"],
    ["rating", "--format", "json"],
)
"""The club tables timed over the big store, each in a new process as a user runs it (target < 3 s each)."""


def club_cli_time(url: str, args: list[str], repeats: int = REPEATS) -> tuple[float, float]:
    """Median wall and CPU seconds (the child's user + system time) of ``cribstats ARGS`` in a new process."""
    env = dict(os.environ, CRIBSTATS_DB=url)
    command = [str(Path(sys.executable).parent / "cribstats"), *args]
    walls, cpus = [], []
    for _ in range(repeats):
        before = os.times()
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append(after.children_user - before.children_user + after.children_system - before.children_system)
    return statistics.median(walls), statistics.median(cpus)


def club_store(games: int, folder: Path) -> Path:
    """A store of ``games`` games for the club tables, built as :func:`build_store` builds its own (the seed
    games imported, then copied with shifted ids), kept apart in ``cribstats-bench/club-GAMES.db``. A table
    without an ``id`` (the per game totals) is copied with its game ids shifted."""
    path = folder / f"club-{games}.db"
    if path.exists():
        bring_up_to_date(path)
        return path
    if not (folder / "seed").exists():
        seed_logs(folder / "seed")
    partial = path.with_suffix(".building")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{partial}{suffix}").unlink(missing_ok=True)
    engine = make_engine(f"sqlite:///{partial}")
    seeded = import_paths([folder / "seed"], engine).imported
    copies = max(0, games // seeded - 1)
    tables = {name: t.metadata.tables[name] for name in COPIED}
    with engine.begin() as conn:
        spans = {name: conn.execute(sa.select(sa.func.max(table.c.id))).scalar() or 0
                 for name, table in tables.items() if "id" in table.c}  # fmt: skip
        for table in tables.values():
            conn.execute(_copy_statement(table, copies, spans))
    with engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE")
    engine.dispose()
    partial.rename(path)
    return path


def bench_club(games: int, folder: Path, repeats: int = REPEATS) -> None:
    """``season``, ``head-to-head`` and ``rating`` over the big store, against ``stats`` in the same run."""
    url = f"sqlite:///{club_store(games, folder)}"
    base_wall, base_cpu = club_cli_time(url, ["stats", "--format", "json"], repeats)
    print(f"club tables over {games:,} games, each `cribstats ...` in a new process (wall / CPU seconds):")
    print(f"  stats --format json (baseline)                     {base_wall:7.3f} s / {base_cpu:6.3f} s")
    for args in CLUB_COMMANDS:
        wall, cpu = club_cli_time(url, args, repeats)
        print(f"  {' '.join(args):<50} {wall:7.3f} s / {cpu:6.3f} s   {cpu / base_cpu:5.2f}x stats CPU"
              "   (target < 3 s)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=100_000, help="games in the store (default 100,000)")
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "cribstats-bench",
                        help="where the stores are built and kept")
    parser.add_argument("--seed-games", type=int, default=25, metavar="N",
                        help="seed games per share of a variant (six-card has six shares, the others one)")
    parser.add_argument("--report-logs", type=Path, default=ROOT / "sample_logs",
                        help="the season the report is built from (default: sample_logs/; the seed games if "
                             "the folder holds no logs)")
    parser.add_argument("--repeat", type=int, default=REPEATS, help="runs of each timing; the median is shown")
    parser.add_argument("--club", action="store_true", help="the club tables only")
    args = parser.parse_args(argv)
    seed_games = {variant: args.seed_games * share for variant, share in SEED_SHARES.items()}
    args.folder.mkdir(parents=True, exist_ok=True)
    if args.club:
        bench_club(args.games, args.folder, args.repeat)
        return
    bench_stats(args.games, args.folder, seed_games, args.repeat)
    bench_club(args.games, args.folder, args.repeat)
    bench_report(args.folder, args.report_logs, seed_games, args.repeat)


if __name__ == "__main__":
    main()
