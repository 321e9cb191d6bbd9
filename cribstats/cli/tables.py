"""Tables for people: a frame's columns as a rich table for the terminal, with short headings, values as people
read them ("-" for none, "yes" or "no" for a flag) and user text as literal cells; and the columns the table view
joins (skunk levels, the first dealer's record). The JSON, CSV and Parquet outputs keep the frames as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table

from cribstats.cli.terminal import cell, message, name_cell
from cribstats.safetext import display_width

if TYPE_CHECKING:
    import polars as pl


def _cell(value: object) -> str:
    """A value as a table shows it to people: "-" for none, "yes" or "no" for a flag, fractions rounded."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 1 else f"{value:.2f}"
    return str(value)


# Short headings for the tables people read in a terminal (the JSON, CSV and Parquet keys stay as they are).
HEADINGS = {
    "win_rate": "win\nrate", "game_points": "game\npoints", "first_dealer_record": "won\ndealing\nfirst",
    "skunks_won_levels": "skunks won\n1/2/3", "skunks_lost_levels": "skunks lost\n1/2/3",
    "deals_as_dealer": "as\ndealer", "deals_as_pone": "as\npone",
    "pegging_per_deal_dealer": "pegging\ndealer", "pegging_per_deal_pone": "pegging\npone",
    "hand_per_deal_dealer": "hand\ndealer", "hand_per_deal_pone": "hand\npone", "crib_per_deal": "crib",
    "points_missed": "points\nmissed", "points_overclaimed": "points\nover-\nclaimed",
    "missed_per_deal": "missed\nper deal", "accuracy": "accuracy\n(claimed\n/ due)",
    "illegal_plays": "illegal\nplays", "spread_per_game": "spread\nper\ngame",
    "discard_loss_per_deal_dealer": "discard\nloss\ndealer", "discard_loss_per_deal_pone": "discard\nloss\npone",
}  # fmt: skip


def with_skunk_levels(frame: pl.DataFrame) -> pl.DataFrame:
    """Single, double and triple skunks won and lost as one ``"22/1/0"`` column each, for the table view."""
    import polars as pl

    def levels(side: str) -> pl.Expr:
        parts = [pl.col(f"{level}skunks_{side}").cast(pl.String) for level in ("", "double_", "triple_")]
        return pl.concat_str(parts, separator="/").alias(f"skunks_{side}_levels")

    return frame.with_columns(levels("won"), levels("lost"))


def with_first_dealer_record(frame: pl.DataFrame) -> pl.DataFrame:
    """The games won dealing first out of those dealt first as one ``"5/8"`` column, for the table view."""
    import polars as pl

    parts = [pl.col(name).cast(pl.String) for name in ("first_dealer_wins", "first_dealer_games")]
    return frame.with_columns(pl.concat_str(parts, separator="/").alias("first_dealer_record"))


def rich_table(
    frame: pl.DataFrame, columns: tuple[str, ...] | list[str], title: str, places: int | None = None
) -> Table:
    """Some columns of a frame as a rich table for people (numbers right-aligned, short headings); with
    ``places``, every fraction to that many places (values of one kind, such as points, alike in a column)."""
    # Light rules and one space between columns, and no column narrower than its longest word, so that a table
    # of ten columns fits an 80-column terminal without breaking a heading or a name inside a word.
    # User text (the player's name) is a literal cell: hidden characters escaped, a long name shortened.
    # The table is at least as wide as its title, which would otherwise wrap to the width of a narrow table.
    title_text = message(title)
    table = Table(title=title_text, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 0),
                  min_width=display_width(title_text.plain))  # fmt: skip
    rows = [
        tuple(name_cell(str(v)) if c == "player" and v is not None
              else cell(f"{v:.{places}f}" if places is not None and isinstance(v, float) else _cell(v))
              for c, v in zip(columns, row, strict=True))
        for row in frame.select(columns).iter_rows()
    ]
    for i, name in enumerate(columns):
        numeric = frame.schema[name].is_numeric()
        heading = HEADINGS.get(name, name.replace("_", " "))
        words = [w for text in (heading, *(row[i].plain for row in rows)) for w in text.split()]
        table.add_column(heading, justify="right" if numeric else "left", overflow="fold",
                         min_width=max(display_width(w) for w in words))
    for row in rows:
        table.add_row(*row)
    return table
