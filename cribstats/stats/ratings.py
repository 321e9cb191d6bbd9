"""Player ratings: openskill's Plackett-Luce model, updated game by game in date order.

Every decided game is one update: its sides are the teams (four-player: the two partnerships; three-player:
three sides of one), ranked the winner first and the others by their final score (higher is better; equal
scores tie). Games are taken in date order, a day's games by round then game key, and undated games after every
dated one (:func:`cribstats.stats.results.load_game_order`). Every player starts at openskill's default
(mu 25, sigma 25/3). The **rating** shown is openskill's ordinal, ``mu - 3 * sigma``: a rating the player is
very likely to be at least as good as, so that a newcomer is not ranked above a regular on one lucky night.

Ratings are worked out on the fly from the stored results, so they always follow the games stored, in whatever
order they were imported.

>>> import polars as pl
>>> from datetime import date
>>> seats = pl.DataFrame({"game_id": [1, 1], "date": [date(2026, 1, 6)] * 2, "player_id": [1, 2],
...                       "team": [0, 1], "won": [True, False], "score": [121, 100]})
>>> ratings = rate_games(seats)
>>> ratings.final[1].mu > 25 > ratings.final[2].mu
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date as Date

import polars as pl
from openskill.models import PlackettLuce, PlackettLuceRating

RATING_COLUMNS: tuple[str, ...] = ("rank", "player", "rating", "mu", "sigma", "games", "last_game")
HISTORY_COLUMNS: tuple[str, ...] = ("player", "game", "date", "rating", "mu", "sigma")


def model() -> PlackettLuce:
    """The rating model (openskill's defaults: mu 25, sigma 25/3)."""
    return PlackettLuce()


def game_ranks(teams: list[tuple[int, bool, int | None]]) -> list[int]:
    """Ranks (0 best) of a game's sides, given each side's (team, won, final score): the winner first, the others
    by score, higher first; sides with equal scores share a rank, and an unknown score comes last.

    >>> game_ranks([(0, False, 100), (1, True, 121), (2, False, 100)])
    [1, 0, 1]
    """
    keys = [(0 if won else 1, -(score if score is not None else -1)) for _, won, score in teams]
    ordered = sorted(set(keys))
    return [ordered.index(k) for k in keys]


@dataclass(slots=True)
class Ratings:
    """Ratings after every game: ``final`` by player id; ``games`` rated per player; ``history`` (when asked
    for) one row per player and game: player id, game number (1-based, in rating order), date, mu, sigma."""

    final: dict[int, PlackettLuceRating] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    last: dict[int, Date | None] = field(default_factory=dict)
    history: list[tuple[int, int, Date | None, float, float]] = field(default_factory=list)


def rate_games(seats: pl.DataFrame, *, history: bool = False) -> Ratings:
    """Rate the games of ``seats`` (rows of :data:`cribstats.stats.results.ORDER_SCHEMA`, in rating order)."""
    rater = model()
    out = Ratings()
    final, games, last = out.final, out.games, out.last
    game_no = 0
    rows = seats.select("game_id", "date", "player_id", "team", "won", "score").iter_rows()
    current: int | None = None
    sides: dict[int, list[int]] = {}
    side_facts: dict[int, tuple[bool, int | None]] = {}
    day: Date | None = None

    def update() -> None:
        nonlocal game_no
        if len(sides) < 2:
            return
        order = list(sides)
        ranks = game_ranks([(team, *side_facts[team]) for team in order])
        teams = [[final.get(p) or rater.rating() for p in sides[team]] for team in order]
        rated = rater.rate(teams, ranks=ranks)
        game_no += 1
        for team, new in zip(order, rated, strict=True):
            for p, rating in zip(sides[team], new, strict=True):
                final[p] = rating
                games[p] = games.get(p, 0) + 1
                last[p] = day
                if history:
                    out.history.append((p, game_no, day, rating.mu, rating.sigma))

    for game_id, when, player_id, team, won, score in rows:
        if game_id != current:
            update()
            current, day, sides, side_facts = game_id, when, {}, {}
        sides.setdefault(team, []).append(player_id)
        side_facts.setdefault(team, (bool(won), score))
    update()
    return out


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


def rating_history(ratings: Ratings, names: pl.DataFrame) -> pl.DataFrame:
    """The ratings as they stood after each game, with :data:`HISTORY_COLUMNS` (needs ``history=True``)."""
    schema = {"player_id": pl.Int64, "game": pl.Int64, "date": pl.Date, "mu": pl.Float64, "sigma": pl.Float64}
    frame = pl.DataFrame(ratings.history, schema=schema, orient="row")
    return (
        frame.join(names, on="player_id")
        .with_columns((pl.col("mu") - 3 * pl.col("sigma")).alias("rating"))
        .sort("game", "name_key")
        .select(HISTORY_COLUMNS)
    )
