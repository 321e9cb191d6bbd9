"""Claims and muggins: a claim judged against the points due, and the calls on what it missed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cribstats.findings import FindingKind, Phase, claim_message, muggins_message, muggins_off_message
from cribstats.replay.facts import PlayerDealFacts

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyCall
    from cribstats.replay.game import GameReplay

ANY_EVENT = -1  # a call on a ``pegged`` total: on any play event
NEVER = 10**9  # the place of a finding about no one event: after every event of its stage


class Claims:
    """The claims and muggins part of a deal's replay (mixed into :class:`~cribstats.replay.deal.DealReplay`)."""

    g: GameReplay
    calls: Sequence[AnyCall]
    facts: dict[str, PlayerDealFacts]
    missed_left: dict[tuple[str, str, int | None], int]

    def judge_claim(self, player: str, phase: Phase, claimed: int, due: int, what: Callable[[], str],
                    event: int | None = None) -> None:
        """A claim against the points due; ``what`` names the thing counted, built only for a finding."""
        if claimed != due:
            kind: FindingKind = "missed" if claimed < due else "overclaim"
            self.g.find(kind, phase, player, claim_message(player, phase, claimed, due, what()),
                        event=event, claimed=claimed, due=due)
        if self.calls and phase != "heels" and self.g.game.muggins_rule:
            self.missed_left[(player, phase, event)] = max(0, due - claimed)

    def calls_for(self, phase: str, event: int | None, victim: str | None = None) -> list[AnyCall]:
        """The muggins calls on one claim (``event`` ANY_EVENT: on any play event)."""
        return [
            c for c in self.calls
            if c.phase == phase and event in (ANY_EVENT, c.event) and (victim is None or c.from_ == victim)
        ]

    def take(self, call: AnyCall) -> None:
        """The board follows a muggins taking, right or wrong."""
        self.g.credit(self.g.side_of[call.by], call.points, 0)
        self.facts[call.by].muggins_gained += call.points
        self.facts[call.from_].muggins_lost += call.points

    def judge_calls(self, victim: str, phase: Phase, event: int | None, what: Callable[[], str]) -> None:
        """Judge the calls on one claim against what it missed (ANY_EVENT: calls on a ``pegged`` total)."""
        g = self.g
        pool = None if event == ANY_EVENT else event
        earlier = 0  # what the calls before took of what was missed
        for call in self.calls_for(phase, event, victim):
            if not g.game.muggins_rule:
                g.find("muggins-call", phase, call.by, muggins_off_message(call.by, victim, call.points),
                       event=call.event, claimed=call.points, due=0)
                continue
            left = self.missed_left.get((victim, phase, pool), 0)
            if call.points > left:
                message = muggins_message(call.by, victim, call.points, left, what(), taken_before=earlier)
                g.find("muggins-call", phase, call.by, message, event=call.event, claimed=call.points, due=left,
                       at=event if event != ANY_EVENT else NEVER)
            self.missed_left[(victim, phase, pool)] = max(0, left - call.points)
            earlier += min(call.points, left)

    def credit_calls(self, victim: str, phase: Phase, event: int | None) -> None:
        if not self.calls:
            return
        for call in self.calls_for(phase, event, victim):
            if self.g.over:
                self.g.after_end(phase, call.by, f"{call.by} called muggins", event=event)
            else:
                self.take(call)
