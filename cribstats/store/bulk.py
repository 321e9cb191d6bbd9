"""Bulk SQL per dialect: COPY on PostgreSQL, executemany on SQLite; ids, inserts that ignore conflicts, retries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from cribstats.store.db import is_postgresql

RETRY_SQLSTATES = {"40P01", "40001"}


def retryable(err: Exception) -> bool:
    """A deadlock or serialisation failure: the same writes may well succeed when tried again."""
    return getattr(getattr(err, "orig", None), "sqlstate", None) in RETRY_SQLSTATES


def refusable(err: Exception) -> bool:
    """An error that one game's rows can cause (a constraint, a value out of range): that game is refused."""
    return isinstance(err, sa.exc.IntegrityError | sa.exc.DataError | OverflowError)


def chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
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
        assert raw is not None  # a live connection: its driver's connection is there
        try:
            with raw.cursor() as cursor, cursor.copy(sql) as copy:
                for row in rows:
                    copy.write_row(row)
        except psycopg.Error as err:  # as SQLAlchemy would have wrapped it: IntegrityError, OperationalError, ...
            raise sa.exc.DBAPIError.instance(sql, None, err, psycopg.Error) from err
        return
    marks = ", ".join("?" * len(columns))
    conn.exec_driver_sql(f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', rows)


def next_id(conn: Connection, table: sa.Table) -> int:
    """The id SQLite would give the next row of ``table`` (one above the largest; the tables do not use
    AUTOINCREMENT), so that rows numbered here are numbered as SQLite would number them."""
    return int(conn.exec_driver_sql(f'SELECT coalesce(max(id), 0) + 1 FROM "{table.name}"').scalar_one())


def dialect_insert(conn: Connection, table: sa.Table) -> Any:
    return (postgresql.insert if is_postgresql(conn) else sqlite.insert)(table)


def insert_ignore(conn: Connection, table: sa.Table, rows: list[dict[str, Any]], keys: list[str]) -> None:
    if rows:
        conn.execute(dialect_insert(conn, table).on_conflict_do_nothing(index_elements=keys), rows)
