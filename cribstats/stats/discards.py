"""Discard quality per player, from the stored value of every discard (``deal_player``'s value columns).

* ``deals``: two-player deals whose discard is valued, as dealer and as pone; ``loss_per_deal_dealer`` and
  ``loss_per_deal_pone``: the average expected points lost by the discard (best less chosen), ``loss_per_deal``
  over both; ``best_share``: the share of those deals with a best discard; ``loss_per_game``: the points lost
  over the games with such a deal, per game. Every deal with a discard counts, the last of a game too (the
  discard was made before the game ended).
* ``hand_only_deals`` and ``hand_only_loss_per_deal``: three- and four-player deals, judged by the hand alone.
* ``worst_*``: the player's costliest discard (among equals the first played: the games in the order
  ``cribstats games`` lists them, then the deal's number).

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     discard_summary(conn).columns[:3]
['player', 'deals', 'deals_as_dealer']
"""

from __future__ import annotations

from typing import Any

import polars as pl
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.stats.frames import StatsFilter, _own_rows, read_frame
from cribstats.store import tables as t

SUMMARY_COLUMNS: tuple[str, ...] = (
    "player", "deals", "deals_as_dealer", "deals_as_pone", "loss_per_deal_dealer", "loss_per_deal_pone",
    "loss_per_deal", "best_share", "loss_per_game", "hand_only_deals", "hand_only_loss_per_deal",
    "worst_game", "worst_deal", "worst_role", "worst_dealt", "worst_chosen", "worst_best", "worst_loss",
)  # fmt: skip
STATS_DISCARD_COLUMNS: tuple[str, ...] = ("discard_loss_per_deal_dealer", "discard_loss_per_deal_pone")
"""The columns ``cribstats stats`` fills beside counting accuracy (``measures.DISCARD_COLUMNS``)."""

LOSS_UNITS = 1e9  # a discard's loss is known to 1e-9 (a best discard is one within 1e-9 of the best)
GROUP_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64, "role": pl.String, "hand_only": pl.Boolean, "deals": pl.Int64, "loss": pl.Float64,
    "best": pl.Int64,
}  # fmt: skip
GAMES_SCHEMA: dict[str, Any] = {"player_id": pl.Int64, "games": pl.Int64}
PLAYER_SCHEMA: dict[str, Any] = {"player_id": pl.Int64, "player": pl.String, "name_key": pl.String}
WORST_SCHEMA: dict[str, Any] = {
    "player_id": pl.Int64, "player": pl.String, "game": pl.String, "date": pl.Date, "deal": pl.Int64,
    "role": pl.String, "dealt": pl.String, "chosen": pl.String, "kept": pl.String, "best": pl.String,
    "best_kept": pl.String, "loss": pl.Float64,
}  # fmt: skip


def _groups_query(filters: StatsFilter) -> sa.Select[Any]:
    dp = t.deal_player_table
    return (
        sa.select(
            dp.c.player_id, dp.c.role, dp.c.hand_only, sa.func.count().label("deals"),
            # summed as whole billionths, so that the total is the same in any row order, on any database
            (sa.func.sum(sa.cast(sa.func.round(dp.c.loss * LOSS_UNITS), sa.BigInteger)) / LOSS_UNITS)
            .label("loss"),
            sa.func.sum(sa.case((dp.c.loss == 0, 1), else_=0)).label("best"),
        )
        .where(dp.c.loss.is_not(None), *_own_rows(dp, filters))
        .group_by(dp.c.player_id, dp.c.role, dp.c.hand_only)
    )  # fmt: skip


def _games_query(filters: StatsFilter) -> sa.Select[Any]:
    """Per player, the games with a valued two-player discard."""
    dp = t.deal_player_table
    return (
        sa.select(dp.c.player_id, sa.func.count(sa.distinct(dp.c.game_id)))
        .where(dp.c.loss.is_not(None), ~dp.c.hand_only, *_own_rows(dp, filters))
        .group_by(dp.c.player_id)
    )


def _players(conn: Connection) -> pl.DataFrame:
    p = t.player_table
    return read_frame(conn, sa.select(p.c.id, p.c.name, p.c.name_key), PLAYER_SCHEMA)


