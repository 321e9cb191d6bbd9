"""A long table's rows are written as text rather than laid out by rich cell by cell (``rating --history`` gives
a row a game): the table must come out exactly as rich lays it out, in a file and in a colour terminal."""

from __future__ import annotations

import copy
import io

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from cribstats.cli.tables import WordTable, _rows_as_lines, rich_table
from cribstats.cli.terminal import file_console

# names as people type them: any letters, marks, digits, punctuation, symbols and spaces of any script
NAMES = st.text(st.characters(categories=["L", "M", "N", "P", "S", "Zs"]), min_size=1, max_size=14)
ROWS = st.lists(
    st.tuples(
        NAMES, st.integers(-99_999, 10**7), st.one_of(st.none(), st.floats(-1e4, 1e4, allow_nan=False)),
        st.booleans(), st.sampled_from(["2024-01-01", "-", "a b"]),
    ),
    min_size=3, max_size=12,
)  # fmt: skip


def _frame(rows: list[tuple[object, ...]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=["player", "game", "rating", "flag", "note"], orient="row")


def _as_rich_lays_it_out(table: WordTable) -> Table:
    """The same table as a plain rich table: rich's own layout of every cell."""
    plain = copy.copy(table)
    plain.__class__ = Table
    return plain


def _printed(console: Console, table: Table) -> str:
    with console.capture() as captured:
        console.print(table)
    return captured.get()


def _consoles() -> list[Console]:
    return [
        file_console(io.StringIO()),
        Console(force_terminal=True, color_system="truecolor", width=160, markup=False, emoji=False,
                highlight=False),
    ]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(ROWS)
def test_rows_written_as_text_come_out_as_rich_lays_them_out(rows: list[tuple[object, ...]]) -> None:
    table = rich_table(_frame(rows), ["player", "game", "rating", "flag", "note"], "Ratings (all games)")
    for console in _consoles():
        expected = _printed(console, _as_rich_lays_it_out(table))
        if max(map(len, expected.splitlines())) > console.width:
            continue  # a table wider than the console is folded (tests/test_table_name_widths.py)
        assert _printed(console, table) == expected


def test_a_long_table_takes_the_quick_way() -> None:
    rows = [(f"P{i:03}", i, 20.0 - i / 7, i % 2 == 0, "2024-01-01") for i in range(200)]
    table = rich_table(_frame(rows), ["player", "game", "rating", "flag", "note"], "Ratings (all games)")
    console = _consoles()[1]
    assert _rows_as_lines(table, console, console.options) is not None
    assert _printed(console, table) == _printed(console, _as_rich_lays_it_out(table))
    text = _printed(_consoles()[0], table)
    assert text.count("\n") == 200 + 5  # title, top edge, heading, rule, rows, bottom edge
    # P150's rating 20 - 150 / 7 = -1.428..., to two places; "player" sets the first column's width, 6
    assert " P150    150  -1.43 yes  2024-01-01 " in text.splitlines()


def test_a_table_narrower_than_its_title_is_left_to_rich() -> None:
    rows = [("Ann", 1, 1.0, True, "x"), ("Cy", 2, 2.0, False, "y"), ("Di", 3, 3.0, True, "z")]
    title = "Ratings of every game of the club's whole season, partners and three-handed games included"
    table = rich_table(_frame(rows), ["player", "game", "rating", "flag", "note"], title)
    console = _consoles()[0]
    assert _rows_as_lines(table, console, console.options) is None  # rich widens its columns to the title
    assert _printed(console, table) == _printed(console, _as_rich_lays_it_out(table))
