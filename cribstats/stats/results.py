"""Game results by player, night and opponent: the stored per game totals as the club tables read them.

Every figure here follows the definitions of :mod:`cribstats.stats.measures` (decided games only: a game no side
finished counts for no one; game points 2 a win, 3 a skunk win, 0 a loss; the spread as the winner's margin).
Three grouped queries, filtered in the database like ``stats``:

==================== ===========================================================================================
query                one row per
==================== ===========================================================================================
``night_totals``     player and night (event and date): games, wins, game points, spread, skunks given and
                     taken (any level)
``pair_totals``      player and opponent (each player of another side): games between them that one of them
                     won, wins, spread and skunks between the two
``game_order``       seat of a game, games in date order: what the ratings are updated from
==================== ===========================================================================================

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     load_night_totals(conn, StatsFilter()).height
0
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date
from typing import Any

import polars as pl
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.names import event_key
from cribstats.stats.frames import StatsFilter, game_conditions, read_frame
from cribstats.store import tables as t

NIGHT_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64,
    "player": pl.String,
    "name_key": pl.String,
    "event": pl.String,
    "date": pl.Date,
    "games": pl.Int64,
    "wins": pl.Int64,
    "game_points": pl.Int64,
    "spread": pl.Int64,
    "skunks_given": pl.Int64,
    "skunks_taken": pl.Int64,
}
PAIR_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64,
    "opponent_id": pl.Int64,
    "games": pl.Int64,
    "wins": pl.Int64,
    "spread": pl.Int64,
    "skunks_given": pl.Int64,
    "skunks_taken": pl.Int64,
}
def _times(when: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
    return sa.func.coalesce(sa.func.sum(sa.case((when, 1), else_=0)), 0)


def _covered(filters: StatsFilter) -> list[sa.ColumnElement[bool]]:
    """Conditions on ``game`` (joined to ``event``) for the filter's event and dates (the player is kept apart:
    the club tables list every player of the covered games and pick rows afterwards)."""
    return game_conditions(filters)


def night_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Per player and night (dated decided games of an event, or of no event), the night's results."""
    gt, g, e, p = t.game_player_totals_table, t.game_table, t.event_table, t.player_table
    won = gt.c.won
    return (
        sa.select(
            gt.c.player_id,
            sa.func.min(p.c.name).label("player"),
            sa.func.min(p.c.name_key).label("name_key"),
            e.c.name_key.label("event"),  # one night however its sheets spell the event
            g.c.date,
            sa.func.count().label("games"),
            _times(won).label("wins"),
            sa.func.sum(gt.c.game_points).label("game_points"),
            sa.func.sum(gt.c.spread).label("spread"),
            _times(sa.and_(won, gt.c.skunk_level >= 1)).label("skunks_given"),
            _times(sa.and_(sa.not_(won), gt.c.skunk_level >= 1)).label("skunks_taken"),
        )
        .select_from(
            gt.join(g, g.c.id == gt.c.game_id)
            .outerjoin(e, e.c.id == g.c.event_id)
            .join(p, p.c.id == gt.c.player_id)
        )
        .where(gt.c.won.is_not(None), g.c.date.is_not(None), *_covered(filters))
        .group_by(gt.c.player_id, e.c.name_key, g.c.date)
    )


