"""What the replay finds: the facts of each play, show, player and deal, and the game's outcome."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from cribstats.cards import CARD_BY_TEXT, Card
from cribstats.findings import Finding
from cribstats.gamelog import GO
from cribstats.scoring import ShowScore, score_show
from cribstats.variants import Variant

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyResult

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
    """One deal, replayed.

    The play is kept as the log's events with what the replay worked out for each, by event index
    (``play_dues``, ``play_counts``, :meth:`play_claims`, ``play_after_end_from``); :attr:`plays` gives the same
    as :class:`PlayFact` objects, built when first asked for.
    """

    number: int  # 1-based
    dealer: str
    starter: Card
    completed: bool  # False for the deal in which the game ended and any deal after the end
    after_end: bool  # the whole deal came after the game had ended
    #: the players' facts, in seat order (see :attr:`players`; None while still to be built by ``_build``)
    _players: list[PlayerDealFacts] | None = None
    #: the hands and the crib shown, in counting order (see :attr:`shows`)
    _shows: list[ShowFact] | None = None
    # the board after the deal, per player (team score); empty when it is not known (a deal without its play or
    # pegging totals, and no board recorded since)
    scores_claimed: dict[str, int] = field(default_factory=dict)
    scores_due: dict[str, int] = field(default_factory=dict)
    #: the log's play events as replayed (empty when the deal was not played out: no ``play``, or after the end)
    play_events: Sequence[Sequence[Any]] = ()
    #: points due for each event, go and last card included (0 for a go and after the end)
    play_dues: list[int] = field(default_factory=list)
    #: the count after each event (see :attr:`PlayFact.count`)
    play_counts: list[int] = field(default_factory=list)
    #: the index of the first card laid after the game had ended (``len(play_events)`` when none was)
    play_after_end_from: int = 0
    #: the deal claims card by card (an event without points claims 0); else no card claims anything
    play_claims_by_card: bool = False
    _plays: list[PlayFact] | None = field(default=None, repr=False, compare=False)
    #: builds the players' facts and the shows when first asked for (a clean deal's, which an audit never reads)
    _build: Callable[[], tuple[list[PlayerDealFacts], list[ShowFact]]] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def players(self) -> list[PlayerDealFacts]:
        """What each player did and was due in the deal, in seat order."""
        players = self._players
        if players is None:
            self._built()
            players = self._players = self._players or []
        return players

    @property
    def shows(self) -> list[ShowFact]:
        """The hands and the crib shown, in counting order."""
        shows = self._shows
        if shows is None:
            self._built()
            shows = self._shows = self._shows or []
        return shows

    def _built(self) -> None:
        build = self._build
        if build is not None:
            self._build = None
            self._players, self._shows = build()

    def play_claims(self) -> list[int | None]:
        """What the log claims for each event: None for a go, and for every card when it does not claim card by
        card."""
        by_card = 0 if self.play_claims_by_card else None
        return [
            None if e[1] == GO else (e[2] if len(e) == 3 else by_card) for e in self.play_events
        ]

    @property
    def plays(self) -> list[PlayFact]:
        """Every play event as a :class:`PlayFact`, in the log's order."""
        built = self._plays
        if built is None:
            after = self.play_after_end_from
            built = self._plays = [
                PlayFact(
                    i, e[0], None if e[1] == GO else CARD_BY_TEXT[e[1]], count, due, claimed,
                    after_end=i >= after and e[1] != GO,
                )
                for i, (e, count, due, claimed) in enumerate(
                    zip(self.play_events, self.play_counts, self.play_dues, self.play_claims(), strict=True)
                )
            ]
        return built


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
    recorded: AnyResult | None
