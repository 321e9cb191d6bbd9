"""The replay: a state machine over each deal that knows what is legal, what is due and what was claimed.

``replay(game)`` walks a :class:`~cribstats.gamelog.GameLog` once and returns a :class:`GameOutcome` with the
facts of every deal (points due and claimed per player, every play and show) and every finding. A
:class:`ReplayVisitor` passed in is told the same things in game order, so the audit, the store and the terminal
view share one walk.

The modules: :mod:`~cribstats.replay.facts` (what is found), :mod:`~cribstats.replay.visitor` (who is told),
:mod:`~cribstats.replay.game` (the boards and the end), :mod:`~cribstats.replay.clean` (the short way, as far as
a deal is clean, handing it over to the full replay where it stops), :mod:`~cribstats.replay.deal` (deal checks,
heels, show, board), :mod:`~cribstats.replay.play` (the play) and :mod:`~cribstats.replay.claims` (claims and
muggins).
"""

from __future__ import annotations

from cribstats.replay.claims import ANY_EVENT
from cribstats.replay.facts import DealFacts, GameOutcome, PlayerDealFacts, PlayFact, Role, ShowFact
from cribstats.replay.game import replay
from cribstats.replay.visitor import ReplayVisitor
from cribstats.scoring import HEELS

__all__ = [
    "ANY_EVENT",
    "HEELS",
    "DealFacts",
    "GameOutcome",
    "PlayFact",
    "PlayerDealFacts",
    "ReplayVisitor",
    "Role",
    "ShowFact",
    "replay",
]
