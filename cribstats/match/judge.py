"""A match worked out from its games (docs/match.md): who won each game, the match points it gave under the
rules, when the match ended, who should deal first in each next game, and the findings.

The games come as :class:`MatchGame` values (what the replay of each game says), so the same judgment serves the
audit of files and the store. A game of a match counts as the table had it: the side that reached the target on
the claims (or the recorded winner of a result-only game) won it, at the skunk level of the claimed scores.

>>> from cribstats.match.model import MatchRules
>>> games = [MatchGame(1, "g1", ("Alice", "Bob"), "six-card", ("Alice",), 1, "Alice"),
...          MatchGame(2, "g2", ("Alice", "Bob"), "six-card", ("Alice",), 0, "Bob")]
>>> outcome = judge_match("m", (("Alice",), ("Bob",)), MatchRules(first_to=3, count="points"), games)
>>> outcome.points, outcome.winner_side, outcome.ended_after_game, outcome.findings
([3, 0], 0, 2, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from cribstats.findings import Finding, FindingKind
from cribstats.match.game import MatchGame
from cribstats.match.model import MatchResult, MatchRules, Sides, side_of
from cribstats.names import name_key

__all__ = ["GameInMatch", "MatchGame", "MatchOutcome", "in_sides_spelling", "judge_match", "side_of"]


@dataclass(slots=True)
class GameInMatch:
    """One game's part in the match: the side that won it (None: nobody), the match points it gave that side,
    and whether it counted (false for a game begun after the match was decided)."""

    number: int
    key: str
    winner_side: int | None
    match_points: int
    counted: bool


@dataclass(slots=True)
class MatchOutcome:
    """The match as its games give it: each side's match points, the winning side (None while unfinished), the
    game that decided it, every game's part, and the findings."""

    match: str
    points: list[int]
    winner_side: int | None
    ended_after_game: int | None
    games: list[GameInMatch] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def in_sides_spelling(sides: Sides, game: MatchGame) -> MatchGame:
    """The game with each name of a player of the sides as the sides spell it (names are one player by their key),
    so that findings use the record's spelling; other names as they are."""
    spelling = {name_key(n): n for side in sides for n in side}

    def shown(name: str) -> str:
        return spelling.get(name_key(name), name)

    dealer = None if game.first_dealer is None else shown(game.first_dealer)
    return replace(game, players=tuple(map(shown, game.players)), winners=tuple(map(shown, game.winners)),
                   first_dealer=dealer)


def judge_match(
    match: str, sides: Sides, rules: MatchRules, games: Sequence[MatchGame], result: MatchResult | None = None
) -> MatchOutcome:
    """The match from its games in order (already checked to be games of these sides), and its findings."""
    outcome = MatchOutcome(match, [0, 0], None, None)
    decided = False
    previous: MatchGame | None = None
    previous_side: int | None = None
    for game in (in_sides_spelling(sides, g) for g in games):
        if decided:
            outcome.games.append(GameInMatch(game.number, game.key, _winner_side(sides, game), 0, False))
            outcome.findings.append(_finding(match, game.key, "match-after-end", None, None, None,
                                             f"game {game.number} was begun after the match was decided in game "
                                             f"{outcome.ended_after_game}: it counts for no one in the match"))
            continue
        if previous is not None:
            dealer = _dealer_finding(match, sides, rules, previous, previous_side, game)
            if dealer is not None:
                outcome.findings.append(dealer)
        won = _winner_side(sides, game)
        points = 0
        if won is not None:
            points = rules.points_for(game.skunk_level)
            outcome.points[won] += points
            triple = rules.triple_skunk_wins and game.skunk_level >= 3
            if triple or outcome.points[won] >= rules.first_to:
                decided = True
                outcome.winner_side = won
                outcome.ended_after_game = game.number
        outcome.games.append(GameInMatch(game.number, game.key, won, points, True))
        previous, previous_side = game, won
    if result is not None:
        outcome.findings.extend(_result_findings(match, sides, result, outcome))
    return outcome


def _winner_side(sides: Sides, game: MatchGame) -> int | None:
    return side_of(sides, game.winners[0]) if game.winners else None


def _dealer_finding(
    match: str, sides: Sides, rules: MatchRules, previous: MatchGame, previous_won: int | None, game: MatchGame
) -> Finding | None:
    """``match-dealer`` when the first dealer of ``game`` is not the one the rules name after ``previous``."""
    listed = game.first_dealer
    if listed is None or rules.first_dealer == "cut":
        return None
    listed_side = side_of(sides, listed)
    if rules.first_dealer == "loser":
        if previous_won is None:
            return None  # an unfinished game has no loser to deal
        due_side = 1 - previous_won
        why = f"the loser of game {previous.number}"
    else:
        if previous.first_dealer is None:
            return None
        before = side_of(sides, previous.first_dealer)
        if before is None:
            return None
        due_side = 1 - before
        why = f"the other side from game {previous.number}'s first dealer, {previous.first_dealer}"
    if listed_side == due_side:
        return None
    due = " or ".join(sides[due_side])
    return _finding(match, game.key, "match-dealer", listed, None, None,
                    f"{listed} dealt first in game {game.number}, but the first deal was {due}'s, {why}")


def _result_findings(match: str, sides: Sides, result: MatchResult, outcome: MatchOutcome) -> list[Finding]:
    found = []
    if result.winner is not None:
        recorded = side_of(sides, result.winner)
        if outcome.winner_side is None:
            found.append(_finding(match, None, "match-result", None, None, None,
                                  f"the record gives {result.winner} the match, but the games leave it unfinished "
                                  f"at {outcome.points[0]}-{outcome.points[1]}"))
        elif recorded != outcome.winner_side:
            won = outcome.winner_side
            winner, score = sides[won][0], f"{outcome.points[won]}-{outcome.points[1 - won]}"
            found.append(_finding(match, None, "match-result", None, None, None,
                                  f"the record gives {result.winner} the match, but the games give it to "
                                  f"{winner}, {score}"))
    for name, recorded_points in (result.points or {}).items():
        side = side_of(sides, name)
        if side is None:
            continue
        due = outcome.points[side]
        if recorded_points != due:
            first = sides[side][0]
            found.append(_finding(match, None, "match-result", first, recorded_points, due,
                                  f"the record gives {first}'s side {recorded_points} match points, but the games "
                                  f"give {due}"))
    return found


def _finding(
    match: str, game: str | None, kind: FindingKind, player: str | None, claimed: int | None, due: int | None,
    message: str,
) -> Finding:
    return Finding(game, None, None, kind, "match", player, claimed, due, message, match)
