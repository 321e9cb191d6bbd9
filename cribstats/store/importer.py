"""``cribstats import``: read game logs, replay them, and store games, deals, facts and findings.

* Idempotent: a game is known by the sha256 of its canonical JSON (:func:`cribstats.gamelog.content_hash`);
  importing it again changes nothing. The same source ``id`` with different content is a conflict: reported,
  not stored, unless ``replace=True``, which swaps the stored game for the new one.
* Atomic: games are written in batches, one transaction each, so an interrupted import keeps whole batches and
  nothing else. Every game of a batch is checked before the batch is written; should the database still refuse
  one (a concurrent import got there first, a constraint), the batch is rolled back and written again with a
  savepoint per game, so that game alone is refused and the rest are stored.
* Bounded memory: games stream from the readers one at a time; only one batch of rows is held.
* Concurrent imports into PostgreSQL: players, events and games go in with ``INSERT ... ON CONFLICT DO NOTHING``
  against their unique keys, in key order, so two imports of overlapping files store each game and player once.

Games, players and events go in through SQLAlchemy Core ``insert()`` (``ON CONFLICT DO NOTHING ... RETURNING``);
the fact rows (deal facts, play events, findings) through the driver's ``executemany`` on SQLite and ``COPY`` on
PostgreSQL. No ORM object is made per row. ``workers`` > 1 replays games in that many processes meanwhile.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from datetime import date as Date
from typing import Any, Protocol

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from cribstats.cards import format_card
from cribstats.errors import CribstatsError, LogError
from cribstats.gamelog import GameLog, content_hash, dump_game, game_key
from cribstats.replay import GameOutcome, replay
from cribstats.store import tables as t
from cribstats.store.db import describe_db_error, ensure_schema, is_postgresql, writer
from cribstats.store.tables import name_key

LOGGER = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 1000
MAX_REPORTED = 10_000  # refusals and conflicts kept with their reasons; beyond that only counted
IN_CHUNK = 500  # values per IN (...) list
RETRIES = 5  # attempts at a batch that meets a deadlock or serialisation failure (PostgreSQL)
_RETRY_SQLSTATES = {"40P01", "40001"}


class SourceGame(Protocol):
    """A game as a reader yields it: the file, the place in it (``line 12``, ``[3]``) and the game."""

    file: str
    place: str | None
    game: GameLog


@dataclass(slots=True, frozen=True)
class Refusal:
    """A game (or a whole input) that was not stored, with where it came from and why."""

    file: str
    place: str | None
    reason: str
    game: str | None = None  # the game key, when the game could be read

    def __str__(self) -> str:
        where = f"{self.file}:{self.place}" if self.place else self.file
        return f"{where}: {self.reason}"


@dataclass(slots=True)
class ImportSummary:
    """What an import did. ``refused`` and ``conflicts`` keep the first :data:`MAX_REPORTED` reasons each."""

    files: int = 0
    imported: int = 0
    present: int = 0  # already stored with the same content: nothing changed
    replaced: int = 0  # stored over a game with the same source id (``replace=True``); also counted as imported
    refused_count: int = 0
    conflict_count: int = 0
    findings: int = 0  # findings of the games imported
    deals: int = 0  # deals of the games imported
    refused: list[Refusal] = field(default_factory=list)
    conflicts: list[Refusal] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Every game or input met: imported, present, conflicting or refused."""
        return self.imported + self.present + self.conflict_count + self.refused_count

    @property
    def complete(self) -> bool:
        """True when every game was imported or already present."""
        return self.refused_count == 0 and self.conflict_count == 0

    def _refuse(self, refusal: Refusal) -> None:
        self.refused_count += 1
        if len(self.refused) < MAX_REPORTED:
            self.refused.append(refusal)

    def _conflict(self, refusal: Refusal) -> None:
        self.conflict_count += 1
        if len(self.conflicts) < MAX_REPORTED:
            self.conflicts.append(refusal)


