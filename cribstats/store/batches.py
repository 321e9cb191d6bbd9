"""The importer: games queued in batches, one transaction each (written by :mod:`cribstats.store.writes`), the
games' identity within a batch (content hash, source id, key), and each file's history."""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, replace

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from cribstats.errors import LogError
from cribstats.formats.sources import STDIN_NAME, SourceAgreement, SourceFinding, SourceMatch
from cribstats.safetext import storable_path
from cribstats.store import tables as t
from cribstats.store.bulk import refusable, retryable
from cribstats.store.db import atomic, describe_db_error, ensure_schema, is_postgresql, writer
from cribstats.store.history import record_run
from cribstats.store.identity import BatchOutcome, file_hash
from cribstats.store.match_import import MatchWriter
from cribstats.store.rows import DiscardQueue, PreparedGame, failure_reason, prepare_game
from cribstats.store.summary import ImportSummary, ProgressHook, Refusal, SourceGame
from cribstats.store.writes import BatchWriter, now_utc

DEFAULT_BATCH_SIZE = 1000
IMPORT_CACHE_KIB = 32 * 1024  # SQLite's page cache on an import's connection (the default, 2 MiB, put back after)
SQLITE_DEFAULT_CACHE_KIB = 2000
VALUE_TOGETHER = 1000  # discards queued before they are valued (some 50 games: a batch's worth at once is slower)
RETRIES = 5  # attempts at a batch that meets a deadlock or serialisation failure (PostgreSQL)


def _sqlite_cache(conn: Connection, kib: int) -> None:
    """Set the page cache of an SQLite connection, outside any transaction (on the driver's connection, so that
    SQLAlchemy begins none)."""
    driver = conn.connection.driver_connection
    assert driver is not None  # a live connection
    driver.execute(f"PRAGMA cache_size=-{kib}")


def _no_such_path(file: str, place: str | None) -> bool:
    """Whether a refusal is of a whole input that does not exist: no place in it, not standard input, and no
    file or folder at its path (a link to nothing is nothing either)."""
    return place is None and file not in ("-", STDIN_NAME) and not os.path.exists(file)


@dataclass(slots=True)
class _FileTally:
    run_id: int
    imported: int = 0
    present: int = 0
    conflicting: int = 0
    refused: int = 0
    findings: int = 0


