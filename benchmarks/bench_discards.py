"""Discard analysis speed, against a naive evaluation measured in the same run (CPU seconds, process_time).

Run from the project folder:

    .venv/bin/python benchmarks/bench_discards.py [--deals 2000] [--stored 100000]

1. One six-card deal: all 15 discards ranked (``cribstats.discards.analysis.analyse``), averaged over
   ``--deals`` random deals, against the naive evaluation (every keep scored with every starter one at a time by
   ``score_show``, on a sample of deals). Target: under 1 ms a deal.
2. A stored club: ``--stored`` deals of simulated two-player games imported into an SQLite file, then their
   discards valued again from the store (``fill_discard_values(again=True)``, the work of
   ``cribstats analyse --store --again``), with a progress bar on standard error; the naive evaluation's rate
   extrapolated to the same number of deals. Target: 100,000 deals in under 2 minutes on one core.
3. What valuing the discards adds to ``cribstats import`` (one process): the same file imported into a fresh
   store with and without them.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cribstats.discards.analysis import analyse
from cribstats.discards.hands import options
from cribstats.discards.table import load_crib_table
from cribstats.scoring import score_show

TARGET_DEAL_MS = 1.0
TARGET_STORE_S = 120.0


def naive(dealt: list[int], role: str) -> list[float]:
    """Every discard's expected value, each keep scored with each unseen starter one at a time."""
    table = load_crib_table()
    unseen = [c for c in range(52) if c not in dealt]
    sign = 1 if role == "dealer" else -1
    out = []
    for keep, throw in options(6, 2):
        hand = mean(score_show([dealt[i] for i in keep], s).total for s in unseen)
        out.append(hand + sign * table.value(dealt[throw[0]], dealt[throw[1]], role))
    return sorted(out, reverse=True)