ProgressHook = Callable[[ImportSummary, str], None]


def import_paths(
    paths: Sequence[str | os.PathLike[str]],
    engine: Engine,
    *,
    replace: bool = False,
    on_progress: ProgressHook | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    workers: int = 1,
) -> ImportSummary:
    """Import files and folders of game logs (``-`` reads standard input); see the module notes.

    Bad input is refused with its file and place and the rest still imports. ``on_progress(summary, file)`` is
    called after every batch and file. With ``workers`` > 1 that many processes replay the games while this one
    reads and writes; the result is the same, in the same order.

    :raises StoreError: when the database cannot be used. Database errors other than a refused game propagate.
    """
    from cribstats import formats

    names = [os.fspath(p) for p in paths]
    importer = Importer(engine, replace=replace, on_progress=on_progress, batch_size=batch_size)
    with importer:
        if workers > 1:
            _import_in_parallel(importer, names, workers)
        else:
            for source in formats.read_paths(names, on_error=importer.refuse_error):
                importer.add(source)
    return importer.summary


PARALLEL_CHUNK = 64  # games sent to a worker process at a time


def _prepare_chunk(
    chunk: list[tuple[GameLog, str, str | None]],
) -> list[tuple[str, str | None, PreparedGame | str]]:
    """In a worker process: replay and prepare each game, or say why it cannot be stored."""
    out: list[tuple[str, str | None, PreparedGame | str]] = []
    for game, file, place in chunk:
        try:
            out.append((file, place, prepare_game(game, file, place)))
        except Exception as err:
            out.append((file, place, _failure(err)))
    return out


def _failure(err: Exception) -> str:
    if isinstance(err, CribstatsError | ValueError):
        return str(err)
    LOGGER.debug("the replay failed", exc_info=err)  # debug: a library logs, the CLI decides what is shown
    return f"the replay failed ({type(err).__name__}: {err})"


def _import_in_parallel(importer: Importer, paths: list[str], workers: int) -> None:
    """Read here, replay in ``workers`` processes, write here: results are taken in the order read."""
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    from cribstats import formats

    slots: deque[Future[list[tuple[str, str | None, PreparedGame | str]]] | LogError] = deque()
    chunk: list[tuple[GameLog, str, str | None]] = []
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:

        def submit() -> None:
            nonlocal chunk
            if chunk:
                slots.append(pool.submit(_prepare_chunk, chunk))
                chunk = []

        def on_error(error: LogError) -> None:
            submit()  # what was read before the error is taken before it
            slots.append(error)

        def drain(keep: int) -> None:
            while len(slots) > keep:
                head = slots.popleft()
                if isinstance(head, LogError):
                    importer.refuse_error(head)
                    continue
                for file, place, result in head.result():
                    if isinstance(result, PreparedGame):
                        importer.add_prepared(result)
                    else:
                        importer.refuse(file, place, result)

        for source in formats.read_paths(paths, on_error=on_error):
            chunk.append((source.game, source.file, source.place))
            if len(chunk) >= PARALLEL_CHUNK:
                submit()
                drain(workers * 4)
        submit()
        drain(0)


