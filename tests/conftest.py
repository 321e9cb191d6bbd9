"""Shared fixtures: real databases (an SQLite file, a fresh PostgreSQL database) and the sample logs.

PostgreSQL tests need a server named by ``CRIBSTATS_TEST_PG_URL`` (an SQLAlchemy URL of a role that may create
databases, e.g. ``postgresql+psycopg://cribstats:cribstats@127.0.0.1:5432/cribstats_test``). Each test gets a
database of its own, created on that server and dropped afterwards. Without a reachable server those tests are
skipped, and the skip says why.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from databases import new_pg_database

PG_ENV = "CRIBSTATS_TEST_PG_URL"
ROOT = Path(__file__).resolve().parent.parent


def _pg_server() -> sa.URL | str:
    """The server URL, or the reason there is none."""
    text = os.environ.get(PG_ENV)
    if not text:
        return f"PostgreSQL tests skipped: no server at {PG_ENV} (the variable is not set)"
    url = sa.make_url(text)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError as err:
        first = str(err.orig).strip().splitlines()[0] if err.orig else str(err)
        return f"PostgreSQL tests skipped: no server at {PG_ENV} ({first})"
    finally:
        engine.dispose()
    return url


@pytest.fixture(scope="session")
def pg_server() -> sa.URL:
    """The PostgreSQL server of ``CRIBSTATS_TEST_PG_URL``; skips the test, saying why, when there is none."""
    found = _pg_server()
    if isinstance(found, str):
        pytest.skip(found)
    return found


@pytest.fixture
def pg_url(pg_server: sa.URL) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test, dropped afterwards."""
    with new_pg_database(pg_server) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A real SQLite file in the test's own folder."""
    return f"sqlite:///{tmp_path / 'cribstats.db'}"


@pytest.fixture(
    params=[
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
    ]
)
def db_url(request: pytest.FixtureRequest) -> str:
    """The same test against an SQLite file and against a PostgreSQL database."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(db_url: str) -> Iterator[sa.Engine]:
    """An empty store, migrated to the newest schema, on an SQLite file and on a PostgreSQL database."""
    from cribstats.store.db import make_engine, upgrade

    engine = make_engine(db_url)
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def sample_logs_dir() -> Path:
    """The project's sample game logs (``sample_logs/``)."""
    return ROOT / "sample_logs"
