"""How simulated players choose: discards by expected value, and the play by club heuristics.

A player's ``strength`` (0 to 1) sets how often they stray from the best choice: a strength-1 player always
keeps the hand with the highest expected points (the hand over every possible starter, plus the crib's value
when the crib is their side's, minus it when not) and always lays the card the heuristics rate best; weaker
players add noise to the discard values and sometimes lay any card that fits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from cribstats.cards import VALUES, Card
from cribstats.discards.hands import FLUSH_KEEP, four_card_points, option_arrays
from cribstats.play import VALUE, peg_points
from cribstats.scoring import FIFTEEN, THIRTY_ONE, score_show
from cribstats.scoring_many import score_show_many
from cribstats.simulate.crib_values import OFFSUIT, SUITED, single_crib_values

# chances, roughly, that an opponent can answer with one given rank, or with any ten-card
ONE_RANK = 0.2
TEN_CARD = 0.5
NOISE_SCALE = 2.5  # spread (standard deviation, points) of a strength-0 player's error in valuing a discard
TOP_VALUE = max(VALUES)  # the counting value of a ten or a court card, the highest
RANDOM_PLAY = 0.5  # chance that a strength-0 player lays any card that fits
UNIFORM_WIDTH = 12**0.5  # a uniform error this many standard deviations wide


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's player: a name and a strength from 0 (careless) to 1 (the best these heuristics do)."""

    name: str
    strength: float = 1.0


@cache
def _crib_by_cards() -> tuple[np.ndarray, np.ndarray]:
    """The crib's value of every two cards laid away (``[first, second]``, by card) and of every single card."""
    offsuit, suited = np.array(OFFSUIT), np.array(SUITED)
    cards = np.arange(52)
    a, b = cards[:, None], cards[None, :]
    pairs = np.where((a & 3) == (b & 3), suited[a >> 2, b >> 2], offsuit[a >> 2, b >> 2])
    return pairs, np.array(single_crib_values())[cards >> 2]


def crib_values(thrown: np.ndarray) -> np.ndarray:
    """Expected crib points brought by the cards laid away, for an array whose last axis holds one or two cards.

    >>> crib_values(np.array([[16, 17], [0, 51]])).round(2).tolist()  # 5C 5D; AC KS
    [8.99, 3.74]
    """
    pairs, singles = _crib_by_cards()
    if thrown.shape[-1] == 1:
        single: np.ndarray = singles[thrown[..., 0]]
        return single
    pair: np.ndarray = pairs[thrown[..., 0], thrown[..., 1]]
    return pair


def hand_values(keeps: np.ndarray, dealt: np.ndarray, method: str = "many") -> np.ndarray:
    """Average show of each kept hand (rows of ``keeps``) over every starter not among the ``dealt`` cards.

    ``method``: ``"many"`` scores every hand and starter with :func:`score_show_many`; ``"one"`` scores them
    with :func:`score_show` one at a time (slow: the benchmark's baseline). Both give the same averages.
    """
    unseen = np.setdiff1d(np.arange(52, dtype=np.intp), dealt, assume_unique=True)
    if method == "one":
        return np.array([np.mean([score_show(k.tolist(), int(c)).total for c in unseen]) for k in keeps])
    n_opt, n_cut = len(keeps), len(unseen)
    hands = np.repeat(keeps, n_cut, axis=0)
    starters = np.tile(unseen, n_opt)
    means: np.ndarray = score_show_many(hands, starters).reshape(n_opt, n_cut).mean(axis=1)
    return means


def table_values(dealts: Sequence[Sequence[Card]], crib_signs: Sequence[int]) -> list[list[float]]:
    """:func:`discard_values` of several hands that keep four (all dealt alike), valued together: each hand value
    exactly, by :func:`cribstats.discards.hands.four_card_points` (what the discard analysis stores), with the
    crib's value of the cards laid away added (``crib_sign`` +1) or subtracted (-1).

    >>> from cribstats.cards import parse_cards
    >>> dealt = parse_cards("5C 5D 5H JS 2C 9D")
    >>> np.allclose(table_values([dealt], [-1])[0], discard_values(dealt, 2, -1, method="many"))
    True
    """
    cards = np.array(dealts, dtype=np.int64)
    points, starters = four_card_points(cards)
    throws = option_arrays(cards.shape[1], cards.shape[1] - FLUSH_KEEP)[1]
    signs = np.array(crib_signs, dtype=np.int64)[:, None]
    values: list[list[float]] = (points / starters + signs * crib_values(cards[:, throws])).tolist()
    return values