class Importer:
    """Feeds games into the store in batches. Use as a context manager; :attr:`summary` says what happened.

    >>> from cribstats.store.db import make_engine
    >>> with Importer(make_engine("sqlite://")) as importer:
    ...     importer.refuse_error(LogError("club.jsonl", "line 3", "'1H' is not a card"))
    >>> [str(r) for r in importer.summary.refused]
    ["club.jsonl:line 3: '1H' is not a card"]
    """

    def __init__(
        self,
        engine: Engine,
        *,
        replace: bool = False,
        on_progress: ProgressHook | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        self.engine = engine
        self.replace = replace
        self.on_progress = on_progress
        self.batch_size = max(1, batch_size)
        self.summary = ImportSummary()
        self._conn: Connection | None = None
        self._batch: list[PreparedGame] = []
        self._batch_hashes: set[str] = set()
        self._batch_ids: set[str] = set()
        self._batch_keys: set[str] = set()
        self._values = DiscardQueue()  # the discards of the games added, valued together before a batch is written
        self.matches = MatchWriter(replace=replace, tally=self.summary.matches)
        self.writes = BatchWriter(engine, replace=replace)
        self._file: str | None = None
        self._tally: _FileTally | None = None
        self.runs: list[int] = []  # the import runs this import made (``game.import_id`` of the games it stored)

    # context management

    def __enter__(self) -> Importer:
        ensure_schema(self.engine)
        self._conn = writer(self.engine.connect())
        if not is_postgresql(self.engine):  # the tables' indexes stay in memory through a batch
            _sqlite_cache(self._conn, IMPORT_CACHE_KIB)
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                self._flush()
                self.matches.finish(self.conn, self.refuse)
                self._finish_file()
                if not is_postgresql(self.engine):
                    _sqlite_cache(self.conn, SQLITE_DEFAULT_CACHE_KIB)
        finally:
            assert self._conn is not None
            self._conn.close()
            self._conn = None

    @property
    def conn(self) -> Connection:
        if self._conn is None:
            raise RuntimeError("use the Importer inside a with block")
        return self._conn

    # input

    def refuse_error(self, error: LogError) -> None:
        """The readers' error hook: an input that could not be read is refused with its file and place."""
        self.refuse(error.file, error.place, error.message)

    def add(self, source: SourceGame) -> None:
        """Replay one game and queue it; the batch is written when full."""
        self._switch_file(source.file)
        try:
            prepared = prepare_game(source.game, source.file, source.place, self._values, source.written)
        except Exception as err:
            self._refused(source.file, source.place, failure_reason(err), None)
            self._count(refused=1)
            return
        if len(self._values) >= VALUE_TOGETHER:
            self._values.fill()
        self.add_prepared(prepared)

    def add_record(self, item: SourceMatch | SourceFinding | SourceAgreement) -> None:
        """A match record or a scorecard finding read: stored once the games of the input are (see
        :mod:`cribstats.store.match_import`). Its file counts as read, and is in the import's history, even when it
        gives no game (a sheet whose every game is a disagreement)."""
        self._switch_file(item.file)
        self.matches.add_record(item)

    def refuse(self, file: str, place: str | None, reason: str) -> None:
        """Refuse a game that was read but cannot be stored, or an input that could not be read. A path that
        does not exist is reported and refused, but was not read: it is not counted among the files read, nor
        recorded in the import history (:func:`_no_such_path`)."""
        if _no_such_path(file, place) and file != self._file:
            self._refused(file, place, reason, None)
            return
        self._switch_file(file)
        self._refused(file, place, reason, None)
        self._count(refused=1)

    def add_prepared(self, prepared: PreparedGame) -> None:
        """Queue a game already turned into rows."""
        self._switch_file(prepared.file)
        if prepared.content_hash in self._batch_hashes:
            self._present(prepared)
            self._count(present=1)
            return
        if prepared.key in self._batch_keys or (prepared.source_id and prepared.source_id in self._batch_ids):
            self._flush()  # the same id twice in one batch: let the first be stored, then judge the second
        self._batch.append(prepared)
        self._batch_hashes.add(prepared.content_hash)
        self._batch_keys.add(prepared.key)
        if prepared.source_id:
            self._batch_ids.add(prepared.source_id)
        if len(self._batch) >= self.batch_size:
            self._flush()

    def write_pending(self) -> None:
        """Write the games queued so far, without waiting for the batch to fill: the input has paused (a feed of
        games as they are played), and what came before the pause is stored then."""
        self._flush()

    # bookkeeping

    def _switch_file(self, file: str) -> None:
        if file == self._file:
            return
        self._flush()
        self._finish_file()
        self._file = file
        with atomic(self.conn):
            run_id = self.conn.execute(
                sa.insert(t.import_run_table).returning(t.import_run_table.c.id),
                {"file": storable_path(file), "file_hash": file_hash(file), "started_at": now_utc()},
            ).scalar_one()
        self._tally = _FileTally(run_id)
        self.runs.append(run_id)
        self.summary.files += 1

    def _finish_file(self) -> None:
        tally = self._tally
        if tally is None:
            return
        with atomic(self.conn):
            record_run(self.conn, tally, finished_at=now_utc())
        self._tally = None
        if self.on_progress is not None and self._file is not None:
            self.on_progress(self.summary, self._file)

    def _count(self, **counts: int) -> None:
        """Count games outside a batch in the file's history (it is written with the next batch, or at the end)."""
        if self._tally is not None:
            for name, n in counts.items():
                setattr(self._tally, name, getattr(self._tally, name) + n)

    def _refused(self, file: str, place: str | None, reason: str, key: str | None) -> None:
        self.summary._refuse(Refusal(file, place, reason, key))

    def _present(self, g: PreparedGame) -> None:
        self.summary.present += 1

    def _conflicting(self, g: PreparedGame, reason: str) -> None:
        self.matches.game_met(g.key, "", g.file, g.place, stored_now=False)
        self.summary._conflict(Refusal(g.file, g.place, reason, g.key))

    def _imported(self, g: PreparedGame, replaced: bool) -> None:
        self.matches.game_met(g.key, g.log, g.file, g.place, stored_now=True)
        s = self.summary
        s.imported += 1
        s.replaced += replaced
        s.deals += len(g.deals)
        s.findings += len(g.findings)

    # writing

    def _flush(self) -> None:
        self._values.fill()
        batch = self._batch
        if not batch:
            return
        self._batch = []
        self._batch_hashes.clear()
        self._batch_ids.clear()
        self._batch_keys.clear()
        for attempt in range(RETRIES):
            try:
                with atomic(self.conn):
                    outcome = self._write(batch)
                    committed = self._history(outcome)
                break
            except (sa.exc.DBAPIError, OverflowError) as err:
                if retryable(err) and attempt + 1 < RETRIES:
                    continue
                if refusable(err) or retryable(err):
                    outcome, committed = self._write_one_by_one(batch)
                    break
                raise
        self._apply(outcome)
        self._tally = committed
        del batch, outcome  # the games written, freed by their count before the collector walks what is young
        gc.collect(1)  # the SQL statements' cycles, while young: the collector may run seldom (few_collections)
        if self.on_progress is not None and self._file is not None:
            self.on_progress(self.summary, self._file)

    def _history(self, outcome: BatchOutcome) -> _FileTally | None:
        """The file's counts once ``outcome`` is committed, written to its history in the batch's own transaction:
        the history says what is committed, batch by batch, and never less (a full disk that stops the history's
        write stops the batch's). The counts to keep once the transaction commits."""
        if self._tally is None:
            return None
        after = replace(self._tally)
        after.imported += len(outcome.imported)
        after.findings += sum(len(g.findings) for g, _ in outcome.imported)
        after.present += len(outcome.present)
        after.conflicting += len(outcome.conflicts)
        after.refused += len(outcome.refused)
        record_run(self.conn, after)
        return after

    def _write_one_by_one(self, batch: list[PreparedGame]) -> tuple[BatchOutcome, _FileTally | None]:
        """The slow path: a savepoint per game, so one game the database refuses is refused alone; with the
        file's counts as committed (:meth:`_history`)."""
        total = BatchOutcome()
        with atomic(self.conn):
            for g in batch:
                for attempt in range(RETRIES):
                    try:
                        with atomic(self.conn):  # a savepoint: inside the batch's transaction
                            one = self._write([g])
                        total.merge(one)
                        break
                    except (sa.exc.DBAPIError, OverflowError) as err:
                        if retryable(err) and attempt + 1 < RETRIES:
                            continue
                        if refusable(err) or retryable(err):
                            total.refused.append((g, f"the database refused it: {describe_db_error(err)}"))
                            break
                        raise
            committed = self._history(total)
        return total, committed

    def _apply(self, outcome: BatchOutcome) -> None:
        """Count a committed batch and remember the ids it made."""
        self.writes.remember(outcome)
        for g, replaced in outcome.imported:
            self._imported(g, replaced)
        for g in outcome.present:
            self._present(g)
        for g, reason in outcome.conflicts:
            self._conflicting(g, reason)
        for g, reason in outcome.refused:
            self._refused(g.file, g.place, reason, g.key)

    def _write(self, batch: list[PreparedGame]) -> BatchOutcome:
        return self.writes.write(self.conn, batch, self._tally.run_id if self._tally is not None else None)