def _worst_candidates(filters: StatsFilter, *, per_player: bool, limit: int | None) -> sa.Select[Any]:
    """The costliest discards and every one equal to them (the same to a billionth, as the losses are summed):
    each player's (``per_player``), or the ``limit`` costliest of all, with what orders them among equals."""
    dp, g, d, p = t.deal_player_table, t.game_table, t.deal_table, t.player_table
    units = sa.func.round(dp.c.loss * LOSS_UNITS)
    columns = [
        dp.c.player_id, p.c.name.label("player"), g.c.game_key.label("game"), g.c.date, d.c.number.label("deal"),
        dp.c.role, dp.c.dealt, dp.c.thrown.label("chosen"), dp.c.kept, dp.c.best_thrown.label("best"),
        dp.c.best_kept, dp.c.loss,
        # what :func:`cribstats.store.queries.play_order` reads (``id`` the game's), and the loss in billionths
        g.c.id.label("id"), g.c.round, g.c.source_file, g.c.source_place, g.c.game_key, dp.c.seat,
        units.label("units"),
    ]  # fmt: skip
    source = dp.join(g, g.c.id == dp.c.game_id).join(d, d.c.id == dp.c.deal_id).join(p, p.c.id == dp.c.player_id)
    place = sa.func.rank().over(partition_by=dp.c.player_id if per_player else None, order_by=units.desc())
    ranked = (
        sa.select(*columns, place.label("place")).select_from(source)
        .where(dp.c.loss > 0, *_own_rows(dp, filters)).subquery()
    )  # fmt: skip
    top = 1 if per_player else limit
    query = sa.select(*(ranked.c[c.name] for c in columns))
    return query if top is None else query.where(ranked.c.place <= top)


def _worst(conn: Connection, filters: StatsFilter, *, per_player: bool, limit: int | None = None) -> pl.DataFrame:
    """The costliest discards (:data:`WORST_SCHEMA`), costliest first; among equals the first played: the games
    in the order ``cribstats games`` lists them (:func:`cribstats.store.queries.play_order`), then the deal's
    number, then the seat. Each player's worst (``per_player``), or the ``limit`` worst of all."""
    from cribstats.store.queries import play_order

    rows = sorted(conn.execute(_worst_candidates(filters, per_player=per_player, limit=limit)),
                  key=lambda r: (-r.units, play_order(r), r.deal, r.seat))  # fmt: skip
    if per_player:
        first: dict[int, Any] = {}
        for row in rows:
            first.setdefault(row.player_id, row)
        rows = list(first.values())
    else:
        rows = rows[:limit]
    return pl.DataFrame([tuple(r)[: len(WORST_SCHEMA)] for r in rows], schema=WORST_SCHEMA, orient="row")


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    return pl.when(denominator > 0).then(numerator / denominator).otherwise(None).cast(pl.Float64)


def _sum(column: str, when: pl.Expr) -> pl.Expr:
    return pl.col(column).filter(when).sum()


def discard_summary(conn: Connection, filters: StatsFilter | None = None) -> pl.DataFrame:
    """One row per player with a valued discard, with the columns of :data:`SUMMARY_COLUMNS`, by name."""
    filters = filters or StatsFilter()
    groups = read_frame(conn, _groups_query(filters), GROUP_SCHEMA)
    games = read_frame(conn, _games_query(filters), GAMES_SCHEMA)
    worst = _worst(conn, filters, per_player=True)
    two = ~pl.col("hand_only")
    dealer, pone = two & (pl.col("role") == "dealer"), two & (pl.col("role") == "pone")
    per_player = groups.group_by("player_id").agg(
        _sum("deals", two).alias("deals"),
        _sum("deals", dealer).alias("deals_as_dealer"),
        _sum("deals", pone).alias("deals_as_pone"),
        _sum("loss", dealer).alias("loss_dealer"),
        _sum("loss", pone).alias("loss_pone"),
        _sum("loss", two).alias("loss"),
        _sum("best", two).alias("best"),
        _sum("deals", ~two).alias("hand_only_deals"),
        _sum("loss", ~two).alias("hand_only_loss"),
    )
    frame = (
        per_player.join(games, on="player_id", how="left")
        .join(_players(conn), on="player_id", how="left")
        .join(worst.select(pl.col("player_id"), *(pl.col(c).alias(f"worst_{c}") for c in
                                                   ("game", "deal", "role", "dealt", "chosen", "best", "loss"))),
              on="player_id", how="left")
        .with_columns(
            _ratio(pl.col("loss_dealer"), pl.col("deals_as_dealer")).alias("loss_per_deal_dealer"),
            _ratio(pl.col("loss_pone"), pl.col("deals_as_pone")).alias("loss_per_deal_pone"),
            _ratio(pl.col("loss"), pl.col("deals")).alias("loss_per_deal"),
            _ratio(pl.col("best").cast(pl.Float64), pl.col("deals")).alias("best_share"),
            _ratio(pl.col("loss"), pl.col("games").fill_null(0)).alias("loss_per_game"),
            _ratio(pl.col("hand_only_loss"), pl.col("hand_only_deals")).alias("hand_only_loss_per_deal"),
        )
        .sort("name_key", "player_id")
    )  # fmt: skip
    return frame.select(SUMMARY_COLUMNS)


