"""Commands of the store group: ``import``, ``db upgrade``, ``games`` and ``show``."""

from __future__ import annotations

import csv
import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Annotated

import orjson
import typer
from rich import box
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from cribstats.cli.options import (
    DEFAULT_DB,
    DbOption,
    OutputFormat,
    err_console,
    fail,
    folders_without_logs,
    no_logs_message,
)
from cribstats.errors import CribstatsError

IMPORT_HELP = (
    "Exit status: 0 when every game was imported or was already stored; 2 when some input was refused "
    "(unreadable, a folder with no logs, or a conflict: the same game id with different content) while the rest "
    "was imported; "
    "1 when the database cannot be used."
)
READ_HELP = "Exit status: 0 on success; 1 when the database cannot be used or the game is not stored."

db_app = typer.Typer(
    name="db",
    help="Manage the database schema.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


@contextmanager
def _database_errors(url: str) -> Iterator[None]:
    """Database trouble becomes one line on standard error and exit status 1, never a traceback."""
    import sqlalchemy as sa

    from cribstats.store.db import describe_db_error, normalize_url

    try:
        yield
    except CribstatsError as err:
        raise fail(str(err), 1) from None
    except sa.exc.SQLAlchemyError as err:
        try:
            shown = normalize_url(url).render_as_string(hide_password=True)
        except CribstatsError:
            shown = "the database"
        raise fail(f"{shown}: {describe_db_error(err)}", 1) from None


def _engine(url: str, *, must_exist: bool = False):  # type: ignore[no-untyped-def]
    """An engine for ``url``; with ``must_exist`` an SQLite file that is not there is an error, not created."""
    from pathlib import Path

    from cribstats.store.db import StoreError, make_engine, normalize_url

    parsed = normalize_url(url)
    file = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if must_exist and file not in (None, "", ":memory:") and not Path(str(file)).exists():
        raise StoreError(f"no database at {file}: import games first (cribstats import PATH)")
    return make_engine(url)


def _has_games_tables(engine) -> bool:  # type: ignore[no-untyped-def]
    """True when the store has its tables; False for an empty database (nothing stored yet).

    :raises StoreError: for a schema that needs ``db upgrade`` or tables that are not a cribstats store.
    """
    from cribstats.store.db import StoreError, schema_state

    state = schema_state(engine)
    if state == "behind":
        raise StoreError("the database schema is out of date: run `cribstats db upgrade`")
    if state == "unknown":
        raise StoreError("the database is not a cribstats store of a version this cribstats knows")
    return state != "empty"


# --- import ---------------------------------------------------------------------------------------


def import_logs(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Game logs (.json, .jsonl, .csv, .pgn), folders (searched recursively), or - for standard input.",
            show_default=False,
        ),
    ],
    db: DbOption = DEFAULT_DB,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a stored game whose id comes again with different content.")
    ] = False,
    batch_size: Annotated[
        int, typer.Option("--batch-size", min=1, help="Games written per transaction (commit every N games).")
    ] = 1000,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-j",
            min=1,
            help="Processes that parse and replay games while this one writes them (1: all in this one). "
            "Default: one per core, started once a few hundred games have been read; the result is the same.",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Read game logs, replay every deal, and store games, deals, facts and findings.

    Importing the same file twice changes nothing the second time. A game whose id is already stored with
    different content is a conflict: reported and not stored, unless --replace. A game that cannot be read is
    refused with its file and place, and the rest still imports. An empty database is set up first.

    Match records and the games that carry a match id are stored as matches, joined in whichever order they
    arrive; a scorecard sheet stores the games its cards agree on and the cards that disagree.

    Examples:

        cribstats import club-night.jsonl

        cribstats import playoffs.jsonl night-scorecards.csv

        cribstats import --db postgresql://club@server/cribbage logs/

        cat game.json | cribstats import -
    """
    from cribstats.store.importer import ImportSummary, import_paths

    errors = err_console()
    empty = folders_without_logs(paths)
    with _database_errors(db):
        engine = _engine(db)
        with Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=errors,
            transient=True,
            disable=quiet or not errors.is_terminal,
        ) as progress:
            task = progress.add_task("importing", total=None)

            def on_progress(summary: ImportSummary, file: str) -> None:
                # counts first: a narrow terminal cuts the end of the line, and a long path would hide them
                progress.update(
                    task,
                    description=(
                        f"{summary.imported} imported, {summary.present} already stored, "
                        f"{summary.refused_count + summary.conflict_count} refused  ({os.path.basename(file)})"
                    ),
                )

            # What is alive now (modules, schemas, the engine) lives as long as the command: frozen, the cyclic
            # garbage collector stops walking it again and again while games are replayed (some 6% of the time).
            gc.freeze()
            try:
                summary = import_paths(
                    paths, engine, replace=replace, on_progress=on_progress, batch_size=batch_size, workers=workers
                )
            except KeyboardInterrupt:
                progress.stop()
                raise fail(
                    "interrupted: the games of finished batches are stored, the unfinished batch is not; "
                    "run the same import again to complete it",
                    130,
                ) from None
            finally:
                gc.unfreeze()
        engine.dispose()
    for folder in empty:
        errors.print(Text(no_logs_message(folder)), soft_wrap=True)
    for refusal in summary.conflicts + summary.refused:
        errors.print(Text(str(refusal)), soft_wrap=True)
    hidden = summary.refused_count - len(summary.refused) + summary.conflict_count - len(summary.conflicts)
    if hidden > 0:
        errors.print(Text(f"... and {hidden} more refused"))
    Console().print(import_summary_table(summary))
    raise typer.Exit(0 if summary.complete and not empty else 2)


def import_summary_table(summary) -> Table:  # type: ignore[no-untyped-def]
    """Files, games imported, already stored, conflicts, refused, deals and findings stored."""
    table = Table(title="Import", title_justify="left", show_header=False, expand=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    rows = [
        ("files read", summary.files),
        ("games imported", summary.imported),
        ("  of which replaced", summary.replaced),
        ("already stored", summary.present),
        ("conflicts (not stored)", summary.conflict_count),
        ("refused", summary.refused_count),
        ("deals stored", summary.deals),
        ("findings stored", summary.findings),
    ]
    matches = summary.matches
    if matches.imported or matches.present or matches.scorecard_findings:  # shown for inputs that have them
        rows += [("match records stored", matches.imported), ("  already stored", matches.present),
                 ("scorecard findings stored", matches.scorecard_findings)]
    for what, value in rows:
        if what.startswith("  ") and not value:
            continue
        table.add_row(what, str(value))
    return table


# --- db upgrade -----------------------------------------------------------------------------------


@db_app.command("upgrade", epilog=READ_HELP)
def db_upgrade(db: DbOption = DEFAULT_DB) -> None:
    """Create the tables, or bring them up to this version of cribstats (safe to run again).

    Example:

        cribstats db upgrade --db postgresql://club@server/cribbage
    """
    from cribstats.store.db import current_revision, upgrade

    with _database_errors(db):
        engine = _engine(db)
        upgrade(engine)
        with engine.connect() as conn:
            revision = current_revision(conn)
        engine.dispose()
    err_console().print(Text(f"database schema at revision {revision}"))


# --- games ----------------------------------------------------------------------------------------

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
)


def games(
    db: DbOption = DEFAULT_DB,
    player: Annotated[
        str | None, typer.Option("--player", help="Only games of this player (case and spacing ignored).")
    ] = None,
    event: Annotated[str | None, typer.Option("--event", help="Only games of this event (case ignored).")] = None,
    since: Annotated[
        datetime | None, typer.Option("--since", formats=["%Y-%m-%d"], help="Only games on or after this date.")
    ] = None,
    until: Annotated[
        datetime | None, typer.Option("--until", formats=["%Y-%m-%d"], help="Only games on or before this date.")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="At most this many games.")] = None,
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
    ] = OutputFormat.table,
) -> None:
    """List the stored games, oldest first.

    Examples:

        cribstats games --player alice --since 2026-01-01

        cribstats games --event "Tuesday League" --format csv > games.csv
    """
    from cribstats.store.queries import list_games

    if since is not None and until is not None and since > until:
        raise fail(f"--since {since.date()} is after --until {until.date()}: no game can match", 2)
    with _database_errors(db):
        engine = _engine(db, must_exist=True)
        listed = []
        if _has_games_tables(engine):
            with engine.connect() as conn:
                listed = list_games(
                    conn,
                    player=player,
                    event=event,
                    since=since.date() if since else None,
                    until=until.date() if until else None,
                    limit=limit,
                )
        engine.dispose()
    rows = [g.to_dict() for g in listed]
    if output is OutputFormat.json:
        sys.stdout.buffer.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2) + b"\n")
        sys.stdout.flush()
    elif output is OutputFormat.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(GAME_COLUMNS)
        for row in rows:
            writer.writerow(_flat(row[c]) for c in GAME_COLUMNS)
    elif output is OutputFormat.parquet:
        import polars as pl

        if sys.stdout.isatty():
            raise fail("parquet is binary: redirect it to a file (--format parquet > games.parquet)", 1)

        frame = pl.DataFrame(
            {c: [_flat(r[c]) for r in rows] for c in GAME_COLUMNS},
            schema={c: (pl.Int64 if c in ("id", "deals", "findings") else pl.String) for c in GAME_COLUMNS},
        )
        frame.write_parquet(sys.stdout.buffer)
        sys.stdout.flush()
    else:
        console = Console()
        (console if console.is_terminal else Console(width=200)).print(games_table(rows))
    if not rows:
        err_console().print(Text("no stored games match"), soft_wrap=True)


def _flat(value: object) -> object:
    """Lists for a table cell or CSV field: names joined by commas, scores by dashes (``121-88``)."""
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return ", ".join(value)
        return "-".join("?" if v is None else str(v) for v in value)
    return "" if value is None else value


TABLE_COLUMNS = ("id", "game", "date", "event", "players", "scores", "winners", "deals", "findings")


def _longest_word(rows: list[dict[str, object]], column: str) -> int:
    """The widest single word of a column (a name with its comma), so that a narrow table wraps between words."""
    words = [w for row in rows for w in str(_flat(row[column])).split()]
    return max((len(w) for w in words), default=len(column))


def games_table(rows: list[dict[str, object]]) -> Table:
    """The games for a person to read (csv and json carry every column)."""
    table = Table(
        title=f"{len(rows)} game{'s' if len(rows) != 1 else ''}",
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
        table.add_row(*(Text(str(_flat(row[c]))) for c in TABLE_COLUMNS))
    return table


# --- show -----------------------------------------------------------------------------------------


def show(
    game: Annotated[
        str,
        typer.Argument(
            help="The game: its key (the log's id), its number in the store (the id column of `cribstats games`), "
            "or the first six or more hex digits of its content hash; or a match id (see `cribstats matches`)."
        ),
    ],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Replay one stored game deal by deal: the cards, the play with the count and points, the show, findings.

    Given a match id, shows the match: its rules, sides, result replayed and recorded, each game, findings.

    Examples:

        cribstats show tuesday-2026-11-03-r2-t4

        cribstats show tuesday-2026-11-03-final
    """
    from cribstats.replay import replay
    from cribstats.store.queries import AmbiguousGameError, find_game
    from cribstats.textview import TextView

    with _database_errors(db):
        engine = _engine(db, must_exist=True)
        stored = None
        try:
            if _has_games_tables(engine):
                with engine.connect() as conn:
                    stored = find_game(conn, game)
        except AmbiguousGameError as err:
            raise fail(str(err), 2) from None
        finally:
            engine.dispose()
        if stored is None:
            from cribstats.cli.club_tables import show_match

            if show_match(db, game):  # not a game but a match: the match, game by game
                return
            raise fail(f"no stored game {game!r}: `cribstats games` lists them", 2)
        view = TextView()
        replay(stored.game(), view, key=stored.key)
    sys.stdout.write(view.result() + "\n")
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("import", epilog=IMPORT_HELP)(import_logs)
    app.add_typer(db_app, name="db")
    app.command("games", epilog=READ_HELP)(games)
    app.command("show", epilog=READ_HELP)(show)
