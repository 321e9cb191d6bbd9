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
from cribstats.names import quoted

LOGGER = logging.getLogger(__name__)

DEFAULT_URL = "sqlite:///cribstats.db"
SQLITE_BUSY_TIMEOUT_MS = 60_000
PG_CONNECT_TIMEOUT_S = 10  # a server that does not answer is reported, not waited on for minutes
MIGRATIONS = "cribstats.store:migrations"
SCHEMA_REVISION = "0019"
"""The newest migration's revision: a store at it is current (a test holds it to :func:`head_revision`)."""
VERSION_TABLE = "alembic_version"
# pg_advisory_xact_lock key serialising concurrent migrations ("crib" in ASCII).
PG_MIGRATION_LOCK = 0x63726962
SQLITE_READONLY = 8
"""SQLite's result code for a write to a read-only database (SQLITE_READONLY_* keep it in their low byte)."""

SchemaState = Literal["empty", "current", "behind", "unknown"]


class StoreError(CribstatsError):
    """The database cannot be opened or used as a cribstats store (bad URL, schema out of date)."""


class ReadOnlyStore(StoreError):
    """A write to a store opened read-only (:func:`make_engine`): the message names the store and why."""


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
        raise StoreError(f"{quoted(url)} is not a database URL: write e.g. sqlite:///cribstats.db") from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "postgresql" and "@" in f"{parsed.host or ''}{parsed.database or ''}":
        # user:p@ss@host reads as the password "p" at the host "ss@host": refused, so that no part of the
        # password is shown as a host or sent to a name server
        raise StoreError(
            "the database URL has an '@' in its user name or password: write it as %40 (and a '%' as %25), "
            "e.g. postgresql://league:p%40ss@db.example/league"
        )
    return parsed


def shown_url(url: str | sa.URL) -> str:
    """A database URL as messages show it: the password hidden, whether it is written before the host or as a
    ``password`` parameter (``postgresql:///db?host=/run/postgresql&password=...``); text that is not a URL is
    "the database".

    >>> shown_url("postgresql://u:secret@h/db?sslmode=disable")
    'postgresql+psycopg://u:***@h/db?sslmode=disable'
    >>> shown_url("postgresql:///db?host=/tmp&password=secret")
    'postgresql+psycopg:///db?host=%2Ftmp&password=***'
    """
    try:
        parsed = normalize_url(url) if isinstance(url, str) else url
    except StoreError:
        return "the database"
    hidden = {key: "HIDDEN" for key in parsed.query if key.lower() == "password"}
    shown = parsed.update_query_dict(hidden).render_as_string(hide_password=True)
    return shown.replace("=HIDDEN", "=***") if hidden else shown


def make_engine(url: str = DEFAULT_URL, **kwargs: Any) -> Engine:
    """An engine for ``url``. SQLite gets WAL journalling, foreign keys and a busy timeout; PostgreSQL psycopg 3.

    Transactions on SQLite begin with a plain ``BEGIN`` unless the connection carries the execution option
    ``sqlite_begin="IMMEDIATE"`` (writers that read first use it, so two writers never dead-lock).

    An SQLite file that exists but that this user cannot write where it is, or one the URL asks for with
    ``?mode=ro`` or ``?immutable=1``, is opened read-only (:mod:`cribstats.store.sqlite_access`): it is read
    without a file being written beside it, and a write fails with a :class:`StoreError` that names it.

    :raises StoreError: for a URL that is not a database URL or names a database cribstats cannot use.
    """
    parsed = normalize_url(url)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(f"unsupported database {quoted(backend)}: use sqlite:///FILE or postgresql://...")
    if backend == "sqlite":
        from cribstats.store.sqlite_access import sqlite_access  # (it raises this module's StoreError)

        in_memory = parsed.database in (None, "", ":memory:")
        parsed, read_only = sqlite_access(parsed)
        connect_args = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "isolation_level": None}
        connect_args |= kwargs.pop("connect_args", {})
        try:
            engine = sa.create_engine(parsed, connect_args=connect_args, **kwargs)
        except sa.exc.ArgumentError as err:  # SQLAlchemy's own lines name forms cribstats does not take
            first = str(err).splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreError(f"cannot use {shown_url(parsed)}: {first}: write e.g. sqlite:///cribstats.db "
                             "(a file in the current folder) or sqlite:////srv/club/cribstats.db") from None
        except ImportError as err:
            raise StoreError(f"cannot use {shown_url(parsed)}: {err}") from None
        _set_up_sqlite(engine, in_memory=in_memory, read_only=read_only)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    # UTF8 on the wire whatever the database's encoding: text it cannot hold is the server's error, not a traceback
    pg_args = {"connect_timeout": PG_CONNECT_TIMEOUT_S, "client_encoding": "utf8"} | kwargs.pop("connect_args", {})
    try:
        return sa.create_engine(parsed, connect_args=pg_args, **kwargs)
    except (sa.exc.ArgumentError, ImportError) as err:
        raise StoreError(f"cannot use {shown_url(parsed)}: {err}") from None


def _set_up_sqlite(engine: Engine, *, in_memory: bool, read_only: str | None = None) -> None:
    """The pysqlite recipe: the driver in autocommit, BEGIN emitted by SQLAlchemy, so savepoints work.

    A store opened read-only (``read_only`` is the line a write fails with) keeps the journal mode it has, and a
    write to it raises :class:`StoreError` with that line instead of SQLite's "attempt to write a readonly
    database"."""

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not in_memory and read_only is None:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "")
        conn.exec_driver_sql(f"BEGIN {mode}".strip())

    if read_only is not None:
        refused = read_only

        @sa.event.listens_for(engine, "handle_error")
        def _on_error(context: sa.engine.ExceptionContext) -> None:
            code = getattr(context.original_exception, "sqlite_errorcode", 0)
            if code & 0xFF == SQLITE_READONLY:
                raise ReadOnlyStore(refused) from None


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
    return "behind" if schema_known(revision) else "unknown"


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
                    _refuse_other_encodings(conn)
                    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})")
                stored = current_revision(conn)
                if stored is not None and not schema_known(stored):
                    raise StoreError(
                        f"the database {shown_url(engine.url)} is at schema revision {quoted(stored)}, which this "
                        "cribstats does not know: a newer cribstats wrote it. Use that version (or a newer one); "
                        "nothing was changed"
                    )
                command.upgrade(alembic_config(conn), revision)
    except sa.exc.OperationalError as err:
        where = shown_url(engine.url)
        raise StoreError(f"cannot upgrade the database {where}: {describe_db_error(err)}") from None


def schema_known(revision: str) -> bool:
    """Whether ``revision`` is one of this cribstats' schema revisions (a store written by a newer one is not)."""
    from alembic.script import ScriptDirectory

    return revision in {s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()}


def _refuse_other_encodings(conn: Connection) -> None:
    """Refuse a PostgreSQL database not encoded in UTF8: names and events may be in any script.

    :raises StoreError: naming the database's encoding and how to make one in UTF8.
    """
    encoding = conn.exec_driver_sql("SHOW server_encoding").scalar()
    if encoding != "UTF8":
        raise StoreError(
            f"the database {conn.engine.url.database} is encoded in {encoding}, and players' names and events may "
            "be written in any script: make a store in a database encoded in UTF8 "
            "(createdb --encoding=UTF8 --template=template0 NAME)"
        )


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
