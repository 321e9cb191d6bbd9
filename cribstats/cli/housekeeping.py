"""The store's housekeeping: ``delete``, ``imports`` and ``players`` (with ``players rename`` and ``merge``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from cribstats.cli.options import (
    DEFAULT_DB,
    DbOption,
    FormatOption,
    OutOption,
    OutputFormat,
    UsageError,
    err_console,
    fail,
)
from cribstats.cli.terminal import cell
from cribstats.findings import counted
from cribstats.names import quoted
from cribstats.safetext import visible

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

HOUSEKEEPING_HELP = (
    "Exit status: 0 on success; 2 for a game, import or player that is not stored, or options that do not fit; "
    "1 when the database cannot be used or the change was not confirmed."
)
LISTING_HELP = "Exit status: 0 on success; 2 for options that do not fit; 1 when the database cannot be used."
MERGE_HELP = (
    "Exit status: 0 on success; 2 for a player that is not stored, or options that do not fit; 1 when the "
    "database cannot be used or the change was not confirmed."
)
RENAME_HELP = (
    "Exit status: 0 on success; 2 for a player that is not stored, or a new spelling the name rule refuses or "
    "another stored player has; 1 when the database cannot be used."
)
YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Do it without asking for confirmation.")]


def _run(db: str, action: Any) -> Any:
    """Run ``action``; bad input exits 2, an unusable database 1, each with one line on standard error."""
    from cribstats.cli.output import OutputUsageError
    from cribstats.cli.store import _database_errors
    from cribstats.store.players import PlayerError

    with _database_errors(db):
        try:
            return action()
        except (UsageError, PlayerError, OutputUsageError) as err:
            raise fail(str(err), 2) from None


def _store(db: str) -> Engine:
    from cribstats.cli.stats import _open_store

    return _open_store(db)


def _confirm(question: str, yes: bool) -> None:
    """Ask on standard error; anything but yes (or no answer at all) leaves the store as it was: exit 1."""
    if yes:
        return
    try:
        agreed = typer.confirm(visible(question), default=False, err=True)  # game keys are user text
    except typer.Abort:
        agreed = False
    if not sys.stdin.isatty():  # a piped answer is not echoed: end the question's line before what follows
        err_console().print()
    if not agreed:
        raise fail("nothing changed (confirm with y, or give --yes)", 1)


def _emit(rows: list[dict[str, Any]], columns: tuple[str, ...], fmt: OutputFormat, out: str | None,
          table: Table, lists: tuple[str, ...] = (), times: tuple[str, ...] = ()) -> None:
    """Rows out as ``cribstats stats`` writes its tables (``--format``, ``--out``); the ``lists`` columns (a
    player's aliases) as lists of names: JSON and Parquet lists, in CSV a JSON array a cell. The ``times`` columns
    hold UTC text with its offset (:func:`cribstats.store.writes.utc_text`), which CSV and JSON give as the table
    does; Parquet has them as UTC timestamps."""
    import polars as pl

    from cribstats.cli.output import emit as emit_frame
    from cribstats.store.writes import UTC_TEXT_FORMAT

    frame = pl.DataFrame([{c: r[c] for c in columns} for r in rows], schema=_schema(rows, columns, lists),
                         orient="row")
    if fmt is OutputFormat.parquet:
        frame = frame.with_columns(
            pl.col(c).str.to_datetime(UTC_TEXT_FORMAT, time_unit="us", time_zone="UTC") for c in times
        )
    emit_frame(frame, fmt, out, [table])


def _schema(rows: list[dict[str, Any]], columns: tuple[str, ...], lists: tuple[str, ...]) -> dict[str, Any]:
    import polars as pl

    def kind(column: str) -> Any:
        if column in lists:
            return pl.List(pl.String)
        values = [r[column] for r in rows if r[column] is not None]
        return pl.Int64 if values and all(isinstance(v, int) for v in values) else pl.String

    return {c: kind(c) for c in columns}


def _table(title: str, rows: list[dict[str, Any]], columns: tuple[str, ...], numeric: set[str]) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in columns:
        table.add_column(column.replace("_", " "), justify="right" if column in numeric else "left",
                         overflow="fold")
    for row in rows:
        cells = []
        for column in columns:
            value = row[column]
            text = ", ".join(value) if isinstance(value, list) else ("-" if value is None else str(value))
            cells.append(cell(text))  # user text is data: never markup, hidden characters escaped
        table.add_row(*cells)
    return table


# --- delete -----------------------------------------------------------------------------------------------------


def delete(
    games: Annotated[
        list[str] | None,
        typer.Argument(help="Games to delete: each by its key, its store number or a prefix of its content hash.",
                       show_default=False),
    ] = None,
    run: Annotated[
        int | None, typer.Option("--import", help="Delete every game that this import stored (see `imports`).")
    ] = None,
    yes: YesOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Delete stored games with their deals, deal facts, play, findings and totals, all at once or not at all.

    Players and events that nothing stored names any more go too (a player with an alias, from a rename or
    merge, or on a stored match's side stays). Asks before deleting, unless --yes.

    Examples:

        cribstats delete grass-roots-league-s606-g000001

        cribstats delete 17 18 --yes

        cribstats delete --import 4
    """
    from cribstats.store.db import writer
    from cribstats.store.history import find_run
    from cribstats.store.queries import AmbiguousGameError, find_game, no_game_message
    from cribstats.store.removal import delete_games, games_of_import

    if bool(games) == (run is not None):
        raise fail("name the games to delete, or give --import RUN (one or the other)", 2)

    def chosen() -> tuple[Engine, list[int], list[str]]:
        engine = _store(db)
        ids: list[int] = []
        keys: list[str] = []
        with engine.connect() as conn:
            if run is not None:
                if not find_run(conn, run):
                    raise UsageError(f"no import {run}: `cribstats imports` lists them")
                stored_by_run = games_of_import(conn, run)
                ids = [game_id for game_id, _ in stored_by_run]
                keys = [key for _, key in stored_by_run]
            for ref in games or []:
                try:
                    stored = find_game(conn, ref)
                except AmbiguousGameError as err:
                    raise UsageError(str(err)) from None
                if stored is None:
                    raise UsageError(no_game_message(ref))
                if stored.id not in ids:
                    ids.append(stored.id)
                    keys.append(stored.key)
        return engine, ids, keys

    engine, ids, keys = _run(db, chosen)
    errors = err_console()
    if not ids:
        errors.print(Text(f"import {run} has no game stored now: nothing to delete"), soft_wrap=True)
        return
    shown = ", ".join(keys[:5]) + (", ..." if len(keys) > 5 else "")
    what = f"the {counted(len(ids), 'game')} of import {run}" if run is not None else counted(len(ids), "game")
    their = "its" if len(ids) == 1 else "their"
    _confirm(f"Delete {what} ({shown}) with {their} deals and findings?", yes)

    def remove() -> Any:
        with engine.connect() as raw:
            conn = writer(raw)
            with conn.begin():
                return delete_games(conn, ids)

    removed = _run(db, remove)
    engine.dispose()
    left = [counted(n, w) for n, w in ((removed.players, "player"), (removed.events, "event")) if n]
    errors.print(Text(
        f"deleted {counted(removed.games, 'game')} ({counted(removed.deals, 'deal')}, "
        f"{counted(removed.findings, 'finding')})"
        + (f"; {' and '.join(left)} that no stored game names any more went with them" if left else "")),
        soft_wrap=True)


# --- imports ----------------------------------------------------------------------------------------------------


def imports(db: DbOption = DEFAULT_DB, format: FormatOption = OutputFormat.table, out: OutOption = None) -> None:
    """The import history: each file an import read, when, and what became of its games.

    "imported" is what the import stored, counted batch by batch (an import that was stopped says what it had
    committed; its status stays "unfinished"); "stored" is how many of those games are stored now.

    Examples:

        cribstats imports

        cribstats imports --format csv --out imports.csv

        cribstats delete --import 4
    """
    from cribstats.store.history import IMPORT_COLUMNS, IMPORT_TIMES, list_imports

    def listed() -> list[dict[str, Any]]:
        engine = _store(db)
        with engine.connect() as conn:
            rows = [r.to_dict() for r in list_imports(conn)]
        engine.dispose()
        return rows

    rows = _run(db, listed)
    numeric = {"run", "imported", "stored", "present", "conflicting", "refused", "findings"}
    table = _table(f"{counted(len(rows), 'import')}", rows, IMPORT_COLUMNS, numeric)
    _run(db, lambda: _emit(rows, IMPORT_COLUMNS, format, out, table, times=IMPORT_TIMES))
    if not rows:
        err_console().print(Text("no import yet"), soft_wrap=True)


# --- players ----------------------------------------------------------------------------------------------------

players_app = typer.Typer(
    name="players",
    invoke_without_command=True,
    pretty_exceptions_show_locals=False,
)


@players_app.callback(epilog=LISTING_HELP)
def players(
    ctx: typer.Context,
    db: DbOption = DEFAULT_DB,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
) -> None:
    """The stored players, with the games stored for each and the other spellings (aliases) they go by.

    Examples:

        cribstats players

        cribstats players rename "Bbo" "Bob"

        cribstats players merge "Robert" "Bob"
    """
    if ctx.invoked_subcommand is not None:
        return
    from cribstats.store.players import PLAYER_COLUMNS, list_players

    def listed() -> list[dict[str, Any]]:
        engine = _store(db)
        with engine.connect() as conn:
            rows = [r.to_dict() for r in list_players(conn)]
        engine.dispose()
        return rows

    rows = _run(db, listed)
    table = _table(counted(len(rows), "player"), rows, PLAYER_COLUMNS, {"id", "games"})
    _run(db, lambda: _emit(rows, PLAYER_COLUMNS, format, out, table, lists=("aliases",)))


@players_app.command("rename", epilog=RENAME_HELP)
def rename(
    old: Annotated[str, typer.Argument(help="The player's name (any spelling that folds to it, or an alias).")],
    new: Annotated[str, typer.Argument(help="The new spelling (the name rule applies).")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Give a player a new spelling; every game stays theirs, and the old spelling stays an alias, so that a
    later import of it is stored on the same player.

    Example:

        cribstats players rename "bob smith" "Bob Smith"
    """
    from cribstats.store.db import writer
    from cribstats.store.players import rename_player

    def change() -> tuple[str, str]:
        engine = _store(db)
        with engine.connect() as raw:
            conn = writer(raw)
            with conn.begin():
                done = rename_player(conn, old, new)
        engine.dispose()
        return done

    before, after = _run(db, change)
    err_console().print(Text(f"renamed {quoted(before)} to {quoted(after)}"), soft_wrap=True)


@players_app.command("merge", epilog=MERGE_HELP)
def merge(
    alias: Annotated[str, typer.Argument(help="The player to merge away; the name becomes an alias.")],
    into: Annotated[str, typer.Argument(help="The player who keeps every game.")],
    yes: YesOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Make two stored players one: every game, deal, finding and statistic of ALIAS moves to INTO, and ALIAS
    becomes an alias of INTO, so that later imports of that spelling are stored on INTO. Asks first, unless --yes.

    Example:

        cribstats players merge "Robert" "Bob" --yes
    """
    from cribstats.store.db import writer
    from cribstats.store.players import find_player, merge_players

    engine = _run(db, lambda: _store(db))

    def names() -> tuple[str, str]:
        with engine.connect() as conn:
            return find_player(conn, alias)[1], find_player(conn, into)[1]

    gone, kept = _run(db, names)
    _confirm(f"Merge {quoted(gone)} into {quoted(kept)} (every game of {quoted(gone)} becomes a game of "
             f"{quoted(kept)})?", yes)

    def change() -> tuple[str, str, int]:
        with engine.connect() as raw:
            conn = writer(raw)
            with conn.begin():
                return merge_players(conn, alias, into)

    gone, kept, moved = _run(db, change)
    engine.dispose()
    err_console().print(Text(f"merged {quoted(gone)} into {quoted(kept)}: {counted(moved, 'game')} moved; "
                             f"{quoted(gone)} is now an alias of {quoted(kept)}"), soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("delete", epilog=HOUSEKEEPING_HELP)(delete)
    app.command("imports", epilog=LISTING_HELP)(imports)
    app.add_typer(players_app, name="players")
