"""The figures of ``cribstats stats``: named polars expressions over the stored totals (``StatsFrames``).

The counts and sums behind them are worked out per game and player when a game is stored
(:mod:`cribstats.store.totals`) and added up per player in the database (``frames.player_totals_query``);
polars divides and ranks.

Definitions (DESIGN.md, "Statistics"; the choices where it is silent are marked *decided*):

* **Results** follow the result the table played to (claims and muggins takings: ``game_player.won``).
  *Decided:* a game in which no side reached the target (an unfinished log, a result-only record naming no
  winner) counts for no one's games, wins, losses, skunks, game points or spread; its deals still count. A
  record that names its winner short of the target (a tally row of 110-100) counts as recorded.
* **The first dealer's win rate:** ``first_dealer_games`` are the decided games the player dealt first in (the
  dealer of the game's first deal; partners: the player, not the side), ``first_dealer_wins`` those the player
  won, and ``first_dealer_win_rate`` the one over the other (null when there are none). *Decided:* a game
  stored without its deals (a tally sheet's or scorecard's result) has no known first dealer and counts in
  neither.
* **Skunks:** a game's level is the highest that applies (a double is not also a single). A winner's skunk is the
  highest level among the losers (three-player: the worse-beaten loser); a loser's is their own.
* **Game points** (American Cribbage Congress): 2 for a win, 3 for a skunk win of any level, 0 for a loss.
* **Spread:** *decided:* the winner's score counts as the target (pegging out stops the game there), so a losing
  side's margin is ``target - its final score`` (never below 0; 0 when its score is unknown). The margin is taken
  from each losing side and the winner is given the sum over losing sides (three-player: the margin over each
  loser). Partners share their side's result: each partner gets the side's game points and spread. In a
  giveaway game (the side at the target loses) each winning side is given its own distance under the target and
  the loser minus their sum.
  ``spread_per_game`` is ``spread`` divided by ``games`` (decided games); null when there are none.
* **Deal figures** (``deals``, ``deals_as_*``, the ``*_per_deal`` averages) are over completed deals only; every
  non-dealer is a pone. An average is the points due divided by the completed deals where those points are known
  (a deal without a logged play has no pegging figure); null when there are none.
* ``heels`` is the points due for his heels over every deal.
* *Decided:* a misdealt deal (one with a ``bad-deal`` finding: a card dealt twice, the wrong number of cards, a
  dealer out of rotation, a crib card missing or extra) counts in no per-deal figure: not in ``deals``, the
  averages, ``heels``, the hand distribution or ``missed_per_deal``, since its cards were not a possible deal.
  The game's result, game points, spread and skunks stand, and its findings still count in ``points_missed``,
  ``points_overclaimed`` and ``illegal_plays`` (the audit found them).
* ``points_missed`` / ``points_overclaimed``: *decided:* from the audit's findings, over every deal: the sum of
  ``due - claimed`` of the player's ``missed`` findings and of ``claimed - due`` of their ``overclaim`` and
  ``muggins-call`` findings (pegging, heels, hand and crib claims, each claim on its own, so a deal's misses and
  over-claims never cancel; a muggins call taking more than its victim missed is, by the rules, an over-claim by
  the caller, of what it took beyond that).
  ``missed_per_deal`` is the points missed in completed deals divided by ``deals``.
* ``accuracy``: the share of the points due that the player claimed, an over-claim counting as no more than was
  due: ``(due - missed) / due``, where ``due`` is the points due in the play (where the play is logged), the
  hands and the crib (as dealer) over the completed deals that are not misdealt (the deals of the per-deal
  figures: ``pegged_due_*``, ``hand_due_*``, ``crib_due``), and ``missed`` the ``due - claimed`` of the player's
  ``missed`` findings of those phases (:data:`ACCURACY_PHASES`) in those same deals (``missed_totals``). Null when
  nothing was due. *Decided:* his heels are left out of both: ``heels`` is counted over every deal, not only the
  completed ones (the deal the game ends in included), so its due and its misses are not over the deals the other
  phases are. Over-claims lower nothing (they are ``points_overclaimed``): a player who claims everything due
  and more has an accuracy of 1.
* ``illegal_plays`` counts the player's findings of the kinds in :data:`ILLEGAL_KINDS`, over every deal.

>>> import polars as pl
>>> totals = pl.DataFrame({"wins": [3, 0], "games": [4, 0]})
>>> totals.select(ratio(pl.col("wins"), pl.col("games"))).to_series().to_list()
[0.75, None]
"""

