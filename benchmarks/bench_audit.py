"""How fast the audit runs: games audited per second against the time to merely parse the same file.

    .venv/bin/python benchmarks/bench_audit.py [--games 10000] [--repeat 3] [--file games.jsonl]

Simulates ``--games`` six-card games into a JSON Lines file in a temporary folder (or into ``--file``, kept for
the next run; an existing ``--file`` is used as it is), then, in one process, times (best of ``--repeat``):

- orjson: decoding every line with orjson alone, the floor of any reader;
- parse: reading the file into validated game logs (``cribstats.formats.read_games``, the fast path), and the
  same lines by the pydantic model alone (``validate_game_model``), the way every line was read before;
- audit: the same reading, plus the replay of every game, the collection of findings and the summary and
  the findings' JSON lines (what ``cribstats audit --json`` does, without writing them out);
- replay: the replay alone of the games read (in memory), every deal started the short way (the full replay
  taking over where one is not clean), and every deal the full way (``GameReplay.short_way`` off), in
  microseconds of CPU per game;
- the command: ``cribstats audit --json FILE`` in a new process (its CPU time from the operating system), the
  audit's loop alone in a new process (as ``audit`` above, run once, the memos of the scoring and the play filled
  as it goes, as in the command), and ``cribstats audit`` of one game, the start-up (the median of five runs): the
  command's CPU is split into the start-up, the loop as it runs in a process of its own (the memos filled cold:
  its excess over the warm loop in this process), and the rest; the start-up in this environment as it is, and
  with the bytecode of every module cached (``PYTHONPYCACHEPREFIX``, a temporary folder filled by a first run),
  as an installed copy runs once its caches are written. An environment with ``PYTHONDONTWRITEBYTECODE`` set and
  no ``__pycache__`` beside the sources compiles every module cribstats loads on every run.

Each is timed by the wall clock and by CPU time (one core: nothing here runs in parallel); on a busy machine the
CPU figures are the steadier. Targets: 5,000 games audited per CPU second by the command, and the start-up under
0.25 s of CPU.
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
from importlib.metadata import version
from pathlib import Path

import orjson

from cribstats.audit import AuditCollector, finding_json_line
from cribstats.formats import read_games
from cribstats.gamelog import game_key
from cribstats.gamelog.fast import AnyGame
from cribstats.replay import ReplayVisitor, replay
from cribstats.replay.game import GameReplay
from cribstats.simulate import simulate_games

GAMES_PER_SECOND_TARGET = 5000
STARTUP_TARGET = 0.25  # CPU seconds for the audit of one game


def write_games(path: Path, n: int, seed: int) -> None:
    with path.open("wb") as out:
        for sim in simulate_games(n, variant="six-card", seed=seed):
            out.write(orjson.dumps(sim.log) + b"\n")


def decode_only(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for line in handle if orjson.loads(line))


def command_cpu(*args: str, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of ``cribstats ARGS`` in a new process (its output thrown away)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [sys.executable, "-c", "from cribstats.cli.app import main; main()", *args]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=os.environ if env is None else env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def pydantic_loaded(log: Path) -> bool:
    """Whether ``cribstats audit --json`` of ``log`` loads pydantic (typer 0.29 does, for its parameters)."""
    code = ("import contextlib, os, sys\nfrom cribstats.cli.app import main\nsys.stdout = open(os.devnull, 'w')\n"
            "with contextlib.suppress(SystemExit):\n    main()\nsys.stderr.write(str('pydantic' in sys.modules))")
    command = [sys.executable, "-c", code, "audit", "--json", str(log)]
    done = subprocess.run(command, capture_output=True, text=True)
    return done.stderr.strip().endswith("True")


def parse_only(path: Path) -> int:
    return sum(1 for _ in read_games(path))


def parse_by_model(path: Path) -> int:
    from cribstats.gamelog import validate_game_model

    games = 0
    with path.open("rb") as handle:
        for line in handle:
            validate_game_model(orjson.loads(line))  # a GameLog, or GameLogError for a line breaking the contract
            games += 1
    return games


def audit(path: Path) -> int:
    collector = AuditCollector(keep=False)
    size = 0
    for source in read_games(path):
        for finding in collector.add(replay(source.game)).findings:
            size += len(finding_json_line(finding))
    return collector.result().games


def loop_in_new_process(path: Path) -> float:
    """CPU seconds of :func:`audit` run once in a new process (this script with ``--loop-once``): the reading,
    replay and findings of the command, with the memos of the scoring and the play cold, without its start-up."""
    done = subprocess.run([sys.executable, __file__, "--loop-once", str(path)], capture_output=True, text=True,
                          check=True)
    return float(done.stdout.split()[-1])


def replay_cpu(repeat: int, games: list[AnyGame], *, short_way: bool) -> float:
    """The best CPU seconds of ``repeat`` replays of ``games`` (short way on or off)."""
    visitor, keys = ReplayVisitor(), [game_key(g) for g in games]
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for game, key in zip(games, keys, strict=True):
            run = GameReplay(game, visitor, key)
            run.short_way = short_way
            run.run()
        best = min(best, time.process_time() - start)
    return best


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
    parser.add_argument("--loop-once", type=Path, help=argparse.SUPPRESS)  # the loop in a new process: its CPU
    args = parser.parse_args()
    if args.loop_once is not None:
        start = time.process_time()
        audit(args.loop_once)
        print(time.process_time() - start)
        return

    with tempfile.TemporaryDirectory() as folder:
        path = args.file or Path(folder) / "games.jsonl"
        if not path.exists():
            start = time.perf_counter()
            write_games(path, args.games, args.seed)
            print(f"simulated {args.games} six-card games in {time.perf_counter() - start:.1f} s -> {path}")
        size = path.stat().st_size
        audit(path)  # warm up: the scoring memos are filled once per process
        decode_wall, decode_cpu, decoded = best_of(args.repeat, decode_only, path)
        parse_wall, parse_cpu, parsed = best_of(args.repeat, parse_only, path)
        model_wall, model_cpu, _ = best_of(args.repeat, parse_by_model, path)
        audit_wall, audit_cpu, audited = best_of(args.repeat, audit, path)
        games = [source.game for source in read_games(path)]
        full_cpu = replay_cpu(args.repeat, games, short_way=False)
        short_cpu = replay_cpu(args.repeat, games, short_way=True)
        del games
        runs = [command_cpu("audit", "--json", str(path)) for _ in range(args.repeat)]
        command_wall, command_cpu_s = min(r[0] for r in runs), min(r[1] for r in runs)
        cold_cpu = min(loop_in_new_process(path) for _ in range(args.repeat))
        one = Path(folder) / "one.jsonl"
        with path.open("rb") as handle:
            one.write_bytes(handle.readline())
        startup = statistics.median(command_cpu("audit", str(one))[1] for _ in range(5))
        cached_env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        cached_env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "bytecode")
        command_cpu("audit", str(one), env=cached_env)  # writes the bytecode of every module it loads
        cached = statistics.median(command_cpu("audit", str(one), env=cached_env)[1] for _ in range(5))
        loads_pydantic = pydantic_loaded(one)
    if not parsed == audited == decoded:
        raise SystemExit(f"decoded {decoded}, parsed {parsed} but audited {audited} games")

    print(f"file: {audited} games, {size / 1e6:.1f} MB; best of {args.repeat}")
    print(f"{'':32}{'wall s':>10}{'games/s':>10}{'CPU s':>10}{'games/s':>10}{'x orjson':>10}")
    rows = (
        ("orjson decoding alone (floor)", decode_wall, decode_cpu),
        ("parse (validated logs)", parse_wall, parse_cpu),
        ("parse by the pydantic model", model_wall, model_cpu),
        ("audit in this process", audit_wall, audit_cpu),
        ("cribstats audit --json", command_wall, command_cpu_s),
    )
    for name, wall, cpu in rows:
        rates = f"{audited / wall:10,.0f}{cpu:10.3f}{audited / cpu:10,.0f}{cpu / decode_cpu:10.1f}"
        print(f"{name:32}{wall:10.3f}{rates}")
    per_game = 1e6 / audited
    print(f"replay alone: {short_cpu * per_game:.0f} us of CPU a game with deals started the short way, "
          f"{full_cpu * per_game:.0f} us with every deal the full way ({short_cpu / full_cpu:.2f}x)")
    print(f"parse: the fast path takes {parse_cpu / model_cpu:.2f}x the CPU of the pydantic model alone")
    rate = audited / command_cpu_s
    print(f"cribstats audit --json: {rate:,.0f} games per CPU second, {command_cpu_s / decode_cpu:.1f}x orjson "
          f"decoding alone; target >= {GAMES_PER_SECOND_TARGET:,}: {verdict(rate >= GAMES_PER_SECOND_TARGET)}")
    print(f"the command's {command_cpu_s * per_game:.0f} us of CPU a game: start-up {startup * per_game:.0f}, the "
          f"loop in a process of its own {cold_cpu * per_game:.0f} (the loop in this process "
          f"{audit_cpu * per_game:.0f}: {(cold_cpu - audit_cpu) * per_game:.0f} more with the memos cold), "
          f"the rest by difference {(command_cpu_s - startup - cold_cpu) * per_game:.0f} (the output, the "
          "arguments, the exit; within the noise of separate runs on a busy machine)")
    print(f"start-up, cribstats audit of one game: {startup:.3f} s CPU (median of 5); target < {STARTUP_TARGET}: "
          f"{verdict(startup < STARTUP_TARGET)}; with every module's bytecode cached {cached:.3f} s; typer "
          f"{version('typer')}, pydantic {'loaded' if loads_pydantic else 'not loaded'}")


if __name__ == "__main__":
    main()
