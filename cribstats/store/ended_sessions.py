"""Sessions of ``cribstats serve`` ended before their time: signed out.

A session is a signed cookie that names the key it was opened with and a random id of its own; it lasts 12 hours
from when it was opened. Signing out records the id here until the session would have expired, so that every
server process (every worker, every machine on the same store) refuses the cookie from then on, a copy of it
kept from before the sign-out included. Rows past their expiry are deleted whenever a row is written: the table
holds at most the sessions signed out in the last 12 hours.

>>> from datetime import datetime, timedelta
>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> now = datetime(2026, 12, 6, 10, 0)
>>> end_session(engine, "old", now - timedelta(hours=1), now=now - timedelta(hours=13))
>>> session_ended(engine, "old"), session_ended(engine, "s1")
(True, False)
>>> end_session(engine, "s1", now + timedelta(hours=11), now=now)
>>> end_session(engine, "s1", now + timedelta(hours=11), now=now)  # twice (two tabs): the same
>>> session_ended(engine, "s1"), session_ended(engine, "old")  # "old" expired, and was pruned
(True, False)
"""

from __future__ import annotations

from datetime import UTC
from datetime import datetime as DateTime

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Field

from cribstats.store.bulk import dialect_insert
from cribstats.store.db import writer
from cribstats.store.table_base import StoreTable

SESSION_ID_MAX = 64


class EndedSession(StoreTable, table=True):
    """A session signed out: its id (random, from its cookie) and when it would have expired (naive UTC)."""

    __tablename__ = "ended_session"
    __table_args__ = (sa.Index("ix_ended_session_expires_at", "expires_at"),)

    session_id: str = Field(sa_column=sa.Column(sa.String(SESSION_ID_MAX), primary_key=True))
    expires_at: DateTime = Field(sa_column=sa.Column(sa.DateTime, nullable=False))


ended_session_table: sa.Table = EndedSession.__table__  # type: ignore[attr-defined]


def utc_now() -> DateTime:
    """Now in UTC, naive (as the store keeps times)."""
    return DateTime.now(UTC).replace(tzinfo=None)


def end_session(engine: Engine, session_id: str, expires_at: DateTime, *, now: DateTime | None = None) -> None:
    """Record the session ``session_id`` as ended until ``expires_at``; delete the rows already expired."""
    e = ended_session_table
    with writer(engine.connect()) as conn, conn.begin():
        conn.execute(sa.delete(e).where(e.c.expires_at < (now or utc_now())))
        conn.execute(dialect_insert(conn, e).values(session_id=session_id, expires_at=expires_at)
                     .on_conflict_do_nothing(index_elements=["session_id"]))  # fmt: skip


def session_ended(engine: Engine, session_id: str) -> bool:
    """Whether the session ``session_id`` was signed out."""
    e = ended_session_table
    with engine.connect() as conn:
        return conn.execute(sa.select(e.c.session_id).where(e.c.session_id == session_id)).first() is not None
