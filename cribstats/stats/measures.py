"""The figures of ``cribstats stats``: named polars expressions over the stored facts (``StatsFrames``).

Definitions (DESIGN.md, "Statistics"; the choices where it is silent are marked *decided*):

* **Results** follow the result the table played to (claims and muggins takings: ``game_player.won``).
  *Decided:* a game in which no side reached the target (an unfinished log, a result-only record naming no
  winner) counts for no one's games, wins, losses, skunks, game points or spread; its deals still count.
* **Skunks:** a game's level is the highest that applies (a double is not also a single). A winner's skunk is the
  highest level among the losers (three-player: the worse-beaten loser); a loser's is their own.
* **Game points** (American Cribbage Congress): 2 for a win, 3 for a skunk win of any level, 0 for a loss.
* **Spread:** *decided:* the winner's score counts as the target (pegging out stops the game there), so a losing
  side's margin is ``target - its final score`` (never below 0; 0 when its score is unknown). The margin is taken
  from each losing side and the winner is given the sum over losing sides (three-player: the margin over each
  loser). Partners share their side's result: each partner gets the side's game points and spread.
* **Deal figures** (``deals``, ``deals_as_*``, the ``*_per_deal`` averages) are over completed deals only; every
  non-dealer is a pone. An average is the points due divided by the completed deals where those points are known
  (a deal without a logged play has no pegging figure); null when there are none.
* ``heels`` is the points due for his heels over every deal.
* ``points_missed`` / ``points_overclaimed``: *decided:* from the audit's findings, over every deal: the sum of
  ``due - claimed`` of the player's ``missed`` findings and of ``claimed - due`` of their ``overclaim`` findings
  (pegging, heels, hand and crib claims, each claim on its own, so a deal's misses and over-claims never cancel).
  ``missed_per_deal`` is the points missed in completed deals divided by ``deals``.
* ``illegal_plays`` counts the player's findings of the kinds in :data:`ILLEGAL_KINDS`, over every deal.

>>> import polars as pl
>>> results = pl.DataFrame({"won": [True, True, False], "game_skunk": [0, 2, 0]})
>>> results.select(game_points_expr).to_series().to_list()
[2, 3, 0]
"""

from __future__ import annotations

import polars as pl

from cribstats.stats.frames import StatsFrames

ILLEGAL_KINDS: tuple[str, ...] = ("illegal-card", "over-31", "false-go", "out-of-turn", "unplayed")
SKUNK_NAMES: dict[int, str] = {1: "skunks", 2: "double_skunks", 3: "triple_skunks"}
CLAIM_PHASES: tuple[str, ...] = ("play", "heels", "hand", "crib")

RESULT_COLUMNS = (
    "games", "wins", "losses", "win_rate", "game_points", "spread",
    "skunks_won", "double_skunks_won", "triple_skunks_won", "skunks_lost", "double_skunks_lost",
    "triple_skunks_lost",
)  # fmt: skip
DEAL_COLUMNS = (
    "deals", "deals_as_dealer", "deals_as_pone", "pegging_per_deal_dealer", "pegging_per_deal_pone",
    "hand_per_deal_dealer", "hand_per_deal_pone", "crib_per_deal", "heels",
)  # fmt: skip
FINDING_COLUMNS = ("points_missed", "points_overclaimed", "missed_per_deal", "illegal_plays")
STATS_COLUMNS: tuple[str, ...] = ("player", *RESULT_COLUMNS, *DEAL_COLUMNS, *FINDING_COLUMNS)
RATE_COLUMNS = frozenset(
    {"win_rate", "pegging_per_deal_dealer", "pegging_per_deal_pone", "hand_per_deal_dealer", "hand_per_deal_pone",
     "crib_per_deal", "missed_per_deal"}
)  # fmt: skip

won = pl.col("won")
completed = pl.col("completed")
is_dealer = pl.col("role") == "dealer"
is_pone = pl.col("role") == "pone"

# --- results: over game_players of decided games, with "game_skunk" (the winner's level) and "margin" ----------

game_points_expr = pl.when(won).then(pl.when(pl.col("game_skunk") >= 1).then(3).otherwise(2)).otherwise(0)
"""ACC game points of one result."""
loss_margin_expr = (
    pl.when(~won)
    .then((pl.col("target") - pl.col("final_score_claimed")).clip(lower_bound=0).fill_null(0))
    .otherwise(0)
)
"""How far a losing side fell short of the target (0 for a winner)."""
spread_expr = pl.when(won).then(pl.col("win_margin").fill_null(0)).otherwise(-pl.col("loss_margin"))
"""The winner's margin over every losing side, or minus the loser's own margin."""


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """``numerator / denominator`` as a float, null when the denominator is 0."""
    return pl.when(denominator > 0).then(numerator / denominator).otherwise(None).cast(pl.Float64)


