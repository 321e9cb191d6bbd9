"""Match tables: the stored matches with their games, score, winner and findings, and each player's matches.

The matches are those :mod:`cribstats.store.matches` reads: the result is replayed from the stored games under
the match's rules (``points1``/``points2``, ``winner_side``), the recorded result kept beside it. A match counts
for a player's record when it is finished (a side reached ``first_to``); an unfinished match is listed but counts
for no one's matches, wins, losses or match points.

Per player (``stats``): ``matches`` (finished), ``matches_won``, ``matches_lost``, ``match_win_rate`` and
``match_points`` (the match points the player's side took in them, as the rules count them: games won, or
1/2/3 for a win, a skunk and a double). Per pair of opponents (``head-to-head``): matches, won and lost.

>>> rules_text(MatchRules()), rules_text(MatchRules(first_to=7, count="points", triple_skunk_wins=True))
('first to 2 games', 'first to 7 points (1/2/3), a triple skunk wins')
"""

from __future__ import annotations

from typing import Any

import polars as pl
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.match.model import MatchRules
from cribstats.stats.frames import StatsFilter, read_frame
from cribstats.store import tables as t
from cribstats.store.matches import StoredMatch
from cribstats.store.tables import name_key

MATCH_COLUMNS: tuple[str, ...] = (
    "match", "date", "event", "round", "rules", "side1", "side2", "points1", "points2", "score", "winner",
    "games", "games_after_end", "recorded_winner", "findings", "finding_kinds",
)  # fmt: skip
MATCH_GAME_COLUMNS: tuple[str, ...] = ("match", "number", "game", "stored", "winner", "match_points", "counted")
PLAYER_MATCH_COLUMNS: tuple[str, ...] = (
    "matches", "matches_won", "matches_lost", "match_win_rate", "match_points",
)  # fmt: skip


def rules_text(rules: MatchRules) -> str:
    """The rules in a few words: ``first to 2 games``, ``first to 7 points (1/2/3), a triple skunk wins``."""
    if rules.count == "games":
        text = f"first to {rules.first_to} game{'s' if rules.first_to != 1 else ''}"
    else:
        text = f"first to {rules.first_to} points ({'/'.join(str(p) for p in rules.points)})"
    return text + (", a triple skunk wins" if rules.triple_skunk_wins else "")


def side_text(side: tuple[str, ...]) -> str:
    return " & ".join(side)


def matches_frame(matches: list[StoredMatch]) -> pl.DataFrame:
    """One row per match with :data:`MATCH_COLUMNS`, in the order given."""
    rows = []
    for m in matches:
        winner = side_text(m.winner) if m.winner else None
        kinds = ", ".join(sorted({f.kind for f in m.findings}))
        rows.append((m.source_id, m.date, m.event, m.round, rules_text(m.rules), side_text(m.sides[0]),
                     side_text(m.sides[1]), m.points[0], m.points[1], f"{m.points[0]}-{m.points[1]}", winner,
                     len(m.games), sum(not g.counted for g in m.games), m.recorded_winner, len(m.findings),
                     kinds))  # fmt: skip
    types = (pl.String, pl.Date, pl.String, pl.String, pl.String, pl.String, pl.String, pl.Int64, pl.Int64,
             pl.String, pl.String, pl.Int64, pl.Int64, pl.String, pl.Int64, pl.String)  # fmt: skip
    return pl.DataFrame(rows, schema=dict(zip(MATCH_COLUMNS, types, strict=True)), orient="row")


def match_games_frame(matches: list[StoredMatch]) -> pl.DataFrame:
    """One row per game of each match with :data:`MATCH_GAME_COLUMNS` (``stored``: the game is in the store;
    ``counted``: it was begun before the match was decided)."""
    rows = [
        (m.source_id, g.number, g.game_key, g.game_id is not None,
         side_text(m.sides[g.winner_side - 1]) if g.winner_side else None, g.match_points, g.counted)
        for m in matches for g in m.games
    ]  # fmt: skip
    types = (pl.String, pl.Int64, pl.String, pl.Boolean, pl.String, pl.Int64, pl.Boolean)
    return pl.DataFrame(rows, schema=dict(zip(MATCH_GAME_COLUMNS, types, strict=True)), orient="row")


def _match_conditions(filters: StatsFilter) -> list[sa.ColumnElement[bool]]:
    """Conditions on ``match`` for the filter's event (case ignored) and dates (a date range leaves undated
    matches out)."""
    m, e = t.match_table, t.event_table
    conditions: list[sa.ColumnElement[bool]] = []
    if filters.event is not None:
        events = sa.select(e.c.id).where(e.c.name_key == filters.event_key)
        conditions.append(m.c.event_id.in_(events))
    if filters.since is not None:
        conditions.append(m.c.date >= filters.since)
    if filters.until is not None:
        conditions.append(m.c.date <= filters.until)
    return conditions


def match_ids_query(filters: StatsFilter) -> sa.Select[Any]:
    """The source ids of the covered matches (a player filter: matches with that player on a side)."""
    from cribstats.store.players import player_id_query

    m, mp = t.match_table, t.match_player_table
    query = sa.select(m.c.source_id).where(*_match_conditions(filters))
    if filters.player is not None:  # the player, or a spelling renamed or merged into them
        player = player_id_query(filters.player_key or "")
        query = query.where(m.c.id.in_(sa.select(mp.c.match_id).where(mp.c.player_id == player)))
    return query


