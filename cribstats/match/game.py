"""What one game gives a match (:class:`MatchGame`): a value of its own module, so that the audit can keep it for
every game read without loading the match models or the judge (:mod:`cribstats.match.judge`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MatchGame:
    """What one game of a match gives the match: its number and key, its players (in seat order), its variant,
    the winning players (empty when no side finished), the loser's skunk level (0..3) and the first dealer
    (None when the game has no deals)."""

    number: int
    key: str
    players: tuple[str, ...]
    variant: str
    winners: tuple[str, ...]
    skunk_level: int
    first_dealer: str | None
