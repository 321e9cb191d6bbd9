"""The simulator beside published expert figures: per-deal pegging, hands, crib, points and first-dealer wins.

Run: ``.venv/bin/python benchmarks/realism.py [--games 20000] [--seed 1]``

Plays clean six-card games (no mistakes, so every claim is the points due; the audit tests hold the simulator
to that) and measures over completed deals (the deal in which the game ended is cut short and left out):
pegging per deal by role, hand per deal by role, crib per deal, points per two deals (all the points of one deal,
what a player makes as dealer once and pone once, heels included) and how often the first dealer wins. The
expert figures are those quoted in the issue (American
Cribbage Congress articles, Cribbage Pro's data).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribstats.simulate import simulate_games

EXPERT = {
    "pegging, dealer": (3.5, 3.5),
    "pegging, pone": (2.0, 2.1),
    "hand, dealer": (8.0, 8.0),
    "hand, pone": (8.1, 8.1),
    "crib": (4.65, 4.7),
    "points per two deals": (26.0, 26.0),  # one player's, as dealer once and pone once: all points of a deal
    "first dealer wins (%)": (55.5, 55.5),
}


def measure(games: int, seed: int, players: list[str] | None = None) -> dict[str, float]:
    """The realism figures over ``games`` clean six-card games."""
    sums = dict.fromkeys(EXPERT, 0.0)
    deals = 0
    first_dealer_wins = 0
    for game in simulate_games(games, seed=seed, players=players):
        log = game.log
        first_dealer_wins += log["result"]["winner"] == log["deals"][0]["dealer"]
        for deal in log["deals"][:-1]:  # completed deals only
            dealer = deal["dealer"]
            pone = next(p for p in log["players"] if p != dealer)
            pegged = {dealer: 0, pone: 0}
            for event in deal.get("play", []):
                if len(event) == 3:
                    pegged[event[0]] += event[2]
            show = deal["show"]
            sums["pegging, dealer"] += pegged[dealer]
            sums["pegging, pone"] += pegged[pone]
            sums["hand, dealer"] += show[dealer]
            sums["hand, pone"] += show[pone]
            sums["crib"] += show["crib"]
            sums["points per two deals"] += (
                pegged[dealer] + pegged[pone] + show[dealer] + show[pone] + show["crib"] + deal.get("heels", 0)
            )
            deals += 1
    figures = {k: v / deals for k, v in sums.items()}
    figures["first dealer wins (%)"] = 100.0 * first_dealer_wins / games
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    figures = measure(args.games, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{args.games:,} clean six-card games, seed {args.seed} ({elapsed:.0f} s)")
    print("| figure | simulated | expert | off by |")
    print("| --- | ---: | ---: | ---: |")
    for name, (low, high) in EXPERT.items():
        got = figures[name]
        target = low if got < low else high if got > high else got
        off = 100.0 * (got - target) / target
        expert = f"{low:g}" if low == high else f"{low:g}-{high:g}"
        print(f"| {name} | {got:.2f} | {expert} | {off:+.1f}% |")


if __name__ == "__main__":
    main()
