"""Human-like mistakes, each made at a rate per opportunity, and the finding the audit must give for it.

Every mistake the simulator makes is written as the finding (docs/findings.md) that it must produce,
with every field; every message comes from the shared builders of :mod:`cribstats.findings`, so the audit and
the simulator word them alike. Each mistake yields exactly its own finding: claims move the board as claimed,
so recorded positions follow them, and a board slip lasts one deal.

>>> m = Mistakes(0.0, random.Random(1))
>>> m.happens("claim"), m.wrong_claim(8)
(False, 8)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cribstats.cards import Card, format_card, value
from cribstats.findings import (
    Finding,
    FindingKind,
    Phase,
    board_message,
    claim_message,
    false_go_message,
    heels_what,
    muggins_message,
    over_31_message,
    play_detail,
    play_what,
    result_score_message,
    result_winner_message,
    show_what,
)
from cribstats.pegging import PegScore
from cribstats.scoring import heels_points

# how often each kind of mistake comes, relative to the rate, per opportunity
WEIGHTS = {
    "claim": 1.0,  # a pegging, hand or crib claim that is wrong
    "heels": 1.0,  # his heels forgotten
    "false-go": 0.2,  # a go said while holding a card that fits (per turn with such a card, after the lead)
    "over-31": 0.5,  # a card laid past 31 (per turn holding a card that does not fit, while someone can play)
    "muggins-call": 0.3,  # a muggins call for too much (per claim, muggins games only)
    "board": 1.0,  # a wrong position on the board after a deal
    "result": 1.0,  # a wrong recorded result
}
SHORT_SHARE = 0.7  # of wrong claims, the share that are short
SHORT_BY = ((2, 0.6), (1, 0.15), (4, 0.15), (3, 0.1))  # most often a missed fifteen or pair
LONG_BY = ((2, 0.7), (1, 0.2), (4, 0.1))
SLIP_BY = (-2, -1, 1, 2, 5, 10)  # how far a peg is misplaced on the board


class Mistakes:
    """Decides, from its own random stream, whether and how a player errs at each opportunity."""

    def __init__(self, rate: float, rng: random.Random) -> None:
        self.rate = rate
        self.rng = rng

    def happens(self, kind: str) -> bool:
        """Whether a mistake of ``kind`` is made at this opportunity."""
        return self.rate > 0.0 and self.rng.random() < self.rate * WEIGHTS[kind]

    def _pick(self, table: Sequence[tuple[int, float]]) -> int:
        x = self.rng.random()
        for amount, share in table:
            x -= share
            if x < 0:
                return amount
        return table[-1][0]

    def wrong_claim(self, due: int) -> int:
        """The claim made for ``due`` points: ``due`` itself unless a mistake is made."""
        if not self.happens("claim") or (due == 0 and self.rng.random() < 0.75):
            return due  # points claimed for a card or hand that made nothing are rarer
        if due > 0 and self.rng.random() < SHORT_SHARE:
            return max(0, due - self._pick(SHORT_BY))
        return due + self._pick(LONG_BY)

    def extra_taken(self) -> int:
        """How many points too many a muggins call takes."""
        return self._pick(LONG_BY)

    def slip(self, position: int, carried: int = 0) -> int:
        """A wrong board position near ``position`` (never below 0), off by other than ``carried`` (a board
        off by the same as after the deal before is that one slip carried along, not a new one)."""
        choices = [position + d for d in SLIP_BY if position + d >= 0 and d != carried]
        return self.rng.choice(choices)


# --- the expected findings: worded by the shared builders of cribstats.findings --------------------------------


def finding(
    game: str, deal: int | None, event: int | None, kind: FindingKind, phase: Phase, player: str | None,
    claimed: int | None, due: int | None, message: str,
) -> dict[str, object]:
    """A finding as the audit prints it (``--json``)."""
    return Finding(game, deal, event, kind, phase, player, claimed, due, message).to_dict()


def texts(cards: Sequence[Card]) -> list[str]:
    return [format_card(c) for c in cards]


def peg_what(card: Card, peg: PegScore, go: int, last: int) -> str:
    """What a pegging claim was for: ``'5S (fifteen for 2)'``."""
    return play_what(format_card(card), play_detail(peg.fifteen, peg.thirty_one, peg.pairs, peg.run, go, last))


def hand_what(phase: str, cards: Sequence[Card], starter: Card) -> str:
    """``'the hand 5H 5C 5S JD with starter 4C'`` (or ``'the crib ...'``): the cards in hand order."""
    return show_what(phase, texts(cards), format_card(starter))


def claim_finding(
    game: str, deal: int, event: int | None, phase: Phase, player: str, claimed: int, due: int, what: str
) -> dict[str, object]:
    """``missed`` or ``overclaim`` for a claim that differs from the points due."""
    kind: FindingKind = "missed" if claimed < due else "overclaim"
    return finding(game, deal, event, kind, phase, player, claimed, due,
                   claim_message(player, phase, claimed, due, what))


def heels_finding(game: str, deal: int, dealer: str, claimed: int, starter: Card) -> dict[str, object]:
    return claim_finding(
        game, deal, None, "heels", dealer, claimed, heels_points(starter), heels_what(format_card(starter))
    )


def false_go_finding(game: str, deal: int, event: int, player: str, count: int, card: Card) -> dict[str, object]:
    """A go said at ``count`` holding ``card`` (the first held card that fits)."""
    message = false_go_message(player, count, format_card(card), count + value(card))
    return finding(game, deal, event, "false-go", "play", player, None, None, message)


def over_31_finding(game: str, deal: int, event: int, player: str, card: Card, count: int) -> dict[str, object]:
    """``card`` laid at ``count`` (before it), taking the count past 31."""
    message = over_31_message(player, format_card(card), count)
    return finding(game, deal, event, "over-31", "play", player, None, None, message)


def muggins_finding(
    game: str, deal: int, event: int | None, phase: Phase, caller: str, victim: str, taken: int, missed: int,
    what: str,
) -> dict[str, object]:
    message = muggins_message(caller, victim, taken, missed, what)
    return finding(game, deal, event, "muggins-call", phase, caller, taken, missed, message)


def board_finding(game: str, deal: int, player: str, recorded: int, due: int) -> dict[str, object]:
    message = board_message(player, deal, recorded, due)
    return finding(game, deal, None, "board", "deal", player, recorded, due, message)


def result_winner_finding(game: str, recorded: str, winner: str, target: int) -> dict[str, object]:
    """A wrong winner; ``winner`` is the first (in seat order) of the side that reached the target."""
    message = result_winner_message(recorded, winner, target)
    return finding(game, None, None, "result", "result", None, None, None, message)


def result_score_finding(game: str, player: str, recorded: int, due: int) -> dict[str, object]:
    message = result_score_message(player, recorded, due)
    return finding(game, None, None, "result", "result", player, recorded, due, message)