def _won(side: sa.ColumnElement[Any], m: sa.Table) -> sa.ColumnElement[bool]:
    return m.c.winner_side == side


def player_match_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Per player with a finished covered match: matches, matches won and lost, match points."""
    m, mp = t.match_table, t.match_player_table
    points = sa.case((mp.c.side == 1, m.c.points1), else_=m.c.points2)
    return (
        sa.select(
            mp.c.player_id,
            sa.func.count().label("matches"),
            sa.func.sum(sa.case((_won(mp.c.side, m), 1), else_=0)).label("matches_won"),
            sa.func.sum(sa.case((_won(mp.c.side, m), 0), else_=1)).label("matches_lost"),
            sa.func.sum(points).label("match_points"),
        )
        .select_from(mp.join(m, m.c.id == mp.c.match_id))
        .where(m.c.winner_side.is_not(None), *_match_conditions(filters))
        .group_by(mp.c.player_id)
    )


def pair_match_totals_query(filters: StatsFilter) -> sa.Select[Any]:
    """Per player and opponent (a player of the other side) over finished covered matches: matches, won, lost."""
    m, mp = t.match_table, t.match_player_table
    me, them = mp.alias("me"), mp.alias("them")
    return (
        sa.select(
            me.c.player_id,
            them.c.player_id.label("opponent_id"),
            sa.func.count().label("matches"),
            sa.func.sum(sa.case((_won(me.c.side, m), 1), else_=0)).label("matches_won"),
            sa.func.sum(sa.case((_won(me.c.side, m), 0), else_=1)).label("matches_lost"),
        )
        .select_from(
            me.join(them, sa.and_(them.c.match_id == me.c.match_id, them.c.side != me.c.side)).join(
                m, m.c.id == me.c.match_id
            )
        )
        .where(m.c.winner_side.is_not(None), *_match_conditions(filters))
        .group_by(me.c.player_id, them.c.player_id)
    )


PLAYER_MATCH_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64, "matches": pl.Int64, "matches_won": pl.Int64, "matches_lost": pl.Int64,
    "match_points": pl.Int64,
}  # fmt: skip
PAIR_MATCH_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64, "opponent_id": pl.Int64, "matches": pl.Int64, "matches_won": pl.Int64,
    "matches_lost": pl.Int64,
}  # fmt: skip


def load_player_match_totals(conn: Connection, filters: StatsFilter) -> pl.DataFrame:
    """:func:`player_match_totals_query` with ``match_win_rate``; only the filter's player's row with one."""
    frame = read_frame(conn, player_match_totals_query(filters), PLAYER_MATCH_SCHEMA)
    if filters.player is not None:
        ids = conn.execute(sa.select(t.player_table.c.id).where(t.player_table.c.name_key == filters.player_key))
        frame = frame.filter(pl.col("player_id").is_in([row[0] for row in ids]))
    return frame.with_columns((pl.col("matches_won") / pl.col("matches")).alias("match_win_rate"))


def load_pair_match_totals(conn: Connection, filters: StatsFilter) -> pl.DataFrame:
    """:func:`pair_match_totals_query` read into a frame."""
    return read_frame(conn, pair_match_totals_query(filters), PAIR_MATCH_SCHEMA)


def match_winners(matches: list[StoredMatch]) -> dict[frozenset[str], str]:
    """The winner of the latest finished match between each pair of single-player sides (by name key)."""
    winners: dict[frozenset[str], str] = {}
    for m in matches:
        if m.winner is not None and len(m.sides[0]) == len(m.sides[1]) == 1:
            winners[frozenset((name_key(m.sides[0][0]), name_key(m.sides[1][0])))] = m.winner[0]
    return winners


def match_text(m: StoredMatch) -> str:
    """A stored match for people: what, where and when, the rules, the sides, the result, each game, findings."""
    where = ", ".join(str(x) for x in (m.event, m.date, f"round {m.round}" if m.round else None) if x)
    lines = [f"Match {m.source_id}" + (f" ({where})" if where else ""), f"  rules: {rules_text(m.rules)}",
             f"  {side_text(m.sides[0])} {m.points[0]} - {m.points[1]} {side_text(m.sides[1])}",
             f"  winner: {side_text(m.winner) if m.winner else 'none yet (unfinished)'}"]  # fmt: skip
    if m.recorded_winner is not None or any(p is not None for p in m.recorded_points):
        points = "-".join("?" if p is None else str(p) for p in m.recorded_points)
        lines.append(f"  recorded: {m.recorded_winner or 'no winner'}, {points}")
    for g in m.games:
        winner = side_text(m.sides[g.winner_side - 1]) if g.winner_side else "no winner"
        notes = [] if g.game_id is not None else ["not stored"]
        if not g.counted:
            notes.append("after the match was decided")
        note = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"  game {g.number}: {g.game_key}: {winner}, {g.match_points} match point"
                     f"{'s' if g.match_points != 1 else ''}{note}")  # fmt: skip
    for f in m.findings:
        lines.append(f"  finding {f.kind}: {f.message}")
    return "\n".join(lines)
