"""Per game and player totals (``game_player_totals``): what each player's game adds to ``stats`` and
``standings``, worked out once when the game is stored so that the statistics add up one narrow row per player
and game instead of every deal fact and finding.

:func:`add_game_totals` fills the rows of some stored games in SQL (``INSERT ... SELECT ... GROUP BY``, on SQLite
and PostgreSQL alike) from their ``game``, ``game_player``, ``deal_player``, ``deal`` and ``finding`` rows, which
must be written first. The definitions are those of :mod:`cribstats.stats.measures`:

* ``first_dealer``: 1 for the player who dealt the game's first deal, 0 for the others (and for everyone in a
  game stored without its deals);
* result (decided games only; ``won`` is null when no side reached the target, and the other result columns
  are 0): ``skunk_level`` is the highest among the losers for a winner, a loser's own for a loser;
  ``game_points`` 2 for a win, 3 for a skunk win, 0 for a loss; ``spread``: a losing side's margin is
  ``target - its final score`` (never below 0, 0 when unknown), taken from each of its players, and the
  winner is given the sum over the losing sides (a side's margin is that of its first seat, whose number is
  the side's ``team``); in a giveaway game, where the loser is the side at the target, each winning side's
  margin is its own distance under the target, given to it, and the loser is given minus their sum;
* deal facts over completed deals that are not misdealt (no ``bad-deal`` finding: :func:`misdealt_deals`), by
  role (every non-dealer is a pone): deals, and the points due with the number of deals where they are known;
  the crib as dealer; his heels over every deal that is not misdealt;
* findings over every deal (``points_missed``: ``due - claimed`` of ``missed`` findings; ``points_overclaimed``:
  ``claimed - due`` of ``overclaim`` and ``muggins-call`` findings, :data:`~cribstats.findings.OVERCLAIM_KINDS`;
  ``illegal_plays``: findings of :data:`ILLEGAL_KINDS`), and
  ``missed_completed``, the points missed in completed deals that are not misdealt.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.begin() as conn:
...     add_game_totals(conn, [1, 2, 3, 7])
>>> id_runs([7, 1, 2, 3, 9])
[(1, 3), (7, 7), (9, 9)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.findings import OVERCLAIM_KINDS
from cribstats.store import tables as t
from cribstats.store.db import is_postgresql
from cribstats.variants import GAME_POINTS_SKUNK_WIN, GAME_POINTS_WIN

ILLEGAL_KINDS: tuple[str, ...] = ("illegal-card", "over-31", "false-go", "out-of-turn", "unplayed")
"""The finding kinds counted as illegal plays."""

BAD_DEAL = "bad-deal"
"""The finding kind of a misdeal: its deal counts in no per-deal figure."""

RUNS_PER_STATEMENT = 100  # id ranges per statement: 2 bound values each, in four places: under 999 in all

ONE = sa.literal_column("1", sa.Integer)

GameCondition = Callable[[sa.ColumnElement[Any]], list[sa.ColumnElement[bool]]]
"""Given a game id column, the conditions that pick the games to work on (none: every game)."""


def id_runs(ids: Sequence[int]) -> list[tuple[int, int]]:
    """The ids as ascending runs of consecutive ids, ``(first, last)`` each (a batch's new games are one run)."""
    runs: list[tuple[int, int]] = []
    for i in sorted(set(ids)):
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def _in_runs(runs: Sequence[tuple[int, int]]) -> GameCondition:
    def condition(column: sa.ColumnElement[Any]) -> list[sa.ColumnElement[bool]]:
        return [sa.or_(*(column.between(first, last) for first, last in runs))]

    return condition


def _every_game(column: sa.ColumnElement[Any]) -> list[sa.ColumnElement[bool]]:
    return []


def _int(column: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
    """A boolean as 0/1 on every backend."""
    return sa.cast(column, sa.Integer)


def _margin(target: sa.ColumnElement[Any], gp: sa.Table) -> sa.ColumnElement[Any]:
    """How far a seat's side fell short of the target: never below 0; 0 when its score is unknown (null)."""
    short = target - gp.c.final_score_claimed
    return sa.case((short > 0, short), else_=0)


def _sum(value: sa.ColumnElement[Any], when: sa.ColumnElement[bool] | None = None) -> sa.ColumnElement[Any]:
    """The sum of ``value`` over the rows where ``when`` holds (null when there are none)."""
    return sa.func.sum(value if when is None else sa.case((when, value)))


def _count(value: sa.ColumnElement[Any], when: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
    """The rows where ``when`` holds and ``value`` is known."""
    return sa.func.count(sa.case((when, value)))


def misdealt_deals(games: GameCondition = _every_game) -> sa.Select[Any]:
    """The ids of the deals (of the games ``games`` picks) with a ``bad-deal`` finding: a card dealt twice, the
    wrong number of cards, a dealer out of rotation, a crib card missing or extra. Such a deal is left out of every
    per-deal figure (its cards were not a possible deal); the game's result stands."""
    d, f = t.deal_table, t.finding_table
    return (
        sa.select(d.c.id)
        .join(f, sa.and_(f.c.game_id == d.c.game_id, f.c.deal_number == d.c.number))
        .where(f.c.kind == BAD_DEAL, *games(f.c.game_id))
    )


def totals_select(games: GameCondition = _every_game) -> sa.Select[Any]:
    """One row per seat of the games ``games`` picks, with every column of ``game_player_totals`` but ``id``."""
    g, gp, dp, d, f = t.game_table, t.game_player_table, t.deal_player_table, t.deal_table, t.finding_table
    per_game = (
        sa.select(
            gp.c.game_id,
            sa.func.max(g.c.target).label("target"),
            sa.func.max(gp.c.skunk_level).label("game_skunk"),
            sa.func.max(_int(gp.c.won)).label("decided"),
            _sum(_margin(g.c.target, gp), sa.and_(gp.c.seat == gp.c.team, sa.not_(gp.c.won))).label("margin"),
            _sum(_margin(g.c.target, gp), sa.and_(gp.c.seat == gp.c.team, gp.c.won)).label("margin_under"),
            sa.func.max(_int(t.is_giveaway(g))).label("giveaway"),
        )
        .select_from(gp.join(g, g.c.id == gp.c.game_id))
        .where(*games(gp.c.game_id))
        .group_by(gp.c.game_id)
        .subquery("per_game")
    )
    done = dp.c.completed
    dealer = sa.and_(done, dp.c.role == "dealer")
    pone = sa.and_(done, dp.c.role == "pone")
    deals = (
        sa.select(
            dp.c.game_id,
            dp.c.player_id,
            _sum(ONE, done).label("deals"),
            _sum(ONE, dealer).label("deals_as_dealer"),
            _sum(ONE, pone).label("deals_as_pone"),
            _sum(dp.c.pegged_due, dealer).label("pegged_due_dealer"),
            _count(dp.c.pegged_due, dealer).label("pegged_deals_dealer"),
            _sum(dp.c.pegged_due, pone).label("pegged_due_pone"),
            _count(dp.c.pegged_due, pone).label("pegged_deals_pone"),
            _sum(dp.c.hand_due, dealer).label("hand_due_dealer"),
            _count(dp.c.hand_due, dealer).label("hand_deals_dealer"),
            _sum(dp.c.hand_due, pone).label("hand_due_pone"),
            _count(dp.c.hand_due, pone).label("hand_deals_pone"),
            _sum(dp.c.crib_due, dealer).label("crib_due"),
            _count(dp.c.crib_due, dealer).label("crib_deals"),
            _sum(dp.c.heels_due).label("heels_due"),
        )
        .where(*games(dp.c.game_id), dp.c.deal_id.not_in(misdealt_deals(games)))
        .group_by(dp.c.game_id, dp.c.player_id)
        .subquery("deal_totals")
    )
    missed = f.c.kind == "missed"
    found = (
        sa.select(
            f.c.game_id,
            f.c.player_id,
            _sum(f.c.due - f.c.claimed, missed).label("points_missed"),
            _sum(f.c.claimed - f.c.due, f.c.kind.in_(OVERCLAIM_KINDS)).label("points_overclaimed"),
            _sum(f.c.due - f.c.claimed, sa.and_(missed, d.c.completed, d.c.id.not_in(misdealt_deals(games))))
            .label("missed_completed"),
            _sum(ONE, f.c.kind.in_(ILLEGAL_KINDS)).label("illegal_plays"),
        )
        .select_from(f.outerjoin(d, sa.and_(d.c.game_id == f.c.game_id, d.c.number == f.c.deal_number)))
        .where(f.c.player_id.is_not(None), *games(f.c.game_id))
        .group_by(f.c.game_id, f.c.player_id)
        .subquery("finding_totals")
    )
    first_deal = (
        sa.select(d.c.game_id, d.c.dealer_id).where(d.c.number == 1, *games(d.c.game_id)).subquery("first_deal")
    )
    decided = per_game.c.decided == 1
    giveaway = per_game.c.giveaway == 1
    won = gp.c.won
    result = [
        sa.case((decided, won), else_=sa.null()).label("won"),
        sa.case((first_deal.c.dealer_id == gp.c.player_id, 1), else_=0).label("first_dealer"),
        sa.case((sa.and_(decided, won), per_game.c.game_skunk), (decided, gp.c.skunk_level), else_=0).label(
            "skunk_level"
        ),
        sa.case(  # variants.game_points, in SQL
            (
                sa.and_(decided, won),
                sa.case((per_game.c.game_skunk >= 1, GAME_POINTS_SKUNK_WIN), else_=GAME_POINTS_WIN),
            ),
            else_=0,
        ).label("game_points"),
        sa.case(  # a giveaway game's margins are the winning sides' distances under the target
            (sa.and_(decided, won, giveaway), _margin(per_game.c.target, gp)),
            (sa.and_(decided, won), sa.func.coalesce(per_game.c.margin, 0)),
            (sa.and_(decided, giveaway), -sa.func.coalesce(per_game.c.margin_under, 0)),
            (decided, -_margin(per_game.c.target, gp)),
            else_=0,
        ).label("spread"),
    ]
    zero_if_none = [
        sa.func.coalesce(column, 0).label(column.name)
        for sub in (deals, found)
        for column in sub.c
        if column.name not in ("game_id", "player_id")
    ]
    return (
        sa.select(gp.c.game_id, gp.c.player_id, *result, *zero_if_none)
        .select_from(
            gp.join(per_game, per_game.c.game_id == gp.c.game_id)
            .outerjoin(first_deal, first_deal.c.game_id == gp.c.game_id)
            .outerjoin(deals, sa.and_(deals.c.game_id == gp.c.game_id, deals.c.player_id == gp.c.player_id))
            .outerjoin(found, sa.and_(found.c.game_id == gp.c.game_id, found.c.player_id == gp.c.player_id))
        )
        .where(*games(gp.c.game_id))
    )


def _insert(conn: Connection, games: GameCondition) -> None:
    table = t.game_player_totals_table
    query = totals_select(games)
    conn.execute(table.delete().where(*games(table.c.game_id)))
    conn.execute(table.insert().from_select([c.name for c in query.selected_columns], query))


def add_game_totals(conn: Connection, game_ids: Sequence[int]) -> None:
    """Fill the ``game_player_totals`` rows of these stored games (replacing any they had), in the caller's
    transaction. Their game, seat, deal, deal fact and finding rows must be written already.

    On PostgreSQL the statement is planned without nested loops: the rows were written moments ago, in this
    transaction, so the planner's figures may still say the tables are empty, and a nested loop planned for one
    row would add up a batch's deal facts once per seat (seconds a batch instead of milliseconds)."""
    runs = id_runs(game_ids)
    postgres = is_postgresql(conn)
    if postgres:
        conn.exec_driver_sql("SET LOCAL enable_nestloop = off")
    try:
        for at in range(0, len(runs), RUNS_PER_STATEMENT):
            _insert(conn, _in_runs(runs[at : at + RUNS_PER_STATEMENT]))
    finally:
        if postgres:
            conn.exec_driver_sql("RESET enable_nestloop")
