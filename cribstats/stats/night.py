"""A club night: the placings in the ACC order, each player's card, the Grand Slam and the special hands.

A night is an ``event`` on a ``date``. Its **placings** rank the players by game points, then games won, then
spread (all descending); players level on all three share a place (1, 2, 2, 4). A player's **card** is written
the way clubs write it: game points, a slash, games won, then the spread with its sign (``13/6 +71``). The
**Grand Slam** is winning every game of the night (with at least one game played).

The night's **scorecard** findings (the two players' cards of a game that disagree, stored when the scorecard
sheet was imported) are listed with it.

The **special hands** are found by scoring the stored deals again with the project's scorer: every hand or crib
that was shown and is worth 24 or more (``29``, ``28`` and ``24+``), and every one holding four of a kind (four
cards of one rank among the hand or crib and the starter). Clubs pay side pots on them.

>>> card_text(13, 6, 71), card_text(4, 2, -37), card_text(0, 0, 0)
('13/6 +71', '4/2 -37', '0/0 +0')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date as Date

import polars as pl
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.cards import Card, format_card, parse_cards, rank
from cribstats.names import event_key
from cribstats.scoring import score_show_total
from cribstats.stats.frames import StatsFilter
from cribstats.stats.results import load_night_totals
from cribstats.store import tables as t

PLACING_COLUMNS: tuple[str, ...] = (
    "place", "player", "games", "wins", "losses", "game_points", "spread", "card", "skunks_given",
    "skunks_taken", "grand_slam",
)  # fmt: skip
SPECIAL_COLUMNS: tuple[str, ...] = (
    "player", "game_key", "round", "deal", "what", "cards", "starter", "points", "special", "four_of_a_kind",
)  # fmt: skip
SPECIAL_POINTS = 24
FOUR = 4


def card_text(game_points: int, wins: int, spread: int) -> str:
    """A player's card for the night, as clubs write it: ``13/6 +71``."""
    return f"{game_points}/{wins} {spread:+d}"


def ranks_of(table: pl.DataFrame, keys: list[str]) -> list[int]:
    """1-based places of rows already sorted by ``keys`` (descending): rows equal on all keys share a place."""
    values = list(table.select(keys).iter_rows())
    places: list[int] = []
    for i, row in enumerate(values):
        places.append(places[-1] if i and row == values[i - 1] else i + 1)
    return places


def placings(totals: pl.DataFrame) -> pl.DataFrame:
    """The night's table from its night totals (:func:`cribstats.stats.results.load_night_totals` of one night):
    one row per player in the ACC order, with :data:`PLACING_COLUMNS`."""
    per_player = (
        totals.group_by("player_id")
        .agg(
            pl.col("player").first(),
            pl.col("name_key").first(),
            *[pl.col(c).sum() for c in ("games", "wins", "game_points", "spread", "skunks_given", "skunks_taken")],
        )
        .with_columns((pl.col("games") - pl.col("wins")).alias("losses"))
        .sort(["game_points", "wins", "spread", "name_key"], descending=[True, True, True, False])
    )
    cards = [card_text(*row) for row in per_player.select("game_points", "wins", "spread").iter_rows()]
    return per_player.with_columns(
        pl.Series("place", ranks_of(per_player, ["game_points", "wins", "spread"]), dtype=pl.Int64),
        pl.Series("card", cards, dtype=pl.String),
        ((pl.col("wins") == pl.col("games")) & (pl.col("games") > 0)).alias("grand_slam"),
    ).select(PLACING_COLUMNS)


@dataclass(frozen=True, slots=True)
class Shown:
    """One hand or crib shown in a deal of the night."""

    player: str
    game_key: str
    round: str | None
    deal: int
    what: str  # "hand" or "crib"
    cards: tuple[Card, ...]
    starter: Card


def special_of(points: int) -> str | None:
    """The side-pot name of a show worth ``points``: ``29``, ``28``, ``24+``, or None under 24."""
    if points in (28, 29):
        return str(points)
    return "24+" if points >= SPECIAL_POINTS else None


def four_of_a_kind(cards: tuple[Card, ...], starter: Card) -> bool:
    """Four cards of one rank among the cards and the starter."""
    return max(Counter(rank(c) for c in (*cards, starter)).values()) >= FOUR


def special_hands(shown: list[Shown]) -> pl.DataFrame:
    """The shows worth 24 or more or holding four of a kind, scored again here, with :data:`SPECIAL_COLUMNS`,
    in game and deal order."""
    rows = []
    for s in shown:
        points = score_show_total(s.cards, s.starter, crib=s.what == "crib")
        special, quads = special_of(points), four_of_a_kind(s.cards, s.starter)
        if special or quads:
            rows.append((s.player, s.game_key, s.round, s.deal, s.what, " ".join(format_card(c) for c in s.cards),
                         format_card(s.starter), points, special, quads))  # fmt: skip
    schema = dict(zip(SPECIAL_COLUMNS, (pl.String, pl.String, pl.String, pl.Int64, pl.String, pl.String,
                                        pl.String, pl.Int64, pl.String, pl.Boolean), strict=True))  # fmt: skip
    return pl.DataFrame(rows, schema=schema, orient="row")


