"""Commands of the store group: ``import``, ``db upgrade``, ``games`` and ``show``."""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from cribstats.cli.options import (
    DEFAULT_DB,
    DbOption,
    err_console,
    fail,
    folders_without_logs,
    no_logs_message,
)
from cribstats.cli.terminal import message, out_console
from cribstats.errors import CribstatsError
from cribstats.safetext import visible

if TYPE_CHECKING:
    from datetime import datetime

    from cribstats.store.importer import ImportSummary

IMPORT_HELP = (
    "Exit status: 0 when every game was imported or was already stored; 2 when some input was refused "
    "(unreadable, a folder with no logs, or a conflict: the same game id with different content) while the rest "
    "was imported; "
    "1 when the database cannot be used; 130 when interrupted (Ctrl-C), 143 when stopped (SIGTERM)."
)
SHOW_HELP = (
    "Exit status: 0 on success; 2 when no stored game is named so, or a hash prefix names several; "
    "1 when the database cannot be used."
)
UPGRADE_HELP = "Exit status: 0 on success; 1 when the database cannot be used."

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

    from cribstats.store.db import describe_db_error, shown_url

    try:
        yield
    except CribstatsError as err:
        raise fail(str(err), 1) from None
    except sa.exc.SQLAlchemyError as err:
        raise fail(f"{shown_url(url)}: {describe_db_error(err)}", 1) from None


def _engine(url: str, *, must_exist: bool = False):  # type: ignore[no-untyped-def]
    """An engine for ``url``; with ``must_exist`` an SQLite file that is not there is an error, not created."""
    from cribstats.store.db import make_engine
    from cribstats.store.store_file import check_store_exists, check_store_folder

    if must_exist:
        check_store_exists(url)
    check_store_folder(url)
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

    Standard input may be a feed of games as they are played: whenever it pauses (half a second with nothing
    new), the games read so far are stored, without waiting for --batch-size of them.

    Examples:

        cribstats import club-night.jsonl

        cribstats import playoffs.jsonl night-scorecards.csv

        cribstats import --db postgresql://club@server/cribbage logs/

        cat game.json | cribstats import -

        tail -f finished-games.jsonl | cribstats import -
    """
    on_term = signal.signal(signal.SIGTERM, _stop)  # first: a SIGTERM at any moment ends the import with its line
    seen: list[ImportSummary] = []  # the importer's summary: what is committed so far
    began: list[datetime] = []  # when the importer began (before, nothing can be stored)
    try:
        summary, empty = _import(paths, db, seen, began, replace=replace, batch_size=batch_size, workers=workers,
                                 quiet=quiet)
    except KeyboardInterrupt as err:  # Ctrl-C, or SIGTERM (_Stopped)
        counted = seen[0].imported if seen else 0
        raise _interrupted(err, _stored_since(db, began[0], counted) if began else counted) from None
    finally:
        if on_term is not None:  # None: a handler set outside Python, which cannot be put back
            signal.signal(signal.SIGTERM, on_term)
    errors = err_console()
    for folder in empty:
        errors.print(message(no_logs_message(folder)), soft_wrap=True)
    for refusal in summary.conflicts + summary.refused:
        errors.print(message(str(refusal)), soft_wrap=True)
    hidden = summary.refused_count - len(summary.refused) + summary.conflict_count - len(summary.conflicts)
    if hidden > 0:
        errors.print(Text(f"... and {hidden} more refused"))
    out_console(wide_when_redirected=False).print(import_summary_table(summary))
    raise typer.Exit(0 if summary.complete and not empty else 2)


def _import(
    paths: list[str], db: str, seen: list[ImportSummary], began: list[datetime], *, replace: bool, batch_size: int,
    workers: int | None, quiet: bool,
) -> tuple[ImportSummary, list[str]]:
    """The import with its progress bar: what it did, and the folders named that hold no logs. ``seen`` gets the
    importer's summary as it goes (what is committed so far), ``began`` the time the importer began."""
    from cribstats.cli.progress import games_to_import, import_progress
    from cribstats.store.importer import import_paths
    from cribstats.store.writes import now_utc

    errors = err_console()
    empty = folders_without_logs(paths)
    no_progress = quiet or not errors.is_terminal
    total = None if no_progress else games_to_import(paths)
    with _database_errors(db):
        engine = _engine(db)
        with import_progress(errors, total, disable=no_progress) as progress:
            task = progress.add_task("importing" if total is None else "", total=total)

            def on_progress(summary: ImportSummary, file: str) -> None:
                seen[:] = [summary]
                # counts first: a narrow terminal cuts the end of the line, and a long path would hide them
                refused = summary.refused_count + summary.conflict_count
                where = visible(os.path.basename(file))
                if total is None:
                    described = f"{summary.imported} imported, {summary.present} already stored, {refused} refused"
                else:
                    described = f"({refused} refused)  {where}" if refused else where
                done = summary.games
                progress.update(task, completed=done, total=None if total is None else max(total, done),
                                description=described if total is not None else f"{described}  ({where})")

            began.append(now_utc())
            # What is alive now (modules, schemas, the engine) lives as long as the command: frozen, the cyclic
            # garbage collector stops walking it again and again while games are replayed (some 6% of the time).
            gc.freeze()
            try:
                summary = import_paths(
                    paths, engine, replace=replace, on_progress=on_progress, batch_size=batch_size, workers=workers
                )
            except (*_store_failures(), *_worker_failures()) as err:
                progress.stop()
                raise _failed_import(db, err, seen[0].imported if seen else 0) from None
            finally:
                gc.unfreeze()
        engine.dispose()
    return summary, empty