def import_games(
    sources: Iterable[SourceGame],
    engine: Engine,
    *,
    replace: bool = False,
    on_progress: ProgressHook | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> ImportSummary:
    """Import games already read (anything with ``file``, ``place`` and ``game``), e.g. from a simulator."""
    importer = Importer(engine, replace=replace, on_progress=on_progress, batch_size=batch_size)
    with importer:
        for source in sources:
            importer.add(source)
    return importer.summary


def import_file(
    path: str | os.PathLike[str],
    engine: Engine,
    *,
    replace: bool = False,
    on_progress: ProgressHook | None = None,
) -> ImportSummary:
    """:func:`import_paths` for one file."""
    return import_paths([path], engine, replace=replace, on_progress=on_progress)


# --- one game, replayed and turned into rows (no database yet) ------------------------------------------------


@dataclass(slots=True)
class PreparedGame:
    """A replayed game as rows; player columns hold name keys until the batch resolves them to ids."""

    file: str
    place: str | None
    content_hash: str
    key: str
    source_id: str | None
    event: str | None
    winner_key: str | None
    names: dict[str, str]  # name key -> trimmed spelling, in seat order
    game_row: dict[str, Any]
    # rows in the column order of *_COLUMNS, without the ids the batch fills in (see each constant)
    game_players: list[tuple[Any, ...]]
    deals: list[tuple[Any, ...]]
    deal_players: list[tuple[Any, ...]]
    plays: list[tuple[Any, ...]]
    findings: list[tuple[Any, ...]]


# Column orders of the bulk-written tables. A prepared row holds the columns after the ids in brackets, with the
# player's name key where ``player_id``/``dealer_id`` goes and the deal number where ``deal_id`` goes.
GAME_PLAYER_COLUMNS = (  # [game_id]
    "game_id",
    "player_id",
    "seat",
    "team",
    "final_score_claimed",
    "final_score_due",
    "won",
    "won_due",
    "skunk_level",
    "recorded_score",
)
DEAL_COLUMNS = ("game_id", "number", "dealer_id", "starter", "crib_card", "completed", "after_end")  # [game_id]
DEAL_PLAYER_COLUMNS = (  # [game_id] after deal_id
    "deal_id",
    "game_id",
    "player_id",
    "seat",
    "role",
    "dealt",
    "discards",
    "pegged_due",
    "pegged_claimed",
    "hand_due",
    "hand_claimed",
    "crib_due",
    "crib_claimed",
    "heels_due",
    "heels_claimed",
    "muggins_gained",
    "muggins_lost",
    "completed",
)
PLAY_COLUMNS = ("deal_id", "seq", "player_id", "card", "count", "due", "claimed", "after_end")
FINDING_COLUMNS = (  # [game_id]
    "game_id",
    "seq",
    "deal_number",
    "event",
    "kind",
    "phase",
    "player_id",
    "claimed",
    "due",
    "message",
)
_CARD_TEXT: tuple[str, ...] = tuple(format_card(c) for c in range(52))


class GameRefused(CribstatsError):
    """A game that reads but cannot be stored (e.g. two of its players are one player once names are folded)."""


def canonical_log(game: GameLog) -> tuple[str, str]:
    """The canonical game log JSON (fields in the spec's order) and its content hash.

    The hash is :func:`cribstats.gamelog.content_hash`, computed from the same dump to spare a second one.
    """
    dumped = dump_game(game)
    return orjson.dumps(dumped).decode(), content_hash(game, dumped)


def prepare_game(
    game: GameLog, file: str, place: str | None, *, outcome: GameOutcome | None = None
) -> PreparedGame:
    """Replay ``game`` (unless its ``outcome`` is given) and build the rows that store it.

    :raises GameRefused: for a game the store cannot hold; errors of the replay propagate.
    """
    log, digest = canonical_log(game)
    if outcome is None:
        outcome = replay(game, key=game_key(game, digest))
    variant = outcome.variant
    key_of: dict[str, str] = {}
    names: dict[str, str] = {}
    for name in game.players:
        trimmed = name.strip()
        k = name_key(trimmed)
        if not k:
            raise GameRefused(f"player name {name!r} is blank")
        if k in names:
            raise GameRefused(
                f"players {names[k]!r} and {trimmed!r} differ only in case or spacing: they would be one player"
            )
        names[k] = trimmed
        key_of[name] = k
    key = outcome.key
    recorded = game.result
    winner_key = key_of.get(recorded.winner) if recorded is not None and recorded.winner else None
    event = game.event.strip() if game.event and game.event.strip() else None
    game_row: dict[str, Any] = {
        "source_id": game.id,
        "content_hash": digest,
        "game_key": key,
        "variant": variant.name,
        "target": outcome.target,
        "muggins": game.muggins_rule,
        "player_count": len(game.players),
        "date": Date.fromisoformat(game.date) if game.date else None,
        "site": game.site,
        "round": game.round,
        "source_file": file,
        "source_place": place,
        "ended_in_deal": outcome.ended_in_deal,
        "skunk_level": outcome.skunk_level,
        "deal_count": len(outcome.deals),
        "finding_count": len(outcome.findings),
        "log": log,
    }
    winners = set(outcome.winners)
    winners_due = set(outcome.winners_due)
    recorded_scores = (recorded.scores if recorded is not None else None) or {}
    game_players = []
    for seat, name in enumerate(game.players):
        claimed = outcome.scores_claimed.get(name)
        won = name in winners
        skunk = 0
        if winners and not won and claimed is not None:
            skunk = variant.skunk_level(claimed, outcome.target)
        game_players.append(
            (
                key_of[name],
                seat,
                variant.side_of(seat),
                claimed,
                outcome.scores_due.get(name),
                won,
                name in winners_due,
                skunk,
                recorded_scores.get(name),
            )
        )
    card = _CARD_TEXT
    deals, deal_players, plays = [], [], []
    logged_deals = game.deals or []
    for facts in outcome.deals:
        number = facts.number
        completed = facts.completed
        logged = logged_deals[number - 1] if 0 < number <= len(logged_deals) else None
        deals.append(
            (
                number,
                key_of[facts.dealer],
                card[facts.starter],
                logged.crib_card if logged is not None else None,
                completed,
                facts.after_end,
            )
        )
        for p in facts.players:
            deal_players.append(
                (
                    number,
                    key_of[p.player],
                    p.seat,
                    p.role,
                    " ".join([card[c] for c in p.dealt]),
                    " ".join([card[c] for c in p.discards]),
                    p.pegged_due,
                    p.pegged_claimed,
                    p.hand_due,
                    p.hand_claimed,
                    p.crib_due,
                    p.crib_claimed,
                    p.heels_due,
                    p.heels_claimed,
                    p.muggins_gained,
                    p.muggins_lost,
                    completed,
                )
            )
        for play in facts.plays:
            plays.append(
                (
                    number,
                    play.index,
                    key_of[play.player],
                    None if play.card is None else card[play.card],
                    play.count,
                    play.due,
                    play.claimed,
                    play.after_end,
                )
            )
    findings = [
        (
            i,
            f.deal,
            f.event,
            f.kind,
            f.phase,
            None if f.player is None else key_of.get(f.player),
            f.claimed,
            f.due,
            f.message,
        )
        for i, f in enumerate(outcome.findings)
    ]
    return PreparedGame(
        file=file,
        place=place,
        content_hash=digest,
        key=key,
        source_id=game.id,
        event=event,
        winner_key=winner_key,
        names=names,
        game_row=game_row,
        game_players=game_players,
        deals=deals,
        deal_players=deal_players,
        plays=plays,
        findings=findings,
    )


# --- the importer: batches, transactions, identity --------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def file_hash(path: str) -> str | None:
    """sha256 of a file's bytes, or None for standard input and anything that is not a regular file."""
    if path in ("-", "<stdin>") or not os.path.isfile(path):
        return None
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 16):
            digest.update(chunk)
    return digest.hexdigest()


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
        self._players: dict[str, int] = {}  # committed name key -> id
        self._events: dict[str, int] = {}
        self._file: str | None = None
        self._tally: _FileTally | None = None
        self._pg = is_postgresql(engine)

    # context management

    def __enter__(self) -> Importer:
        ensure_schema(self.engine)
        self._conn = writer(self.engine.connect())
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                self._flush()
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
            self._refused(source.file, source.place, _failure(err), None)
            return
        self.add_prepared(prepared)

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
        with self.conn.begin():
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
        runs = t.import_run_table
        with self.conn.begin():
            self.conn.execute(
                sa.update(runs)
                .where(runs.c.id == tally.run_id)
                .values(
                    finished_at=_now(),
                    games_imported=tally.imported,
                    games_present=tally.present,
                    games_conflicting=tally.conflicting,
                    games_refused=tally.refused,
                    findings=tally.findings,
                )
            )
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
        self.summary._conflict(Refusal(g.file, g.place, reason, g.key))
        if self._tally is not None:
            self._tally.conflicting += 1

    def _imported(self, g: PreparedGame, replaced: bool) -> None:
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
                with self.conn.begin():
                    outcome = self._write(batch)
                break
            except (sa.exc.DBAPIError, OverflowError) as err:
                if _retryable(err) and attempt + 1 < RETRIES:
                    continue
                if _refusable(err) or _retryable(err):
                    outcome = self._write_one_by_one(batch)
                    break
                raise
        self._apply(outcome)
        if self.on_progress is not None and self._file is not None:
            self.on_progress(self.summary, self._file)

    def _write_one_by_one(self, batch: list[PreparedGame]) -> _BatchOutcome:
        """The slow path: a savepoint per game, so one game the database refuses is refused alone."""
        total = _BatchOutcome()
        with self.conn.begin():
            for g in batch:
                for attempt in range(RETRIES):
                    try:
                        with self.conn.begin_nested():
                            one = self._write([g])
                        total.merge(one)
                        break
                    except (sa.exc.DBAPIError, OverflowError) as err:
                        if _retryable(err) and attempt + 1 < RETRIES:
                            continue
                        if _refusable(err) or _retryable(err):
                            total.refused.append((g, f"the database refused it: {describe_db_error(err)}"))
                            break
                        raise
        return total

    def _apply(self, outcome: _BatchOutcome) -> None:
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

    def _write(self, batch: list[PreparedGame]) -> _BatchOutcome:
        """Write a batch inside the caller's transaction or savepoint; returns what became of each game."""
        conn = self.conn
        out = _BatchOutcome()
        existing = _existing_games(conn, batch)
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
                    out.conflicts.append((g, _key_conflict(g)))
                else:
                    to_delete.append(same_id.id)
                    to_store.append((g, True))
            elif same_id is not None:
                out.conflicts.append((g, _id_conflict(g)))
            elif same_key is not None:
                out.conflicts.append((g, _key_conflict(g)))
            else:
                to_store.append((g, False))
        if not to_store:
            return out
        if to_delete:
            games = t.game_table
            for chunk in _chunks(to_delete, IN_CHUNK):
                conn.execute(sa.delete(games).where(games.c.id.in_(chunk)))
        players = self._resolve_players(conn, [g for g, _ in to_store], out)
        events = self._resolve_events(conn, [g for g, _ in to_store], out)
        import_id = self._tally.run_id if self._tally is not None else None
        now = _now()
        rows = []
        for g, _ in sorted(to_store, key=lambda item: item[0].content_hash):
            row = dict(g.game_row)
            row["event_id"] = events[g.event] if g.event is not None else None
            row["recorded_winner"] = players[g.winner_key] if g.winner_key is not None else None
            row["imported_at"] = now
            row["import_id"] = import_id
            rows.append(row)
        game_ids = _insert_games(conn, rows)
        stored: list[tuple[PreparedGame, bool]] = []
        raced: list[PreparedGame] = []
        for g, replaced in to_store:
            if g.content_hash in game_ids:
                stored.append((g, replaced))
            else:
                raced.append(g)
        if raced:  # written meanwhile by a concurrent import
            now_there = {row.content_hash for row in _existing_games(conn, raced)}
            for g in raced:
                if g.content_hash in now_there:
                    out.present.append(g)
                else:
                    out.conflicts.append((g, _id_conflict(g) if g.source_id else _key_conflict(g)))
        if not stored:
            return out
        self._insert_children(conn, stored, game_ids, players)
        out.imported.extend(stored)
        return out

    def _insert_children(
        self,
        conn: Connection,
        stored: list[tuple[PreparedGame, bool]],
        game_ids: dict[str, int],
        players: dict[str, int],
    ) -> None:
        game_players: list[tuple[Any, ...]] = []
        deals: list[tuple[Any, ...]] = []
        findings: list[tuple[Any, ...]] = []
        for g, _ in stored:
            gid = game_ids[g.content_hash]
            for row in g.game_players:
                game_players.append((gid, players[row[0]], *row[1:]))
            for row in g.deals:
                deals.append((gid, row[0], players[row[1]], *row[2:]))
            for row in g.findings:
                pk = row[5]
                findings.append((gid, *row[:5], None if pk is None else players[pk], *row[6:]))
        bulk_insert(conn, t.game_player_table, GAME_PLAYER_COLUMNS, game_players)
        bulk_insert(conn, t.deal_table, DEAL_COLUMNS, deals)
        bulk_insert(conn, t.finding_table, FINDING_COLUMNS, findings)
        deal_ids = _deal_ids(conn, [game_ids[g.content_hash] for g, _ in stored])
        deal_players: list[tuple[Any, ...]] = []
        plays: list[tuple[Any, ...]] = []
        for g, _ in stored:
            gid = game_ids[g.content_hash]
            for row in g.deal_players:
                deal_players.append((deal_ids[gid, row[0]], gid, players[row[1]], *row[2:]))
            for row in g.plays:
                plays.append((deal_ids[gid, row[0]], row[1], players[row[2]], *row[3:]))
        bulk_insert(conn, t.deal_player_table, DEAL_PLAYER_COLUMNS, deal_players)
        bulk_insert(conn, t.play_event_table, PLAY_COLUMNS, plays)

    def _resolve_players(self, conn: Connection, games: list[PreparedGame], out: _BatchOutcome) -> dict[str, int]:
        wanted: dict[str, str] = {}
        for g in games:
            for k, name in g.names.items():
                wanted.setdefault(k, name)  # the first spelling met is kept
        known = {k: self._players[k] for k in wanted if k in self._players}
        missing = sorted(k for k in wanted if k not in known)
        if missing:
            pt = t.player_table
            _insert_ignore(conn, pt, [{"name": wanted[k], "name_key": k} for k in missing], ["name_key"])
            for chunk in _chunks(missing, IN_CHUNK):
                for row in conn.execute(sa.select(pt.c.name_key, pt.c.id).where(pt.c.name_key.in_(chunk))):
                    known[row.name_key] = row.id
                    out.players[row.name_key] = row.id
        return known

    def _resolve_events(self, conn: Connection, games: list[PreparedGame], out: _BatchOutcome) -> dict[str, int]:
        wanted = {g.event for g in games if g.event is not None}
        known = {e: self._events[e] for e in wanted if e in self._events}
        missing = sorted(e for e in wanted if e not in known)
        if missing:
            et = t.event_table
            _insert_ignore(conn, et, [{"name": e} for e in missing], ["name"])
            for chunk in _chunks(missing, IN_CHUNK):
                for row in conn.execute(sa.select(et.c.name, et.c.id).where(et.c.name.in_(chunk))):
                    known[row.name] = row.id
                    out.events[row.name] = row.id
        return known


