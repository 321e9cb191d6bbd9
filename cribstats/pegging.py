"""Points in the play: what the card just laid on a series earns (fifteen, thirty-one, pairs and run).

The go and the last card are not here: they depend on what follows, and :class:`cribstats.play.PlayState` gives
them. :func:`score_peg` explains a card's points; :func:`peg_parts` is the replay's hot path, on ranks.
:func:`check_series` says what is wrong with a series typed by a person. The values shared with the show
(fifteen, thirty-one, the points of a pair royal) are :mod:`cribstats.scoring`'s.

>>> from cribstats.cards import parse_cards
>>> score_peg(parse_cards("6H 4D 5S")).points
5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cribstats.cards import Card, format_card, rank, value
from cribstats.scoring import (
    FIFTEEN,
    FIFTEEN_POINTS,
    PAIR_POINTS,
    SHORTEST_RUN,
    THIRTY_ONE,
    THIRTY_ONE_POINTS,
    CountError,
    HandError,
    check_distinct,
)


def check_series(series: Sequence[Card]) -> None:
    """Refuse a series that cannot have been laid: empty, a card twice, or a count past 31.

    >>> from cribstats.cards import parse_cards
    >>> check_series(parse_cards("KH QH JH 2C"))
    Traceback (most recent call last):
    ...
    cribstats.scoring.CountError: KH QH JH 2C count 32: a series stops at 31

    :raises HandError: for no cards or a card given twice.
    :raises CountError: when the count goes past 31.
    """
    if not series:
        raise HandError("no cards: give the cards of the series in the order they were laid")
    check_distinct(series)
    count = sum(value(c) for c in series)
    if count > THIRTY_ONE:
        cards = " ".join(format_card(c) for c in series)
        raise CountError(f"{cards} count {count}: a series stops at 31")



@dataclass(frozen=True, slots=True)
class PegScore:
    """Points for the card just laid on a series: fifteen, thirty-one, pairs and run."""

    count: int
    fifteen: int
    thirty_one: int
    pairs: int
    run: int

    @property
    def points(self) -> int:
        return self.fifteen + self.thirty_one + self.pairs + self.run

    def to_dict(self) -> dict[str, int]:
        return {
            "points": self.points,
            "count": self.count,
            "fifteen": self.fifteen,
            "thirty_one": self.thirty_one,
            "pairs": self.pairs,
            "run": self.run,
        }


def score_peg(series: Sequence[Card]) -> PegScore:
    """Points for the last card of a series (the cards laid since the count was last 0).

    Go and last-card points are not included: they depend on what follows. 31 scores its 2 here.

    >>> from cribstats.cards import parse_cards
    >>> score_peg(parse_cards("4H 5S 4D 6C")).run
    3

    :raises CountError: when the count goes past 31.
    """
    count = sum(value(c) for c in series)
    if count > THIRTY_ONE:
        raise CountError(f"the count would be {count}: a series stops at 31")
    return peg_points_ranks([rank(c) for c in series], count)


def peg_points_ranks(ranks: Sequence[int], count: int) -> PegScore:
    """:func:`score_peg` for a series given as ranks and its count.

    >>> peg_points_ranks([4, 4, 4, 4], 20).pairs
    12
    """
    return PegScore(count, *peg_parts(ranks, count))


def peg_parts(ranks: Sequence[int], count: int) -> tuple[int, int, int, int]:
    """The last card's fifteen, thirty-one, pairs and run points, for a series given as ranks and its count (the
    replay's hot path: no object built).

    >>> peg_parts([3, 4, 5], 15)
    (2, 0, 0, 3)
    """
    n = len(ranks)
    if not n:
        return 0, 0, 0, 0
    fifteen = FIFTEEN_POINTS if count == FIFTEEN else 0
    thirty_one = THIRTY_ONE_POINTS if count == THIRTY_ONE else 0
    if n == 1:
        return fifteen, thirty_one, 0, 0
    last, before = ranks[-1], ranks[-2]
    if before == last:  # a pair, or more of a rank: no run holds a rank twice
        same = 2
        while same < n and same < 4 and ranks[-1 - same] == last:
            same += 1
        return fifteen, thirty_one, PAIR_POINTS[same], 0
    # the run: the longest tail of ranks all different and consecutive (max - min = length - 1), found in one
    # pass back from the last card; a rank met twice ends the search, as every longer tail holds it twice too
    run = 0
    low, high = (last, before) if last < before else (before, last)
    seen = 1 << last | 1 << before
    for k in range(SHORTEST_RUN, n + 1):
        r = ranks[-k]
        if seen >> r & 1:
            break
        seen |= 1 << r
        if r < low:
            low = r
        elif r > high:
            high = r
        if high - low == k - 1:
            run = k
    return fifteen, thirty_one, 0, run
