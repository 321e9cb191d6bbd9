"""How fast the audit runs: games audited per second against the time to merely parse the same file.

    .venv/bin/python benchmarks/bench_audit.py [--games 10000] [--repeat 3] [--file games.jsonl]

Simulates ``--games`` six-card games into a JSON Lines file in a temporary folder (or into ``--file``, kept for
the next run; an existing ``--file`` is used as it is), then, in one process, times (best of ``--repeat``):

- parse: reading the file into validated game logs (``cribstats.formats.read_games``), the floor;
- audit: the same reading, plus the replay of every game, the collection of findings and the summary and
  the findings' JSON lines (what ``cribstats audit --json`` does, without writing them out).

Both are timed by the wall clock and by the process's CPU time (one core: nothing here runs in parallel); on a
busy machine the CPU figures are the steadier. Targets: at least 3,000 games audited per second on one core, and
the audit within 5x of the parse-only floor.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from cribstats.audit import AuditCollector, finding_json_line
from cribstats.formats import read_games
from cribstats.replay import replay
from cribstats.simulate import simulate_games

GAMES_PER_SECOND_TARGET = 3000
FLOOR_RATIO_TARGET = 5.0


def write_games(path: Path, n: int, seed: int) -> None:
    with path.open("wb") as out:
        for sim in simulate_games(n, variant="six-card", seed=seed):
            out.write(orjson.dumps(sim.log) + b"\n")


def parse_only(path: Path) -> int:
    return sum(1 for _ in read_games(path))


def audit(path: Path) -> int:
    collector = AuditCollector(keep=False)
    size = 0
    for source in read_games(path):
        for finding in collector.add(replay(source.game)).findings:
            size += len(finding_json_line(finding))
    return collector.result().games


def best_of(repeat: int, run: Callable[[Path], int], path: Path) -> tuple[float, float, int]:
    """The best wall time and the best CPU time of ``repeat`` runs, and the games counted."""
    wall = cpu = float("inf")
    count = 0
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        count = run(path)
        wall = min(wall, time.perf_counter() - w)
        cpu = min(cpu, time.process_time() - c)
    return wall, cpu, count


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", type=Path, help="JSON Lines file of games: used if it exists, else written")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = args.file or Path(folder) / "games.jsonl"
        if not path.exists():
            start = time.perf_counter()
            write_games(path, args.games, args.seed)
            print(f"simulated {args.games} six-card games in {time.perf_counter() - start:.1f} s -> {path}")
        size = path.stat().st_size
        audit(path)  # warm up: the scoring tables are built once per process
        parse_wall, parse_cpu, parsed = best_of(args.repeat, parse_only, path)
        audit_wall, audit_cpu, audited = best_of(args.repeat, audit, path)
    if parsed != audited:
        raise SystemExit(f"parsed {parsed} games but audited {audited}")

    print(f"file: {audited} games, {size / 1e6:.1f} MB; best of {args.repeat}")
    print(f"{'':20}{'wall s':>10}{'games/s':>10}{'CPU s':>10}{'games/s':>10}")
    for name, wall, cpu in (("parse only (floor)", parse_wall, parse_cpu), ("audit", audit_wall, audit_cpu)):
        print(f"{name:20}{wall:10.3f}{audited / wall:10,.0f}{cpu:10.3f}{audited / cpu:10,.0f}")
    ratio = audit_cpu / parse_cpu
    rate = audited / audit_cpu
    print(f"audit / parse (CPU): {ratio:.2f}x   target <= {FLOOR_RATIO_TARGET:.0f}x: {verdict(ratio <= 5)}")
    print(f"games audited per CPU second: {rate:,.0f}   target >= {GAMES_PER_SECOND_TARGET:,}: "
          f"{verdict(rate >= GAMES_PER_SECOND_TARGET)}")


if __name__ == "__main__":
    main()