def discard_values(dealt: Sequence[Card], to_crib: int, crib_sign: int, *, method: str = "table") -> list[float]:
    """Expected points of each way to discard (in :func:`~cribstats.discards.hands.options` order).

    The hand is averaged over every starter the player cannot see; the crib's value is added (``crib_sign``
    +1: the crib is the player's side's) or subtracted (-1). ``method``: ``"table"`` (:func:`table_values`,
    for four kept cards; other sizes fall back to ``"many"``), ``"many"`` or ``"one"`` (:func:`hand_values`).
    """
    if method == "table" and len(dealt) - to_crib == FLUSH_KEEP:
        return table_values([dealt], [crib_sign])[0]
    keep_idx, throw_idx = option_arrays(len(dealt), to_crib)
    cards = np.asarray(dealt, dtype=np.intp)
    hand = hand_values(cards[keep_idx], cards, "one" if method == "one" else "many")
    values: list[float] = (hand + crib_sign * crib_values(cards[throw_idx])).tolist()
    return values


def choose_discards(
    noise: random.Random, dealts: Sequence[Sequence[Card]], to_crib: int, crib_signs: Sequence[int],
    strengths: Sequence[float], *, method: str = "table",
) -> list[tuple[list[Card], list[Card]]]:
    """The cards each player keeps and lays away, in dealt order: the best expected value, blurred by ``noise``
    for weaker players."""
    throw_idx = option_arrays(len(dealts[0]), to_crib)[1]
    in_order = [sorted(as_dealt) for as_dealt in dealts]
    if method == "table" and len(in_order[0]) - to_crib == FLUSH_KEEP:  # every player's hand in one pass
        valued = table_values(in_order, crib_signs)
    else:
        valued = [
            discard_values(d, to_crib, sign, method=method) for d, sign in zip(in_order, crib_signs, strict=True)
        ]
    chosen = []
    for p, as_dealt in enumerate(dealts):
        dealt, values = in_order[p], valued[p]
        width = (1.0 - strengths[p]) * NOISE_SCALE * UNIFORM_WIDTH
        if width > 0:  # an error on each value: uniform, its standard deviation (1 - strength) * NOISE_SCALE
            rand = noise.random
            values = [v + (rand() - 0.5) * width for v in values]
        best = values.index(max(values))
        thrown = {dealt[i] for i in throw_idx[best]}
        chosen.append(([c for c in as_dealt if c not in thrown], [c for c in as_dealt if c in thrown]))
    return chosen


def random_discard(rng: random.Random, dealt: Sequence[Card], to_crib: int) -> tuple[list[Card], list[Card]]:
    """Any discard at all (the benchmark's baseline player)."""
    throw = sorted(rng.sample(range(len(dealt)), to_crib))
    return [c for i, c in enumerate(dealt) if i not in throw], [dealt[i] for i in throw]


# --- the play ------------------------------------------------------------------------------------------------

def choose_play(
    rng: random.Random, fits: Sequence[Card], held: Sequence[Card], count: int, ranks: Sequence[int],
    answer: bool, strength: float,
) -> Card:
    """The card to lay from ``fits`` (the held cards that keep the count at or below 31).

    Each card is rated by its points now, less what an opponent may score off it when one can still play
    (``answer``): a fifteen or thirty-one handed over, a pair or a run; with small preferences for a lead from a
    pair or under five and for shedding high cards first.
    """
    if len(fits) == 1:
        return fits[0]
    if strength < 1.0 and rng.random() < (1.0 - strength) * RANDOM_PLAY:
        return fits[rng.randrange(len(fits))]
    best = fits[0]
    best_rating = -1e9
    previous = ranks[-1] if ranks else -9
    for card in fits:
        r = card >> 2
        v = VALUE[card]
        new = count + v
        rating = peg_points((*ranks, r), new) + 0.01 * v
        if answer and new != THIRTY_ONE:
            gap = FIFTEEN - new
            if 1 <= gap <= TOP_VALUE:  # a fifteen handed over
                rating -= 2 * TEN_CARD if gap == TOP_VALUE else 2 * ONE_RANK
            gap = THIRTY_ONE - new
            if 1 <= gap <= TOP_VALUE:  # a thirty-one handed over
                rating -= 2 * TEN_CARD if gap == TOP_VALUE else 2 * ONE_RANK
            if new + v <= THIRTY_ONE:  # a pair handed over, or a pair royal set up
                rating -= 2 * ONE_RANK
                if new + 2 * v <= THIRTY_ONE:
                    for other in held:
                        if other >> 2 == r and other != card:
                            rating += 6 * ONE_RANK
                            break
            if previous != r and -2 <= previous - r <= 2:  # a run handed over
                rating -= 3 * ONE_RANK
            if not ranks and v < 5:  # a lead under five: no fifteen for the reply
                rating += 0.3
        if rating > best_rating:
            best, best_rating = card, rating
    return best
