"""Simulated club play beyond single games: matches (a record with its games, played to the match rules, the
loser of each game dealing first in the next) and club nights (every player a game a round, with the players'
scorecards, docs/match.md).

Each game is played by the game simulator (:class:`~cribstats.simulate.game.GameRun`). The first dealer of a game
is the simulator's cut; where the match rules name the first dealer, the game is played again from the next seed
until the cut falls to that player, so the same seed still makes the same match.

>>> from cribstats.match.model import MatchRules
>>> record = simulate_match("final", "Alice", "Bob", MatchRules(), seed=3)
>>> record["format"], record["result"]["points"][record["result"]["winner"]]
('cribstats/match/1', 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from datetime import date as Date
from typing import Any

from cribstats.formats.scorecard import SCORECARD_COLUMNS, game_points_of
from cribstats.match.judge import MatchGame, judge_match
from cribstats.match.model import MatchRules
from cribstats.simulate import SimulatedGame, SimulationError, default_strength, simulate_games
from cribstats.simulate.game import GameRun, GameSetup
from cribstats.simulate.mistakes import Mistakes
from cribstats.simulate.players import Player
from cribstats.variants import DEFAULT_VARIANT, find_variant

MAX_CUTS = 64  # games played again for a first dealer the rules name (each has one chance in two)


def simulate_match(
    match_id: str,
    one: str,
    two: str,
    rules: MatchRules,
    *,
    seed: int = 0,
    meta: Mapping[str, str] | None = None,
    strengths: Mapping[str, float] | None = None,
    wrong_dealer_in: int | None = None,
) -> dict[str, Any]:
    """A match record (``cribstats/match/1``) with its games inline, played until the rules decide it.

    ``meta`` (event, date, site, round) goes on the record and its games. ``wrong_dealer_in`` makes the first
    dealer of that game (2 or later) the wrong player, a mistake the audit finds (``match-dealer``).
    """
    six = find_variant("six-card")
    players = [Player(name, (strengths or {}).get(name, default_strength(name))) for name in (one, two)]
    sides = ((one,), (two,))
    logs: list[dict[str, Any]] = []
    played: list[MatchGame] = []
    cut = random.Random(f"{seed}:{match_id}:cut")
    while True:
        number = len(logs) + 1
        wanted = _first_dealer(rules, played, (one, two), cut)
        if wanted is not None and number == wrong_dealer_in:
            wanted = two if wanted == one else one
        setup = GameSetup(game_id=f"{match_id}-g{number}", variant=six, players=players, target=six.target,
                          meta=dict(meta or {}))
        log = _game_dealt_by(setup, wanted, f"{seed}:{match_id}:{number}")
        logs.append(log)
        played.append(_match_game(number, log))
        outcome = judge_match(match_id, sides, rules, played)
        if outcome.winner_side is not None:
            break
    record: dict[str, Any] = {"format": "cribstats/match/1", "id": match_id, **(meta or {}), "players": [one, two],
                              "rules": rules.model_dump(mode="json"), "games": logs,
                              "result": {"winner": sides[outcome.winner_side][0],
                                         "points": {one: outcome.points[0], two: outcome.points[1]}}}
    return record


def simulate_matches(
    n: int,
    players: Sequence[str],
    rules: MatchRules,
    *,
    seed: int = 0,
    event: str | None = None,
    date: Date | None = None,
    site: str | None = None,
) -> Iterator[dict[str, Any]]:
    """``n`` match records between pairs drawn from ``players`` at random, numbered ``round`` 1, 2, ..."""
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("a match needs two distinct players")
    draw = random.Random(f"{seed}:pairs")
    for i in range(n):
        one, two = draw.sample(list(players), 2)
        meta = {k: v for k, v in (("event", event), ("date", date.isoformat() if date else None), ("site", site),
                                  ("round", str(i + 1))) if v is not None}
        yield simulate_match(f"match-s{seed}-{i + 1:04d}", one, two, rules, seed=seed, meta=meta)


def simulate_nights(
    nights: int,
    players: Sequence[str],
    *,
    games_each: int = 9,
    seed: int = 0,
    event: str = "Club Night",
    start_date: Date | str = "2026-01-06",
    site: str | None = None,
) -> Iterator[SimulatedGame]:
    """Club nights, one a week: every player plays one six-card game a round, ``games_each`` rounds a night."""
    if len(players) < 2 or len(players) % 2:
        raise ValueError(f"a club night of two-player games needs an even number of players, not {len(players)}")
    per_night = games_each * (len(players) // 2)
    yield from simulate_games(nights * per_night, players=players, seed=seed, events=[event],
                              start_date=start_date, games_per_night=per_night, site=site)


def scorecard_rows(logs: Sequence[Mapping[str, Any]], *, disagree: Sequence[int] = ()) -> list[list[str]]:
    """The scorecard sheet of these games, two cards a game (winner's first): game points 2 for a win, 3 for a
    skunk win, 0 for a loss; the spread, the target less the loser's score, plus for the winner and minus for the
    loser. In each game of index in ``disagree`` the loser writes the spread 2 short, so the cards disagree."""
    rows = [list(SCORECARD_COLUMNS)]
    for index, log in enumerate(logs):
        variant = find_variant(log.get("variant", DEFAULT_VARIANT.name))
        target = log.get("target", variant.target)
        winner = log["result"]["winner"]
        [loser] = [p for p in log["players"] if p != winner]
        spread = target - log["result"]["scores"][loser]
        points = game_points_of(spread, variant, target)
        where = [log.get("date", ""), log.get("event", ""), log.get("round", "")]
        loser_spread = -spread + (2 if index in disagree else 0)
        rows.append([*where, winner, loser, str(points), f"+{spread}"])
        rows.append([*where, loser, winner, "0", str(loser_spread)])
    return rows


def _first_dealer(
    rules: MatchRules, played: Sequence[MatchGame], names: tuple[str, str], cut: random.Random
) -> str | None:
    """Who the rules name to deal first in the next game (None: the cut decides)."""
    if not played or rules.first_dealer == "cut":
        return None
    last = played[-1]
    if rules.first_dealer == "loser":
        return next((n for n in names if n not in last.winners), None) if last.winners else None
    return next(n for n in names if n != last.first_dealer)


def _game_dealt_by(setup: GameSetup, dealer: str | None, seed: str) -> dict[str, Any]:
    for attempt in range(MAX_CUTS):
        log, _findings = GameRun(setup, random.Random(f"{seed}:{attempt}"),
                                 Mistakes(0.0, random.Random(0))).play()
        if dealer is None or log["deals"][0]["dealer"] == dealer:
            return log
    raise SimulationError(f"game {setup.game_id}: the cut never fell to {dealer} in {MAX_CUTS} games")


def _match_game(number: int, log: Mapping[str, Any]) -> MatchGame:
    variant = find_variant(log.get("variant", DEFAULT_VARIANT.name))
    winner = log["result"]["winner"]
    losers = [score for name, score in log["result"]["scores"].items() if name != winner]
    level = variant.skunk_level(min(losers), log.get("target", variant.target))
    return MatchGame(number, log["id"], tuple(log["players"]), variant.name, (winner,), level,
                     log["deals"][0]["dealer"])