from __future__ import annotations

import polars as pl

from cribstats.stats.frames import SKUNK_NAMES, StatsFrames
from cribstats.store.totals import ILLEGAL_KINDS as ILLEGAL_KINDS  # counted per game when a game is stored

CLAIM_PHASES: tuple[str, ...] = ("play", "heels", "hand", "crib")
ACCURACY_PHASES: tuple[str, ...] = ("play", "hand", "crib")
"""The claim phases ``accuracy`` is over: his heels are counted over every deal, the others over completed ones."""
DUE_COLUMNS: tuple[str, ...] = (
    "pegged_due_dealer", "pegged_due_pone", "hand_due_dealer", "hand_due_pone", "crib_due",
)  # fmt: skip
"""The totals of the points due in the phases of :data:`ACCURACY_PHASES` (completed deals, not misdealt)."""

RESULT_COLUMNS = (
    "games", "wins", "losses", "win_rate", "first_dealer_games", "first_dealer_wins", "first_dealer_win_rate",
    "game_points", "spread", "spread_per_game",
    "skunks_won", "double_skunks_won", "triple_skunks_won", "skunks_lost", "double_skunks_lost",
    "triple_skunks_lost",
)  # fmt: skip
DEAL_COLUMNS = (
    "deals", "deals_as_dealer", "deals_as_pone", "pegging_per_deal_dealer", "pegging_per_deal_pone",
    "hand_per_deal_dealer", "hand_per_deal_pone", "crib_per_deal", "heels",
)  # fmt: skip
FINDING_COLUMNS = ("points_missed", "points_overclaimed", "missed_per_deal", "accuracy", "illegal_plays")
PLAYER_COLUMNS: tuple[str, ...] = ("player", *RESULT_COLUMNS, *DEAL_COLUMNS, *FINDING_COLUMNS)
CLUB_COLUMNS: tuple[str, ...] = (
    "matches", "matches_won", "matches_lost", "match_win_rate", "match_points", "rating",
)  # fmt: skip
"""Added to ``stats`` by :func:`cribstats.stats.club.with_club_columns`: finished matches, won, lost, the match win
rate and match points (:mod:`cribstats.stats.matches`), and the rating after the covered games."""
DISCARD_COLUMNS = ("discard_loss_per_deal_dealer", "discard_loss_per_deal_pone")  # stats.discards fills them
STATS_COLUMNS: tuple[str, ...] = (*PLAYER_COLUMNS, *DISCARD_COLUMNS, *CLUB_COLUMNS)
RATE_COLUMNS = frozenset(
    {"win_rate", "first_dealer_win_rate", "pegging_per_deal_dealer", "pegging_per_deal_pone",
     "hand_per_deal_dealer", "hand_per_deal_pone", "crib_per_deal", "missed_per_deal", "spread_per_game",
     "accuracy"}
)  # fmt: skip


def ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """``numerator / denominator`` as a float, null when the denominator is 0."""
    return pl.when(denominator > 0).then(numerator / denominator).otherwise(None).cast(pl.Float64)


def _total(column: str, keep: pl.Expr | None = None) -> pl.Expr:
    """The sum of a total column over the groups ``keep`` selects (all of them when None), as an Int64."""
    values = pl.col(column) if keep is None else pl.col(column).filter(keep)
    return values.sum().cast(pl.Int64)


games_n = pl.col("games")
wins_n = pl.col("wins")
deals_n = pl.col("deals")
due_n = pl.sum_horizontal(DUE_COLUMNS)