class _Stopped(KeyboardInterrupt):
    """SIGTERM (``kill``, a service manager, a time limit) during an import: ended as Ctrl-C ends it, whole
    batches stored and the rest rolled back, with a message instead of a silent end."""


def _stop(signum: int, frame: object) -> None:
    raise _Stopped


def _interrupted(err: KeyboardInterrupt, stored: int) -> typer.Exit:
    """An import ended by Ctrl-C (exit 130) or SIGTERM (143): what is stored, and how to complete it."""
    stopped = isinstance(err, _Stopped)
    return fail(f"{'stopped (SIGTERM)' if stopped else 'interrupted'}: the games of finished batches are stored "
                f"({_games(stored)} of this import), the unfinished batch is not; run the same import again to "
                "complete it", 143 if stopped else 130)


def _stored_since(url: str, started: datetime, counted: int) -> int:
    """The games stored by the import runs (files) begun since ``started``: this import's, as its history says
    (another import into the same store begun meanwhile would count too). The history of a file is written in
    each batch's own transaction, so it holds a batch whose commit came before the interrupt even when the
    importer had not counted it yet (its count, ``counted``, is then a batch short). ``counted`` when the
    history cannot be read."""
    try:
        from cribstats.store.history import list_imports

        engine = _engine(url, must_exist=True)  # an SQLite file not made yet stays unmade: nothing is stored
        try:
            with engine.connect() as conn:
                runs = list_imports(conn)
        finally:
            engine.dispose()
    except Exception:  # no store or no history yet, the database gone: what the importer counted
        return counted
    return sum(run.imported for run in runs if run.started_at >= started)


def _games(n: int) -> str:
    return f"{n} game{'' if n == 1 else 's'}"


def _store_failures() -> tuple[type[BaseException], ...]:
    import sqlalchemy as sa

    return (sa.exc.SQLAlchemyError, OSError)


def _worker_failures() -> tuple[type[BaseException], ...]:
    from concurrent.futures.process import BrokenProcessPool

    return (BrokenProcessPool,)


def _failed_import(url: str, err: BaseException, stored: int) -> typer.Exit:
    """An import the database stopped (a full disk, a lost server), or a worker process's end (killed, out of
    memory): what went wrong, and what is stored."""
    from cribstats.store.db import describe_db_error, shown_url

    if isinstance(err, _worker_failures()):
        what = "a worker process of the import ended before its games were replayed (killed, or out of memory)"
    else:
        why = err.strerror or str(err) if isinstance(err, OSError) else describe_db_error(err)
        what = f"{shown_url(url)}: {why}"
    return fail(f"{what}; {_games(stored)} of this import were stored (whole batches, nothing else); once the "
                "trouble is fixed, run the same import again to complete it", 1)


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
    if (matches.imported or matches.present or matches.match_findings or matches.scorecard_findings
            or matches.scorecard_findings_retired):  # inputs that have them
        rows += [("match records stored", matches.imported), ("  already stored", matches.present),
                 ("match findings", matches.match_findings),  # of the matches this import judged
                 ("scorecard findings stored", matches.scorecard_findings),
                 ("  retired, the cards corrected", matches.scorecard_findings_retired)]
    for what, value in rows:
        if what.startswith("  ") and not value:
            continue
        table.add_row(what, str(value))
    return table


# --- db upgrade -----------------------------------------------------------------------------------


@db_app.command("upgrade", epilog=UPGRADE_HELP)
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

        cribstats show grass-roots-league-s606-g000001

        cribstats show cup-2026-final
    """
    from cribstats.replay import replay
    from cribstats.store.queries import AmbiguousGameError, find_game, no_game_message
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
            raise fail(no_game_message(game), 2)
        view = TextView()
        replay(stored.game(), view, key=stored.key)
    sys.stdout.write(view.result() + "\n")
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    from cribstats.cli.games import GAMES_HELP, games

    app.command("import", epilog=IMPORT_HELP)(import_logs)
    app.add_typer(db_app, name="db")
    app.command("games", epilog=GAMES_HELP)(games)  # cribstats/cli/games.py
    app.command("show", epilog=SHOW_HELP)(show)