@dataclass(slots=True)
class _BatchOutcome:
    imported: list[tuple[PreparedGame, bool]] = field(default_factory=list)
    present: list[PreparedGame] = field(default_factory=list)
    conflicts: list[tuple[PreparedGame, str]] = field(default_factory=list)
    refused: list[tuple[PreparedGame, str]] = field(default_factory=list)
    players: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)

    def merge(self, other: _BatchOutcome) -> None:
        self.imported += other.imported
        self.present += other.present
        self.conflicts += other.conflicts
        self.refused += other.refused
        self.players |= other.players
        self.events |= other.events


def _id_conflict(g: PreparedGame) -> str:
    return f"game {g.source_id!r} is already stored with different content (import with --replace to replace it)"


def _key_conflict(g: PreparedGame) -> str:
    return f"another stored game is already known as {g.key!r}"


def _retryable(err: Exception) -> bool:
    """A deadlock or serialisation failure: the same writes may well succeed when tried again."""
    return getattr(getattr(err, "orig", None), "sqlstate", None) in _RETRY_SQLSTATES


def _refusable(err: Exception) -> bool:
    """An error that one game's rows can cause (a constraint, a value out of range): that game is refused."""
    return isinstance(err, sa.exc.IntegrityError | sa.exc.DataError | OverflowError)


