"""Tables for people: a frame's columns as a rich table for the terminal, with short headings, values as people
read them ("-" for none, "yes" or "no" for a flag) and user text as literal cells; and the columns the table view
joins (skunk levels, the first dealer's record). The JSON, CSV and Parquet outputs keep the frames as they are.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, NamedTuple

from rich import box
from rich.cells import cell_len
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from cribstats.cli.terminal import cell, message, name_cell
from cribstats.safetext import graphemes

if TYPE_CHECKING:
    import polars as pl
    from rich.console import Console, ConsoleOptions, RenderResult


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


# The columns of the table views that hold a player's name or a side's names (partners joined by " & "): each such
# cell is shortened to TABLE_NAME_WIDTH columns (docs/decisions.md), whichever command shows it. ``player`` (stats,
# standings, discards, night, season, rating), ``opponent`` (head-to-head), ``side1``, ``side2`` and ``winner``
# (bracket, matches and their games) and ``recorded_winner`` (matches). Only ``show`` and the ``players`` list,
# which print no table through here, keep names whole.
NAME_COLUMNS = frozenset({"player", "opponent", "side1", "side2", "winner", "recorded_winner"})


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


class ColumnShape(NamedTuple):
    """A column's longest word of its heading and of all its cells, its widest line, and whether it holds numbers
    or dates (never folded while anything else can be)."""

    heading: int
    word: int
    line: int
    firm: bool


def fitted_widths(shapes: list[ColumnShape], room: int) -> list[int]:
    """Column widths that fit ``room`` columns if any can: each column as wide as its widest line; then, the
    widest first, no narrower than its longest word; only then do words fold, the widest columns of text (names)
    first but no narrower than their heading's longest word, then narrower still; a number or a date last.

    >>> shapes = [ColumnShape(6, 6, 24, False), ColumnShape(5, 5, 10, False), ColumnShape(4, 4, 4, True)]
    >>> fitted_widths(shapes, 40), fitted_widths(shapes, 30), fitted_widths(shapes, 14), fitted_widths(shapes, 8)
    ([24, 10, 4], [16, 10, 4], [5, 5, 4], [2, 2, 4])
    """
    widths = [shape.line for shape in shapes]
    for floors in (
        [shape.word for shape in shapes],
        [shape.word if shape.firm else max(shape.heading, 2) for shape in shapes],
        [shape.word if shape.firm else 2 for shape in shapes],
        [1] * len(shapes),
    ):
        while sum(widths) > room:
            able = [i for i, w in enumerate(widths) if w > floors[i]]
            if not able:
                break
            widest = max(widths[i] for i in able)
            widths[next(i for i in able if widths[i] == widest)] -= 1
    return widths


def folded(text: Text, width: int) -> Text:
    """A cell's text with each word wider than ``width`` broken into lines between the characters a person sees
    (rich would fold a flag between its two letters); the lines of words that fit are left to rich to wrap.

    >>> folded(Text("Ann 🇸🇪🇸🇪🇸🇪"), 5).plain
    'Ann 🇸🇪🇸🇪\\n🇸🇪'
    """
    words = text.plain.split(" ")
    if all(cell_len(word) <= width for word in words):
        return text
    lines: list[str] = []
    for word in words:
        pieces = [""]
        for grapheme in graphemes(word):
            if pieces[-1] and cell_len(pieces[-1] + grapheme) > width:
                pieces.append("")
            pieces[-1] += grapheme
        lines.append("\n".join(pieces))
    return Text(" ".join(lines))


class WordTable(Table):
    """A table that fits its width by wrapping cells between words, the widest columns giving way first
    (:func:`fitted_widths`); when whole words cannot fit (many columns of names in a narrow terminal), words are
    broken between characters (:func:`folded`) rather than the columns past the terminal's edge being lost, as
    rich would lose them with no column allowed narrower than its ``min_width``. ``shapes``: each column's
    :class:`ColumnShape`; ``cells``: the rows' cells as they were added."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shapes: list[ColumnShape] = []
        self.cells: list[tuple[Text, ...]] = []

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = (self.width or options.max_width) - 2 * self.show_edge - (len(self.columns) - 1)  # the rules
        shaped = len(self.shapes) == len(self.columns) and len(self.cells) == len(self.rows)  # made by rich_table
        if shaped and sum(shape.line for shape in self.shapes) <= room:  # every line whole
            lines = _rows_as_lines(self, console, options)
            yield from super().__rich_console__(console, options) if lines is None else lines
            return
        if not shaped:
            yield from super().__rich_console__(console, options)
            return
        widths = fitted_widths(self.shapes, room)
        fitted = copy.copy(self)  # the table itself stays as it was, to be printed at another width
        fitted.columns, fitted.rows = [], []
        for column, width in zip(self.columns, widths, strict=True):
            fitted.add_column(column.header, justify=column.justify, overflow="fold", width=width)
        for row in self.cells:
            fitted.add_row(*(folded(text, width) for text, width in zip(row, widths, strict=True)))
        yield from Table.__rich_console__(fitted, console, options)


