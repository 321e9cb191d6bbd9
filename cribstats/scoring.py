"""Points in the show (a hand or crib with the starter), and the values the play shares with it (fifteen,
thirty-one, a pair's points; the play's own points are :mod:`cribstats.pegging`'s).

Three paths score the show, on the rules written once here (his heels, nobs, the flush, the rank key and the
rank part: fifteens, pairs and runs). :func:`score_show` explains itself: every fifteen, pair, run, flush and
nobs as the cards that make it. :func:`score_show_total` gives the total alone, fast, from a table of the rank
part by the ranks (:mod:`cribstats.show_table`: this module's count of every five ranks, shipped).
:func:`score_show_many` (in :mod:`cribstats.scoring_many`, loaded on first use with numpy) scores arrays of hands
at once for bulk work, through a table of the rank part by the same key. They agree; the tests hold them to it.

The scorers trust their input (a replay of a broken log may show a card twice and still wants points);
:func:`check_show` says what is wrong with cards typed by a person.

>>> from cribstats.cards import parse_cards
>>> score_show(parse_cards("5C 5D 5H JS"), parse_cards("5S")[0]).total
29
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from cribstats.cards import JACK, RANK_VALUES, Card, format_card
from cribstats.errors import CribstatsError
from cribstats.variants import CRIB_SIZE, VARIANTS

if TYPE_CHECKING:  # the names module __getattr__ gives, for type checkers and readers
    from cribstats.scoring_many import (  # noqa: F401
        flush_and_nobs_many,
        rank_key,
        rank_points_many,
        rank_table,
        score_show_many,
    )

#: the bulk path's names, loaded with numpy on first use (:mod:`cribstats.scoring_many`)
_BULK = ("flush_and_nobs_many", "rank_key", "rank_points_many", "rank_table", "score_show_many")

FIFTEEN = 15
THIRTY_ONE = 31
FIFTEEN_POINTS = 2  # a fifteen, in the show or the play
THIRTY_ONE_POINTS = 2  # the count made 31 in the play
PAIR_POINTS = {1: 0, 2: 2, 3: 6, 4: 12}  # by how many of a rank
SHORTEST_RUN = 3  # a run is three ranks in sequence or more, a point a card
HAND_SIZES = tuple(sorted({v.hand_size for v in VARIANTS}))  # 3, 4 and 5: the variants' hands
KINDS = ("fifteen", "pair", "run", "flush", "nobs")
HEELS = 2  # his heels: the dealer pegs 2 when the starter turned is a jack
NOBS = 1  # nobs: the jack of the starter's suit, in a hand or the crib
#: the rank key of ranks ``r0..r4``: their digits in base 13, ``r0`` the lowest (the starter's rank, last, highest)
RANK_KEY_BASE = 13
RANK_KEY_WEIGHTS = tuple(RANK_KEY_BASE**i for i in range(5))  # 1, 13, 169, 2197, 28561


def __getattr__(name: str) -> Any:
    if name in _BULK:
        import cribstats.scoring_many

        return getattr(cribstats.scoring_many, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- the small rules, each once --------------------------------------------------------------------------------


def heels_points(starter: Card) -> int:
    """His heels: :data:`HEELS` for the dealer when the starter is a jack, else 0."""
    return HEELS if starter >> 2 == JACK else 0


def nobs_card(starter: Any) -> Any:
    """The card that scores nobs with ``starter``: the jack of its suit (a card, or an array of cards)."""
    return JACK * 4 + (starter & 3)


def flush_points_for(size: Any, hand_suited: Any, starter_suited: Any, *, crib: bool) -> Any:
    """The flush rule: a hand all of one suit scores one a card, and one more when the starter is of that suit;
    a crib scores only with the starter. Plain arithmetic, so that it serves numbers and numpy arrays alike.

    >>> flush_points_for(4, True, False, crib=False), flush_points_for(4, True, False, crib=True)
    (4, 0)
    """
    return hand_suited * (starter_suited * (size + 1) + (1 - starter_suited) * (0 if crib else size))


def flush_points(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """Flush points of a hand or crib with its starter."""
    if not hand:
        return 0
    first = hand[0] & 3
    suited = all(c & 3 == first for c in hand)
    return int(flush_points_for(len(hand), suited, (starter & 3) == first, crib=crib))


def rank_key_of(ranks: Sequence[int]) -> int:
    """The key of up to five ranks, by :data:`RANK_KEY_WEIGHTS` (the index into the bulk path's rank table).

    >>> rank_key_of([1, 0, 0, 0, 2])
    57123
    """
    if len(ranks) == 5:  # a hand and its starter, the hot path: the same digits, unrolled
        b = RANK_KEY_BASE
        r0, r1, r2, r3, r4 = ranks
        return r0 + b * (r1 + b * (r2 + b * (r3 + b * r4)))
    key = 0
    for r in reversed(ranks):
        key = key * RANK_KEY_BASE + r
    return key


class CountError(CribstatsError, ValueError):
    """A series whose count goes past 31."""


class HandError(CribstatsError, ValueError):
    """Cards that cannot be shown or played together: a card twice, or a wrong number of cards."""


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind (fifteen, pair, run, flush, nobs), the cards and the points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def describe(self) -> str:
        """``'fifteen 5H JS: 2'``

        >>> ScoreItem("pair", (17, 19), 2).describe()
        'pair 5D 5S: 2'
        """
        return f"{self.kind} {' '.join(format_card(c) for c in self.cards)}: {self.points}"


@dataclass(frozen=True, slots=True)
class ShowScore:
    """The show score of a hand or crib, with the combinations that make it."""

    items: tuple[ScoreItem, ...]

    def points_of(self, kind: str) -> int:
        """Points of one kind: ``fifteen``, ``pair``, ``run``, ``flush`` or ``nobs``."""
        return sum(item.points for item in self.items if item.kind == kind)

    @property
    def fifteens(self) -> int:
        return self.points_of("fifteen")

    @property
    def pairs(self) -> int:
        return self.points_of("pair")

    @property
    def runs(self) -> int:
        return self.points_of("run")

    @property
    def flush(self) -> int:
        return self.points_of("flush")

    @property
    def nobs(self) -> int:
        return self.points_of("nobs")

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def to_dict(self) -> dict[str, object]:
        """The totals by kind and the combinations, for JSON output."""
        return {
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
            "total": self.total,
            "combinations": [
                {"kind": i.kind, "cards": [format_card(c) for c in i.cards], "points": i.points}
                for i in self.items
            ],
        }


def check_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> None:
    """Refuse cards that cannot be a hand (3, 4 or 5 cards) or a crib (4 cards) shown with a starter.

    >>> from cribstats.cards import parse_cards
    >>> check_show(parse_cards("5H 5C 5S"), parse_cards("5H")[0])
    Traceback (most recent call last):
    ...
    cribstats.scoring.HandError: 5H is there twice: every card exists once

    :raises HandError: for a wrong number of cards or a card given twice.
    """
    sizes = (CRIB_SIZE,) if crib else HAND_SIZES
    if len(hand) not in sizes:
        given = len(hand) + 1
        what = "a crib of 4 cards" if crib else "a hand of 3, 4 or 5 cards"
        raise HandError(f"{given} card{'' if given == 1 else 's'} given: give {what}, then the starter")
    check_distinct((*hand, starter))


def check_distinct(cards: Sequence[Card]) -> None:
    """Refuse a card given twice."""
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise HandError(f"{format_card(c)} is there twice: every card exists once")
        seen.add(c)


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """Score a hand (3, 4 or 5 cards) or a crib with the starter, with the breakdown.

    Items come in the order fifteens, pairs, runs, flush, nobs; the cards of a combination in rank order.

    >>> from cribstats.cards import parse_cards
    >>> s = score_show(parse_cards("2H 2S 3D 4C"), parse_cards("KS")[0])
    >>> s.fifteens, s.pairs, s.runs, s.total
    (4, 2, 6, 12)
    >>> [i.describe() for i in s.items][:2]
    ['fifteen 2H 3D KS: 2', 'fifteen 2S 3D KS: 2']
    """
    cards = sorted((*hand, starter))
    items = [
        ScoreItem(kind, tuple(cards[p] for p in positions), points)
        for kind, positions, points in _rank_combinations(tuple(c >> 2 for c in cards))
    ]
    flush = flush_points(hand, starter, crib=crib)
    if flush:
        items.append(ScoreItem("flush", (*hand, starter) if flush > len(hand) else tuple(hand), flush))
    nobs = nobs_card(starter)
    items.extend(ScoreItem("nobs", (c,), NOBS) for c in hand if c == nobs)
    return ShowScore(tuple(items))


@cache
def _rank_combinations(ranks: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """Fifteens, pairs and runs of ranks in ascending order, as (kind, positions, points).

    Cached: at most one entry per multiset of ranks (6,188 for five cards).

    >>> _rank_combinations((3, 4, 4))
    (('pair', (1, 2), 2),)
    """
    n = len(ranks)
    values = [RANK_VALUES[r] for r in ranks]
    found: list[tuple[str, tuple[int, ...], int]] = [
        ("fifteen", positions, FIFTEEN_POINTS)
        for size in range(2, n + 1)
        for positions in combinations(range(n), size)
        if sum(values[p] for p in positions) == FIFTEEN
    ]
    pair = PAIR_POINTS[2]
    found.extend(("pair", (a, b), pair) for a, b in combinations(range(n), 2) if ranks[a] == ranks[b])
    by_rank: dict[int, list[int]] = {}
    for p, r in enumerate(ranks):
        by_rank.setdefault(r, []).append(p)
    r = 0
    while r < 13:
        if r not in by_rank:
            r += 1
            continue
        end = r
        while end + 1 in by_rank:
            end += 1
        length = end - r + 1
        if length >= SHORTEST_RUN:  # a maximal run: once per way of taking one card of each of its ranks
            ways: list[tuple[int, ...]] = [()]
            for k in range(r, end + 1):
                ways = [(*way, p) for way in ways for p in by_rank[k]]
            found.extend(("run", way, length) for way in ways)
        r = end + 1
    return tuple(found)


def rank_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of some ranks, in any order.

    >>> rank_points([4, 4, 4, 10, 4])
    28
    """
    return _sorted_rank_points(tuple(sorted(ranks)))


@cache
def _sorted_rank_points(ranks: tuple[int, ...]) -> int:
    """:func:`rank_points` of ranks in ascending order, remembered (6,188 multisets of five ranks at most)."""
    return sum(item[2] for item in _rank_combinations(ranks))


def score_show_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The show total alone, fast: the rank part from its memo, then flush and nobs (the replay's hot path).

    >>> from cribstats.cards import parse_cards
    >>> score_show_total(parse_cards("2H 4H 6H 8H"), parse_cards("KH")[0], crib=True)
    5
    """
    if len(hand) != 4:
        return score_show(hand, starter, crib=crib).total
    a, b, c, d = hand
    # the rank part, remembered by the multiset of the five ranks: the product of a prime per rank names it
    key = _RANK_PRIME[a] * _RANK_PRIME[b] * _RANK_PRIME[c] * _RANK_PRIME[d] * _RANK_PRIME[starter]
    points = _SHOW_RANKS.get(key)
    if points is None:
        points = _show_ranks()[key]
    s = a & 3
    if s == b & 3 == c & 3 == d & 3:  # one suit: a flush, by the rule
        points += flush_points_for(4, 1, 1 if s == starter & 3 else 0, crib=crib)
    nobs = _NOBS_CARD[starter]
    if a == nobs or b == nobs or c == nobs or d == nobs:
        points += NOBS
    return points


_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # one for each rank, ace to king
_RANK_PRIME: tuple[int, ...] = tuple(_PRIMES[c >> 2] for c in range(52))  # by card
_NOBS_CARD: tuple[int, ...] = tuple(nobs_card(c) for c in range(52))  # by starter
_SHOW_RANKS: dict[int, int] = {}  # the rank part of five cards' show, by the product of their ranks' primes


def _show_ranks() -> dict[int, int]:
    """Fill :data:`_SHOW_RANKS` for every multiset of five ranks from the shipped table
    (:mod:`cribstats.show_table`, this module's :func:`rank_points` counted once), and return it."""
    from cribstats.show_table import RANK_POINTS

    primes, keys = _PRIMES, []
    for a in range(13):  # the order of combinations_with_replacement(range(13), 5), as the table's
        pa = primes[a]
        for b in range(a, 13):
            pb = pa * primes[b]
            for c in range(b, 13):
                pc = pb * primes[c]
                for d in range(c, 13):
                    pd = pc * primes[d]
                    keys += [pd * primes[e] for e in range(d, 13)]
    _SHOW_RANKS.update(zip(keys, RANK_POINTS, strict=True))
    return _SHOW_RANKS
