"""The audit's cost counted in machine instructions a game, which do not change with the machine's speed.

    .venv/bin/python benchmarks/bench_instructions.py [--games 300] [--file games.jsonl] [--parts PART,...]

CPU time on a shared machine moves with its load and its clock: on much the same code, ``cribstats audit --json``
measured from 1,826 to 3,468 games per CPU second in sittings a few days apart. The instructions a piece of code
runs do not: counted by valgrind's callgrind, with Python's string hashing fixed (``PYTHONHASHSEED=0``), two
counts of the same work agree within about 0.1%. So this is the benchmark to compare two versions of the code by,
one after the other; ``bench_audit.py`` gives the speed itself.

Each part runs in a process of its own under callgrind, once with one pass over the games and once with three,
after the same set-up and a first pass that fills the scoring's and the play's memos; the difference, over two
passes, is the part's own count a game. The parts (``--parts``, default all):

- ``orjson``: decoding every line with orjson alone, the floor of any reader (the baseline);
- ``read``: reading the file into validated game logs (``cribstats.formats.read_games``);
- ``replay``: the replay alone of the games read (in memory);
- ``audit``: the loop of ``cribstats audit --json``: reading, the replay, the collector (matches included) and
  each finding's JSON line;
- ``rows``: the import's work before its SQL: reading, then each game replayed into its rows with its canonical
  text and hash (``prepare_game``), the discards valued together as the importer values them.

Instructions are not time: a part that waits on memory (decoding makes many new objects) runs fewer
instructions a second than the interpreter's own loop, so the ratios here are not the CPU ratios of
``bench_audit.py``. Needs ``valgrind`` (Debian: ``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

PARTS = ("orjson", "read", "replay", "audit", "rows")
NAMES = {
    "orjson": "orjson decoding alone (floor)",
    "read": "reading into validated logs",
    "replay": "the replay alone",
    "audit": "the audit's loop (the command's)",
    "rows": "the import's rows, no SQL",
}


def run_part(part: str, path: Path, passes: int) -> None:
    """In the counted process: the set-up, a first pass of the audit (the memos filled), then ``passes`` of
    ``part``."""
    from cribstats.audit import AuditCollector, finding_json_line
    from cribstats.formats import read_games
    from cribstats.gamelog import game_key
    from cribstats.replay import ReplayVisitor
    from cribstats.replay.game import GameReplay
    from cribstats.store.batches import VALUE_TOGETHER
    from cribstats.store.rows import DiscardQueue, prepare_game

    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    games = [source.game for source in read_games(path)]
    keys = [game_key(game) for game in games]
    visitor = ReplayVisitor()

    def audit() -> None:
        collector = AuditCollector(keep=False)
        for game in collector.audit_sources(read_games(path)):
            for finding in game.findings:
                finding_json_line(finding)

    def rows() -> None:
        values = DiscardQueue()
        for source in read_games(path):
            prepare_game(source.game, source.file, source.place, values)
            if len(values) >= VALUE_TOGETHER:
                values.fill()
        values.fill()

    def one_pass() -> None:
        if part == "orjson":
            for line in lines:
                orjson.loads(line)
        elif part == "read":
            for _ in read_games(path):
                pass
        elif part == "replay":
            for game, key in zip(games, keys, strict=True):
                GameReplay(game, visitor, key).run()
        elif part == "rows":
            rows()
        else:
            audit()

    audit()
    if part == "rows":
        rows()  # the discards' tables loaded
    gc.freeze()  # as the command does: what lives through the run is not walked by the collector again
    for _ in range(passes):
        one_pass()


def counted(part: str, path: Path, passes: int) -> int:
    """The instructions callgrind counts for a process running ``part`` ``passes`` times."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
         "--child", part, "--passes", str(passes), "--file", str(path)],
        capture_output=True, text=True, env=env, check=False,
    )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind on the {part} part failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", type=Path, help="JSON Lines file of games: used if it exists, else written")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"which parts, comma-separated: {', '.join(PARTS)}")
    parser.add_argument("--child", choices=PARTS, help=argparse.SUPPRESS)
    parser.add_argument("--passes", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        run_part(args.child, args.file, args.passes)
        return
    parts = [p for p in args.parts.split(",") if p]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown or "orjson" not in parts:
        raise SystemExit(f"--parts: choose among {', '.join(PARTS)}, orjson (the baseline) included")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind not found: this benchmark counts instructions with it "
                         "(Debian: apt-get install valgrind)")

    with tempfile.TemporaryDirectory() as folder:
        path = args.file or Path(folder) / "games.jsonl"
        if not path.exists():
            from bench_audit import write_games

            write_games(path, args.games, args.seed)
        games = sum(1 for line in path.read_bytes().splitlines() if line.strip())
        per_game = {part: (counted(part, path, 3) - counted(part, path, 1)) / (2 * games) for part in parts}
    print(f"instructions a game, counted by callgrind (PYTHONHASHSEED=0; three passes less one): {games} games "
          f"of {path.name}")
    floor = per_game["orjson"]
    for part in parts:
        print(f"{NAMES[part]:36}{per_game[part]:14,.0f}{per_game[part] / floor:8.1f}x orjson")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_audit, beside this file
    main()
