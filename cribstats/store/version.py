"""The store's version: a number that every completed write of games, players, aliases or matches raises, in
the same transaction as the write, so a reader that finds it unchanged knows its copies of the figures are
still the store's.

The number lives in ``store_version`` (one row). Triggers raise it (migration 0010) whenever a row of the game,
player, alias or match tables changes, which is what the figures are computed from (the facts of a game change
only with its game row): on SQLite after each changed row; on PostgreSQL once per transaction, at commit (a
deferred trigger), so concurrent imports hold the row only for the moment of their commit. A write the
triggers do not see (the discard values of stored games) calls :func:`bump_store_version` in its transaction.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.begin() as conn:
...     before = read_store_version(conn)
...     bump_store_version(conn)
...     read_store_version(conn) - before
1
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Field

from cribstats.store.tables import StoreTable

ROW_ID = 1
class StoreVersion(StoreTable, table=True):
    """One row: ``version`` counts the completed writes; ``changed_in`` is the PostgreSQL transaction that last
    raised it (so one transaction raises it once)."""

    __tablename__ = "store_version"

    id: int = Field(sa_column=sa.Column(sa.Integer, primary_key=True, autoincrement=False))
    version: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    changed_in: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))


store_version_table: sa.Table = StoreVersion.__table__  # type: ignore[attr-defined]


def read_store_version(conn: Connection) -> int:
    """The store's version now (0 for a store without the row)."""
    v = store_version_table
    return int(conn.execute(sa.select(v.c.version).where(v.c.id == ROW_ID)).scalar() or 0)


def bump_store_version(conn: Connection) -> None:
    """Raise the version inside the caller's transaction: for a write no trigger watches."""
    v = store_version_table
    conn.execute(v.update().where(v.c.id == ROW_ID).values(version=v.c.version + 1))
