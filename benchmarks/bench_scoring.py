"""Show scoring speed, against a plain-Python baseline measured in the same run.

Run from the project folder:

    .venv/bin/python benchmarks/bench_scoring.py [--runs 5] [--sample 4000]

1. The exact enumeration: all 12,994,800 four-card hands with a starter, under hand and crib rules
   (``cribstats.enumerate.show_distributions``), median of ``--runs`` runs, once with the rank table built
   from nothing and then with it built. The baseline scores a random sample of hands with a brute-force
   scorer (every subset for fifteens and runs, every pair) and is extrapolated to the full enumeration.
2. The breakdown path ``score_show`` in hands per second, and the fast path ``score_show_many`` on a batch of
   random hands, against the same baseline.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from itertools import combinations

import numpy as np

from cribstats.enumerate import COMBINATIONS, show_distributions
from cribstats.scoring import _rank_combinations, score_show
from cribstats.scoring_many import rank_table, score_show_many

TARGET_SECONDS = 2.0


def naive_show(hand: list[int], starter: int, crib: bool) -> int:
    """A brute-force show scorer: every subset for fifteens and runs, every pair."""
    cards = [*hand, starter]
    ranks = [c // 4 for c in cards]
    values = [min(r + 1, 10) for r in ranks]
    idx = range(len(cards))
    subsets = [s for size in range(2, len(cards) + 1) for s in combinations(idx, size)]
    points = 2 * sum(1 for s in subsets if sum(values[i] for i in s) == 15)
    points += 2 * sum(1 for a, b in combinations(idx, 2) if ranks[a] == ranks[b])
    runs = []
    for s in subsets:
        rs = sorted(ranks[i] for i in s)
        if len(s) >= 3 and rs == list(range(rs[0], rs[0] + len(s))):
            runs.append(set(s))
    points += sum(len(r) for r in runs if not any(len(o) > len(r) and r <= o for o in runs))
    suits = {c % 4 for c in hand}
    if len(suits) == 1:
        if starter % 4 in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    points += sum(1 for c in hand if c // 4 == 10 and c % 4 == starter % 4)
    return points


def timed(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``runs`` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per timing; the median is reported")
    parser.add_argument("--sample", type=int, default=4000, help="hands per sample for the per-hand timings")
    args = parser.parse_args()

    rng = random.Random(2026)
    deals = [rng.sample(range(52), 5) for _ in range(args.sample)]
    sample = [(d[:4], d[4]) for d in deals]

    def naive_both() -> None:
        for hand, starter in sample:
            naive_show(hand, starter, False)
            naive_show(hand, starter, True)

    def breakdown_one() -> None:
        for hand, starter in sample:
            score_show(hand, starter)

    def breakdown_cold() -> None:
        _rank_combinations.cache_clear()
        breakdown_one()

    def naive_one() -> None:
        for hand, starter in sample:
            naive_show(hand, starter, False)

    def enumerate_cold() -> None:
        rank_table.cache_clear()
        show_distributions()

    batch = np.array([rng.sample(range(52), 5) for _ in range(1_000_000)])

    def fast_batch() -> None:
        score_show_many(batch[:, :4], batch[:, 4])

    naive_pair = timed(naive_both, args.runs) / len(sample)  # seconds per hand, both rule sets
    naive_hand = timed(naive_one, args.runs) / len(sample)
    cold = timed(enumerate_cold, args.runs)
    warm = timed(show_distributions, args.runs)
    breakdown_first = timed(breakdown_cold, args.runs) / len(sample)
    breakdown = timed(breakdown_one, args.runs) / len(sample)
    fast = timed(fast_batch, args.runs) / len(batch)
    naive_full = naive_pair * COMBINATIONS

    seconds = [
        ("enumeration, both rule sets, table built", cold, naive_full),
        ("enumeration, both rule sets, table ready", warm, naive_full),
    ]
    rates = [
        ("score_show, breakdown, rank cache empty", 1 / breakdown_first, 1 / naive_hand),
        ("score_show, breakdown, rank cache filled", 1 / breakdown, 1 / naive_hand),
        ("score_show_many, 1,000,000 hands at once", 1 / fast, 1 / naive_hand),
    ]
    print(f"{COMBINATIONS:,} hands with a starter; medians of {args.runs} runs; baseline sample {len(sample):,}")
    print(f"{'seconds':<44} {'cribstats':>12} {'naive':>12} {'ratio':>9}")
    for name, ours, base in seconds:
        print(f"{name:<44} {ours:>12,.3f} {base:>12,.0f} {base / ours:>8,.0f}x")
    print(f"{'hands per second':<44} {'cribstats':>12} {'naive':>12} {'ratio':>9}")
    for name, ours, base in rates:
        print(f"{name:<44} {ours:>12,.0f} {base:>12,.0f} {ours / base:>8,.0f}x")
    print("naive enumeration seconds: its seconds per hand (both rule sets, on the sample) x 12,994,800")
    verdict = "met" if cold <= TARGET_SECONDS else "NOT met"
    print(f"target, both rule sets in <= {TARGET_SECONDS:g} s with the table built: {verdict} ({cold:.3f} s)")

if __name__ == "__main__":
    main()
