"""A game's result: who won it as replayed, as recorded when it cannot be replayed, and the record judged.

The winners of a giveaway game are every side but the one that reached the target (docs/rules.md); a result-only
record (no deals) is judged against itself, a replayed game's record against the replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cribstats.findings import (
    giveaway_winner_message,
    partner_score_message,
    result_reached_twice_message,
    result_score_message,
    result_winner_message,
)

if TYPE_CHECKING:
    from cribstats.replay.game import GameReplay


def giveaway_winners(sides_of: Sequence[Sequence[str]], reached: int | None) -> tuple[str, ...]:
    """Giveaway (docs/rules.md): the side that reached the target loses; every other side wins."""
    if reached is None:
        return ()
    return tuple(p for side, players in enumerate(sides_of) if side != reached for p in players)


def judge_record(g: GameReplay) -> None:
    """A result-only record (no deals to replay) judged against itself, once every side has a score: no more
    than one side at the target (the game ends the moment one reaches it), the winner a side at the target (in
    a giveaway game a side not at it, another side being there); partners at one score, that of their side's
    first seat. The result stands as recorded either way."""
    recorded = g.game.result
    if recorded is None or not recorded.scores:
        return
    scores = recorded.scores
    first_of_side: dict[int, str] = {}  # each side's first seat with a score: its score is the side's
    for name, side in g.player_sides:
        if name in scores:
            first_of_side.setdefault(side, name)
    winner, target = recorded.winner, g.target
    every_side = len(first_of_side) == g.sides
    reached = [first for first in first_of_side.values() if scores[first] >= target]
    if every_side and len(reached) > 1:  # the game ends on the first side to reach the target: one side can
        g.find("result", "result", None, result_reached_twice_message(
            [(first, scores[first]) for first in reached], target))
    elif winner is not None and every_side:
        winner_first = first_of_side[g.side(winner)]
        if not g.game.giveaway_rule:
            if winner_first not in reached:
                g.find("result", "result", None,
                       result_winner_message(winner, reached[0] if reached else None, target))
        elif winner_first in reached:  # the side at the target loses a giveaway game
            g.find("result", "result", None, giveaway_winner_message(winner, winner_first, target))
        elif not reached:
            g.find("result", "result", None, result_winner_message(winner, None, target))
    for name, side in g.player_sides:
        first = first_of_side.get(side)
        if first is not None and name != first and name in scores and scores[name] != scores[first]:
            message = partner_score_message(name, scores[name], first, scores[first])
            g.find("result", "result", name, message, claimed=scores[name], due=scores[first])


def judge_result(g: GameReplay, scores: dict[str, int], winners: tuple[str, ...]) -> None:
    recorded = g.game.result
    if recorded is None:
        return
    winner, recorded_scores = recorded.winner, recorded.scores
    if (winner is None or winner in winners) and (not recorded_scores or recorded_scores == scores):
        return  # the common case: the result as replayed
    if recorded.winner is not None and recorded.winner not in winners:
        replayed = winners[0] if winners else None
        if g.game.giveaway_rule and g.winner_side is not None:
            reached = next(p for p, side in g.player_sides if side == g.winner_side)
            message = giveaway_winner_message(recorded.winner, reached, g.target)
        else:
            message = result_winner_message(recorded.winner, replayed, g.target)
        g.find("result", "result", None, message)
    for player in g.players:
        if recorded.scores and player in recorded.scores and recorded.scores[player] != scores[player]:
            g.find(
                "result", "result", player,
                result_score_message(player, recorded.scores[player], scores[player]),
                claimed=recorded.scores[player], due=scores[player],
            )


def recorded_winners(g: GameReplay) -> tuple[str, ...]:
    """The winners of a game that is not replayed, as its result records them: the recorded winner's side. In a
    giveaway game whose recorded scores put one side at the target, every other side (of three players, two win),
    unless the record names that side the winner (the record contradicts itself, :func:`judge_record` says so, and
    it stands as recorded)."""
    recorded, sides_of = g.game.result, g.sides_of
    named = tuple(sides_of[g.side(recorded.winner)]) if recorded and recorded.winner else ()
    if not (g.game.giveaway_rule and recorded and recorded.scores):
        return named
    at_target = {g.side(name) for name, score in recorded.scores.items() if score >= g.target}
    if len(at_target) != 1:
        return named
    (reached,) = at_target
    if recorded.winner is not None and g.side(recorded.winner) == reached:
        return named
    return giveaway_winners(sides_of, reached)