def _chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def bulk_insert(conn: Connection, table: sa.Table, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Plain bulk rows: ``COPY ... FROM STDIN`` on PostgreSQL, the driver's ``executemany`` on SQLite, inside the
    connection's transaction."""
    if not rows:
        return
    names = ", ".join(f'"{c}"' for c in columns)
    if is_postgresql(conn):
        import psycopg

        sql = f'COPY "{table.name}" ({names}) FROM STDIN'
        raw = conn.connection.driver_connection
        try:
            with raw.cursor() as cursor, cursor.copy(sql) as copy:
                for row in rows:
                    copy.write_row(row)
        except psycopg.Error as err:  # as SQLAlchemy would have wrapped it: IntegrityError, OperationalError, ...
            raise sa.exc.DBAPIError.instance(sql, None, err, psycopg.Error) from err
        return
    marks = ", ".join("?" * len(columns))
    conn.exec_driver_sql(f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', rows)


def _deal_ids(conn: Connection, game_ids: list[int]) -> dict[tuple[int, int], int]:
    dt = t.deal_table
    found: dict[tuple[int, int], int] = {}
    for chunk in _chunks(game_ids, IN_CHUNK):
        for row in conn.execute(sa.select(dt.c.id, dt.c.game_id, dt.c.number).where(dt.c.game_id.in_(chunk))):
            found[row.game_id, row.number] = row.id
    return found


def _dialect_insert(conn: Connection, table: sa.Table) -> Any:
    return (postgresql.insert if is_postgresql(conn) else sqlite.insert)(table)


def _insert_ignore(conn: Connection, table: sa.Table, rows: list[dict[str, Any]], keys: list[str]) -> None:
    if rows:
        conn.execute(_dialect_insert(conn, table).on_conflict_do_nothing(index_elements=keys), rows)


def _insert_games(conn: Connection, rows: list[dict[str, Any]]) -> dict[str, int]:
    """Insert game rows, skipping any whose hash, source id or key is already stored; hash -> new id."""
    gt = t.game_table
    stmt = _dialect_insert(conn, gt).on_conflict_do_nothing().returning(gt.c.id, gt.c.content_hash)
    return {r.content_hash: r.id for r in conn.execute(stmt, rows)}


def _existing_games(conn: Connection, games: Sequence[PreparedGame]) -> list[Any]:
    gt = t.game_table
    cols = (gt.c.id, gt.c.content_hash, gt.c.source_id, gt.c.game_key)
    found: dict[int, Any] = {}
    hashes = [g.content_hash for g in games]
    sources = [g.source_id for g in games if g.source_id]
    keys = [g.key for g in games]
    for column, values in ((gt.c.content_hash, hashes), (gt.c.source_id, sources), (gt.c.game_key, keys)):
        for chunk in _chunks(values, IN_CHUNK):
            for row in conn.execute(sa.select(*cols).where(column.in_(chunk))):
                found[row.id] = row
    return list(found.values())
