"""Engines, transactions and schema migrations for the store.

``make_engine(url)`` opens SQLite (the default, a file needing no set-up) or PostgreSQL (through psycopg 3).
``atomic(conn)`` nests like sqlite-utils' ``Database.atomic()``: a transaction at the top, a savepoint inside one.
``upgrade(engine)`` runs the Alembic migrations shipped in ``cribstats/store/migrations``.

>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> schema_state(engine)
'current'
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from cribstats.errors import CribstatsError

LOGGER = logging.getLogger(__name__)

DEFAULT_URL = "sqlite:///cribstats.db"
SQLITE_BUSY_TIMEOUT_MS = 60_000
PG_CONNECT_TIMEOUT_S = 10  # a server that does not answer is reported, not waited on for minutes
MIGRATIONS = "cribstats.store:migrations"
SCHEMA_REVISION = "0011"
"""The newest migration's revision: a store at it is current (a test holds it to :func:`head_revision`)."""
VERSION_TABLE = "alembic_version"
# pg_advisory_xact_lock key serialising concurrent migrations ("crib" in ASCII).
PG_MIGRATION_LOCK = 0x63726962

SchemaState = Literal["empty", "current", "behind", "unknown"]


class StoreError(CribstatsError):
    """The database cannot be opened or used as a cribstats store (bad URL, schema out of date)."""


def normalize_url(url: str) -> sa.URL:
    """Parse a database URL; a PostgreSQL URL without a driver gets psycopg 3.

    >>> normalize_url("postgresql://u@h/db").drivername
    'postgresql+psycopg'
    >>> normalize_url("sqlite:///cribstats.db").database
    'cribstats.db'

    :raises StoreError: for text that is not a database URL.
    """
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        raise StoreError(f"{url!r} is not a database URL: write e.g. sqlite:///cribstats.db") from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str = DEFAULT_URL, **kwargs: Any) -> Engine:
    """An engine for ``url``. SQLite gets WAL journalling, foreign keys and a busy timeout; PostgreSQL psycopg 3.

    Transactions on SQLite begin with a plain ``BEGIN`` unless the connection carries the execution option
    ``sqlite_begin="IMMEDIATE"`` (writers that read first use it, so two writers never dead-lock).

    :raises StoreError: for a URL that is not a database URL or names a database cribstats cannot use.
    """
    parsed = normalize_url(url)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(f"unsupported database {backend!r}: use sqlite:///FILE or postgresql://...")
    if backend == "sqlite":
        connect_args = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "isolation_level": None}
        connect_args |= kwargs.pop("connect_args", {})
        try:
            engine = sa.create_engine(parsed, connect_args=connect_args, **kwargs)
        except (sa.exc.ArgumentError, ImportError) as err:
            raise StoreError(f"cannot use {parsed.render_as_string(hide_password=True)}: {err}") from None
        _set_up_sqlite(engine, in_memory=parsed.database in (None, "", ":memory:"))
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    connect_args = {"connect_timeout": PG_CONNECT_TIMEOUT_S} | kwargs.pop("connect_args", {})
    try:
        return sa.create_engine(parsed, connect_args=connect_args, **kwargs)
    except (sa.exc.ArgumentError, ImportError) as err:
        raise StoreError(f"cannot use {parsed.render_as_string(hide_password=True)}: {err}") from None


def _set_up_sqlite(engine: Engine, *, in_memory: bool) -> None:
    """The pysqlite recipe: the driver in autocommit, BEGIN emitted by SQLAlchemy, so savepoints work."""

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "")
        conn.exec_driver_sql(f"BEGIN {mode}".strip())


def is_postgresql(engine_or_conn: Engine | Connection) -> bool:
    return engine_or_conn.dialect.name == "postgresql"


def writer(conn: Connection) -> Connection:
    """The same connection, set so that SQLite transactions take the write lock at once."""
    return conn.execution_options(sqlite_begin="IMMEDIATE")


@contextmanager
def atomic(conn: Connection) -> Iterator[Connection]:
    """A transaction at the top level, a savepoint inside one; rolled back on any exception, which re-raises.

    >>> engine = make_engine("sqlite://")
    >>> with engine.connect() as conn:
    ...     with atomic(conn):
    ...         _ = conn.exec_driver_sql("CREATE TABLE t (x INTEGER)")
    ...         try:
    ...             with atomic(conn):
    ...                 _ = conn.exec_driver_sql("INSERT INTO t VALUES (1)")
    ...                 raise ValueError
    ...         except ValueError:
    ...             pass
    ...     conn.exec_driver_sql("SELECT count(*) FROM t").scalar()
    0
    """
    if conn.in_transaction():
        with conn.begin_nested():
            yield conn
    else:
        with conn.begin():
            yield conn


# --- migrations -------------------------------------------------------------------------------------------------


def alembic_config(connection: Connection | None = None) -> Any:
    """The Alembic configuration of the shipped migrations (no ini file needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration shipped with this version of cribstats (read from the migrations themselves)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(conn: Connection) -> str | None:
    """The revision the database is at, or None when it has never been migrated (read with plain SQL, so that
    opening a store does not load the migration machinery)."""
    if not sa.inspect(conn).has_table(VERSION_TABLE):
        return None
    return conn.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}").scalar()


def schema_state(engine: Engine) -> SchemaState:
    """``'empty'`` (no tables yet), ``'current'``, ``'behind'`` (needs ``cribstats db upgrade``) or ``'unknown'``
    (tables that are not a cribstats store, or a revision newer than this cribstats knows)."""
    with engine.connect() as conn:
        revision = current_revision(conn)
        names = set(sa.inspect(conn).get_table_names()) if revision is None else set()
    if revision is None:
        if not names:
            return "empty"
        return "current" if names >= {"game", "player", "deal_player"} else "unknown"
    if revision == SCHEMA_REVISION:
        return "current"
    from alembic.script import ScriptDirectory

    known = {s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    return "behind" if revision in known else "unknown"


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` (default the newest); safe to run twice or from two processes at once.

    :raises StoreError: when the database cannot be reached or migrated.
    """
    from alembic import command

    try:
        with engine.connect() as raw:
            conn = writer(raw)
            with conn.begin():
                if is_postgresql(conn):
                    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})")
                command.upgrade(alembic_config(conn), revision)
    except sa.exc.OperationalError as err:
        where = engine.url.render_as_string(hide_password=True)
        raise StoreError(f"cannot upgrade the database {where}: {describe_db_error(err)}") from None


def ensure_schema(engine: Engine) -> None:
    """Create the schema in an empty database; refuse one whose schema is out of date or not cribstats'.

    :raises StoreError: naming what to do.
    """
    state = schema_state(engine)
    if state == "empty":
        upgrade(engine)
    elif state == "behind":
        raise StoreError("the database schema is out of date: run `cribstats db upgrade`")
    elif state == "unknown":
        raise StoreError("the database is not a cribstats store of a version this cribstats knows")


def describe_db_error(err: BaseException) -> str:
    """A one-line description of a driver error, without SQL or parameters."""
    orig = getattr(err, "orig", None) or err
    text = str(orig).strip().splitlines()
    return text[0] if text else type(orig).__name__
