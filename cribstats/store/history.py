"""The import history behind ``cribstats imports``: one row per file an import read.

The importer keeps each row up to date batch by batch (:func:`record_run`), so an import that was killed still
says what it had committed; ``finished_at`` stays empty until the file is done. :func:`list_imports` also counts
the games of each import that are stored now, from the games themselves (a later ``delete`` or ``--replace``
takes games away from the import that stored them).

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     list_imports(conn)
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime as DateTime
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.store import tables as t
from cribstats.store.writes import utc_text


class RunTally(Protocol):
    """What an import has counted so far for one file."""

    run_id: int
    imported: int
    present: int
    conflicting: int
    refused: int
    findings: int


def record_run(conn: Connection, tally: RunTally, finished_at: DateTime | None = None) -> None:
    """Write the counts so far of one file's import (and, once done, when it finished), in the caller's
    transaction."""
    runs = t.import_run_table
    values: dict[str, Any] = {
        "games_imported": tally.imported,
        "games_present": tally.present,
        "games_conflicting": tally.conflicting,
        "games_refused": tally.refused,
        "findings": tally.findings,
    }
    if finished_at is not None:
        values["finished_at"] = finished_at
    conn.execute(sa.update(runs).where(runs.c.id == tally.run_id).values(**values))


@dataclass(frozen=True, slots=True)
class ImportRow:
    """One line of ``cribstats imports``."""

    run: int
    file: str
    started_at: DateTime
    finished_at: DateTime | None
    imported: int  # games this import stored, as it counted them
    stored: int  # of them, still stored now
    present: int
    conflicting: int
    refused: int
    findings: int

    @property
    def status(self) -> str:
        """``finished``, or ``unfinished`` (interrupted, or still running)."""
        return "finished" if self.finished_at is not None else "unfinished"

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "file": self.file,
            "started_at": utc_text(self.started_at),  # 2026-12-06 13:30:08+00:00: the store keeps UTC
            "finished_at": utc_text(self.finished_at) if self.finished_at else None,
            "status": self.status,
            "imported": self.imported,
            "stored": self.stored,
            "present": self.present,
            "conflicting": self.conflicting,
            "refused": self.refused,
            "findings": self.findings,
        }


IMPORT_COLUMNS = ("run", "file", "started_at", "finished_at", "status", "imported", "stored", "present",
                  "conflicting", "refused", "findings")
#: the columns that are times: text in UTC with its offset (:func:`cribstats.store.writes.utc_text`), in Parquet
#: a UTC timestamp
IMPORT_TIMES = ("started_at", "finished_at")


def list_imports(conn: Connection) -> list[ImportRow]:
    """Every import run, oldest first, with the games of each stored now."""
    runs, g = t.import_run_table, t.game_table
    stored = (
        sa.select(g.c.import_id, sa.func.count().label("stored"))
        .where(g.c.import_id.is_not(None))
        .group_by(g.c.import_id)
        .subquery("stored")
    )
    query = (
        sa.select(runs, sa.func.coalesce(stored.c.stored, 0).label("stored"))
        .select_from(runs.outerjoin(stored, stored.c.import_id == runs.c.id))
        .order_by(runs.c.id)
    )
    return [
        ImportRow(
            run=r.id,
            file=r.file,
            started_at=r.started_at,
            finished_at=r.finished_at,
            imported=max(r.games_imported, r.stored),
            stored=r.stored,
            present=r.games_present,
            conflicting=r.games_conflicting,
            refused=r.games_refused,
            findings=r.findings,
        )
        for r in conn.execute(query)
    ]


def find_run(conn: Connection, run: int) -> bool:
    """True when there is an import run ``run``."""
    runs = t.import_run_table
    return conn.execute(sa.select(runs.c.id).where(runs.c.id == run)).first() is not None