RATES: dict[str, pl.Expr] = {
    "losses": games_n - wins_n,
    "win_rate": ratio(wins_n, games_n),
    "first_dealer_win_rate": ratio(pl.col("first_dealer_wins"), pl.col("first_dealer_games")),
    "pegging_per_deal_dealer": ratio(pl.col("pegged_due_dealer"), pl.col("pegged_deals_dealer")),
    "pegging_per_deal_pone": ratio(pl.col("pegged_due_pone"), pl.col("pegged_deals_pone")),
    "hand_per_deal_dealer": ratio(pl.col("hand_due_dealer"), pl.col("hand_deals_dealer")),
    "hand_per_deal_pone": ratio(pl.col("hand_due_pone"), pl.col("hand_deals_pone")),
    "crib_per_deal": ratio(pl.col("crib_due"), pl.col("crib_deals")),
    "heels": pl.col("heels_due"),
    "missed_per_deal": ratio(pl.col("missed_completed"), deals_n),
    "spread_per_game": ratio(pl.col("spread"), games_n),
    "accuracy": ratio(due_n - pl.col("missed_counted"), due_n),
}
"""The figures worked out from a player's totals (``frames.player_totals``, with ``missed_counted`` from
``frames.missed_totals``: :func:`counted_missed`): each average is the points due divided by the completed deals
(in the role) where those points are known."""


def player_totals(frames: StatsFrames) -> pl.LazyFrame:
    """The per player totals with every count filled (0 for none), in name order."""
    counts = [c for c, dtype in frames.player_totals.collect_schema().items() if dtype == pl.Int64]
    return frames.player_totals.with_columns(pl.col(counts).fill_null(0)).sort(pl.col("name_key"), "player_id")


def counted_missed(frames: StatsFrames) -> pl.LazyFrame:
    """Per player: ``missed_counted``, the points missed in the phases of :data:`ACCURACY_PHASES` in completed
    deals that are not misdealt (``frames.missed_totals``), for ``accuracy``."""
    return (
        detail(frames.missed_totals, "missed_totals")
        .filter(pl.col("phase").is_in(ACCURACY_PHASES))
        .group_by("player_id")
        .agg(_total("missed").alias("missed_counted"))
    )


def player_stats(frames: StatsFrames) -> pl.LazyFrame:
    """One row per player with every column of :data:`PLAYER_COLUMNS`, sorted by name.

    :raises ValueError: when the frames were read without ``missed_totals`` (``load_frames(..., missed=False)``).
    """
    return (
        player_totals(frames)
        .join(counted_missed(frames), on="player_id", how="left", maintain_order="left")
        .with_columns(pl.col("missed_counted").fill_null(0))
        .with_columns(**RATES)
        .select(PLAYER_COLUMNS)
    )


# --- standings -------------------------------------------------------------------------------------------------

STANDINGS_COLUMNS: tuple[str, ...] = (
    "rank", "player", "games", "wins", "losses", "game_points", "spread", "skunk_wins", "skunk_losses",
)  # fmt: skip


def standings(frames: StatsFrames) -> pl.DataFrame:
    """The ACC table: players with games, ranked by game points, then games won, then spread (all descending).

    Partners of four-player games stand as one side ("Abe & Cal") when the frames hold ``side_totals``.
    Players level on all three share a rank (1, 2, 2, 4); within a rank they are listed by name.
    """
    sides = player_totals(frames) if frames.side_totals is None else frames.side_totals.with_columns(
        pl.col(c).fill_null(0) for c in ("games", "wins", "game_points", "spread"))
    table = (
        sides
        .filter(games_n > 0)
        .with_columns(
            RATES["losses"].alias("losses"),
            pl.sum_horizontal(f"{n}_won" for n in SKUNK_NAMES.values()).cast(pl.Int64).alias("skunk_wins"),
            pl.sum_horizontal(f"{n}_lost" for n in SKUNK_NAMES.values()).cast(pl.Int64).alias("skunk_losses"),
        )
        .sort(["game_points", "wins", "spread", "name_key"], descending=[True, True, True, False])
        .collect()
    )
    keys = list(zip(table["game_points"], table["wins"], table["spread"], strict=True))
    ranks = [1 + next(i for i, k in enumerate(keys) if k == key) for key in keys]
    return table.with_columns(pl.Series("rank", ranks, dtype=pl.Int64)).select(STANDINGS_COLUMNS)


