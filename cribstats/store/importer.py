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
in the process that replays the game (a deal's play as one value, the discards' values too), with the ids the
batch knows only later left as small indexes; the writer adds the ids. On SQLite the importer holds the write
lock for the whole batch, so it numbers new games and deals itself (``max(id) + 1`` on, as SQLite would) and
writes every table with the driver's ``executemany``; on
PostgreSQL games go in through ``INSERT ... ON CONFLICT DO NOTHING RETURNING``, deal ids come from their
sequence, and the rest goes through ``COPY``. No ORM object is made per row. Booleans travel as 0/1, which the
driver binds far faster than ``True``/``False`` and both databases store as the same boolean.

``workers`` > 1 (or ``None``: one per core) reads JSON Lines here and hands the raw lines to that many processes,
which parse, validate, replay and build the rows while this process writes; results are taken in the order read,
so the store and the summary are the same as with one process. The rows come back as plain tuples, so that
this process, the import's ceiling, does little more than write them.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from sqlalchemy.engine import Engine

from cribstats.store.batches import DEFAULT_BATCH_SIZE, Importer
from cribstats.store.rows import GameRefused, PreparedGame, canonical_log, prepare_game
from cribstats.store.summary import ImportSummary, ProgressHook, Refusal, SourceGame

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "GameRefused",
    "ImportSummary",
    "Importer",
    "PreparedGame",
    "ProgressHook",
    "Refusal",
    "SourceGame",
    "canonical_log",
    "default_workers",
    "import_file",
    "import_games",
    "import_paths",
    "prepare_game",
]

AUTO_PARALLEL_AFTER = 400  # games replayed here before ``workers=None`` starts processes (small inputs need none)


@contextmanager
def few_collections() -> Iterator[None]:
    """While games are imported: what is alive now (modules, schemas, the engine) is frozen, and the cyclic
    garbage collector runs only after each batch (:meth:`Importer._flush`), not every 700 new objects. A replayed
    game makes thousands of objects, which live for a game or a batch and are freed by their count: collecting
    them as they come cost some 50 us a game of walking, and found next to nothing (a batch of 10,000 games
    imported peaks at the same memory either way). The settings are put back after."""
    enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.unfreeze()


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
    with importer, few_collections():
        if workers > 1:
            from cribstats.store.pool import Parallel

            Parallel(importer, workers, start_after).run(names)
        else:
            for source in formats.read_paths(names, on_error=importer.refuse_error, on_record=importer.add_record,
                                             on_idle=importer.write_pending):
                importer.add(source)
    return importer.summary


def default_workers() -> int:
    """Processes to replay games in when none are asked for: one per core this process may use (1 on one core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


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
    with importer, few_collections():
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