def _per_deal(column: str, role: pl.Expr | None) -> pl.Expr:
    """Points due per completed deal (in a role) where the points are known."""
    keep = completed if role is None else completed & role
    values = pl.col(column).filter(keep)
    return _ratio(values.sum(), values.count())


def skunk_count(level: int, *, winner: bool) -> pl.Expr:
    """Games won (or lost) at exactly this skunk level."""
    if winner:
        return (won & (pl.col("game_skunk") == level)).sum().cast(pl.Int64)
    return (~won & (pl.col("skunk_level") == level)).sum().cast(pl.Int64)


def results(frames: StatsFrames) -> pl.LazyFrame:
    """Per game and player of a decided game: won, game_skunk, loss_margin, win_margin, game_points, spread."""
    gp = frames.game_players.join(frames.games.select("game_id", "target"), on="game_id", how="inner")
    gp = gp.filter(won.any().over("game_id")).with_columns(
        pl.col("skunk_level").max().over("game_id").alias("game_skunk"),
        loss_margin_expr.alias("loss_margin"),
    )
    sides = (
        gp.filter(~won)
        .group_by("game_id", "team")
        .agg(pl.col("loss_margin").first())
        .group_by("game_id")
        .agg(pl.col("loss_margin").sum().alias("win_margin"))
    )
    return gp.join(sides, on="game_id", how="left").with_columns(
        game_points_expr.alias("game_points"), spread_expr.alias("spread")
    )


def player_results(frames: StatsFrames) -> pl.LazyFrame:
    """Per player: games, wins, losses, win rate, game points, spread, skunks won and lost by level."""
    games = pl.len().cast(pl.Int64)
    wins = won.sum().cast(pl.Int64)
    return (
        results(frames)
        .group_by("player_id")
        .agg(
            games.alias("games"),
            wins.alias("wins"),
            (games - wins).alias("losses"),
            _ratio(wins, games).alias("win_rate"),
            pl.col("game_points").sum().cast(pl.Int64),
            pl.col("spread").sum().cast(pl.Int64),
            *[skunk_count(level, winner=True).alias(f"{name}_won") for level, name in SKUNK_NAMES.items()],
            *[skunk_count(level, winner=False).alias(f"{name}_lost") for level, name in SKUNK_NAMES.items()],
        )
    )


def player_deals(frames: StatsFrames) -> pl.LazyFrame:
    """Per player: completed deals by role, pegging/hand/crib points due per deal, his heels."""
    return frames.deal_players.group_by("player_id").agg(
        completed.sum().cast(pl.Int64).alias("deals"),
        (completed & is_dealer).sum().cast(pl.Int64).alias("deals_as_dealer"),
        (completed & is_pone).sum().cast(pl.Int64).alias("deals_as_pone"),
        _per_deal("pegged_due", is_dealer).alias("pegging_per_deal_dealer"),
        _per_deal("pegged_due", is_pone).alias("pegging_per_deal_pone"),
        _per_deal("hand_due", is_dealer).alias("hand_per_deal_dealer"),
        _per_deal("hand_due", is_pone).alias("hand_per_deal_pone"),
        _per_deal("crib_due", is_dealer).alias("crib_per_deal"),
        pl.col("heels_due").sum().cast(pl.Int64).alias("heels"),
    )


missed_points = pl.when(pl.col("kind") == "missed").then(pl.col("due") - pl.col("claimed")).otherwise(0)
"""Points a ``missed`` finding says were left on the board."""
overclaimed_points = pl.when(pl.col("kind") == "overclaim").then(pl.col("claimed") - pl.col("due")).otherwise(0)
"""Points an ``overclaim`` finding says were taken beyond what was due."""
is_illegal = pl.col("kind").is_in(ILLEGAL_KINDS)


def player_findings(frames: StatsFrames) -> pl.LazyFrame:
    """Per player: points missed and over-claimed, points missed in completed deals, illegal plays."""
    return (
        frames.findings.filter(pl.col("player_id").is_not_null())
        .group_by("player_id")
        .agg(
            missed_points.sum().fill_null(0).cast(pl.Int64).alias("points_missed"),
            overclaimed_points.sum().fill_null(0).cast(pl.Int64).alias("points_overclaimed"),
            missed_points.filter(completed).sum().fill_null(0).cast(pl.Int64).alias("missed_completed"),
            is_illegal.sum().cast(pl.Int64).alias("illegal_plays"),
        )
    )


