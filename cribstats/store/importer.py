"""``cribstats import``: read game logs, replay them, and store games, deals, facts and findings.

* Idempotent: a game is known by the sha256 of its canonical JSON (:func:`cribstats.gamelog.content_hash`);
  importing it again changes nothing. The same source ``id`` with different content is a conflict: reported,
  not stored, unless ``replace=True``, which swaps the stored game for the new one.
* Atomic: games are written in batches, one transaction each, so an interrupted import keeps whole batches and
  nothing else. Every game of a batch is checked before the batch is written; should the database still refuse
  one (a concurrent import got there first, a constraint), the batch is rolled back and written again with a
  savepoint per game, so that game alone is refused and the rest are stored.
* Bounded memory: games stream from the readers one at a time; only one batch of rows is held (with worker
  processes, also about one batch of games on their way).
* Concurrent imports into PostgreSQL: players, events and games go in with ``INSERT ... ON CONFLICT DO NOTHING``
  against their unique keys, in key order, so two imports of overlapping files store each game and player once.

Each batch costs a handful of round trips: one query per 300 games for the stored games they may meet, one for
new players and events, the game rows, one for deal ids, then one bulk write per table. Every row is built once,
in the process that replays the game, with the ids the batch knows only later left as small indexes; the writer
adds the ids. On SQLite the importer holds the write lock for the whole batch, so it numbers new games and deals
itself (``max(id) + 1`` on, as SQLite would) and writes every table with the driver's ``executemany``; on
PostgreSQL games go in through ``INSERT ... ON CONFLICT DO NOTHING RETURNING``, deal ids come from their
sequence, and the rest goes through ``COPY``. No ORM object is made per row. Booleans travel as 0/1, which the
driver binds far faster than ``True``/``False`` and both databases store as the same boolean.

``workers`` > 1 (or ``None``: one per core) reads JSON Lines here and hands the raw lines to that many processes,
which parse, validate, replay and build the rows while this process writes; results are taken in the order read,
so the store and the summary are the same as with one process.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
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
from cribstats.store.discards import add_discard_values
from cribstats.store.tables import name_key
from cribstats.store.totals import add_game_totals

LOGGER = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 1000
MAX_REPORTED = 10_000  # refusals and conflicts kept with their reasons; beyond that only counted
IN_CHUNK = 300  # games per identity query (three IN lists of this many values: under SQLite's oldest limit)
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
    workers: int | None = 1,
) -> ImportSummary:
    """Import files and folders of game logs (``-`` reads standard input); see the module notes.

    Bad input is refused with its file and place and the rest still imports. ``on_progress(summary, file)`` is
    called after every batch and file. With ``workers`` > 1 that many processes parse and replay the games while
    this one reads and writes; ``workers=None`` picks :func:`default_workers` and starts them only once the input
    proves longer than :data:`AUTO_PARALLEL_AFTER` games. Either way the result is the same, in the same order.

    :raises StoreError: when the database cannot be used. Database errors other than a refused game propagate.
    """
    from cribstats import formats

    names = [os.fspath(p) for p in paths]
    start_after = 0
    if workers is None:
        workers, start_after = default_workers(), AUTO_PARALLEL_AFTER
    importer = Importer(engine, replace=replace, on_progress=on_progress, batch_size=batch_size)
    with importer:
        if workers > 1:
            _Parallel(importer, workers, start_after).run(names)
        else:
            for source in formats.read_paths(names, on_error=importer.refuse_error):
                importer.add(source)
    return importer.summary


def default_workers() -> int:
    """Processes to replay games in when none are asked for: one per core this process may use (1 on one core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# --- parallel: read and write here, parse and replay in worker processes -----------------------------------------

PARALLEL_CHUNK = 50  # games (lines) handed to a worker process at a time
IN_FLIGHT_PER_WORKER = 4  # chunks read ahead per worker, beyond a batch's worth (see _Parallel)
AUTO_PARALLEL_AFTER = 400  # games replayed here before ``workers=None`` starts processes (small inputs need none)

_Result = list["PreparedGame | Refusal"]


def _prepare_lines(file: str, first_line: int, lines: list[bytes]) -> _Result:
    """In a worker process: parse, validate, replay and prepare the games of some JSON Lines, in order.

    ``lines`` are consecutive lines of ``file`` from ``first_line`` on, at least one of them not blank.
    """
    from cribstats.formats.jsonlog import read_json_lines

    out: _Result = []

    def unreadable(error: LogError) -> None:
        out.append(Refusal(error.file, error.place, error.message))

    for source in read_json_lines(lines, file, on_error=unreadable, first_line=first_line):
        out.append(_prepare_or_refuse(source.game, source.file, source.place))
    return out


def _prepare_games(chunk: list[tuple[GameLog, str, str | None]]) -> _Result:
    """In a worker process: replay and prepare games already read (formats other than JSON Lines)."""
    return [_prepare_or_refuse(game, file, place) for game, file, place in chunk]


def _prepare_or_refuse(game: GameLog, file: str, place: str | None) -> PreparedGame | Refusal:
    try:
        return prepare_game(game, file, place)
    except Exception as err:
        return Refusal(file, place, _failure(err))


def _failure(err: Exception) -> str:
    if isinstance(err, CribstatsError | ValueError):
        return str(err)
    LOGGER.debug("the replay failed", exc_info=err)  # debug: a library logs, the CLI decides what is shown
    return f"the replay failed ({type(err).__name__}: {err})"


class _Parallel:
    """Reads here, prepares in ``workers`` processes, writes here: results are taken in the order read.

    JSON Lines go to the workers as raw lines (this process only splits the file into lines, so that it is free
    to write); other formats are read here and their games sent. A batch's worth of chunks plus
    :data:`IN_FLIGHT_PER_WORKER` per worker are under way at once: enough for the workers to go on while this
    process writes a batch, and a bound on memory. The first ``start_after`` games are prepared here, so that a
    small import starts no process.
    """

    def __init__(self, importer: Importer, workers: int, start_after: int) -> None:
        self.importer = importer
        self.workers = workers
        self.start_after = start_after
        self.read = 0
        self.pool: Any = None
        self.slots: deque[Future[_Result] | _Result] = deque()
        self.in_flight = -(-importer.batch_size // PARALLEL_CHUNK) + workers * IN_FLIGHT_PER_WORKER

    def run(self, paths: list[str]) -> None:
        from cribstats.formats.sources import STDIN, kind_of, walk_paths

        try:
            for path in walk_paths(paths):
                if path != STDIN and kind_of(path) == "jsonl":
                    self._json_lines(path)
                else:
                    self._games(path)
            self._drain(0)
        finally:
            if self.pool is not None:
                self.pool.shutdown(wait=True, cancel_futures=True)

    def _json_lines(self, path: str) -> None:
        """Read a ``.jsonl`` file as :func:`cribstats.formats.read_games` does, leaving the parsing to workers."""
        from cribstats.formats.sources import BOM, empty_input, open_log

        try:
            handle = open_log(path)
        except LogError as err:
            self._unreadable(err)
            return
        chunk: list[bytes] = []
        first = 1
        filled = 0  # lines in the chunk that are not blank
        sent = False
        with handle:
            try:
                for number, line in enumerate(handle, 1):
                    if not chunk:
                        first = number
                    chunk.append(line)
                    if number == 1:
                        line = line.removeprefix(BOM)
                    if not line.isspace():
                        filled += 1
                        if filled >= PARALLEL_CHUNK:
                            self._submit(filled, _prepare_lines, path, first, chunk)
                            chunk, filled, sent = [], 0, True
            except OSError as err:
                if filled:
                    self._submit(filled, _prepare_lines, path, first, chunk)
                self._unreadable(LogError(path, None, f"cannot be read: {err.strerror or err}"))
                return
        if filled:
            self._submit(filled, _prepare_lines, path, first, chunk)
        elif not sent:
            self._unreadable(empty_input(path))

    def _games(self, path: str) -> None:
        from cribstats import formats

        chunk: list[tuple[GameLog, str, str | None]] = []

        def unreadable(error: LogError) -> None:
            nonlocal chunk
            if chunk:  # what was read before the error is taken before it
                self._submit(len(chunk), _prepare_games, chunk)
                chunk = []
            self._unreadable(error)

        for source in formats.read_games(path, on_error=unreadable):
            chunk.append((source.game, source.file, source.place))
            if len(chunk) >= PARALLEL_CHUNK:
                self._submit(len(chunk), _prepare_games, chunk)
                chunk = []
        if chunk:
            self._submit(len(chunk), _prepare_games, chunk)

    def _unreadable(self, error: LogError) -> None:
        self.slots.append([Refusal(error.file, error.place, error.message)])

    def _submit(self, games: int, work: Callable[..., _Result], *args: Any) -> None:
        self.read += games
        if self.pool is None and self.read <= self.start_after:
            self.slots.append(work(*args))
        else:
            if self.pool is None:
                self.pool = _start_pool(self.workers)
            self.slots.append(self.pool.submit(work, *args))
        self._drain(self.in_flight)

    def _drain(self, keep: int) -> None:
        importer = self.importer
        while len(self.slots) > keep:
            head = self.slots.popleft()
            for result in head if isinstance(head, list) else head.result():
                if isinstance(result, PreparedGame):
                    importer.add_prepared(result)
                else:
                    importer.refuse(result.file, result.place, result.reason)


def _start_pool(workers: int) -> Any:
    """Worker processes, forked from a fresh server process that has imported this module once (``forkserver``;
    ``spawn`` where there is none). Not forked from this process: it may hold a database connection, and the CLI
    a progress thread, neither of which a child may share."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])  # read once, when the server starts; later pools reuse it
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_end_with_parent)


def _end_with_parent() -> None:
    """In a worker process: end as soon as the importing process ends, even killed (kill -9), instead of
    waiting forever for work that will not come."""
    import threading
    from multiprocessing import parent_process
    from multiprocessing.connection import wait

    parent = parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])  # readable once the parent's end of the pipe is closed: it has ended
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


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
    """A replayed game as rows, ready for the writer but for the ids a batch gives out.

    Rows hold players by seat (an index into ``names``) and deals by their index in ``deals``; each constant
    below gives a table's column order and the layout of its prepared rows. Booleans are 0/1.
    """

    file: str
    place: str | None
    content_hash: str
    key: str
    source_id: str | None
    event: str | None
    winner_key: str | None
    names: dict[str, str]  # name key -> trimmed spelling, in seat order
    game_row: dict[str, Any]  # the game's own columns (GAME_OWN_COLUMNS), as Python values
    game_players: list[tuple[Any, ...]]  # GAME_PLAYER_COLUMNS[2:]; the player is the seat, the first of them
    deals: list[tuple[Any, ...]]  # (dealer seat, *DEAL_COLUMNS[3:])
    deal_players: list[tuple[int, int, tuple[Any, ...]]]  # (deal index, seat, DEAL_PLAYER_COLUMNS[3:])
    plays: list[tuple[int, int, tuple[Any, ...]]]  # (deal index, seat, PLAY_COLUMNS[2:])
    findings: list[tuple[int | None, tuple[Any, ...]]]  # (seat or None, FINDING_COLUMNS[2:])


# Column orders of the tables the writer fills in bulk; the ids come first, the prepared values after them.
GAME_OWN_COLUMNS = (
    "source_id",
    "content_hash",
    "game_key",
    "variant",
    "target",
    "muggins",
    "player_count",
    "date",
    "site",
    "round",
    "source_file",
    "source_place",
    "ended_in_deal",
    "skunk_level",
    "deal_count",
    "finding_count",
    "log",
)
GAME_COLUMNS = ("id", *GAME_OWN_COLUMNS, "event_id", "recorded_winner", "imported_at", "import_id")
_MUGGINS, _DATE = GAME_COLUMNS.index("muggins"), GAME_COLUMNS.index("date")
GAME_PLAYER_COLUMNS = (
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
DEAL_COLUMNS = ("id", "game_id", "dealer_id", "number", "starter", "crib_card", "completed", "after_end")
DEAL_PLAYER_COLUMNS = (
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
PLAY_COLUMNS = ("deal_id", "player_id", "seq", "card", "count", "due", "claimed", "after_end")
FINDING_COLUMNS = (
    "game_id",
    "player_id",
    "seq",
    "deal_number",
    "event",
    "kind",
    "phase",
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
    seat_of: dict[str, int] = {}
    names: dict[str, str] = {}
    for seat, name in enumerate(game.players):
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
        seat_of[name] = seat
    recorded = game.result
    winner_key = key_of.get(recorded.winner) if recorded is not None and recorded.winner else None
    event = game.event.strip() if game.event and game.event.strip() else None
    game_row: dict[str, Any] = {
        "source_id": game.id,
        "content_hash": digest,
        "game_key": outcome.key,
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
                seat,
                variant.side_of(seat),
                claimed,
                outcome.scores_due.get(name),
                int(won),
                int(name in winners_due),
                skunk,
                recorded_scores.get(name),
            )
        )
    card = _CARD_TEXT
    deals: list[tuple[Any, ...]] = []
    deal_players: list[tuple[int, int, tuple[Any, ...]]] = []
    plays: list[tuple[int, int, tuple[Any, ...]]] = []
    logged_deals = game.deals or []
    for index, facts in enumerate(outcome.deals):
        number = facts.number
        completed = int(facts.completed)
        logged = logged_deals[number - 1] if 0 < number <= len(logged_deals) else None
        deals.append(
            (
                seat_of[facts.dealer],
                number,
                card[facts.starter],
                logged.crib_card if logged is not None else None,
                completed,
                int(facts.after_end),
            )
        )
        for p in facts.players:
            deal_players.append(
                (
                    index,
                    seat_of[p.player],
                    (
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
                    ),
                )
            )
        plays += [
            (
                index,
                seat_of[e.player],
                (
                    e.index,
                    None if e.card is None else card[e.card],
                    e.count,
                    e.due,
                    e.claimed,
                    1 if e.after_end else 0,
                ),
            )
            for e in facts.plays
        ]
    findings = [
        (
            None if f.player is None else seat_of.get(f.player),
            (i, f.deal, f.event, f.kind, f.phase, f.claimed, f.due, f.message),
        )
        for i, f in enumerate(outcome.findings)
    ]
    return PreparedGame(
        file=file,
        place=place,
        content_hash=digest,
        key=outcome.key,
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
        # SQLite keeps dates and times as text: the same text SQLAlchemy's types write
        dialect = engine.dialect
        self._sqlite_date = sa.Date().dialect_impl(dialect).bind_processor(dialect)
        self._sqlite_datetime = sa.DateTime().dialect_impl(dialect).bind_processor(dialect)

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
        first = _next_id(conn, t.game_table)
        date_text, imported_at = self._sqlite_date, self._sqlite_datetime(now)
        rows_sqlite = []
        ids: dict[str, int] = {}
        for game_id, g in enumerate(games, first):
            ids[g.content_hash] = game_id
            row = g.game_row
            values = [game_id, *[row[c] for c in GAME_OWN_COLUMNS]]
            values[_MUGGINS] = int(row["muggins"])
            if row["date"] is not None:
                values[_DATE] = date_text(row["date"])
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
        first = _next_id(conn, t.deal_table)
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
        add_discard_values(conn, [game_ids[g.content_hash] for g, _ in stored])

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


def _next_id(conn: Connection, table: sa.Table) -> int:
    """The id SQLite would give the next row of ``table`` (one above the largest; the tables do not use
    AUTOINCREMENT), so that rows numbered here are numbered as SQLite would number them."""
    return int(conn.exec_driver_sql(f'SELECT coalesce(max(id), 0) + 1 FROM "{table.name}"').scalar_one())


def _dialect_insert(conn: Connection, table: sa.Table) -> Any:
    return (postgresql.insert if is_postgresql(conn) else sqlite.insert)(table)


def _insert_ignore(conn: Connection, table: sa.Table, rows: list[dict[str, Any]], keys: list[str]) -> None:
    if rows:
        conn.execute(_dialect_insert(conn, table).on_conflict_do_nothing(index_elements=keys), rows)


def _existing_games(conn: Connection, games: Sequence[PreparedGame]) -> list[Any]:
    """The stored games that share a content hash, a source id or a game key with any of ``games``."""
    gt = t.game_table
    cols = (gt.c.id, gt.c.content_hash, gt.c.source_id, gt.c.game_key)
    found: dict[int, Any] = {}
    for chunk in _chunks(games, IN_CHUNK):
        sources = [g.source_id for g in chunk if g.source_id]
        wanted = sa.or_(
            gt.c.content_hash.in_([g.content_hash for g in chunk]),
            gt.c.game_key.in_([g.key for g in chunk]),
            *([gt.c.source_id.in_(sources)] if sources else []),
        )
        for row in conn.execute(sa.select(*cols).where(wanted)):
            found[row.id] = row
    return list(found.values())
