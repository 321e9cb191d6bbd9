"""The variants of cribbage, as data: the one place where 121 or 6 is written.

>>> v = find_variant("Six-Card")
>>> v.target, v.dealt, v.hand_size
(121, 6, 4)
>>> v.skunk_level(89)
1
"""

from __future__ import annotations

from dataclasses import dataclass

from cribstats.errors import VariantError
from cribstats.names import quoted

CRIB_SIZE = 4
SKUNK_STEP = 30
GAME_POINTS_WIN = 2  # game points of a win, in a club's standings
GAME_POINTS_SKUNK_WIN = 3  # of a win that skunked a loser (any level)


def game_points(won: bool, skunk_level: int) -> int:
    """Game points of one result: :data:`GAME_POINTS_SKUNK_WIN` for a win with a skunk, :data:`GAME_POINTS_WIN`
    for another win, 0 for a loss.

    >>> game_points(True, 2), game_points(True, 0), game_points(False, 1)
    (3, 2, 0)
    """
    if not won:
        return 0
    return GAME_POINTS_SKUNK_WIN if skunk_level >= 1 else GAME_POINTS_WIN


def seat_after(seat: int, seats: int) -> int:
    """The seat on ``seat``'s left at a table of ``seats``: the deal passes to it, and after ``seat``'s deal it
    leads and counts first.

    >>> seat_after(0, 2), seat_after(1, 2), seat_after(2, 3)
    (1, 0, 0)
    """
    return (seat + 1) % seats


def seats_from(dealer: int, seats: int) -> tuple[int, ...]:
    """Every seat from ``dealer``'s left round to the dealer: the order the cards are dealt and hands counted.

    >>> seats_from(1, 3)
    (2, 0, 1)
    """
    return tuple((dealer + i) % seats for i in range(1, seats + 1))


@dataclass(frozen=True, slots=True)
class Variant:
    """One row of the variant table in the rules."""

    name: str
    players: int
    dealt: int
    to_crib: int
    crib_from_deck: int
    hand_size: int
    target: int
    first_deal_bonus: int = 0
    single_series: bool = False
    partnerships: bool = False

    @property
    def sides(self) -> int:
        """How many sides score: the partners of four-player share one."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for (seats 0 and 2, 1 and 3 are partners in four-player)."""
        return seat % 2 if self.partnerships else seat

    def skunk_lines(self, target: int | None = None) -> tuple[int, int, int]:
        """Scores a loser must reach to escape a single, double and triple skunk.

        >>> find_variant("five-card").skunk_lines()
        (31, 1, -29)
        """
        t = self.target if target is None else target
        return (t - SKUNK_STEP, t - 2 * SKUNK_STEP, t - 3 * SKUNK_STEP)

    def skunk_level(self, loser_score: int, target: int | None = None) -> int:
        """0 (none), 1 (skunk), 2 (double) or 3 (triple) for a losing score.

        >>> find_variant("six-card").skunk_level(30), find_variant("six-card").skunk_level(91)
        (3, 0)
        """
        return sum(loser_score < line for line in self.skunk_lines(target))


VARIANTS: tuple[Variant, ...] = (
    Variant("six-card", players=2, dealt=6, to_crib=2, crib_from_deck=0, hand_size=4, target=121),
    Variant(
        "five-card", players=2, dealt=5, to_crib=2, crib_from_deck=0, hand_size=3, target=61,
        first_deal_bonus=3, single_series=True,
    ),
    Variant("seven-card", players=2, dealt=7, to_crib=2, crib_from_deck=0, hand_size=5, target=181),
    Variant("three-player", players=3, dealt=5, to_crib=1, crib_from_deck=1, hand_size=4, target=121),
    Variant(
        "four-player", players=4, dealt=5, to_crib=1, crib_from_deck=0, hand_size=4, target=121,
        partnerships=True,
    ),
)
VARIANT_NAMES: tuple[str, ...] = tuple(v.name for v in VARIANTS)
DEFAULT_VARIANT = VARIANTS[0]


def find_variant(name: str) -> Variant:
    """Look a variant up by name, ignoring case.

    :raises VariantError: for a name not in ``VARIANT_NAMES``.
    """
    wanted = name.strip().lower()
    for variant in VARIANTS:
        if variant.name == wanted:
            return variant
    raise VariantError(f"unknown variant {quoted(name)}: use one of {', '.join(VARIANT_NAMES)}")