def worst_discards(conn: Connection, filters: StatsFilter | None = None, limit: int = 10) -> pl.DataFrame:
    """The ``limit`` costliest discards the filter covers (player, game, date, deal, role, dealt, chosen, kept,
    best, best_kept, loss)."""
    return _worst(conn, filters or StatsFilter(), per_player=False, limit=limit).drop("player_id")


def with_discard_losses(conn: Connection, stats: pl.DataFrame, filters: StatsFilter | None = None) -> pl.DataFrame:
    """``cribstats stats``' frame with :data:`STATS_DISCARD_COLUMNS` filled in (null for a player without a
    valued two-player discard), in place; rows are matched by player name (names are unique in a store)."""
    groups = read_frame(conn, _groups_query(filters or StatsFilter()), GROUP_SCHEMA).filter(~pl.col("hand_only"))
    losses = (
        groups.group_by("player_id").agg(
            _ratio(_sum("loss", pl.col("role") == "dealer"), _sum("deals", pl.col("role") == "dealer"))
            .alias(STATS_DISCARD_COLUMNS[0]),
            _ratio(_sum("loss", pl.col("role") == "pone"), _sum("deals", pl.col("role") == "pone"))
            .alias(STATS_DISCARD_COLUMNS[1]),
        )
        .join(_players(conn).drop("name_key"), on="player_id")
        .drop("player_id")
    )  # fmt: skip
    without = stats.drop(STATS_DISCARD_COLUMNS, strict=False)
    return without.join(losses, on="player", how="left", maintain_order="left")


def _discard_counts(conn: Connection, filters: StatsFilter) -> tuple[int, int]:
    """The discards the filters cover as stored, and how many of them (giveaway games' apart) have no value."""
    dp, g = t.deal_player_table, t.game_table
    giveaway = t.is_giveaway(g)
    query = (
        sa.select(sa.func.count(), sa.func.sum(sa.case((giveaway, 0), (dp.c.expected.is_(None), 1), else_=0)))
        .select_from(dp.join(g, g.c.id == dp.c.game_id))
        .where(dp.c.discards != "", *_own_rows(dp, filters))
    )
    stored, unvalued = conn.execute(query).one()
    return int(stored), int(unvalued or 0)


#: how the messages below say what values a store's discards
VALUE_THEM = "`cribstats analyse --store` values them"


def no_discards_message(conn: Connection, filters: StatsFilter | None = None) -> str:
    """Why the filters cover no valued discard, from what the store holds: no discards stored (``cribstats
    import`` stores them), discards stored without their values (a store imported before cribstats kept them:
    ``cribstats analyse --store`` values them), or only giveaway games' discards, which are never valued."""
    from cribstats.findings import counted

    filters = filters or StatsFilter()
    stored, unvalued = _discard_counts(conn, filters)
    scope = filters.describe()
    if not stored:
        if scope == "all games":
            return "no discards stored yet: `cribstats import PATH` stores them"
        return f"no discards stored match the filters ({scope})"
    none = "no valued discards" if scope == "all games" else f"no valued discards match the filters ({scope})"
    if unvalued:
        return (f"{none}: {counted(unvalued, 'discard')} stored without a value (imported before cribstats kept "
                f"them): {VALUE_THEM}")  # fmt: skip
    return f"{none}: the discards stored are of giveaway games, whose discards are never valued"


def unvalued_discards_message(conn: Connection, filters: StatsFilter | None = None) -> str | None:
    """What the figures leave out when only some of the discards the filters cover are valued (the rest stored
    before cribstats kept values); None when none is left out but giveaway games' (never valued)."""
    from cribstats.findings import counted

    _stored, unvalued = _discard_counts(conn, filters or StatsFilter())
    if not unvalued:
        return None
    return (f"{counted(unvalued, 'discard')} stored without a value (imported before cribstats kept them) "
            f"{'is' if unvalued == 1 else 'are'} not counted in these figures: {VALUE_THEM}")
