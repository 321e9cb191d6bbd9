"""Import speed: simulated six-card games into SQLite (and PostgreSQL when reachable), with the audit included.

    .venv/bin/python benchmarks/bench_import.py [--games 10000] [--pg-url URL]

Measured in the same run, each in a fresh process (so peak memory is that step's own):

* ``audit alone``: read the JSON Lines file, validate and replay every game (no database);
* ``floor``: the same rows the importer writes, built beforehand (not timed), inserted with plain executemany
  (PostgreSQL: COPY) in transactions of 1,000 games, with no identity checks: the cost of the rows themselves;
* ``import``: ``cribstats.store.importer.import_paths`` on the file: parse, replay, identity checks and writes;
  once more with ``--workers`` replay processes (default: one per core) when that is more than one, into SQLite
  and PostgreSQL.

The games are ``--base`` simulated games (default 500), copied with a new id each up to ``--games``, so that every
game is distinct and costs a full replay. PostgreSQL is used when ``--pg-url`` or ``CRIBSTATS_TEST_PG_URL`` names
a server; each run gets a fresh database there, dropped afterwards. Peak memory is the step's maximum resident
set size (``resource.getrusage``); with worker processes, theirs is shown beside it. CPU seconds count every
process of the step (workers included), so that a parallel import is seen to cost what it costs. ``--repeat N``
runs the steps N times in rounds and shows each step's median run: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import orjson


def make_file(path: Path, games: int, base: int, seed: int) -> None:
    from cribstats.simulate import simulate_games

    bases = [orjson.dumps(g.log) for g in simulate_games(base, seed=seed)]
    with path.open("wb") as out:
        for i in range(games):
            text = bases[i % base]
            if i >= base:
                old = orjson.loads(text)["id"]
                text = text.replace(f'"{old}"'.encode(), f'"copy-{i:06d}"'.encode(), 1)
            out.write(text + b"\n")


# --- the steps, each run in a child process ----------------------------------------------------------------------


def step_audit(path: str) -> dict[str, float]:
    from cribstats.formats import read_paths
    from cribstats.replay import replay

    start, cpu = time.perf_counter(), time.process_time()
    n = 0
    for source in read_paths([path]):
        replay(source.game)
        n += 1
    return {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu, "games": n}


def step_import(path: str, url: str, workers: str = "1") -> dict[str, float]:
    from cribstats.store.db import make_engine, upgrade
    from cribstats.store.importer import import_paths

    engine = make_engine(url)
    upgrade(engine)  # the schema is set up outside the timing, as for the floor
    before = _children_cpu()
    start, cpu = time.perf_counter(), time.process_time()
    summary = import_paths([path], engine, workers=int(workers))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    engine.dispose()
    _stop_forkserver()
    children = _children_cpu() - before
    return {"seconds": seconds, "cpu": cpu + children, "main_cpu": cpu, "games": summary.imported}


def _stop_forkserver() -> None:
    """Wait for the server the worker processes were forked from (it has waited for them), so that their cpu
    time is counted in this process's children's. Uses the stdlib's own test hook: this is a benchmark."""
    from multiprocessing import forkserver

    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        stop()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def step_floor(path: str, url: str) -> dict[str, float]:
    """Insert the importer's rows with plain executemany/COPY, ids assigned up front; only the writes timed."""
    from datetime import datetime

    import sqlalchemy as sa

    from cribstats.formats import read_paths
    from cribstats.gamelog.fast import game_model
    from cribstats.store import tables as t
    from cribstats.store.bulk import bulk_insert
    from cribstats.store.db import make_engine, upgrade
    from cribstats.store.rows import (
        DEAL_COLUMNS,
        DEAL_PLAYER_COLUMNS,
        FINDING_COLUMNS,
        GAME_COLUMNS,
        GAME_PLAYER_COLUMNS,
        PreparedGame,
        prepare_game,
    )

    engine = make_engine(url)
    upgrade(engine)
    sqlite = engine.dialect.name == "sqlite"
    as_date = sa.Date().dialect_impl(engine.dialect).bind_processor(engine.dialect) if sqlite else None
    as_time = sa.DateTime().dialect_impl(engine.dialect).bind_processor(engine.dialect) if sqlite else None
    if sqlite and (as_date is None or as_time is None):
        raise SystemExit("SQLite's Date or DateTime type has no bind processor: "
                         "the floor cannot write dates as the importer does")
    now = datetime(2026, 1, 1)
    players: dict[str, int] = {}
    seconds = 0.0
    cpu_used = [0.0]
    deal_id = 0

    def write(batch: list[tuple[int, PreparedGame]]) -> float:
        """Rows as the importer writes them (same values, same types), then only the inserts timed."""
        nonlocal deal_id
        game_rows, gp, deals, dp, findings = [], [], [], [], []
        new_players = []
        for gid, g in batch:
            for k, name in g.names.items():
                if k not in players:
                    players[k] = len(players) + 1
                    new_players.append((players[k], name, k))
            pids = [players[k] for k in g.names]
            row = [gid, *g.game_row, None, None, now, None]
            if sqlite:
                assert as_date is not None and as_time is not None  # both set, and checked, whenever sqlite
                row[GAME_COLUMNS.index("muggins")] = int(row[GAME_COLUMNS.index("muggins")])
                row[GAME_COLUMNS.index("date")] = as_date(row[GAME_COLUMNS.index("date")])
                row[GAME_COLUMNS.index("imported_at")] = as_time(now)
            game_rows.append(tuple(row))
            gp += [(gid, pids[r[0]], *r) for r in g.game_players]
            dids = list(range(deal_id + 1, deal_id + 1 + len(g.deals)))
            deal_id += len(g.deals)
            deals += [(did, gid, pids[r[0]], *r[1:]) for did, r in zip(dids, g.deals, strict=True)]
            dp += [(dids[d], gid, pids[s], *rest) for d, s, rest in g.deal_players]
            findings += [(gid, None if s is None else pids[s], *rest) for s, rest in g.findings]
        start, cpu = time.perf_counter(), time.process_time()
        with engine.begin() as conn:
            bulk_insert(conn, t.player_table, ("id", "name", "name_key"), new_players)
            bulk_insert(conn, t.game_table, GAME_COLUMNS, game_rows)
            bulk_insert(conn, t.game_player_table, GAME_PLAYER_COLUMNS, gp)
            bulk_insert(conn, t.deal_table, DEAL_COLUMNS, deals)
            bulk_insert(conn, t.finding_table, FINDING_COLUMNS, findings)
            bulk_insert(conn, t.deal_player_table, DEAL_PLAYER_COLUMNS, dp)
        cpu_used[0] += time.process_time() - cpu
        return time.perf_counter() - start

    batch = []
    for n, source in enumerate(read_paths([path]), start=1):
        batch.append((n, prepare_game(game_model(source.game), source.file, source.place)))
        if len(batch) == 1000:
            seconds += write(batch)
            batch = []
    if batch:
        seconds += write(batch)
    with engine.connect() as conn:
        stored = conn.execute(sa.select(sa.func.count()).select_from(t.game_table)).scalar_one()
    engine.dispose()
    return {"seconds": seconds, "cpu": cpu_used[0], "games": stored}


