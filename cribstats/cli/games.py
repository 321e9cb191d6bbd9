"""``cribstats games``: the stored games as a table, CSV, JSON or Parquet, through the one output path."""

from __future__ import annotations

from datetime import date as Date
from typing import Annotated

import orjson
import typer
from rich import box
from rich.table import Table
from rich.text import Text

from cribstats.cli.options import DEFAULT_DB, DbOption, FormatOption, OutOption, OutputFormat, err_console, fail
from cribstats.cli.output import check_output, emit
from cribstats.cli.stats import date_option, name_option
from cribstats.cli.store import _database_errors, _engine, _has_games_tables
from cribstats.cli.terminal import cell, message, name_cell
from cribstats.errors import CribstatsError
from cribstats.safetext import display_width, json_visible

GAMES_HELP = (
    "Exit status: 0 on success (also when no game matches); 2 for wrong options; 1 when the database cannot be "
    "used or the file given to --out cannot be written."
)

GAME_COLUMNS = (
    "id",
    "game",
    "date",
    "event",
    "round",
    "variant",
    "players",
    "scores",
    "winners",
    "deals",
    "findings",
    "source",
)


def games(
    db: DbOption = DEFAULT_DB,
    player: Annotated[
        str | None, typer.Option("--player", help="Only games of this player (case and spacing ignored).")
    ] = None,
    event: Annotated[str | None, typer.Option("--event", help="Only games of this event (case ignored).")] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Only games on or after this date (YYYY-MM-DD).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Only games on or before this date (YYYY-MM-DD).")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="At most this many games.")] = None,
    output: FormatOption = OutputFormat.table,
    out: OutOption = None,
) -> None:
    """List the stored games in the order they were played: by date, then round, then table (file order).

    Examples:

        cribstats games --player alice --since 2026-01-01

        cribstats games --event "Tuesday League" --format csv --out games.csv

        cribstats games --format parquet --out games.parquet
    """
    from cribstats.stats.frames import StatsFilter
    from cribstats.store.queries import list_games

    try:
        check_output(output, out)
        first, last = date_option(since, "--since"), date_option(until, "--until")  # as every command does
        name_option(player, "--player")
        name_option(event, "--event")
    except CribstatsError as err:
        raise fail(str(err), 2) from None
    if first is not None and last is not None and first > last:
        raise fail(f"--since {first} is after --until {last}: no game can match", 2)
    filters = StatsFilter(player, event, first, last)  # for the title: the player as stored, once found
    with _database_errors(db):
        engine = _engine(db, must_exist=True)
        listed = []
        if _has_games_tables(engine):
            with engine.connect() as conn:
                filters = filters.as_stored(conn)
                listed = list_games(
                    conn,
                    player=player,
                    event=event,
                    since=first,
                    until=last,
                    limit=limit,
                )
        engine.dispose()
    rows = [g.to_dict() for g in listed]
    frame = games_frame(rows)
    json_text = json_visible(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode())
    try:
        emit(frame, output, out, [games_table(rows, filters.describe())], json_text=json_text)
    except CribstatsError as err:  # the file named could not be written
        raise fail(str(err), 1) from None
    if not rows:
        err_console().print(Text("no stored games match"), soft_wrap=True)


def games_frame(rows: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    """The games as a frame for CSV and Parquet, the columns of JSON: ``players``, ``scores`` and ``winners``
    lists (a CSV cell holds each as a JSON array; :func:`cribstats.exports.json_list`), ``date`` a date (CSV text
    ``2026-11-03``, as JSON), null where not known."""
    import polars as pl

    kinds: dict[str, pl.DataType | type[pl.DataType]] = {
        "id": pl.Int64, "date": pl.Date, "deals": pl.Int64, "findings": pl.Int64,
        "players": pl.List(pl.String), "scores": pl.List(pl.Int64), "winners": pl.List(pl.String),
    }  # fmt: skip
    values: dict[str, list[object]] = {c: [r[c] for r in rows] for c in GAME_COLUMNS}
    values["date"] = [None if d is None else Date.fromisoformat(str(d)) for d in values["date"]]  # rows: ISO text
    return pl.DataFrame(values, schema={c: kinds.get(c, pl.String) for c in GAME_COLUMNS})


def _flat(value: object) -> object:
    """Lists for a table cell: names joined by commas, scores by dashes (``121-88``)."""
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return ", ".join(value)
        return "-".join("?" if v is None else str(v) for v in value)
    return "" if value is None else value


TABLE_COLUMNS = ("id", "game", "date", "event", "players", "scores", "winners", "deals", "findings")
NAME_COLUMNS = ("players", "winners")


def _longest_word(rows: list[dict[str, object]], column: str) -> int:
    """The widest single word of a column (a name with its comma), so that a narrow table wraps between words."""
    if column in NAME_COLUMNS:
        texts = [name_cell(str(_flat(row[column]))).plain for row in rows]
    else:
        texts = [cell(_flat(row[column])).plain for row in rows]
    words = [w for text in texts for w in text.split()]
    return max((display_width(w) for w in words), default=len(column))


def games_table(rows: list[dict[str, object]], scope: str = "all games") -> Table:
    """The games for a person to read (csv and json carry every column); the title names the filter
    (:meth:`cribstats.stats.frames.StatsFilter.describe`) when there is one."""
    title = f"{len(rows)} game{'s' if len(rows) != 1 else ''}" + ("" if scope == "all games" else f" ({scope})")
    table = Table(
        title=message(title),  # the filter is user text: printed literally, hidden characters as escapes
        title_justify="left",
        expand=False,
        box=box.SIMPLE_HEAD,  # no column rules, one space between columns: nine columns fit 80 characters
        padding=(0, 0),
    )
    widths = {
        "event": _longest_word(rows, "event"),
        "players": max(len("players"), _longest_word(rows, "players")),
        "winners": max(len("winners"), _longest_word(rows, "winners")),
    }
    for name in TABLE_COLUMNS:
        table.add_column(
            name,
            justify="right" if name in ("id", "deals", "findings") else "left",
            # the id is what `show` takes, so it is never cut; a long game key folds rather than being cut off;
            # in a narrow terminal names wrap between words, never inside one
            no_wrap=name in ("id", "date", "scores", "deals", "findings"),
            overflow="fold",
            min_width=widths.get(name),
        )
    for row in rows:
        table.add_row(
            *(name_cell(str(_flat(row[c]))) if c in NAME_COLUMNS else cell(_flat(row[c])) for c in TABLE_COLUMNS)
        )
    return table