def pair_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Per player and opponent (a player of another side of the same game), over the covered decided games in
    which one of the two won and the other lost: games, the player's wins, the spread between them, skunks given
    and taken."""
    gt, gp, g, e = t.game_player_totals_table, t.game_player_table, t.game_table, t.event_table
    me, them = gt.alias("me"), gt.alias("them")
    my_seat, their_seat = gp.alias("my_seat"), gp.alias("their_seat")
    i_won, they_won = me.c.won, them.c.won
    # the margin between a winner and a loser is the smaller of the two sides' spreads in the game, each taken as
    # a margin: a winner's spread is over every loser (three-player: both losers' margins), a loser's is under
    # every winner (a three-player giveaway game: both winners' distances under the target)
    spread = sa.case(
        (i_won, _least(me.c.spread, -them.c.spread)), (they_won, -_least(them.c.spread, -me.c.spread)), else_=0
    )
    source = (
        me.join(them, sa.and_(them.c.game_id == me.c.game_id, them.c.player_id != me.c.player_id))
        .join(my_seat, sa.and_(my_seat.c.game_id == me.c.game_id, my_seat.c.player_id == me.c.player_id))
        .join(their_seat, sa.and_(their_seat.c.game_id == them.c.game_id,
                                  their_seat.c.player_id == them.c.player_id))
    )  # fmt: skip
    # one of the two won and the other lost: two winners of a three-player giveaway game beat nobody between them
    conditions = [my_seat.c.team != their_seat.c.team, sa.or_(i_won, they_won), sa.not_(sa.and_(i_won, they_won))]
    covered = _covered(filters)
    if covered:
        games = sa.select(g.c.id).select_from(g.outerjoin(e, e.c.id == g.c.event_id)).where(*covered)
        conditions.append(me.c.game_id.in_(games))
    return (
        sa.select(
            me.c.player_id,
            them.c.player_id.label("opponent_id"),
            sa.func.count().label("games"),
            _times(i_won).label("wins"),
            sa.func.sum(spread).label("spread"),
            _times(sa.and_(i_won, them.c.skunk_level >= 1)).label("skunks_given"),
            _times(sa.and_(they_won, me.c.skunk_level >= 1)).label("skunks_taken"),
        )
        .select_from(source)
        .where(*conditions)
        .group_by(me.c.player_id, them.c.player_id)
    )


def _least(a: sa.ColumnElement[Any], b: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
    """The smaller of two values, on every backend (SQLite's ``min`` and PostgreSQL's ``least`` differ)."""
    return sa.case((a < b, a), else_=b)


def game_order_query(filters: StatsFilter) -> sa.Select[Any]:
    """Every seat of the covered games (game id, date as ISO text, player id, team, won as 0/1, final score
    claimed, and what :func:`cribstats.store.queries.play_order` orders games by: round, source file and place,
    game key), game by game, a game's seats in seat order; :func:`load_game_order` puts the games in play order."""
    gp, g, e = t.game_player_table, t.game_table, t.event_table
    source = gp.join(g, g.c.id == gp.c.game_id)
    if filters.event is not None:
        source = source.outerjoin(e, e.c.id == g.c.event_id)
    return (
        sa.select(gp.c.game_id, sa.cast(g.c.date, sa.String).label("date"), gp.c.player_id, gp.c.team,
                  sa.cast(gp.c.won, sa.Integer).label("won"), gp.c.final_score_claimed, g.c.round,
                  g.c.source_file, g.c.source_place, g.c.game_key)
        .select_from(source)
        .where(*_covered(filters))
        .order_by(gp.c.game_id, gp.c.seat)
    )  # fmt: skip


def qualifying_query(event: str) -> sa.Select[Any]:
    """Per player, the finished games of ``event`` (case ignored) that belong to no match: the qualifying
    rounds of a tournament whose playoffs are matches. Games, wins, game points, spread, with the name."""
    gt, g, e, p, mg = t.game_player_totals_table, t.game_table, t.event_table, t.player_table, t.match_game_table
    in_matches = sa.select(mg.c.game_id).where(mg.c.game_id.is_not(None))
    return (
        sa.select(
            gt.c.player_id,
            sa.func.min(p.c.name).label("player"),
            sa.func.min(p.c.name_key).label("name_key"),
            sa.func.count().label("games"),
            _times(gt.c.won).label("wins"),
            sa.func.sum(gt.c.game_points).label("game_points"),
            sa.func.sum(gt.c.spread).label("spread"),
        )
        .select_from(
            gt.join(g, g.c.id == gt.c.game_id).join(e, e.c.id == g.c.event_id).join(p, p.c.id == gt.c.player_id)
        )
        .where(
            gt.c.won.is_not(None),
            e.c.name_key == event_key(event),
            gt.c.game_id.not_in(in_matches),
        )
        .group_by(gt.c.player_id)
    )


QUALIFYING_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64, "player": pl.String, "name_key": pl.String, "games": pl.Int64, "wins": pl.Int64,
    "game_points": pl.Int64, "spread": pl.Int64,
}  # fmt: skip