def _kept(dealt: str, discards: str) -> tuple[Card, ...]:
    laid = set(parse_cards(discards)) if discards else set()
    return tuple(c for c in parse_cards(dealt) if c not in laid)


def load_shown(conn: Connection, event: str | None, day: Date) -> list[Shown]:
    """Every hand and crib shown in the stored deals of a night (the game's deals in order, seats in order). A
    hand the game ended before is not shown; the crib is every player's discards and the crib card."""
    dp, d, g, e, p = t.deal_player_table, t.deal_table, t.game_table, t.event_table, t.player_table
    event_is = e.c.name.is_(None) if event is None else e.c.name_key == event_key(event)
    query = (
        sa.select(g.c.id, g.c.game_key, g.c.round, d.c.number, d.c.starter, d.c.crib_card, p.c.name, dp.c.role,
                  dp.c.dealt, dp.c.discards, dp.c.hand_due, dp.c.crib_due)
        .select_from(
            dp.join(d, d.c.id == dp.c.deal_id)
            .join(g, g.c.id == dp.c.game_id)
            .outerjoin(e, e.c.id == g.c.event_id)
            .join(p, p.c.id == dp.c.player_id)
        )
        .where(g.c.date == day, event_is)
        .order_by(g.c.id, d.c.number, dp.c.seat)
    )
    shown: list[Shown] = []
    cribs: dict[tuple[int, int], _Crib] = {}  # per game and deal
    for row in conn.execute(query):
        starter = parse_cards(row.starter)[0]
        if row.hand_due is not None:
            shown.append(Shown(row.name, row.game_key, row.round, row.number, "hand",
                               _kept(row.dealt, row.discards), starter))  # fmt: skip
        crib = cribs.setdefault((row.id, row.number), _Crib())
        crib.cards.extend(parse_cards(row.discards) if row.discards else [])
        if row.role == "dealer" and row.crib_due is not None:
            crib.holder = Shown(row.name, row.game_key, row.round, row.number, "crib", (), starter)
            crib.cards.extend(parse_cards(row.crib_card) if row.crib_card else [])
    for crib in cribs.values():
        if crib.holder is not None:
            shown.append(replace(crib.holder, cards=tuple(crib.cards)))
    return shown


@dataclass(slots=True)
class _Crib:
    """A deal's crib while its rows are read: the cards laid to it, and its holder's show once shown."""

    cards: list[Card] = field(default_factory=list)
    holder: Shown | None = None


@dataclass(slots=True)
class Night:
    """A night's placings and special hands."""

    event: str | None
    date: Date
    placings: pl.DataFrame
    special_hands: pl.DataFrame
    scorecards: pl.DataFrame  # the night's scorecard findings: cards of a game that disagree

    @property
    def grand_slams(self) -> list[str]:
        """The players who won every game of the night."""
        return self.placings.filter(pl.col("grand_slam"))["player"].to_list()


def load_night(conn: Connection, event: str | None, day: Date) -> Night:
    """The night of ``event`` (case ignored) on ``day``."""
    totals = load_night_totals(conn, StatsFilter(event=event, since=day, until=day))
    if event is None:
        totals = totals.filter(pl.col("event").is_null())
    shown = load_shown(conn, event, day)
    order = {key: i for i, key in enumerate(dict.fromkeys(s.game_key for s in shown))}
    hands = special_hands(shown).sort(pl.col("game_key").replace_strict(order, default=len(order)), "deal",
                                      pl.col("what") == "crib")  # fmt: skip
    name = totals["event"][0] if totals.height else event
    return Night(name, day, placings(totals), hands, _scorecards(conn, name, day))


SCORECARD_COLUMNS: tuple[str, ...] = ("game", "player", "claimed", "due", "message")


def _scorecards(conn: Connection, event: str | None, day: Date) -> pl.DataFrame:
    """The ``scorecard`` findings stored for the night (its two players' cards of a game disagree)."""
    from cribstats.store.matches import scorecard_findings

    found = scorecard_findings(conn, event=event, date=day) if event is not None else []
    rows = [(f.game, f.player, f.claimed, f.due, f.message) for f in found]
    schema = dict(zip(SCORECARD_COLUMNS, (pl.String, pl.String, pl.Int64, pl.Int64, pl.String), strict=True))
    return pl.DataFrame(rows, schema=schema, orient="row")


def latest_night(conn: Connection, filters: StatsFilter) -> tuple[str | None, Date] | None:
    """The event and date of the latest night among the covered games (the latest date; of its events, the one
    named first), or None when no covered game is dated."""
    totals = load_night_totals(conn, filters)
    if totals.height == 0:
        return None
    last = totals.filter(pl.col("date") == pl.col("date").max()).sort(pl.col("event").fill_null(""))
    return last["event"][0], last["date"][0]