def _rows_as_lines(table: WordTable, console: Console, options: ConsoleOptions) -> list[Segment] | None:
    """A table whose every cell is one line that fits, laid out as rich lays it out, each row written as text
    rather than through rich's layout of every cell, which took 12.7 s of a 15,000-game store's ``rating
    --history`` (a row a player a game) against 3.2 s this way; None when rich must lay it out (a wrapped cell, a
    styled row, a table made wider than its columns).

    rich lays out the table cut to its first and last rows (the title, the heading, the rules, the edges and its
    widths); the rows between are written as rich wrote the first, which must match it, character for character.
    """
    cells = table.cells
    if len(cells) < 3 or any("\n" in text.plain or text.spans or text.style for row in cells for text in row):
        return None
    widths = [shape.line for shape in table.shapes]
    ends = 2 * table.show_edge + len(widths) - 1
    if table.expand or (table.min_width or 0) > sum(widths) + ends or table.box is None or table.show_lines:
        return None
    cut = copy.copy(table)
    cut.columns, cut.rows = [], []
    for column, width in zip(table.columns, widths, strict=True):
        cut.add_column(column.header, justify=column.justify, overflow="fold", width=width)
    cut.add_row(*cells[0])
    cut.add_row(*cells[-1])
    line = Segment.line()
    lines = [[*segments, line] for segments in Segment.split_lines(console.render(cut, options))]
    box = table.box.substitute(options, safe=table.safe_box if table.safe_box is not None else console.safe_box)
    left, right = (box.mid_left, box.mid_right) if table.show_edge else ("", "")
    first = len(lines) - 2 - table.show_edge  # the first row's line: the last row's and the bottom edge follow

    def row_text(row: tuple[Text, ...]) -> str:
        padded = (
            " " * (width - cell_len(text.plain)) + text.plain if column.justify == "right"
            else text.plain + " " * (width - cell_len(text.plain))
            for text, width, column in zip(row, widths, table.columns, strict=True)
        )  # fmt: skip
        return left + box.mid_vertical.join(padded) + right

    rich_first = lines[first]
    if any(segment.style for segment in rich_first if segment.text != "\n") or (
        "".join(segment.text for segment in rich_first) != row_text(cells[0]) + "\n"
    ):
        return None
    rows = [segment for row in cells[1:-1] for segment in (Segment(row_text(row)), line)]
    return [segment for part in (*lines[: first + 1], rows, *lines[first + 1 :]) for segment in part]


def rich_table(
    frame: pl.DataFrame, columns: tuple[str, ...] | list[str], title: str, places: int | None = None
) -> Table:
    """Some columns of a frame as a rich table for people (numbers right-aligned, short headings); with
    ``places``, every fraction to that many places (values of one kind, such as points, alike in a column)."""
    # Light rules and one space between columns, and no column narrower than its longest word, so that a table
    # of ten columns fits an 80-column terminal without breaking a heading or a name inside a word.
    # User text is a literal cell: hidden characters escaped; a long name (NAME_COLUMNS) shortened, whole.
    # The table is at least as wide as its title, which would otherwise wrap to the width of a narrow table.
    title_text = message(title)
    table = WordTable(title=title_text, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 0),
                  min_width=cell_len(title_text.plain))  # fmt: skip
    rows = [
        tuple(
            name_cell(v, several=False)
            if c in NAME_COLUMNS and isinstance(v, str)
            else cell(f"{v:.{places}f}" if places is not None and isinstance(v, float) else _cell(v))
            for c, v in zip(columns, row, strict=True)
        )
        for row in frame.select(columns).iter_rows()
    ]
    for i, name in enumerate(columns):
        numeric = frame.schema[name].is_numeric()
        heading = HEADINGS.get(name, name.replace("_", " "))
        texts = (heading, *(row[i].plain for row in rows))
        shape = ColumnShape(max(cell_len(w) for w in heading.split()),
                            max(cell_len(w) for text in texts for w in text.split()),
                            max(cell_len(line) for text in texts for line in text.split("\n")),
                            numeric or frame.schema[name].is_temporal())  # fmt: skip
        table.add_column(heading, justify="right" if numeric else "left", overflow="fold", min_width=shape.word)
        table.shapes.append(shape)
    table.cells = rows
    for row in rows:
        table.add_row(*row)
    return table
