"""The importer's writes: one batch of prepared games into the store, in a handful of statements.

The batch is checked against the stored games (content hash, source id, key), its new players and events are
found or made, its games inserted and numbered, and every other row written with one bulk write per table
(:func:`cribstats.store.bulk.bulk_insert`); the ids a worker process could not know (games, deals, players) are
joined to the rows here. The caller holds the transaction (:class:`cribstats.store.batches.Importer`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection, Engine

from cribstats.names import event_key
from cribstats.store import tables as t
from cribstats.store.bulk import bulk_insert, chunks, insert_ignore, next_id
from cribstats.store.db import is_postgresql
from cribstats.store.identity import IN_CHUNK, BatchOutcome, existing_games, id_conflict, key_conflict
from cribstats.store.players import alias_ids, refuse_seated_twice
from cribstats.store.removal import Unused, remove_unused
from cribstats.store.results_alike import identity_of, stored_identities
from cribstats.store.rows import (
    DATE_AT,
    DEAL_COLUMNS,
    DEAL_PLAYER_COLUMNS,
    FINDING_COLUMNS,
    GAME_COLUMNS,
    GAME_OWN_COLUMNS,
    GAME_PLAYER_COLUMNS,
    GIVEAWAY_AT,
    MUGGINS_AT,
    PreparedGame,
)
from cribstats.store.totals import add_game_totals


def _as_bound(kind: sa.types.TypeEngine[Any], dialect: sa.Dialect) -> Callable[[Any], Any]:
    """How ``dialect`` binds a value of ``kind`` (SQLite: dates and times as text), or the value as it is."""
    processor = kind.dialect_impl(dialect).bind_processor(dialect)
    return processor if processor is not None else (lambda value: value)


def now_utc() -> datetime:
    """The time now, in UTC without a zone (as the store keeps times)."""
    return datetime.now(UTC).replace(tzinfo=None)


#: the layout of :func:`utc_text`, for a reader that parses it back (polars ``str.to_datetime``)
UTC_TEXT_FORMAT = "%Y-%m-%d %H:%M:%S%:z"


def utc_text(moment: datetime) -> str:
    """A time the store keeps (UTC without a zone) as people and exports are given it: to the second, in UTC
    with the offset written, so that a reader in any time zone knows the instant.

    >>> utc_text(datetime(2026, 12, 6, 13, 30, 8, 517))
    '2026-12-06 13:30:08+00:00'
    """
    zoned = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return zoned.isoformat(sep=" ", timespec="seconds")


class BatchWriter:
    """Writes batches of prepared games into one store; remembers the ids of the players and events committed
    (:meth:`remember`), so that later batches need not look them up."""

    def __init__(self, engine: Engine, *, replace: bool = False) -> None:
        self.replace = replace
        self._players: dict[str, int] = {}  # committed name key -> id
        self._events: dict[str, int] = {}
        self._pg = is_postgresql(engine)
        # SQLite keeps dates and times as text: the same text SQLAlchemy's types write
        dialect = engine.dialect
        self._sqlite_date = _as_bound(sa.Date(), dialect)
        self._sqlite_datetime = _as_bound(sa.DateTime(), dialect)

    def remember(self, outcome: BatchOutcome) -> None:
        """The players and events of a committed batch."""
        self._players.update(outcome.players)
        self._events.update(outcome.events)

    def write(self, conn: Connection, batch: list[PreparedGame], import_id: int | None) -> BatchOutcome:
        """Write a batch inside the caller's transaction or savepoint; returns what became of each game.

        A batch that replaced stored games then takes out the players and events nothing stored names any more
        (:func:`cribstats.store.removal.remove_unused`, as a delete does): the old spelling of a corrected
        name, an event whose games now name another. Their ids are forgotten, here and in what the batch made.
        """
        out = BatchOutcome()
        if self._write(conn, batch, import_id, out):
            self._forget(remove_unused(conn), out)
        return out

    def _forget(self, unused: Unused, out: BatchOutcome) -> None:
        """Players and events taken out of the store: no later batch (nor this one's outcome) may use their ids."""
        for gone, holders in ((unused.players, (self._players, out.players)),
                              (unused.events, (self._events, out.events))):
            ids = set(gone)
            for known in holders if ids else ():
                for name in [k for k, v in known.items() if v in ids]:
                    del known[name]

    def _write(
        self, conn: Connection, batch: list[PreparedGame], import_id: int | None, out: BatchOutcome
    ) -> bool:
        """:meth:`write`'s work, into ``out``; whether it replaced (deleted) any stored game."""
        existing = existing_games(conn, batch)
        by_hash = {row.content_hash: row for row in existing}
        by_source = {row.source_id: row for row in existing if row.source_id is not None}
        by_key = {row.game_key: row for row in existing}
        to_store: list[tuple[PreparedGame, bool]] = []
        replacing: dict[str, int] = {}  # content hash -> the id of the stored game it replaces
        identities = [identity_of(g) for g in batch]
        results = stored_identities(conn, batch, identities)  # records of a result alone, stored or in this batch
        for g, identity in zip(batch, identities, strict=True):
            if g.content_hash in by_hash or _stored_as_written(g, by_hash):
                out.present.append(g)
                continue
            if identity is not None and identity in results:  # the same result, spelt otherwise
                out.present.append(g)
                continue
            same_id = by_source.get(g.source_id) if g.source_id else None
            same_key = by_key.get(g.key)
            if same_id is not None and self.replace:
                if same_key is not None and same_key.id != same_id.id:
                    out.conflicts.append((g, key_conflict(g)))
                else:
                    replacing[g.content_hash] = same_id.id
                    to_store.append((g, True))
            elif same_id is not None:
                out.conflicts.append((g, id_conflict(g)))
            elif same_key is not None:
                out.conflicts.append((g, key_conflict(g)))
            else:
                to_store.append((g, False))
                if identity is not None:
                    results.add(identity)
        if not to_store:
            return False
        players = self._resolve_players(conn, [g for g, _ in to_store], out)
        # a game seating one stored player twice (a spelling merged into another) is refused before any game
        # it would replace is deleted
        to_store = refuse_seated_twice(to_store, players, out.refused)
        to_delete = [replacing[g.content_hash] for g, replaced in to_store if replaced]
        if not to_store:
            return False
        if to_delete:
            games = t.game_table
            for chunk in chunks(to_delete, IN_CHUNK):
                conn.execute(sa.delete(games).where(games.c.id.in_(chunk)))
        events = self._resolve_events(conn, [g for g, _ in to_store], out)
        # games in hash order: concurrent imports into PostgreSQL then take their unique keys in one order
        ordered = sorted(to_store, key=lambda item: item[0].content_hash)
        game_ids = self._insert_games(conn, [g for g, _ in ordered], players, events, import_id)
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
        if stored:
            self._insert_children(conn, stored, game_ids, players)
            out.imported.extend(stored)
        return bool(to_delete)

    def _insert_games(
        self,
        conn: Connection,
        games: list[PreparedGame],
        players: dict[str, int],
        events: dict[str, int],
        import_id: int | None,
    ) -> dict[str, int]:
        """Insert game rows in the order given; content hash -> new id.

        PostgreSQL skips a game whose hash, source id or key a concurrent import stored first (it is then
        missing from the answer). SQLite needs no such care: this connection holds the write lock, and the
        batch was checked against the stored games under it; a game the database still refuses fails the batch.
        """
        now = now_utc()
        if self._pg:
            rows = []
            for g in games:
                row = dict(zip(GAME_OWN_COLUMNS, g.game_row, strict=True))
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
            values = [game_id, *g.game_row]
            values[MUGGINS_AT] = int(values[MUGGINS_AT])
            values[GIVEAWAY_AT] = int(values[GIVEAWAY_AT])
            if values[DATE_AT] is not None:
                values[DATE_AT] = date_text(values[DATE_AT])
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
        """Every row of the stored games but the game's own (the discards' values in the players' deals, worked
        out where the game was replayed), each table in one bulk write; then their totals."""
        deal_ids = self._deal_ids(conn, sum(len(g.deals) for g, _ in stored))
        game_players: list[tuple[Any, ...]] = []
        deals: list[tuple[Any, ...]] = []
        deal_players: list[tuple[Any, ...]] = []
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
            findings += [(gid, None if s is None else pids[s]) + rest for s, rest in g.findings]  # noqa: RUF005
        bulk_insert(conn, t.game_player_table, GAME_PLAYER_COLUMNS, game_players)
        bulk_insert(conn, t.deal_table, DEAL_COLUMNS, deals)
        bulk_insert(conn, t.finding_table, FINDING_COLUMNS, findings)
        bulk_insert(conn, t.deal_player_table, DEAL_PLAYER_COLUMNS, deal_players)
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
            insert_ignore(conn, et, [{"name": e, "name_key": event_key(e)} for e in missing], ["name"])
            for chunk in chunks(missing, IN_CHUNK):
                for row in conn.execute(sa.select(et.c.name, et.c.id).where(et.c.name.in_(chunk))):
                    known[row.name] = row.id
                    out.events[row.name] = row.id
        return known


def _stored_as_written(g: PreparedGame, by_hash: dict[str, Any]) -> bool:
    """Whether ``g``, a whole game of a match record, is stored under its own id exactly as the record writes
    it, only without the match id or number the record gives it: imported alone, then sent again in the
    record. It is that stored game (which takes the record's setting and joins its match), not a conflict."""
    stored = by_hash.get(g.written_hash) if g.written_hash is not None else None
    return stored is not None and g.source_id is not None and stored.source_id == g.source_id