# --- the figures behind the charts ------------------------------------------------------------------------------


def detail(frame: pl.LazyFrame | None, name: str) -> pl.LazyFrame:
    """A frame only the charts and the report read, which ``load_frames(..., detail=False)`` leaves out
    (``missed_totals``, which ``stats`` reads too: only with ``missed=False``).

    :raises ValueError: when the frames were read without it.
    """
    if frame is None:
        how = "missed=True" if name == "missed_totals" else "detail=True"
        raise ValueError(f"the frames were read without {name}: read them with {how}")
    return frame


def skunk_trend(frames: StatsFrames) -> pl.DataFrame:
    """Per month (dated, decided games): games, skunked games (any level), double or worse, and their rates."""
    return (
        detail(frames.game_results, "game_results")
        .filter(pl.col("date").is_not_null())
        .with_columns(pl.col("date").dt.truncate("1mo").alias("month"))
        .group_by("month")
        .agg(
            _total("games").alias("games"),
            _total("games", pl.col("game_skunk") >= 1).alias("skunked"),
            _total("games", pl.col("game_skunk") >= 2).alias("double_or_worse"),
        )
        .with_columns(
            (pl.col("skunked") / pl.col("games")).alias("skunk_rate"),
            (pl.col("double_or_worse") / pl.col("games")).alias("double_rate"),
        )
        .sort("month")
        .collect()
    )


def hand_points(frames: StatsFrames, *, hand_size: int = 4) -> pl.DataFrame:
    """How often each hand total (points due, the player's own hand) came up in games whose hands hold
    ``hand_size`` cards (four: six-card, three- and four-player, comparable with the random-hand table)."""
    return (
        detail(frames.hand_totals, "hand_totals")
        .filter(pl.col("hand_size") == hand_size)
        .group_by("points")
        .agg(_total("hands").alias("hands"))
        .with_columns((pl.col("hands") / pl.col("hands").sum()).alias("share"))
        .sort("points")
        .collect()
    )


def missed_by_phase(frames: StatsFrames) -> pl.DataFrame:
    """Per player and claim phase: points missed in completed deals, per completed deal (players with deals)."""
    grid = (
        player_totals(frames)
        .select("player_id", "player", "name_key", "deals")
        .filter(deals_n > 0)
        .join(pl.LazyFrame({"phase": list(CLAIM_PHASES)}), how="cross")
    )
    missed = (
        detail(frames.missed_totals, "missed_totals")
        .group_by("player_id", "phase")
        .agg(_total("missed").alias("missed"))
    )
    return (
        grid.join(missed, on=["player_id", "phase"], how="left")
        .with_columns(pl.col("missed").fill_null(0))
        .with_columns((pl.col("missed") / pl.col("deals")).alias("per_deal"))
        .sort("name_key", "player_id", pl.col("phase").replace_strict({p: i for i, p in enumerate(CLAIM_PHASES)}))
        .select("player", "phase", "missed", "deals", "per_deal")
        .collect()
    )


def findings_by_kind(frames: StatsFrames) -> pl.DataFrame:
    """Findings per kind (game-level findings included): kind, n; the most frequent first."""
    return (
        detail(frames.finding_totals, "finding_totals")
        .group_by("kind")
        .agg(_total("findings").alias("n"))
        .sort(["n", "kind"], descending=[True, False])
        .collect()
    )


def load_stats(frames: StatsFrames) -> pl.DataFrame:
    """:func:`player_stats`, collected."""
    return player_stats(frames).collect()
