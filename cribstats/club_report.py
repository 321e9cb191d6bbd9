"""The club sections of the report: the latest night, the season standings, the latest matches, the head-to-head
matrix and the ratings with their chart (``templates/report_club.html.j2``, included by the report's page).

The club tables are those of the whole club in the report's games: a player filter picks whose cards the
report shows, not who is in the club's tables (so every rank stays the true one).

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> club_context(engine)["night"] is None
True
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import polars as pl
from sqlalchemy.engine import Engine

from cribstats.charts import figure_bytes
from cribstats.club_charts import draw_ratings, rating_plotted
from cribstats.stats.club import stored_matches
from cribstats.stats.frames import StatsFilter
from cribstats.stats.head_to_head import head_to_head, matrix, most_met
from cribstats.stats.matches import matches_frame
from cribstats.stats.night import latest_night, load_night
from cribstats.stats.ratings import rate_games, rating_history, rating_table
from cribstats.stats.results import (
    load_game_keys,
    load_game_order,
    load_night_totals,
    load_pair_totals,
    load_player_names,
)
from cribstats.stats.season import season_standings

MATRIX_PLAYERS = 24
"""Players in the head-to-head matrix at most (those with the most games between them, the report's player among
them): the matrix of a large club would be its square; ``cribstats head-to-head`` lists every pair."""

HEADINGS: dict[str, str] = {
    "place": "Place", "rank": "Rank", "player": "Player", "games": "Games", "wins": "Won", "losses": "Lost",
    "game_points": "Game points", "spread": "Spread", "card": "Card", "skunks_given": "Skunks given",
    "skunks_taken": "Skunks taken", "grand_slam": "Grand Slam", "nights": "Nights", "average": "Average",
    "nights_12_plus": "Nights of 12+", "win_rate": "Win rate", "rating_points": "Rating points",
    "dropped": "Nights dropped", "rating": "Rating", "mu": "mu", "sigma": "sigma", "last_game": "Last game",
    "game_key": "Game", "round": "Round", "deal": "Deal", "what": "Hand or crib", "cards": "Cards",
    "starter": "Starter", "points": "Points", "special": "Side pot", "four_of_a_kind": "Four of a kind",
    "date": "Date", "event": "Event", "side1": "Side 1", "score": "Score", "side2": "Side 2", "winner": "Winner",
    "rules": "Rules", "finding_kinds": "Findings", "claimed": "Claimed", "due": "Due",
    "message": "What the cards say",
}  # fmt: skip
NIGHT_COLUMNS = ("place", "player", "card", "games", "wins", "game_points", "spread", "grand_slam")
CARD_COLUMNS = ("player", "claimed", "due", "message")  # a night's scorecards that disagree
HAND_COLUMNS = ("player", "round", "deal", "what", "cards", "starter", "points", "special", "four_of_a_kind")
SEASON_COLUMNS = ("rank", "player", "nights", "game_points", "average", "nights_12_plus", "win_rate", "spread",
                  "skunks_given", "skunks_taken", "rating_points")  # fmt: skip
RATING_COLUMNS = ("rank", "player", "rating", "mu", "sigma", "games", "last_game")
MATCH_COLUMNS = ("date", "event", "round", "side1", "score", "side2", "winner", "rules", "finding_kinds")
LATEST_MATCHES = 30
#: the columns of words (names, cards, events), set flush left as text is; numbers stand flush right
WORD_COLUMNS = frozenset(("player", "what", "cards", "starter", "special", "event", "side1", "side2", "winner",
                          "rules", "finding_kinds", "game_key", "message"))  # fmt: skip


def cell(name: str, value: object) -> str:
    """A value as the report shows it.

    >>> cell("win_rate", 0.5), cell("average", 13.0), cell("grand_slam", True), cell("spread", None)
    ('50.0%', '13.00', 'yes', '–')
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else ""
    if name == "win_rate" and isinstance(value, float):
        return f"{value:.1%}"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def table(frame: pl.DataFrame, columns: tuple[str, ...]) -> dict[str, Any]:
    """Headings and rows of cells, for the template, and which columns hold words (:data:`WORD_COLUMNS`)."""
    rows = frame.select(columns).rows()
    return {"head": [HEADINGS[c] for c in columns], "words": [c in WORD_COLUMNS for c in columns],
            "rows": [[cell(c, v) for c, v in zip(columns, row, strict=True)] for row in rows]}  # fmt: skip


def club_context(engine: Engine, filters: StatsFilter | None = None, *,
                 on_stage: Callable[[str], None] | None = None) -> dict[str, Any]:  # fmt: skip
    """What the club sections show, as plain values; ``on_stage`` is told each section as it is worked out
    (``latest night``, ``season``, ``head-to-head``, ``ratings``, ``matches``)."""

    def stage(name: str) -> None:
        if on_stage is not None:
            on_stage(name)

    club = replace(filters or StatsFilter(), player=None)
    with engine.connect() as conn:
        stage("latest night")
        latest = latest_night(conn, club)
        night = load_night(conn, *latest) if latest else None
        stage("season")
        season = season_standings(load_night_totals(conn, club))
        stage("head-to-head")
        pairs = load_pair_totals(conn, club)
        met, everyone = most_met(head_to_head(pairs), MATRIX_PLAYERS, keep=(filters or StatsFilter()).player)
        players, grid = matrix(met)
        stage("ratings")
        seats = load_game_order(conn, club)
        names = load_player_names(conn)
        keys = load_game_keys(conn, club)
    ratings = rate_games(seats, history=True)
    rated = rating_plotted(rating_history(ratings, names, keys))  # the chart's figures, for its image and its text
    chart = figure_bytes(draw_ratings(rated), "png")
    stage("matches")
    matches = matches_frame(stored_matches(engine, club)[-LATEST_MATCHES:][::-1])
    return {
        "night": None if night is None else {
            "event": night.event or "", "date": night.date.isoformat(),
            "placings": table(night.placings, NIGHT_COLUMNS),
            "hands": table(night.special_hands, HAND_COLUMNS),
            "scorecards": table(night.scorecards, CARD_COLUMNS),
            "grand_slams": night.grand_slams,
        },
        "season": table(season, SEASON_COLUMNS),
        "matches": table(matches, MATCH_COLUMNS),
        "head_to_head": {"players": players, "rows": list(zip(players, grid, strict=True)), "of": everyone},
        "ratings": table(rating_table(ratings, names), RATING_COLUMNS),
        "rating_chart": base64.b64encode(chart).decode(),
        "rating_figures": rated.figures,
    }  # fmt: skip
