"""How fast ``cribstats serve`` answers: 16 clients at once on the standings page, a player page and the stats
API, over SQLite holding the sample season and 100,000 simulated games; and a 40-game night uploaded.

Run: ``.venv/bin/python benchmarks/bench_serve.py [GAMES] [--requests N] [--rounds N] [--seed-games N]
[--folder DIR]`` (default 100,000 games, 40 requests per client and page, 3 rounds, 500 seed games, the temp
folder). Goals: p99 under 100 ms at 16 clients, no errors, the night stored in under 2 s.

The store is built once and kept in the temp folder (``cribstats-bench-serve/``), the way ``bench_stats.py``
builds its own: 500 simulated games of every variant, their rows copied up to GAMES, with the sample season
(``sample_logs/season-2026.jsonl``) imported on top. Each run works on a fresh copy of it. The server is
started as a user starts it (``cribstats serve`` on a free port of 127.0.0.1; nothing else is contacted).
Each of 16 threads sends a bounded number of requests through its own keep-alive connection, after one
warm-up request per page, in three rounds. Printed for each page (the median over the rounds; errors of all
rounds): requests per second, p50 and p99 latency (wall time, noisy on a shared machine), errors, and the
server's CPU milliseconds per request (from /proc, robust to load);
beside them, in the same run, the same figures computed in this process with the library
(``compute_standings``, ``compute_stats``: CPU time) and through the service's cache. The upload is
``sample_logs/club-night.jsonl`` (40 games) with a recorder's key, beside ``import_file`` of the same night
into another copy of the store.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import orjson
import sqlalchemy as sa

from cribstats.simulate import simulate_games
from cribstats.stats import compute_standings, compute_stats
from cribstats.stats.frames import StatsFilter
from cribstats.store import tables as t
from cribstats.store.db import make_engine, upgrade
from cribstats.store.importer import import_file, import_paths

ROOT = Path(__file__).resolve().parent.parent
SEASON = ROOT / "sample_logs" / "season-2026.jsonl"
NIGHT = ROOT / "sample_logs" / "club-night.jsonl"
CLIENTS = 16
REQUESTS = 40
ROUNDS = 3
PLAYER = "Alice"
HOST = "127.0.0.1"
# the share of each variant among the seed games
SEED_SHARES = {"six-card": 6, "five-card": 1, "seven-card": 1, "three-player": 1, "four-player": 1}
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Hank", "Irene", "Jack", "Kate", "Leo"]
COPIED = ("game", "game_player", "deal", "deal_player", "finding", "game_player_totals")


def seed_logs(folder: Path, seed_games: int) -> None:
    """Simulated games of every variant, with mistakes, one file per variant (``seed_games`` in all)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, (variant, share) in enumerate(SEED_SHARES.items()):
        n = max(1, seed_games * share // sum(SEED_SHARES.values()))
        with open(folder / f"{variant}.jsonl", "wb") as handle:
            games = simulate_games(n, variant=variant, players=NAMES, seed=200 + i, mistake_rate=0.03,
                                   events=["League"], start_date="2025-01-07", games_per_night=24)  # fmt: skip
            for game in games:
                handle.write(orjson.dumps(dict(game.log, id=f"{variant}-{game.log['id']}")) + b"\n")


def _copy(table: sa.Table, copies: int, spans: dict[str, int]) -> sa.Insert:
    """Every row of ``table`` copied ``copies`` times, ids shifted by k * (the table's id span), keys unique."""
    k = sa.select(sa.literal(1).label("k")).cte("k", recursive=True)
    k = k.union_all(sa.select((k.c.k + 1).label("k")).where(k.c.k < copies))
    shifted = {"id": table.name, "game_id": "game", "deal_id": "deal"}
    columns = []
    for column in table.c:
        if column.name in shifted:
            columns.append(column + k.c.k * spans[shifted[column.name]])
        elif column.name in ("content_hash", "game_key", "source_id"):
            columns.append(column + "-" + sa.cast(k.c.k, sa.String))
        else:
            columns.append(column)
    rows = sa.select(*columns).select_from(table.join(k, sa.true()))
    return table.insert().from_select([c.name for c in table.c], rows)


def build_store(path: Path, seed: Path, games: int) -> None:
    """Import the seed games, then copy their rows up to ``games`` games (play events are not copied)."""
    engine = make_engine(f"sqlite:///{path}")
    seeded = import_paths([seed], engine).imported
    tables = {name: t.metadata.tables[name] for name in COPIED}
    with engine.begin() as conn:
        spans = {name: conn.execute(sa.select(sa.func.max(tables[name].c.id))).scalar() or 0
                 for name in ("game", "deal", "game_player", "deal_player", "finding")}  # fmt: skip
        for name in COPIED:
            conn.execute(_copy(tables[name], max(0, games // seeded - 1), spans))
    engine.dispose()


def store(games: int, seed_games: int, folder: Path) -> Path:
    path = folder / f"serve-{games}-{seed_games}.db"
    if not path.exists():
        seed_logs(folder / f"seed-{seed_games}", seed_games)
        partial = folder / f"serve-{games}.building"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{partial}{suffix}").unlink(missing_ok=True)
        start = time.perf_counter()
        build_store(partial, folder / f"seed-{seed_games}", games)
        engine = make_engine(f"sqlite:///{partial}")
        import_paths([SEASON], engine)
        with engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
        engine.dispose()
        partial.rename(path)
        print(f"built {path} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    upgrade(make_engine(f"sqlite:///{path}"))
    return path


def fresh_copy(path: Path, folder: Path, name: str) -> str:
    target = folder / name
    shutil.copyfile(path, target)
    return f"sqlite:///{target}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load(url: str, path: str, requests: int, pid: int) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def client() -> None:
        nonlocal errors
        mine, bad = [], 0
        with httpx.Client(base_url=url, timeout=60) as http:
            for _ in range(requests):
                start = time.perf_counter()
                answer = http.get(path)
                mine.append(time.perf_counter() - start)
                bad += answer.status_code != 200
        with lock:
            latencies.extend(mine)
            errors += bad

    with httpx.Client(base_url=url, timeout=120) as http:  # warm up: the first answer fills the cache
        http.get(path).raise_for_status()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    cpu, start = cpu_seconds(pid), time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall, cpu = time.perf_counter() - start, cpu_seconds(pid) - cpu
    latencies.sort()
    n = len(latencies)
    return {"rps": n / wall, "p50": latencies[n // 2] * 1000, "p99": latencies[min(n - 1, int(n * 0.99))] * 1000,
            "errors": errors, "cpu_ms": cpu / n * 1000}  # fmt: skip


def in_process(fn: Callable[[], object], repeats: int = 3) -> float:
    """Median milliseconds of ``fn`` in this process (CPU time)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=100_000, help="simulated games in the store")
    parser.add_argument("--requests", type=int, default=REQUESTS, help="requests per client, page and round")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds per page (the median is printed)")
    parser.add_argument("--seed-games", type=int, default=500, help="simulated games copied up to GAMES")
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "cribstats-bench-serve",
                        help="where the store is built once and kept")
    args = parser.parse_args()
    base = store(args.games, args.seed_games, args.folder)
    folder = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    try:
        run(base, folder, args.requests, args.rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(base: Path, folder: Path, requests: int, rounds: int = ROUNDS) -> None:
    from cribstats.service import views

    db = fresh_copy(base, folder, "served.db")
    key = subprocess.run([sys.executable, "-m", "cribstats.cli", "keys", "add", "bench", "--db", db],
                         check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip
    engine = make_engine(db)
    with engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT count(*) FROM game").scalar_one()
    print(f"store: {stored:,} games (SQLite); {CLIENTS} clients, {requests} requests each per page and round, "
          f"median of {rounds} rounds; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    pages = {
        "standings page /standings": ("/standings", lambda: compute_standings(engine, StatsFilter()),
                                      lambda: views.standings_rows(engine, StatsFilter())),
        f"player page /players/{PLAYER}": (f"/players/{PLAYER}",
                                           lambda: compute_stats(engine, StatsFilter(player=PLAYER)),
                                           lambda: views.stats_rows(engine, StatsFilter(player=PLAYER))),
        "stats API /api/v1/stats": ("/api/v1/stats", lambda: compute_stats(engine, StatsFilter()),
                                    lambda: views.stats_rows(engine, StatsFilter())),
    }  # fmt: skip
    port = free_port()
    url = f"http://{HOST}:{port}"
    command = [sys.executable, "-m", "cribstats.cli", "serve", "--db", db, "--host", HOST, "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(url + "/api/v1/openapi.json", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("cribstats serve did not start") from None
                time.sleep(0.3)
        header = (f"{'':34} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} {'server CPU ms/req':>18} "
                  f"{'in-process ms (library)':>24} {'(cached)':>9}")  # fmt: skip
        print(header)
        for label, (path, library, cached) in pages.items():
            results = [load(url, path, requests, server.pid) for _ in range(rounds)]
            figures = {k: statistics.median(r[k] for r in results) for k in results[0]}
            figures["errors"] = sum(r["errors"] for r in results)
            plain, warm = in_process(library), in_process(cached)
            print(f"{label:34} {figures['rps']:7.0f} {figures['p50']:8.1f} {figures['p99']:8.1f} "
                  f"{figures['errors']:6.0f} {figures['cpu_ms']:18.2f} {plain:24.1f} {warm:9.2f}")  # fmt: skip
        night = NIGHT.read_bytes()
        with httpx.Client(base_url=url, timeout=120, headers={"Authorization": f"Bearer {key}"}) as http:
            cpu, start = cpu_seconds(server.pid), time.perf_counter()
            answer = http.post("/api/v1/logs", files=[("file", (NIGHT.name, night))])
            wall, cpu = time.perf_counter() - start, cpu_seconds(server.pid) - cpu
        answer.raise_for_status()
        imported = answer.json()["imported"]
        other = make_engine(fresh_copy(base, folder, "in-process.db"))
        start_cpu, start = time.process_time(), time.perf_counter()
        summary = import_file(NIGHT, other)
        plain_wall, plain_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(f"upload of {NIGHT.name} ({imported} games stored): {wall:.2f} s wall, {cpu:.2f} s server CPU "
              f"(goal 2 s); import_file in-process ({summary.imported} games): {plain_wall:.2f} s wall, "
              f"{plain_cpu:.2f} s CPU; ratio {wall / plain_wall:.2f}x")  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
