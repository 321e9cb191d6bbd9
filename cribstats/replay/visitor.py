"""The replay's visitor: told every event, finding, deal and game in game order."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cribstats.findings import Finding
    from cribstats.gamelog.fast import AnyDeal, AnyGame
    from cribstats.replay.facts import DealFacts, GameOutcome, PlayFact, ShowFact


class ReplayVisitor:
    """Told what the replay finds, in game order. Override what you need; :meth:`result` returns your value."""

    def begin_game(self, game: AnyGame, key: str) -> None: ...

    def begin_deal(self, number: int, deal: AnyDeal) -> None: ...

    def visit_play(self, fact: PlayFact) -> None: ...

    def visit_show(self, fact: ShowFact) -> None: ...

    def visit_finding(self, finding: Finding) -> None: ...

    def end_deal(self, facts: DealFacts) -> None: ...

    def end_game(self, outcome: GameOutcome) -> None: ...

    def result(self) -> object:
        return None


def overrides(visitor: ReplayVisitor, method: str) -> bool:
    """Whether ``visitor`` does anything on ``method`` (the base class does nothing)."""
    bound = getattr(visitor, method, None)
    return bound is None or getattr(bound, "__func__", None) is not getattr(ReplayVisitor, method)