def players(frames: StatsFrames) -> pl.LazyFrame:
    """The players the filter covers: player_id, player (name), name_key."""
    named = frames.game_players.select("player_id", "player", "name_key").unique("player_id")
    if frames.filters.player_key is not None:
        named = named.filter(pl.col("name_key") == frames.filters.player_key)
    else:
        seen = pl.concat(
            [frames.game_players.select("player_id"), frames.deal_players.select("player_id")]
        ).unique()
        named = named.join(seen, on="player_id", how="semi")
    return named


def player_stats(frames: StatsFrames) -> pl.LazyFrame:
    """One row per player with every column of :data:`STATS_COLUMNS`, sorted by name."""
    table = (
        players(frames)
        .join(player_results(frames), on="player_id", how="left")
        .join(player_deals(frames), on="player_id", how="left")
        .join(player_findings(frames), on="player_id", how="left")
    )
    counts = [c for c in STATS_COLUMNS[1:] if c not in RATE_COLUMNS] + ["missed_completed"]
    return (
        table.with_columns(pl.col(counts).fill_null(0).cast(pl.Int64))
        .with_columns(_ratio(pl.col("missed_completed"), pl.col("deals")).alias("missed_per_deal"))
        .sort(pl.col("name_key"), pl.col("player_id"))
        .select(STATS_COLUMNS)
    )


# --- standings -------------------------------------------------------------------------------------------------

STANDINGS_COLUMNS: tuple[str, ...] = (
    "rank", "player", "games", "wins", "losses", "game_points", "spread", "skunk_wins", "skunk_losses",
)  # fmt: skip


def standings(frames: StatsFrames) -> pl.DataFrame:
    """The ACC table: players with games, ranked by game points, then games won, then spread (all descending).

    Players level on all three share a rank (1, 2, 2, 4); within a rank they are listed by name.
    """
    table = (
        players(frames)
        .join(player_results(frames), on="player_id", how="inner")
        .with_columns(
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


def skunk_trend(frames: StatsFrames) -> pl.DataFrame:
    """Per month (dated, decided games): games, skunked games (any level), double or worse, and their rates."""
    per_game = (
        results(frames)
        .group_by("game_id")
        .agg(pl.col("game_skunk").max())
        .join(frames.games.select("game_id", "date"), on="game_id")
        .filter(pl.col("date").is_not_null())
        .with_columns(pl.col("date").dt.truncate("1mo").alias("month"))
    )
    return (
        per_game.group_by("month")
        .agg(
            pl.len().cast(pl.Int64).alias("games"),
            (pl.col("game_skunk") >= 1).sum().cast(pl.Int64).alias("skunked"),
            (pl.col("game_skunk") >= 2).sum().cast(pl.Int64).alias("double_or_worse"),
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
        frames.deal_players.filter(pl.col("hand_due").is_not_null() & (pl.col("hand_size") == hand_size))
        .group_by("hand_due")
        .agg(pl.len().cast(pl.Int64).alias("hands"))
        .rename({"hand_due": "points"})
        .with_columns((pl.col("hands") / pl.col("hands").sum()).alias("share"))
        .sort("points")
        .collect()
    )


def missed_by_phase(frames: StatsFrames) -> pl.DataFrame:
    """Per player and claim phase: points missed in completed deals, per completed deal (players with deals)."""
    deals = player_deals(frames).select("player_id", "deals").filter(pl.col("deals") > 0)
    grid = players(frames).join(deals, on="player_id").join(
        pl.LazyFrame({"phase": list(CLAIM_PHASES)}), how="cross"
    )
    missed = (
        frames.findings.filter((pl.col("kind") == "missed") & completed)
        .group_by("player_id", "phase")
        .agg(missed_points.sum().cast(pl.Int64).alias("missed"))
    )
    return (
        grid.join(missed, on=["player_id", "phase"], how="left")
        .with_columns(pl.col("missed").fill_null(0))
        .with_columns((pl.col("missed") / pl.col("deals")).alias("per_deal"))
        .sort("name_key", "player_id", pl.col("phase").replace_strict({p: i for i, p in enumerate(CLAIM_PHASES)}))
        .select("player", "phase", "missed", "deals", "per_deal")
        .collect()
    )


def load_stats(frames: StatsFrames) -> pl.DataFrame:
    """:func:`player_stats`, collected."""
    return player_stats(frames).collect()
