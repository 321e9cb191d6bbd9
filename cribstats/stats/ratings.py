"""Player ratings: openskill's Plackett-Luce model, updated game by game in date order.

Every decided game is one update: its sides are the teams (four-player: the two partnerships; three-player:
three sides of one), ranked the winner first and the others by their final score (higher is better; equal
scores tie); the two winners of a three-player giveaway game share the first rank. Games are taken in play
order, the one order of a night's games (:func:`cribstats.store.queries.play_order`: date, undated games after
every dated one; round; the sheet's file and place; the order stored). Every player starts at openskill's default
(mu 25, sigma 25/3). The **rating** shown is openskill's ordinal, ``mu - 3 * sigma``: a rating the player is
very likely to be at least as good as, so that a newcomer is not ranked above a regular on one lucky night.

Ratings are worked out on the fly from the stored results, so they always follow the games stored, in whatever
order they were imported. :func:`plackett_luce` is openskill's Plackett-Luce update written out on plain floats
(Weng and Lin 2011, algorithm 4, with openskill's defaults read from its model: beta, tau, kappa), because
100,000 games through ``PlackettLuce.rate`` take seconds; the tests hold the two to the same figures.

>>> ratings = rate_games([("2026-01-06", [(1, 1, 0, 1, 121), (1, 2, 1, 0, 100)])])
>>> ratings.final[1].mu > 25 > ratings.final[2].mu
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any, NamedTuple

import polars as pl
from openskill.models import PlackettLuce

RATING_COLUMNS: tuple[str, ...] = ("rank", "player", "rating", "mu", "sigma", "games", "last_game")
HISTORY_COLUMNS: tuple[str, ...] = ("player", "rated", "id", "game", "date", "rating", "mu", "sigma")


MODEL = PlackettLuce()
"""The rating model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001)."""


class Rating(NamedTuple):
    mu: float
    sigma: float


def plackett_luce(teams: Sequence[Sequence[Rating]], ranks: Sequence[int], model: PlackettLuce = MODEL
                  ) -> list[list[Rating]]:  # fmt: skip
    """The ratings after one game, as openskill's ``model.rate(teams, ranks=ranks)`` gives them (its default
    options: no margin, no weights, no sigma limit); ranks 0 best, ties equal.

    >>> [[round(r.mu, 4) for r in team] for team in plackett_luce([[Rating(25, 25 / 3)]] * 2, [0, 1])]
    [[27.6354], [22.3646]]
    """
    tau2, beta2 = model.tau**2, model.beta**2
    moved = [[(r.mu, math.sqrt(r.sigma * r.sigma + tau2)) for r in team] for team in teams]
    team_mu = [sum(mu for mu, _ in team) for team in moved]
    team_s2 = [sum(s * s for _, s in team) for team in moved]
    c = math.sqrt(sum(s2 + beta2 for s2 in team_s2))
    strength = [math.exp(mu / c) for mu in team_mu]
    n = len(moved)
    sum_q = [sum(strength[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    tied = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                share = strength[i] / sum_q[q]
                delta += share * (1 - share) / tied[q]
                omega += ((1 - share) if q == i else -share) / tied[q]
        s2 = team_s2[i]
        omega *= s2 / c
        delta *= s2 / c**2 * (math.sqrt(s2) / c)  # openskill's default gamma: the team's sigma over c
        out.append([Rating(mu + s * s / s2 * omega, s * math.sqrt(max(1 - s * s / s2 * delta, model.kappa)))
                    for mu, s in moved[i]])  # fmt: skip
    return out


def game_ranks(teams: list[tuple[int, bool, int | None]]) -> list[int]:
    """Ranks (0 best) of a game's sides, given each side's (team, won, final score): the winner first, the others
    by score, higher first; sides with equal scores share a rank, and an unknown score comes last. Sides that
    all won share the first rank (a three-player giveaway game has two winners, and a lower score is the better
    one there: the rules rank them no further).

    >>> game_ranks([(0, False, 100), (1, True, 121), (2, False, 100)])
    [1, 0, 1]
    >>> game_ranks([(0, False, 121), (1, True, 70), (2, True, 100)])
    [1, 0, 0]
    """
    keys = [(0, 0) if won else (1, -(score if score is not None else -1)) for _, won, score in teams]
    ordered = sorted(set(keys))
    return [ordered.index(k) for k in keys]


@dataclass(slots=True)
class Ratings:
    """Ratings after every game: ``final`` by player id; ``games`` rated per player; ``history`` (when asked
    for) one row per player and game: player id, the game's place in the order rated (1 the first), the game's
    id in the store, date, mu, sigma."""

    final: dict[int, Rating] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    last: dict[int, Date | None] = field(default_factory=dict)
    history: list[tuple[int, int, int, Date | None, float, float]] = field(default_factory=list)


def two_sides(winners: Sequence[Rating], losers: Sequence[Rating], model: PlackettLuce = MODEL
              ) -> tuple[list[Rating], list[Rating]]:  # fmt: skip
    """:func:`plackett_luce` for a game of two sides, ranked ``[0, 1]`` (one on one, or partners), worked out in
    closed form (the sums of the general update have one or two terms): the common game, taken on a fast path.

    >>> (w,), (l,) = two_sides([Rating(25, 25 / 3)], [Rating(25, 25 / 3)])
    >>> [round(w.mu, 4), round(l.mu, 4)] == [round(r[0].mu, 4) for r in plackett_luce([[Rating(25, 25 / 3)]] * 2,
    ...                                                                               [0, 1])]
    True
    """
    tau2, kappa = model.tau**2, model.kappa
    won = [(r.mu, r.sigma * r.sigma + tau2) for r in winners]
    lost = [(r.mu, r.sigma * r.sigma + tau2) for r in losers]
    s2w, s2l = sum(v for _, v in won), sum(v for _, v in lost)
    c2 = s2w + s2l + 2 * model.beta**2
    c = math.sqrt(c2)
    p = 1 / (1 + math.exp((sum(mu for mu, _ in lost) - sum(mu for mu, _ in won)) / c))  # the winners' share
    spread = p * (1 - p) / (c2 * c)

    def moved(side: list[tuple[float, float]], s2: float, omega: float) -> list[Rating]:
        delta = spread * s2 * math.sqrt(s2)
        return [Rating(mu + v / s2 * omega, math.sqrt(v) * math.sqrt(max(1 - v / s2 * delta, kappa)))
                for mu, v in side]  # fmt: skip

    return moved(won, s2w, s2w / c * (1 - p)), moved(lost, s2l, -s2l / c * (1 - p))


def rate_games(played: Iterable[tuple[Any, Sequence[Sequence[Any]]]], *, history: bool = False) -> Ratings:
    """Rate the games of ``played``, in order: each a date (or its ISO text, or None) and its seats, each seat
    (game id, player id, team, won, final score) in seat order
    (:func:`cribstats.stats.results.load_game_order`); a game no side won is skipped."""
    out = Ratings()
    final, games, last = out.final, out.games, out.last
    start = Rating(MODEL.mu, MODEL.sigma)
    game_no = 0
    days: dict[object, Date | None] = {None: None}

    def record(players: Sequence[int], new: Sequence[Rating], when: object, game_id: int) -> None:
        day = days[when] if when in days else days.setdefault(when, _day(when))
        for p, rating in zip(players, new, strict=True):
            final[p] = rating
            games[p] = games.get(p, 0) + 1
            last[p] = day
            if history:
                out.history.append((p, game_no, game_id, day, rating.mu, rating.sigma))

    for when, rows in played:
        game_id = rows[0][0]
        if len(rows) == 2 and rows[0][2] != rows[1][2] and rows[0][3] != rows[1][3]:  # one on one, decided
            (_, a, _, a_won, _), (_, b, _, _, _) = rows
            w, lose = (a, b) if a_won else (b, a)
            game_no += 1
            ([winner], [loser]) = two_sides([final.get(w, start)], [final.get(lose, start)])
            record((w, lose), (winner, loser), when, game_id)
            continue
        sides: dict[int, list[int]] = {}
        facts: dict[int, tuple[bool, int | None]] = {}
        for _, player, team, won, score in rows:
            sides.setdefault(team, []).append(player)
            facts.setdefault(team, (bool(won), score))
        if len(sides) < 2 or not any(won for won, _ in facts.values()):
            continue
        if len(sides) == 2:  # partners: the fast path too
            (one, two) = sides
            w, lose = (one, two) if facts[one][0] else (two, one)
            game_no += 1
            winners, losers = two_sides([final.get(p, start) for p in sides[w]],
                                        [final.get(p, start) for p in sides[lose]])  # fmt: skip
            record(sides[w], winners, when, game_id)
            record(sides[lose], losers, when, game_id)
            continue
        order = list(sides)
        ranks = game_ranks([(team, *facts[team]) for team in order])
        rated = plackett_luce([[final.get(p, start) for p in sides[team]] for team in order], ranks)
        game_no += 1
        for team, new in zip(order, rated, strict=True):
            record(sides[team], new, when, game_id)
    return out


def _day(when: object) -> Date | None:
    """A game's date from a row: a date, its ISO text (as the game order query reads it), or None."""
    if when is None or isinstance(when, Date):
        return when
    return Date.fromisoformat(str(when)[:10])


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: ``mu - 3 * sigma``."""
    return mu - 3 * sigma


def rating_table(ratings: Ratings, names: pl.DataFrame) -> pl.DataFrame:
    """One row per rated player, best first, with :data:`RATING_COLUMNS` (``names``: player_id, player,
    name_key)."""
    rows = [(p, ordinal(r.mu, r.sigma), r.mu, r.sigma, ratings.games[p], ratings.last[p])
            for p, r in ratings.final.items()]  # fmt: skip
    schema = {"player_id": pl.Int64, "rating": pl.Float64, "mu": pl.Float64, "sigma": pl.Float64,
              "games": pl.Int64, "last_game": pl.Date}  # fmt: skip
    table = pl.DataFrame(rows, schema=schema, orient="row").join(names, on="player_id")
    table = table.sort(["rating", "name_key"], descending=[True, False])
    return table.with_columns(pl.int_range(1, table.height + 1, dtype=pl.Int64).alias("rank")).select(
        RATING_COLUMNS
    )


def rating_history(ratings: Ratings, names: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """The ratings as they stood after each game, with :data:`HISTORY_COLUMNS` (needs ``history=True``), in the
    order rated; ``keys``: the games' ``id`` and key (``game``), as :func:`cribstats.stats.results.load_game_keys`
    reads them."""
    schema = {"player_id": pl.Int64, "rated": pl.Int64, "id": pl.Int64, "date": pl.Date, "mu": pl.Float64,
              "sigma": pl.Float64}  # fmt: skip
    frame = pl.DataFrame(ratings.history, schema=schema, orient="row")
    return (
        frame.join(names, on="player_id")
        .join(keys, on="id", how="left")
        .with_columns((pl.col("mu") - 3 * pl.col("sigma")).alias("rating"))
        .sort("rated", "name_key")
        .select(HISTORY_COLUMNS)
    )
