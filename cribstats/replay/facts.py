"""What the replay finds: the facts of each play, show, player and deal, and the game's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cribstats.cards import Card
from cribstats.findings import Finding
from cribstats.gamelog import Result
from cribstats.scoring import ShowScore, score_show
from cribstats.variants import Variant

Role = Literal["dealer", "pone"]
ShowPhase = Literal["hand", "crib"]


@dataclass(slots=True)
class PlayFact:
    """One logged play event: a card laid or a go said, with the count after it and the points."""

    index: int  # into the deal's ``play`` list
    player: str
    card: Card | None  # None for a go
    count: int  # the count after the event (0 once a series closed on it is still shown as the closing count)
    due: int  # points the rules award for it, go or last card included
    claimed: int | None  # points the log claims for it; None when the deal does not claim card by card
    after_end: bool = False  # laid after the game had ended: counts for nothing


@dataclass(slots=True)
class ShowFact:
    """One hand or crib counted in the show."""

    player: str  # whose hand; the dealer for the crib
    phase: ShowPhase
    cards: tuple[Card, ...]
    starter: Card
    due: int
    claimed: int
    after_end: bool = False

    @property
    def score(self) -> ShowScore:
        """The breakdown: every fifteen, pair, run, flush and nobs."""
        return score_show(self.cards, self.starter, crib=self.phase == "crib")


@dataclass(slots=True)
class PlayerDealFacts:
    """What one player did and was due in one deal: the row statistics read most."""

    player: str
    seat: int
    role: Role
    dealt: tuple[Card, ...]
    discards: tuple[Card, ...]
    pegged_due: int | None  # None when the log leaves the play out entirely
    pegged_claimed: int | None
    hand_due: int | None  # None when the hand was never shown (the game ended first)
    hand_claimed: int | None
    crib_due: int | None  # dealer only
    crib_claimed: int | None
    heels_due: int = 0
    heels_claimed: int = 0
    muggins_gained: int = 0  # points taken from others by muggins calls
    muggins_lost: int = 0  # points others took from this player


@dataclass(slots=True)
class DealFacts:
    """One deal, replayed."""

    number: int  # 1-based
    dealer: str
    starter: Card
    completed: bool  # False for the deal in which the game ended and any deal after the end
    after_end: bool  # the whole deal came after the game had ended
    players: list[PlayerDealFacts]
    plays: list[PlayFact] = field(default_factory=list)
    shows: list[ShowFact] = field(default_factory=list)
    scores_claimed: dict[str, int] = field(default_factory=dict)  # board after the deal, per player (team score)
    scores_due: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class GameOutcome:
    """A replayed game: its deals, findings and result as the table had it and as the rules award it."""

    key: str  # the game's id, or its content hash
    variant: Variant
    target: int
    deals: list[DealFacts]
    findings: list[Finding]
    scores_claimed: dict[str, int]  # final position per player (partners share the team's)
    scores_due: dict[str, int]
    winners: tuple[str, ...]  # the side that reached the target by claims (a recorded result for result-only)
    winners_due: tuple[str, ...]  # the side that first reached the target by points due, if any
    skunk_level: int  # 0..3: the highest skunk of a losing player, from the claimed scores
    skunk_levels: dict[str, int]  # per player: 0 for a winner, else the level of that player's loss
    ended_in_deal: int | None  # the deal in which a side reached the target
    recorded: Result | None