def bench_deal(deals: int) -> tuple[float, float]:
    rng = random.Random(14)
    hands = [rng.sample(range(52), 6) for _ in range(deals)]
    analyse(hands[0], "six-card", "dealer")  # load the table and the rank table
    start = time.process_time()
    for i, hand in enumerate(hands):
        analyse(hand, "six-card", "dealer" if i % 2 else "pone")
    fast = (time.process_time() - start) / deals
    sample = hands[: max(1, deals // 100)]
    start = time.process_time()
    for i, hand in enumerate(sample):
        naive(hand, "dealer" if i % 2 else "pone")
    slow = (time.process_time() - start) / len(sample)
    for i, hand in enumerate(sample):  # the same answer
        got = [d.expected for d in analyse(hand, "six-card", "dealer" if i % 2 else "pone")]
        assert max(abs(a - b) for a, b in zip(got, naive(hand, "dealer" if i % 2 else "pone"), strict=True)) < 1e-9
    return fast, slow


def bench_one_discard(deals: int) -> tuple[float, float, float]:
    """CPU seconds to value one player's six-card discard: ``judge_discard``; ``discard_values`` (what the import
    stores) one discard at a time, then ``many_discard_values`` of the same discards (as the import values them,
    some fifty games at a time)."""
    from cribstats.discards.analysis import judge_discard
    from cribstats.discards.values import discard_values, many_discard_values
    from cribstats.variants import find_variant

    rng = random.Random(11)
    six = find_variant("six-card")
    hands = [rng.sample(range(52), 6) for _ in range(deals)]
    thrown = [rng.sample(hand, 2) for hand in hands]
    roles = ["dealer" if i % 2 else "pone" for i in range(deals)]
    judge_discard(hands[0], thrown[0], six, "dealer")
    start = time.process_time()
    for hand, throw, role in zip(hands, thrown, roles, strict=True):
        judge_discard(hand, throw, six, role)
    judged = (time.process_time() - start) / deals
    start = time.process_time()
    for hand, throw, role in zip(hands, thrown, roles, strict=True):
        discard_values(hand, throw, six, role)
    one = (time.process_time() - start) / deals
    discards = [(hand, throw, six, role) for hand, throw, role in zip(hands, thrown, roles, strict=True)]
    start = time.process_time()
    for at in range(0, deals, 1000):
        many_discard_values(discards[at : at + 1000])
    return judged, one, (time.process_time() - start) / deals


def bench_store(deals: int, per_deal_naive: float) -> None:
    import sqlalchemy as sa

    from cribstats.store.db import make_engine
    from cribstats.store.discards import fill_discard_values
    from cribstats.store.importer import import_paths

    with tempfile.TemporaryDirectory() as folder:
        games_file = Path(folder) / "club.jsonl"
        _write_simulated(games_file, deals)
        url = f"sqlite:///{Path(folder) / 'club.db'}"
        engine = make_engine(url)
        start = time.process_time()
        import_paths([games_file], engine)
        with_values = time.process_time() - start
        without_values = _import_without_values(games_file, Path(folder) / "plain.db")
        with engine.connect() as conn:
            stored = conn.execute(sa.text("SELECT count(*) FROM deal")).scalar_one()
        console = Console(stderr=True)
        with Progress(TextColumn("valuing discards"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                      TimeElapsedColumn(), console=console, transient=True) as bar:  # fmt: skip
            task = bar.add_task("games", total=None)
            start = time.process_time()
            games, rows = fill_discard_values(
                engine, again=True, started=lambda n: bar.update(task, total=n),
                progress=lambda k: bar.advance(task, k),
            )  # fmt: skip
            cpu = time.process_time() - start
        engine.dispose()
    naive_s = per_deal_naive * rows
    per_100k = cpu / stored * 100_000
    print(f"store: {stored} deals, {games} games, {rows} discards valued in {cpu:.1f} s CPU "
          f"({per_100k:.1f} s per 100,000 deals; target {TARGET_STORE_S:.0f} s): "
          f"naive evaluation ~{naive_s:.0f} s, {naive_s / cpu:.0f}x slower")  # fmt: skip
    print(f"import of the same games: {with_values:.1f} s CPU valuing the discards, "
          f"{without_values:.1f} s without ({with_values / without_values:.2f}x)")  # fmt: skip


def _import_without_values(games_file: Path, db: Path) -> float:
    """CPU seconds of the same import with the discard values left out (the baseline of their cost)."""
    from unittest import mock

    from cribstats.store import rows
    from cribstats.store.db import make_engine
    from cribstats.store.importer import import_paths

    engine = make_engine(f"sqlite:///{db}")
    with mock.patch.object(rows.DiscardQueue, "add", lambda *_: None):  # no discard queued: none valued
        start = time.process_time()
        import_paths([games_file], engine)
        cpu = time.process_time() - start
    engine.dispose()
    return cpu


def _write_simulated(path: Path, deals: int) -> None:
    """Simulated six-card games (the project's simulator) until ``deals`` deals are written."""
    import json

    from cribstats.simulate import simulate_games

    written = 0
    with path.open("w", encoding="utf-8") as handle:
        for game in simulate_games(10**9, seed=14):
            handle.write(json.dumps(game.log) + "\n")
            written += len(game.log["deals"])
            if written >= deals:
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="random deals for the one-deal timing")
    parser.add_argument("--stored", type=int, default=100_000, help="deals in the simulated store")
    args = parser.parse_args()
    fast, slow = bench_deal(args.deals)
    print(f"one six-card deal, all 15 discards: {fast * 1e3:.3f} ms CPU (target {TARGET_DEAL_MS} ms); "
          f"naive {slow * 1e3:.1f} ms: {slow / fast:.0f}x faster")  # fmt: skip
    judged, one, many = bench_one_discard(args.deals)
    print(f"one player's discard valued as the import stores it: {one * 1e6:.1f} us CPU one at a time, "
          f"{many * 1e6:.1f} us a thousand at a time; judge_discard {judged * 1e6:.1f} us")
    if args.stored:
        bench_store(args.stored, slow)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