def run_child(args: list[str]) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--step", *args], capture_output=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"step {args[0]} failed:\n{out.stderr.decode()}")
    result = json.loads(out.stdout)
    if not isinstance(result, dict) or not all(isinstance(v, int | float) for v in result.values()):
        raise SystemExit(f"step {args[0]} printed no figures:\n{out.stdout.decode()}")
    return result


# --- databases ---------------------------------------------------------------------------------------------------


def sqlite_url(folder: Path, name: str) -> str:
    return f"sqlite:///{folder / name}"


class PgDatabase:
    """A fresh database on the server, dropped on exit."""

    def __init__(self, server: str) -> None:
        import sqlalchemy as sa

        self.admin = sa.create_engine(
            sa.make_url(server).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT"
        )
        self.name = f"cribstats_bench_{uuid.uuid4().hex[:10]}"
        self.url = self.admin.url.set(database=self.name).render_as_string(hide_password=False)

    def __enter__(self) -> str:
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{self.name}"')
        return self.url

    def __exit__(self, *exc: object) -> None:
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.admin.dispose()


def pg_reachable(server: str | None) -> bool:
    if not server:
        return False
    import sqlalchemy as sa

    engine = sa.create_engine(sa.make_url(server).set(drivername="postgresql+psycopg"))
    try:
        with engine.connect():
            return True
    except sa.exc.OperationalError:
        return False
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--base", type=int, default=500, help="distinct simulated games to copy from")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pg-url", default=os.environ.get("CRIBSTATS_TEST_PG_URL"))
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="also import with this many replay processes"
    )
    parser.add_argument("--repeat", type=int, default=1, help="run each step this many times; medians shown")
    parser.add_argument("--step", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        name, *rest = args.step
        step_functions: dict[str, Callable[..., dict[str, float]]] = {  # called with the arguments as given
            "audit": step_audit, "import": step_import, "floor": step_floor
        }
        result = step_functions[name](*rest)
        result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        result["worker_peak_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(json.dumps(result))
        return

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "games.jsonl"
        t0 = time.perf_counter()
        make_file(path, args.games, min(args.base, args.games), args.seed)
        size_mb = path.stat().st_size / 1e6
        made = time.perf_counter() - t0
        print(
            f"{args.games} six-card games ({size_mb:.1f} MB of JSON Lines) made in {made:.1f} s"
            f" on {os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f})"
        )
        pg = pg_reachable(args.pg_url)
        steps: list[tuple[str, str, list[str]]] = [  # label, database ("" none, "sqlite", "pg"), step arguments
            ("audit alone (read + replay)", "", ["audit", str(path)]),
            ("SQLite floor (plain executemany)", "sqlite", ["floor", str(path)]),
            ("SQLite import (audit included)", "sqlite", ["import", str(path)]),
        ]
        if args.workers > 1:
            steps.append((f"SQLite import, -j {args.workers}", "sqlite", ["import", str(path), str(args.workers)]))
        if pg:
            steps.append(("PostgreSQL floor (COPY)", "pg", ["floor", str(path)]))
            steps.append(("PostgreSQL import (audit included)", "pg", ["import", str(path)]))
            if args.workers > 1:
                parallel_step = ["import", str(path), str(args.workers)]
                steps.append((f"PostgreSQL import, -j {args.workers}", "pg", parallel_step))
        else:
            print("PostgreSQL skipped: no server at --pg-url / CRIBSTATS_TEST_PG_URL")
        runs: dict[str, list[dict[str, float]]] = {label: [] for label, _, _ in steps}
        for round_ in range(args.repeat):  # rounds, so that a burst of load on the machine hits every step alike
            for n, (label, db, (step, *rest)) in enumerate(steps):
                if db == "sqlite":
                    url = sqlite_url(folder, f"{round_}-{n}.db")
                    runs[label].append(run_child([step, rest[0], url, *rest[1:]]))
                    for leftover in folder.glob(f"{round_}-{n}.db*"):
                        leftover.unlink()
                elif db == "pg":
                    with PgDatabase(args.pg_url) as url:
                        runs[label].append(run_child([step, rest[0], url, *rest[1:]]))
                else:
                    runs[label].append(run_child([step, *rest]))
    results = [(label, median_run(runs[label])) for label, _, _ in steps]
    print(
        f"\n{'step' + (f' (median of {args.repeat})' if args.repeat > 1 else ''):<40}{'games':>7}{'wall s':>9}"
        f"{'games/s':>9}{'cpu s':>9}{'games/cpu s':>12}{'peak MB':>9}"
    )
    for label, r in results:
        rate = r["games"] / r["seconds"]
        cpu_rate = r["games"] / r["cpu"] if r["cpu"] > 0 else float("nan")
        peak = f"{r['peak_mb']:>9.0f}"
        if r["worker_peak_mb"] > 1:
            peak += f" (workers {r['worker_peak_mb']:.0f} each)"
        print(
            f"{label:<40}{int(r['games']):>7}{r['seconds']:>9.2f}{rate:>9.0f}{r['cpu']:>9.2f}{cpu_rate:>12.0f}{peak}"
        )
    print("(cpu s: this step's processes, worker processes included; games/cpu s is what the cores could do)")
    for label, r in results:
        if "main_cpu" in r and ", -j " in label:
            main_us = r["main_cpu"] / r["games"] * 1e6
            print(f"  {label}: the importing process itself {main_us:.0f} us of CPU a game")
    audit = results[0][1]
    by = dict(results)
    print("\nThe import against its parts (the wall clock is also the machine's load):")
    for db in ("SQLite", "PostgreSQL"):
        imp = by.get(f"{db} import (audit included)")
        floor = by.get(f"{db} floor (plain executemany)") or by.get(f"{db} floor (COPY)")
        if imp and floor:
            print(
                f"  {db}: import {imp['cpu']:.2f} cpu s = {imp['cpu'] / (audit['cpu'] + floor['cpu']):.2f} x "
                f"(audit alone {audit['cpu']:.2f} + floor writes {floor['cpu']:.2f}); wall "
                f"{imp['seconds'] / (audit['seconds'] + floor['seconds']):.2f} x"
            )
        parallel = by.get(f"{db} import, -j {args.workers}")
        if imp and parallel:
            ratio = parallel["seconds"] / imp["seconds"]
            print(f"  {db}: -j {args.workers} takes {ratio:.2f} x the wall time of -j 1")
    targets = (  # step, games per second it should reach
        ("SQLite import (audit included)", 1000),
        (f"SQLite import, -j {args.workers}", 2000),
        (f"PostgreSQL import, -j {args.workers}", 1000),
    )
    for label, target in targets:
        measured = by.get(label)
        if measured is None:
            continue
        rate = measured["games"] / measured["seconds"]
        verdict = "met" if rate >= target else "NOT met"
        print(f"target >= {target:,} games/s, {label}: {verdict} ({rate:,.0f} games/s, "
              f"{measured['games'] / measured['cpu']:,.0f} games per CPU second)")

def median_run(runs: list[dict[str, float]]) -> dict[str, float]:
    """The run of median wall time (its own cpu and memory figures with it)."""
    return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]


if __name__ == "__main__":
    main()
