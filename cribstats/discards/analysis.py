"""Every discard of one dealt hand, ranked by expected points, and what a chosen discard cost.

The **expected value** of a discard is its hand value (:mod:`cribstats.discards.hands`) plus the crib table's
value of the throw for the dealer, minus it for the pone. The two-player variants (six-, five- and seven-card)
take the crib from their own table (built from hands of six, five or seven cards); three- and four-player
deals are judged by the hand value alone (``crib`` is None). The **loss** of a discard is the best expected value
less its own, never below 0; discards within :data:`TIE` of the best are equal to it and lose nothing.

>>> from cribstats.cards import parse_cards
>>> ranked = analyse(parse_cards("AS 2H 3S 4H 5D 6C"), "six-card", "pone")
>>> " ".join(ranked[0].keep_text), round(ranked[0].hand, 2)
('3S 4H 5D 6C', 9.85)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import add, sub
from typing import Any

from cribstats.cards import Card, format_card
from cribstats.discards.hands import hand_values, options
from cribstats.discards.table import TABLE_VARIANTS, CribTable, load_crib_table
from cribstats.errors import CribstatsError
from cribstats.names import quoted
from cribstats.variants import Variant, find_variant

TIE = 1e-9
ROLES = ("dealer", "pone")


class DiscardError(CribstatsError, ValueError):
    """Cards that cannot be a dealt hand of the variant, or a throw that is not part of it."""


@dataclass(frozen=True, slots=True)
class Discard:
    """One way to lay cards away: the cards kept and thrown, the hand and crib values and the expected value."""

    keep: tuple[Card, ...]
    throw: tuple[Card, ...]
    hand: float
    crib: float | None
    expected: float

    @property
    def keep_text(self) -> list[str]:
        return [format_card(c) for c in self.keep]

    @property
    def throw_text(self) -> list[str]:
        return [format_card(c) for c in self.throw]

    def to_dict(self) -> dict[str, object]:
        """``{"keep": [...], "throw": [...], "hand": h, "crib": c, "expected": e}``, the values exactly as worked
        out (a table rounds them for people; JSON keeps every value as CSV and Parquet do)."""
        return {
            "keep": self.keep_text,
            "throw": self.throw_text,
            "hand": self.hand,
            "crib": self.crib,
            "expected": self.expected,
        }


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """A discard made at the table, judged: the one chosen, the best, and the loss (0 for a best one)."""

    chosen: Discard
    best: Discard
    loss: float
    hand_only: bool

    @property
    def is_best(self) -> bool:
        return self.loss == 0.0


def has_crib_value(variant: Variant) -> bool:
    """Variants with a crib table (the two-player ones) value the throw by it; three- and four-player ones by the
    hand alone."""
    return variant.name in TABLE_VARIANTS


def _check(dealt: Sequence[Card], variant: Variant) -> None:
    if len(dealt) != variant.dealt:
        raise DiscardError(f"{len(dealt)} cards given: {variant.name} deals {variant.dealt}")
    if len(set(dealt)) != len(dealt):
        twice = next(c for c in dealt if list(dealt).count(c) > 1)
        raise DiscardError(f"{format_card(twice)} is there twice: every card exists once")


def _values(
    dealt: Sequence[Card], v: Variant, role: str, table: CribTable | None
) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], list[float], list[float] | None, list[float]]:
    """For each option (in :func:`options` order): the hand value, the crib value (None for a hand-only
    variant) and the expected value."""
    if role not in ROLES:
        raise DiscardError(f"role {quoted(role)}: use dealer or pone")
    _check(dealt, v)
    opts = options(len(dealt), v.to_crib)
    hands = hand_values(dealt, v.hand_size)
    if not has_crib_value(v):
        return opts, hands, None, hands
    by_pair = (table or load_crib_table(v.name)).by_cards(role)
    cribs = [by_pair[dealt[a] * 52 + dealt[b]] for _, (a, b) in opts]
    return opts, hands, cribs, list(map(with_crib(role), hands, cribs))


def with_crib(role: str) -> Callable[[Any, Any], Any]:
    """How a keep's hand value and the crib value of its throw make its expected value: the crib added for the
    dealer (the crib is his), taken away for the pone (it is his opponent's). For two floats, or two arrays of
    them (element by element, the same arithmetic)."""
    return add if role == "dealer" else sub


def _discard(dealt: Sequence[Card], option: tuple[tuple[int, ...], tuple[int, ...]], hand: float,
             crib: float | None, expected: float) -> Discard:  # fmt: skip
    keep, throw = option
    return Discard(tuple(dealt[i] for i in keep), tuple(dealt[i] for i in throw), hand, crib, expected)


def analyse(
    dealt: Sequence[Card], variant: str | Variant, role: str, table: CribTable | None = None
) -> list[Discard]:
    """Every discard of ``dealt`` for a player who is ``role`` (``'dealer'`` or ``'pone'``), best first (ties
    in card order); the cards of each discard in card order (by rank, then suit C D H S).

    :raises DiscardError: for a number of cards the variant does not deal, or a card given twice.
    """
    v = variant if isinstance(variant, Variant) else find_variant(variant)
    cards = tuple(sorted(dealt))  # by rank: the same ranks in the same order reuse the cached rank part
    opts, hands, cribs, expected = _values(cards, v, role, table)
    order = sorted(range(len(opts)), key=lambda i: (-expected[i], i))
    return [_discard(cards, opts[i], hands[i], None if cribs is None else cribs[i], expected[i]) for i in order]


def judge_discard(
    dealt: Sequence[Card], thrown: Sequence[Card], variant: str | Variant, role: str,
    table: CribTable | None = None,
) -> DiscardChoice:
    """The loss of laying ``thrown`` away from ``dealt``.

    >>> from cribstats.cards import parse_cards
    >>> dealt = parse_cards("5C 5D 5H JS 2C 9D")
    >>> judge_discard(dealt, parse_cards("2C 9D"), "six-card", "dealer").loss
    0.0
    >>> judge_discard(dealt, parse_cards("5C JS"), "six-card", "dealer").loss > 8  # breaking up three fives
    True

    :raises DiscardError: for a throw that is not of the dealt cards, or of the wrong size.
    """
    v = variant if isinstance(variant, Variant) else find_variant(variant)
    if len(thrown) != v.to_crib or not set(thrown) <= set(dealt) or len(set(thrown)) != len(thrown):
        shown = " ".join(format_card(c) for c in thrown)
        raise DiscardError(f"{shown or 'nothing'} is not a discard of {v.to_crib} of the dealt cards")
    cards = tuple(sorted(dealt))
    opts, hands, cribs, expected = _values(cards, v, role, table)
    wanted = {cards.index(c) for c in thrown}
    mine = next(i for i, (_, throw) in enumerate(opts) if set(throw) == wanted)
    top = max(expected)
    best = expected.index(top)  # the first of the best, as :func:`analyse` ranks them
    gap = top - expected[mine]

    def made(i: int) -> Discard:
        return _discard(cards, opts[i], hands[i], None if cribs is None else cribs[i], expected[i])

    return DiscardChoice(made(mine), made(best), gap if gap > TIE else 0.0, not has_crib_value(v))


def discard_line(dealt: Sequence[Card], thrown: Sequence[Card], variant: Variant, role: str) -> str | None:
    """How ``cribstats show`` tells a discard: its expected value, and its loss with the best alternative; None
    for cards that cannot be judged (the audit reports them).

    >>> from cribstats.cards import parse_cards
    >>> dealt = parse_cards("5S 4S 2S 8D 6H 8C")
    >>> discard_line(dealt, parse_cards("8D 8C"), find_variant("six-card"), "dealer")
    'discard 8C 8D: expected 13.86, a best discard'
    """
    try:
        choice = judge_discard(dealt, thrown, variant, role)
    except (DiscardError, ValueError):
        return None
    chosen, best = choice.chosen, choice.best
    what = " by the hand alone" if choice.hand_only else ""
    head = f"discard {' '.join(chosen.throw_text)}: expected {chosen.expected:.2f}{what}"
    if choice.is_best:
        return f"{head}, a best discard"
    return f"{head}, loses {choice.loss:.2f} to {' '.join(best.throw_text)} (expected {best.expected:.2f})"
