"""The importer's writer: batches, one transaction each, and the games' identity (content hash, source id, key)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection, Engine

from cribstats.errors import LogError
from cribstats.formats.sources import SourceFinding, SourceMatch
from cribstats.store import tables as t
from cribstats.store.bulk import bulk_insert, chunks, insert_ignore, next_id, refusable, retryable
from cribstats.store.db import atomic, describe_db_error, ensure_schema, is_postgresql, writer
from cribstats.store.history import record_run
from cribstats.store.identity import (
    IN_CHUNK,
    BatchOutcome,
    existing_games,
    file_hash,
    id_conflict,
    key_conflict,
)
from cribstats.store.match_import import MatchWriter
from cribstats.store.players import alias_ids
from cribstats.store.rows import (
    DATE_AT,
    DEAL_COLUMNS,
    DEAL_PLAYER_COLUMNS,
    FINDING_COLUMNS,
    GAME_COLUMNS,
    GAME_OWN_COLUMNS,
    GAME_PLAYER_COLUMNS,
    MUGGINS_AT,
    PLAY_COLUMNS,
    PreparedGame,
    failure_reason,
    prepare_game,
)
from cribstats.store.summary import ImportSummary, ProgressHook, Refusal, SourceGame
from cribstats.store.totals import add_game_totals

DEFAULT_BATCH_SIZE = 1000
RETRIES = 5  # attempts at a batch that meets a deadlock or serialisation failure (PostgreSQL)


def _as_bound(kind: sa.types.TypeEngine[Any], dialect: sa.Dialect) -> Callable[[Any], Any]:
    """How ``dialect`` binds a value of ``kind`` (SQLite: dates and times as text), or the value as it is."""
    processor = kind.dialect_impl(dialect).bind_processor(dialect)
    return processor if processor is not None else (lambda value: value)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


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
        self.matches = MatchWriter(replace=replace, tally=self.summary.matches)
        self._players: dict[str, int] = {}  # committed name key -> id
        self._events: dict[str, int] = {}
        self._file: str | None = None
        self._tally: _FileTally | None = None
        self._pg = is_postgresql(engine)
        # SQLite keeps dates and times as text: the same text SQLAlchemy's types write
        dialect = engine.dialect
        self._sqlite_date = _as_bound(sa.Date(), dialect)
        self._sqlite_datetime = _as_bound(sa.DateTime(), dialect)

    # context management

    def __enter__(self) -> Importer:
        ensure_schema(self.engine)
        self._conn = writer(self.engine.connect())
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                self._flush()
                self.matches.finish(self.conn, self.refuse)
                self._finish_file()
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
        self._switch_file(error.file)
        self.summary._refuse(Refusal(error.file, error.place, error.message))
        if self._tally is not None:
            self._tally.refused += 1

    def add(self, source: SourceGame) -> None:
        """Replay one game and queue it; the batch is written when full."""
        self._switch_file(source.file)
        try:
            prepared = prepare_game(source.game, source.file, source.place)
        except Exception as err:
            self._refused(source.file, source.place, failure_reason(err), None)
            return
        self.add_prepared(prepared)

    def add_record(self, item: SourceMatch | SourceFinding) -> None:
        """A match record or a scorecard finding read: stored once the games of the input are (see
        :mod:`cribstats.store.match_import`)."""
        self.matches.add_record(item)

    def refuse(self, file: str, place: str | None, reason: str) -> None:
        """Refuse a game that was read but cannot be stored."""
        self._switch_file(file)
        self._refused(file, place, reason, None)

    def add_prepared(self, prepared: PreparedGame) -> None:
        """Queue a game already turned into rows."""
        self._switch_file(prepared.file)
        if prepared.content_hash in self._batch_hashes:
            self._present(prepared)
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
                {"file": file, "file_hash": file_hash(file), "started_at": _now()},
            ).scalar_one()
        self._tally = _FileTally(run_id)
        self.summary.files += 1

    def _finish_file(self) -> None:
        tally = self._tally
        if tally is None:
            return
        with atomic(self.conn):
            record_run(self.conn, tally, finished_at=_now())
        self._tally = None
        if self.on_progress is not None and self._file is not None:
            self.on_progress(self.summary, self._file)

    def _refused(self, file: str, place: str | None, reason: str, key: str | None) -> None:
        self.summary._refuse(Refusal(file, place, reason, key))
        if self._tally is not None:
            self._tally.refused += 1

    def _present(self, g: PreparedGame) -> None:
        self.summary.present += 1
        if self._tally is not None:
            self._tally.present += 1

    def _conflicting(self, g: PreparedGame, reason: str) -> None:
        self.matches.game_met(g.key, "", g.file, g.place, stored_now=False)
        self.summary._conflict(Refusal(g.file, g.place, reason, g.key))
        if self._tally is not None:
            self._tally.conflicting += 1

    def _imported(self, g: PreparedGame, replaced: bool) -> None:
        self.matches.game_met(g.key, g.game_row["log"], g.file, g.place, stored_now=True)
        s = self.summary
        s.imported += 1
        s.replaced += replaced
        s.deals += len(g.deals)
        s.findings += len(g.findings)
        if self._tally is not None:
            self._tally.imported += 1
            self._tally.findings += len(g.findings)

    # writing

    def _flush(self) -> None:
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
                break
            except (sa.exc.DBAPIError, OverflowError) as err:
                if retryable(err) and attempt + 1 < RETRIES:
                    continue
                if refusable(err) or retryable(err):
                    outcome = self._write_one_by_one(batch)
                    break
                raise
        self._apply(outcome)
        if self._tally is not None:  # the history says what is committed, batch by batch
            with atomic(self.conn):
                record_run(self.conn, self._tally)
        if self.on_progress is not None and self._file is not None:
            self.on_progress(self.summary, self._file)

    def _write_one_by_one(self, batch: list[PreparedGame]) -> BatchOutcome:
        """The slow path: a savepoint per game, so one game the database refuses is refused alone."""
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
        return total

    def _apply(self, outcome: BatchOutcome) -> None:
        """Count a committed batch and remember the ids it made."""
        self._players.update(outcome.players)
        self._events.update(outcome.events)
        for g, replaced in outcome.imported:
            self._imported(g, replaced)
        for g in outcome.present:
            self._present(g)
        for g, reason in outcome.conflicts:
            self._conflicting(g, reason)
        for g, reason in outcome.refused:
            self._refused(g.file, g.place, reason, g.key)

    def _write(self, batch: list[PreparedGame]) -> BatchOutcome:
        """Write a batch inside the caller's transaction or savepoint; returns what became of each game."""
        conn = self.conn
        out = BatchOutcome()
        existing = existing_games(conn, batch)
        by_hash = {row.content_hash: row for row in existing}
        by_source = {row.source_id: row for row in existing if row.source_id is not None}
        by_key = {row.game_key: row for row in existing}
        to_store: list[tuple[PreparedGame, bool]] = []
        to_delete: list[int] = []
        for g in batch:
            if g.content_hash in by_hash:
                out.present.append(g)
                continue
            same_id = by_source.get(g.source_id) if g.source_id else None
            same_key = by_key.get(g.key)
            if same_id is not None and self.replace:
                if same_key is not None and same_key.id != same_id.id:
                    out.conflicts.append((g, key_conflict(g)))
                else:
                    to_delete.append(same_id.id)
                    to_store.append((g, True))
            elif same_id is not None:
                out.conflicts.append((g, id_conflict(g)))
            elif same_key is not None:
                out.conflicts.append((g, key_conflict(g)))
            else:
                to_store.append((g, False))
        if not to_store:
            return out
        if to_delete:
            games = t.game_table
            for chunk in chunks(to_delete, IN_CHUNK):
                conn.execute(sa.delete(games).where(games.c.id.in_(chunk)))
        players = self._resolve_players(conn, [g for g, _ in to_store], out)
        events = self._resolve_events(conn, [g for g, _ in to_store], out)
        # games in hash order: concurrent imports into PostgreSQL then take their unique keys in one order
        ordered = sorted(to_store, key=lambda item: item[0].content_hash)
        game_ids = self._insert_games(conn, [g for g, _ in ordered], players, events)
        stored: list[tuple[PreparedGame, bool]] = []
        raced: list[PreparedGame] = []
        for g, replaced in to_store:
            if g.content_hash in game_ids:
                stored.append((g, replaced))
            else:
                raced.append(g)
        if raced:  # written meanwhile by a concurrent import (PostgreSQL)
            now_there = {row.content_hash for row in existing_games(conn, raced)}
            for g in raced:
                if g.content_hash in now_there:
                    out.present.append(g)
                else:
                    out.conflicts.append((g, id_conflict(g) if g.source_id else key_conflict(g)))
        if not stored:
            return out
        self._insert_children(conn, stored, game_ids, players)
        out.imported.extend(stored)
        return out

    def _insert_games(
        self, conn: Connection, games: list[PreparedGame], players: dict[str, int], events: dict[str, int]
    ) -> dict[str, int]:
        """Insert game rows in the order given; content hash -> new id.

        PostgreSQL skips a game whose hash, source id or key a concurrent import stored first (it is then
        missing from the answer). SQLite needs no such care: this connection holds the write lock, and the
        batch was checked against the stored games under it; a game the database still refuses fails the batch.
        """
        import_id = self._tally.run_id if self._tally is not None else None
        now = _now()
        if self._pg:
            rows = []
            for g in games:
                row = dict(g.game_row)
                row["event_id"] = events[g.event] if g.event is not None else None
                row["recorded_winner"] = players[g.winner_key] if g.winner_key is not None else None
                row["imported_at"] = now
                row["import_id"] = import_id
                rows.append(row)
            gt = t.game_table
            stmt = postgresql.insert(gt).on_conflict_do_nothing().returning(gt.c.id, gt.c.content_hash)
            return {r.content_hash: r.id for r in conn.execute(stmt, rows)}
        first = next_id(conn, t.game_table)
        date_text, imported_at = self._sqlite_date, self._sqlite_datetime(now)
        rows_sqlite = []
        ids: dict[str, int] = {}
        for game_id, g in enumerate(games, first):
            ids[g.content_hash] = game_id
            row = g.game_row
            values = [game_id, *[row[c] for c in GAME_OWN_COLUMNS]]
            values[MUGGINS_AT] = int(row["muggins"])
            if row["date"] is not None:
                values[DATE_AT] = date_text(row["date"])
            values += (
                events[g.event] if g.event is not None else None,
                players[g.winner_key] if g.winner_key is not None else None,
                imported_at,
                import_id,
            )
            rows_sqlite.append(tuple(values))
        bulk_insert(conn, t.game_table, GAME_COLUMNS, rows_sqlite)
        return ids

    def _deal_ids(self, conn: Connection, count: int) -> list[int]:
        """``count`` new deal ids, ascending: the sequence's on PostgreSQL, ``max(id) + 1`` on on SQLite."""
        if self._pg:
            found = conn.exec_driver_sql(
                "SELECT nextval(pg_get_serial_sequence('deal', 'id')) FROM generate_series(1, %(n)s)", {"n": count}
            )
            return sorted(row[0] for row in found)
        first = next_id(conn, t.deal_table)
        return list(range(first, first + count))

    def _insert_children(
        self,
        conn: Connection,
        stored: list[tuple[PreparedGame, bool]],
        game_ids: dict[str, int],
        players: dict[str, int],
    ) -> None:
        """Every row of the stored games but the game's own, each table in one bulk write; then their totals."""
        deal_ids = self._deal_ids(conn, sum(len(g.deals) for g, _ in stored))
        game_players: list[tuple[Any, ...]] = []
        deals: list[tuple[Any, ...]] = []
        deal_players: list[tuple[Any, ...]] = []
        plays: list[tuple[Any, ...]] = []
        findings: list[tuple[Any, ...]] = []
        at = 0
        for g, _ in stored:
            gid = game_ids[g.content_hash]
            pids = [players[k] for k in g.names]
            dids = deal_ids[at : at + len(g.deals)]
            at += len(g.deals)
            game_players += [(gid, pids[r[0]], *r) for r in g.game_players]
            deals += [(did, gid, pids[r[0]], *r[1:]) for did, r in zip(dids, g.deals, strict=True)]
            # the ids joined to the rest with +: half the cost of a starred tuple, on a million rows
            deal_players += [(dids[d], gid, pids[s]) + rest for d, s, rest in g.deal_players]  # noqa: RUF005
            plays += [(dids[d], pids[s]) + rest for d, s, rest in g.plays]  # noqa: RUF005
            findings += [(gid, None if s is None else pids[s]) + rest for s, rest in g.findings]  # noqa: RUF005
        bulk_insert(conn, t.game_player_table, GAME_PLAYER_COLUMNS, game_players)
        bulk_insert(conn, t.deal_table, DEAL_COLUMNS, deals)
        bulk_insert(conn, t.finding_table, FINDING_COLUMNS, findings)
        bulk_insert(conn, t.deal_player_table, DEAL_PLAYER_COLUMNS, deal_players)
        bulk_insert(conn, t.play_event_table, PLAY_COLUMNS, plays)
        add_game_totals(conn, [game_ids[g.content_hash] for g, _ in stored])

    def _resolve_players(self, conn: Connection, games: list[PreparedGame], out: BatchOutcome) -> dict[str, int]:
        wanted: dict[str, str] = {}
        for g in games:
            for k, name in g.names.items():
                wanted.setdefault(k, name)  # the first spelling met is kept
        known = {k: self._players[k] for k in wanted if k in self._players}
        missing = sorted(k for k in wanted if k not in known)
        if missing:  # a spelling merged into another player (cribstats players merge) is that player
            aliased = alias_ids(conn, missing)
            known.update(aliased)
            out.players.update(aliased)
            missing = [k for k in missing if k not in aliased]
        if missing:
            pt = t.player_table
            insert_ignore(conn, pt, [{"name": wanted[k], "name_key": k} for k in missing], ["name_key"])
            for chunk in chunks(missing, IN_CHUNK):
                for row in conn.execute(sa.select(pt.c.name_key, pt.c.id).where(pt.c.name_key.in_(chunk))):
                    known[row.name_key] = row.id
                    out.players[row.name_key] = row.id
        return known

    def _resolve_events(self, conn: Connection, games: list[PreparedGame], out: BatchOutcome) -> dict[str, int]:
        wanted = {g.event for g in games if g.event is not None}
        known = {e: self._events[e] for e in wanted if e in self._events}
        missing = sorted(e for e in wanted if e not in known)
        if missing:
            et = t.event_table
            insert_ignore(conn, et, [{"name": e} for e in missing], ["name"])
            for chunk in chunks(missing, IN_CHUNK):
                for row in conn.execute(sa.select(et.c.name, et.c.id).where(et.c.name.in_(chunk))):
                    known[row.name] = row.id
                    out.events[row.name] = row.id
        return known
