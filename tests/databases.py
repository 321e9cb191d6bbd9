"""Databases for tests: a fresh PostgreSQL database on the test server, dropped after; a store migrated to a
revision."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa


@contextmanager
def new_pg_database(server: sa.URL) -> Iterator[str]:
    """A fresh, empty PostgreSQL database on ``server`` (its URL), dropped when the block ends."""
    name = f"cribstats_t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield server.set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


def migrate(engine: sa.Engine, action: str, revision: str) -> None:
    """Run Alembic's ``upgrade`` or ``downgrade`` (``action``) of the store to ``revision``, in one transaction."""
    from alembic import command

    from cribstats.store.db import alembic_config, writer

    with engine.connect() as raw:
        conn = writer(raw)
        with conn.begin():
            getattr(command, action)(alembic_config(conn), revision)
