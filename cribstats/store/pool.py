"""Parallel import: read and write in this process, parse, validate, replay and build rows in worker processes.

Results are taken in the order read, so the store and the summary are the same as with one process.

Ctrl-C is this process's alone to answer: the pool's processes never take it (a terminal sends it to every process
of the command), and it stops this process only between process starts, never half-way through one; see
:func:`_starting_processes`.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from cribstats.errors import LogError
from cribstats.formats.sources import SourceAgreement, SourceFinding, SourceMatch
from cribstats.store.rows import DiscardQueue, PreparedGame, failure_reason, prepare_game
from cribstats.store.summary import Refusal

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyGame
    from cribstats.store.batches import Importer

PARALLEL_CHUNK = 50  # games (lines) handed to a worker process at a time
IN_FLIGHT_PER_WORKER = 4  # chunks read ahead per worker, beyond a batch's worth (see Parallel)

_Result = list["PreparedGame | Refusal | SourceMatch | SourceFinding | SourceAgreement"]
#: a game read, as sent to a worker: the game, its file and place, and the game as a match record writes it
_Source = tuple["AnyGame", str, "str | None", "AnyGame | None"]


def _prepare_lines(file: str, first_line: int, lines: list[bytes]) -> _Result:
    """In a worker process: parse, validate, replay and prepare the games of some JSON Lines, in order.

    ``lines`` are consecutive lines of ``file`` from ``first_line`` on, at least one of them not blank.
    """
    from cribstats.formats.jsonlog import read_json_lines

    gc.collect(1)  # the last chunk's cycles, if any: the collector runs only here (_start_worker)
    out: _Result = []
    values = DiscardQueue()

    def unreadable(error: LogError) -> None:
        out.append(Refusal(error.file, error.place, error.message))

    for source in read_json_lines(lines, file, on_error=unreadable, first_line=first_line, on_record=out.append):
        out.append(_prepare_or_refuse((source.game, source.file, source.place, source.written), values))
    values.fill()
    return out


def _prepare_games(chunk: list[_Source]) -> _Result:
    """In a worker process: replay and prepare games already read (formats other than JSON Lines)."""
    gc.collect(1)
    values = DiscardQueue()
    out: _Result = [_prepare_or_refuse(source, values) for source in chunk]
    values.fill()
    return out


def _prepare_or_refuse(source: _Source, values: DiscardQueue) -> PreparedGame | Refusal:
    """A game's rows, its discards valued once ``values`` is filled; or its refusal."""
    game, file, place, written = source
    try:
        return prepare_game(game, file, place, values, written)
    except Exception as err:
        return Refusal(file, place, failure_reason(err))


class Parallel:
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
        from cribstats.formats.jsonlog import json_line_chunks

        for first, chunk, games in json_line_chunks(path, PARALLEL_CHUNK, on_error=self._unreadable):
            self._submit(games, _prepare_lines, path, first, chunk)

    def _games(self, path: str) -> None:
        from cribstats import formats

        chunk: list[_Source] = []

        def flush() -> None:  # what was read before an error or a record is taken before it
            nonlocal chunk
            if chunk:
                self._submit(len(chunk), _prepare_games, chunk)
                chunk = []

        def unreadable(error: LogError) -> None:
            flush()
            self._unreadable(error)

        def record(item: SourceMatch | SourceFinding | SourceAgreement) -> None:
            flush()  # in the order read, after the games before it (of this file and of earlier ones, in flight)
            self.slots.append([item])

        def paused() -> None:  # standard input has paused: every game read so far is stored now
            flush()
            self._drain(0)
            self.importer.write_pending()

        for source in formats.read_games(path, on_error=unreadable, on_record=record, on_idle=paused):
            chunk.append((source.game, source.file, source.place, source.written))
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
            with _starting_processes():  # a submit starts the pool's next process while there are fewer than asked
                future = self.pool.submit(work, *args)
            self.slots.append(future)
        self._drain(self.in_flight)

    def _drain(self, keep: int) -> None:
        importer = self.importer
        while len(self.slots) > keep:
            head = self.slots.popleft()
            for result in head if isinstance(head, list) else head.result():
                if isinstance(result, PreparedGame):
                    importer.add_prepared(result)
                elif isinstance(result, Refusal):
                    importer.refuse(result.file, result.place, result.reason)
                else:
                    importer.add_record(result)


def _start_pool(workers: int) -> Any:
    """Worker processes, forked from a fresh server process that has imported this module once (``forkserver``;
    ``spawn`` where there is none). Not forked from this process: it may hold a database connection, and the CLI
    a progress thread, neither of which a child may share."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context: multiprocessing.context.BaseContext
    if "forkserver" in multiprocessing.get_all_start_methods():
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload([__name__])  # read once, when the server starts; later pools reuse it
        context = forkserver
    else:
        context = multiprocessing.get_context("spawn")
    # the pool's queues start multiprocessing's resource tracker, which unblocks SIGINT after its own start: made
    # here, outside _starting_processes, so that the fork server is never started with SIGINT unblocked
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker)


@contextmanager
def _starting_processes() -> Iterator[None]:
    """While the pool may start a process (the fork server, a worker), in the main thread:

    * SIGINT is blocked, so that the process starts with it blocked (a signal mask is kept across fork and exec):
      the fork server loads its preload module with SIGINT blocked and ignores it from then on (CPython's fork
      server ignores it only after its preload), and its workers are forked with it blocked until
      :func:`_start_worker` ignores it. A terminal's Ctrl-C (sent to every process of the command) is answered
      by this process alone, which then shuts the pool down: no traceback from the fork server or a worker.
    * SIGINT and SIGTERM that come meanwhile are answered just after, once the process is started and known to
      the pool: stopped half-way through a start, this process would end without waiting for a worker that the
      fork server then forks anyway, and which cannot open the pool's queues, gone with this process
      (``SemLock._rebuild ... FileNotFoundError``). Known to the pool, the worker is waited for when the pool is
      shut down, and ends quietly.
    """
    masked = hasattr(signal, "pthread_sigmask")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if masked else set()
    held: list[int] = []
    answers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():  # only there can Python signal handlers be set
        for sig in (signal.SIGINT, signal.SIGTERM):
            answer = signal.getsignal(sig)
            if callable(answer):  # Ctrl-C's KeyboardInterrupt, the import command's SIGTERM (not SIG_DFL/SIG_IGN)
                answers[sig] = answer
                signal.signal(sig, lambda number, frame: held.append(number))
    try:
        yield
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a SIGINT that came meanwhile is taken now, held
        for number, answer in answers.items():
            signal.signal(number, answer)
        for number in dict.fromkeys(held):  # each once, in the order they came, answered as they would have been
            signal.raise_signal(number)


def _start_worker() -> None:
    """In a worker process, first: ignore SIGINT (Ctrl-C is the importing process's to answer, and it shuts the
    pool down; the worker was started with SIGINT blocked, :func:`_starting_processes`), end with the importing
    process (:func:`_end_with_parent`), load the tables a discard is valued by, and leave what is loaded by now to
    the cyclic garbage collector's permanent generation; the collector then runs once a chunk, not every 700 new
    objects (as in the importing process, :func:`cribstats.store.importer.few_collections`)."""
    from cribstats.discards.values import discard_values
    from cribstats.variants import find_variant

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent()
    discard_values(range(6), (0, 1), find_variant("six-card"), "dealer")
    gc.freeze()
    gc.disable()


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
