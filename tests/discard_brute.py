"""An independent scorer and discard valuer for the discard tests: every card as text, every starter one at a time,
the show counted from the rules (RULES.md) with nothing of cribstats' own scoring or tables."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

RANKS = "A23456789TJQK"
SUITS = "CDHS"
DECK = [r + s for r in RANKS for s in SUITS]
TABLE_FILE = Path(__file__).resolve().parent.parent / "cribstats" / "data" / "crib-table.json"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def points(card: str) -> int:
    return min(rank(card) + 1, 10)


def show(hand: list[str], starter: str, crib: bool = False) -> int:
    """The show of ``hand`` with ``starter``, counted as RULES.md tells it."""
    cards = [*hand, starter]
    total = 0
    for k in range(2, len(cards) + 1):
        total += 2 * sum(1 for combo in combinations(cards, k) if sum(points(c) for c in combo) == 15)
    total += 2 * sum(1 for a, b in combinations(cards, 2) if a[0] == b[0])
    for k in range(len(cards), 2, -1):
        runs = 0
        for combo in combinations(cards, k):
            ranks = sorted(rank(c) for c in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(k - 1)):
                runs += 1
        if runs:
            total += k * runs
            break
    if len({c[1] for c in hand}) == 1:
        if crib:
            total += len(cards) if starter[1] == hand[0][1] else 0
        else:
            total += len(hand) + (starter[1] == hand[0][1])
    total += sum(1 for c in hand if c[0] == "J" and c[1] == starter[1])
    return total


def hand_value(dealt: list[str], keep: list[str]) -> float:
    """The average show of ``keep`` over every card not among ``dealt`` (the starters the player cannot see)."""
    unseen = [c for c in DECK if c not in dealt]
    return sum(show(keep, s) for s in unseen) / len(unseen)


def table_value(thrown: list[str], role: str, variant: str = "six-card") -> float:
    """The crib table's row for two thrown cards, read from the shipped data file by its pair name."""
    data = json.loads(TABLE_FILE.read_text(encoding="utf-8"))
    rows = data["rows"] if variant == "six-card" else data["variants"][variant]["rows"]
    a, b = sorted(thrown, key=rank)
    suited = None if a[0] == b[0] else a[1] == b[1]
    row = next(r for r in rows if r["pair"] == a[0] + b[0] and r["suited"] == suited)
    return float(row[role])


def card_key(card: str) -> tuple[int, int]:
    """Card order as cribstats prints it: by rank, then suit C D H S."""
    return rank(card), SUITS.index(card[1])