def load_qualifying(conn: Connection, event: str) -> pl.DataFrame:
    """:func:`qualifying_query` in the ACC order: game points, then wins, then spread (then name)."""
    frame = read_frame(conn, qualifying_query(event), QUALIFYING_SCHEMA)
    return frame.sort(["game_points", "wins", "spread", "name_key"], descending=[True, True, True, False])


def player_names_query() -> sa.Select[Any]:
    p = t.player_table
    return sa.select(p.c.id.label("player_id"), p.c.name.label("player"), p.c.name_key)


NAMES_SCHEMA: dict[str, Any] = {"player_id": pl.Int64, "player": pl.String, "name_key": pl.String}


def load_night_totals(conn: Connection, filters: StatsFilter) -> pl.DataFrame:
    """:func:`night_totals_query` read into a frame, in date, event and name order; a night's event is named as the
    store first spelled it (the query groups its spellings by their key, ``event.name_key``)."""
    frame = read_frame(conn, night_totals_query(filters), NIGHT_SCHEMA)
    first: dict[str, str] = {}
    e = t.event_table
    for key, name in conn.execute(sa.select(e.c.name_key, e.c.name).order_by(e.c.id)):
        first.setdefault(key, name)
    frame = frame.with_columns(pl.col("event").replace(first))
    return frame.sort("date", pl.col("event").fill_null(""), "name_key", "player_id")


def load_pair_totals(conn: Connection, filters: StatsFilter) -> pl.DataFrame:
    """:func:`pair_totals_query` with both players' names (``player``, ``opponent``)."""
    pairs = read_frame(conn, pair_totals_query(filters), PAIR_SCHEMA)
    names = read_frame(conn, player_names_query(), NAMES_SCHEMA)
    opponents = names.rename({"player_id": "opponent_id", "player": "opponent", "name_key": "opponent_key"})
    return pairs.join(names, on="player_id").join(opponents, on="opponent_id")


Seat = tuple[int, int, int, int, int | None]
"""A seat of a game: game id, player id, team, won (0/1), final score claimed."""


@dataclass(frozen=True, slots=True)
class _Played:
    """What a game is ordered by (the fields :func:`cribstats.store.queries.play_order` reads)."""

    id: int
    date: Date | None
    round: str | None
    source_file: str | None
    source_place: str | None
    game_key: str


def load_game_order(conn: Connection, filters: StatsFilter) -> list[tuple[str | None, list[Seat]]]:
    """The covered games in play order (:func:`cribstats.store.queries.play_order`, the one order of a night's
    games: date, undated last; round; the file and the place in it; the order stored), each as its date (ISO
    text) and its seats in seat order. A game no side won has ``won`` 0 in every seat
    (:func:`cribstats.stats.ratings.rate_games` skips it)."""
    from cribstats.store.queries import play_order

    games: list[tuple[_Played, str | None, list[Seat]]] = []
    current = None
    for game_id, day, player_id, team, won, score, round_, file, place, key in conn.execute(
        game_order_query(filters)
    ):
        if game_id != current:
            current = game_id
            seats: list[Seat] = []
            played = _Played(game_id, Date.fromisoformat(day) if day else None, round_, file, place, key)
            games.append((played, day, seats))
        seats.append((game_id, player_id, team, won, score))
    games.sort(key=lambda game: play_order(game[0]))
    return [(day, seats) for _, day, seats in games]


def load_game_keys(conn: Connection, filters: StatsFilter) -> pl.DataFrame:
    """The covered games' ``id`` in the store and key (``game``): what a rating history names a game by."""
    g, e = t.game_table, t.event_table
    source = g if filters.event is None else g.outerjoin(e, e.c.id == g.c.event_id)
    query = sa.select(g.c.id, g.c.game_key.label("game")).select_from(source).where(*_covered(filters))
    return read_frame(conn, query, {"id": pl.Int64, "game": pl.String})


def load_player_names(conn: Connection) -> pl.DataFrame:
    """Every stored player: id, name and name key."""
    return read_frame(conn, player_names_query(), NAMES_SCHEMA)
