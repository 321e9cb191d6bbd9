"""How fast the simulator plays, beside baselines measured in the same run; and the audit acceptance run.

Run: ``.venv/bin/python benchmarks/bench_simulate.py [--games 10000] [--seed 1]``
     ``.venv/bin/python benchmarks/bench_simulate.py --acceptance 2000`` (games per variant, with mistakes)

Speed, on one core (numpy's threads are held to one): the simulator as shipped (discards valued through the rank
table of the fast scorer) over ``--games`` six-card games; then, as baselines, the same games with every
discard valued by ``score_show_many`` over all keeps and starters, and by ``score_show`` one hand at a time
(fewer games, timed per game), and players with no strategy (any discard, any card that fits). The issue's
target: 10,000 six-card games in under 30 s.

Acceptance: simulated games of every variant with mistakes (half with muggins) go through the replay, and
its findings must be exactly the expected ones, every field equal; clean games must audit clean.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TypedDict, Unpack  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribstats.gamelog import validate_game  # noqa: E402
from cribstats.replay import replay  # noqa: E402
from cribstats.simulate import simulate_games  # noqa: E402
from cribstats.variants import VARIANT_NAMES  # noqa: E402

TARGET_SECONDS = 30.0
TARGET_GAMES = 10_000


class Options(TypedDict, total=False):
    """The options of ``simulate_games`` the speed rows set."""

    method: str
    random_players: bool


def timed(games: int, seed: int, **options: Unpack[Options]) -> tuple[float, int]:
    """CPU seconds to play ``games`` games (consumed one by one, as a writer would), and the deals played."""
    deals = 0
    start = time.process_time()
    for game in simulate_games(games, seed=seed, **options):
        deals += len(game.log["deals"])
    return time.process_time() - start, deals


def speed(games: int, seed: int) -> None:
    next(simulate_games(1, seed=seed))  # build the rank table once, outside the timings
    rows: list[tuple[str, int, Options]] = [
        ("the simulator (rank table)", games, {}),
        ("discards by score_show_many", max(1, games // 20), {"method": "many"}),
        ("discards by score_show", max(1, games // 500), {"method": "one"}),
        ("no strategy (random players)", games, {"random_players": True}),
    ]
    print(f"six-card games, seed {seed}, one core (CPU time)")
    print("| how | games | seconds | ms a game | for 10,000 games | against the simulator |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    base = None
    for name, n, options in rows:
        seconds, _deals = timed(n, seed, **options)
        per_game = seconds / n
        base = base or per_game
        print(f"| {name} | {n:,} | {seconds:.1f} | {1000 * per_game:.2f} | {per_game * TARGET_GAMES:.1f} s "
              f"| {per_game / base:.2f}x |")
    assert base is not None
    projected = base * TARGET_GAMES
    verdict = "under" if projected < TARGET_SECONDS else "over"
    print(f"\n10,000 six-card games: {projected:.1f} s of CPU, {verdict} the {TARGET_SECONDS:.0f} s target")


def acceptance(per_variant: int, seed: int, rate: float) -> int:
    """Every variant's simulated games through the replay; returns the number of games that disagree."""
    print(f"acceptance: {per_variant:,} games per variant, mistakes at {rate} (half of them with muggins)")
    print("| variant | games | expected findings | found | games that disagree | clean games with findings |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    failures = 0
    for variant in VARIANT_NAMES:
        expected = found = wrong = dirty = 0
        half = per_variant // 2
        for muggins, n in ((False, per_variant - half), (True, half)):
            for game in simulate_games(n, variant=variant, seed=seed, mistake_rate=rate, muggins=muggins):
                got = [f.to_dict() for f in replay(validate_game(game.log)).findings]
                expected += len(game.findings)
                found += len(got)
                wrong += got != game.findings
        for game in simulate_games(max(1, per_variant // 10), variant=variant, seed=seed + 1):
            dirty += bool(replay(validate_game(game.log)).findings)
        failures += wrong + dirty
        print(f"| {variant} | {per_variant:,} | {expected:,} | {found:,} | {wrong} | {dirty} |")
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="six-card games for the speed run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--acceptance", type=int, metavar="N", help="audit acceptance on N games a variant")
    parser.add_argument("--rate", type=float, default=0.03, help="mistake rate of the acceptance run")
    args = parser.parse_args()
    if args.acceptance:
        sys.exit(1 if acceptance(args.acceptance, args.seed, args.rate) else 0)
    speed(args.games, args.seed)


if __name__ == "__main__":
    main()
