"""The playoff bracket of an ACC sanctioned event, drawn from the qualifying standings.

One qualifier in four entrants, rounded up. When the qualifiers are not a power of two, the top qualifiers get
byes so that the second round is one: with ``q`` qualifiers and ``p`` the largest power of two below ``q``,
``2p - q`` byes go to seeds 1 to ``2p - q`` and the other ``2(q - p)`` qualifiers play the first round, the
highest remaining seed against the lowest (108 entrants: 27 qualifiers, 5 byes, 11 first-round matches, a second
round of 16). The second round and every later round pair the seeds the classic way (1 against 16, 8 against 9,
...), so that seeds 1 and 2 can meet only in the final; a first-round winner takes the seed of the higher seed
of its match.

*Decided:* a slot is filled in by the stored match of the event between the two sides of that slot (in either
order, the latest one when there are several) that has a winner; a bye is a win; a slot whose match is not
stored (or not finished) is left open, and so is everything that depends on it.

>>> draw_size(108), draw_size(121), draw_size(132)
((27, 5), (31, 1), (33, 31))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import polars as pl

BRACKET_COLUMNS: tuple[str, ...] = ("round", "slot", "seed1", "side1", "seed2", "side2", "winner")
ENTRANTS_PER_QUALIFIER = 4


def qualifiers(entrants: int) -> int:
    """One qualifier in four entrants, rounded up."""
    return -(-entrants // ENTRANTS_PER_QUALIFIER)


def draw_size(entrants: int) -> tuple[int, int]:
    """``(qualifiers, byes)`` for an event of ``entrants``."""
    q = qualifiers(entrants)
    return q, byes(q)


def byes(q: int) -> int:
    """Byes that make the second round a power of two (none when ``q`` is one already)."""
    if q <= 1 or q & (q - 1) == 0:
        return 0
    p = 1 << (q.bit_length() - 1)
    return 2 * p - q


def seed_order(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` (a power of two) in slot order, pairing 1-``size``, and so on, so that
    the top two seeds can meet only in the final.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


@dataclass(slots=True)
class Slot:
    """One match of the bracket: round (1-based), slot (1-based within the round), the two seeds and sides."""

    round: int
    slot: int
    seed1: int | None = None
    side1: str | None = None
    seed2: int | None = None
    side2: str | None = None
    winner: str | None = None


@dataclass(slots=True)
class Bracket:
    entrants: int
    qualifiers: list[str]
    byes: int
    slots: list[Slot] = field(default_factory=list)

    def frame(self) -> pl.DataFrame:
        """The slots as a table with :data:`BRACKET_COLUMNS`, round by round."""
        schema = dict(zip(BRACKET_COLUMNS, (pl.Int64, pl.Int64, pl.Int64, pl.String, pl.Int64, pl.String,
                                            pl.String), strict=True))  # fmt: skip
        rows = [(s.round, s.slot, s.seed1, s.side1, s.seed2, s.side2, s.winner) for s in self.slots]
        return pl.DataFrame(rows, schema=schema, orient="row")

    @property
    def champion(self) -> str | None:
        """The winner of the final; with one qualifier, that qualifier (there is no playoff to play)."""
        if len(self.qualifiers) == 1:
            return self.qualifiers[0]
        return self.slots[-1].winner if self.slots else None


Winner = Callable[[str, str], str | None]
"""Given the two sides of a slot, the stored winner of their match (None when none is stored)."""


def draw(entrants: int, standings: Sequence[str], winner: Winner = lambda a, b: None) -> Bracket:
    """The bracket of an event of ``entrants`` whose qualifying standings list the sides in order (the first
    ``qualifiers(entrants)`` qualify), filled in with ``winner``."""
    q = min(qualifiers(entrants), len(standings))
    seeded = list(standings[:q])
    bracket = Bracket(entrants, seeded, byes(q))
    if q < 2:
        return bracket
    free = bracket.byes
    second = q - (q - free) // 2 if free else q  # the sides that reach the round of a power of two
    # round 1 (only with byes): seeds free+1 .. q, the highest left against the lowest left
    by_seed: dict[int, tuple[int, str | None]] = {s: (s, seeded[s - 1]) for s in range(1, free + 1)}
    number = 1
    if free:
        playing = list(range(free + 1, q + 1))
        for i in range(len(playing) // 2):
            high, low = playing[i], playing[-1 - i]
            slot = _play(1, i + 1, (high, seeded[high - 1]), (low, seeded[low - 1]), winner)
            bracket.slots.append(slot)
            by_seed[high] = (high, slot.winner)
        number = 2
    else:
        by_seed = {s: (s, seeded[s - 1]) for s in range(1, q + 1)}
    current = [by_seed[s] for s in seed_order(second)]
    while len(current) > 1:
        nxt = []
        for i in range(0, len(current), 2):
            slot = _play(number, i // 2 + 1, current[i], current[i + 1], winner)
            bracket.slots.append(slot)
            best = min(current[i][0], current[i + 1][0])
            nxt.append((best, slot.winner))
        current, number = nxt, number + 1
    return bracket


Entry = tuple[int, str | None]  # a seed and the side holding it (None while undecided)


def _play(number: int, slot: int, one: Entry, two: Entry, winner: Winner) -> Slot:
    (seed1, side1), (seed2, side2) = one, two
    won = winner(side1, side2) if side1 is not None and side2 is not None else None
    if won not in (side1, side2):
        won = None
    return Slot(number, slot, seed1, side1, seed2, side2, won)
