"""Head-to-head records: games (and, where match records are stored, matches) won and lost against each opponent.

*Decided:* an opponent is every player of another side in the same game (four-player: both opponents count, for
each partner). A game counts between two players when one of them won it: a three-player game's two losers have
no result between them, nor do the two winners of a three-player giveaway game. The spread between them is the
winner's margin over the loser's side (``target`` less the loser's final score, as in ``stats``; in a giveaway game
the winner's own distance under the target), added to the winner's record and taken from the loser's; a skunk
given is a win over a player whose side was skunked (any level), a skunk taken the other way round.

>>> import polars as pl
>>> pairs = pl.DataFrame({"player": ["Ann"], "name_key": ["ann"], "opponent": ["Bob"], "opponent_key": ["bob"],
...                       "games": [3], "wins": [2], "spread": [25], "skunks_given": [1], "skunks_taken": [0]})
>>> head_to_head(pairs).row(0, named=True)["win_rate"]
0.6666666666666666
"""

from __future__ import annotations

import polars as pl

from cribstats.store.tables import name_key

HEAD_TO_HEAD_COLUMNS: tuple[str, ...] = (
    "player", "opponent", "games", "wins", "losses", "win_rate", "spread", "skunks_given", "skunks_taken",
)  # fmt: skip
MATCH_COLUMNS: tuple[str, ...] = ("matches", "matches_won", "matches_lost")


def head_to_head(pairs: pl.DataFrame, player: str | None = None,
                 matches: pl.DataFrame | None = None) -> pl.DataFrame:  # fmt: skip
    """One row per player and opponent from the pair totals (:func:`cribstats.stats.results.load_pair_totals`),
    in name order; only ``player``'s rows when one is named (any spelling of the name). With ``matches`` (pair
    rows with both names, as the pairs have them, and ``matches``, ``matches_won``, ``matches_lost``), the match
    record against each opponent too (an opponent met only in matches gets a row with no games)."""
    table = pairs
    if player is not None:
        table = table.filter(pl.col("name_key") == name_key(player))
    table = table.with_columns(
        (pl.col("games") - pl.col("wins")).alias("losses"),
        pl.when(pl.col("games") > 0).then(pl.col("wins") / pl.col("games")).alias("win_rate"),
    )
    columns = list(HEAD_TO_HEAD_COLUMNS)
    if matches is not None:
        if player is not None:
            matches = matches.filter(pl.col("name_key") == name_key(player))
        keys = ["player_id", "opponent_id", "player", "name_key", "opponent", "opponent_key"]
        table = table.join(matches, on=keys, how="full", coalesce=True)
        counts = ["games", "wins", "losses", "spread", "skunks_given", "skunks_taken", *MATCH_COLUMNS]
        table = table.with_columns(pl.col(counts).fill_null(0))
        table = table.with_columns(
            pl.when(pl.col("games") > 0).then(pl.col("wins") / pl.col("games")).alias("win_rate")
        )
        table = table.with_columns(pl.col(counts).fill_null(0))
        columns += MATCH_COLUMNS
    return table.sort("name_key", "opponent_key").select(columns)


def most_met(table: pl.DataFrame, most: int, keep: str | None = None) -> tuple[pl.DataFrame, int]:
    """The head-to-head table among the ``most`` players with the most games between them (ties by name), with
    ``keep`` among them when it is a player of the table (any spelling), and how many players the whole table
    has: a matrix of every player of a large club would be its square.

    >>> rows = pl.DataFrame({"player": ["Ann", "Bob", "Bob", "Cy"], "opponent": ["Bob", "Ann", "Cy", "Bob"],
    ...                      "games": [5, 5, 1, 1]})
    >>> kept, players = most_met(rows, 2)
    >>> sorted(set(kept["player"])), players
    (['Ann', 'Bob'], 3)
    >>> sorted(set(most_met(rows, 2, keep="cy")[0]["player"]))
    ['Bob', 'Cy']
    """
    played = table.group_by("player").agg(pl.col("games").sum()).rows()
    if len(played) <= most:
        return table, len(played)
    ranked = [p for p, _ in sorted(played, key=lambda row: (-row[1], name_key(row[0]), row[0]))]
    chosen = ranked[:most]
    wanted = next((p for p in ranked if keep is not None and name_key(p) == name_key(keep)), None)
    if wanted is not None and wanted not in chosen:
        chosen[-1] = wanted
    return table.filter(pl.col("player").is_in(chosen) & pl.col("opponent").is_in(chosen)), len(played)


def matrix(table: pl.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The head-to-head table as a grid for people: the players (rows and columns, in name order) and, per row,
    ``won-lost`` against each column's player (empty on the diagonal and where they never met)."""
    names = sorted(set(table["player"]) | set(table["opponent"]), key=lambda n: (name_key(n), n))
    cells = {(r["player"], r["opponent"]): f"{r['wins']}-{r['losses']}" for r in table.iter_rows(named=True)}
    return names, [[cells.get((a, b), "") for b in names] for a in names]
