"""Engines, migrations and the read queries of the store, on an SQLite file and a PostgreSQL database."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from test_store_import import ONE_DEAL, write_jsonl

from cribstats.gamelog import content_hash, validate_game
from cribstats.simulate import simulate_games
from cribstats.store.db import (
    SCHEMA_REVISION,
    StoreError,
    atomic,
    ensure_schema,
    head_revision,
    make_engine,
    normalize_url,
    schema_state,
    upgrade,
)
from cribstats.store.importer import import_paths
from cribstats.store.queries import find_game, list_games
from cribstats.store.tables import metadata


@pytest.fixture
def engine(db_url: str):
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


def test_the_migrations_build_exactly_the_tables(engine: sa.Engine) -> None:
    assert schema_state(engine) == "empty"
    upgrade(engine)
    upgrade(engine)  # a second run is a no-op
    assert schema_state(engine) == "current"
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar_one()
    assert diff == []
    assert version == head_revision() == SCHEMA_REVISION


def test_a_store_behind_the_migrations_is_told_to_upgrade(engine: sa.Engine) -> None:
    upgrade(engine, "0002")
    assert schema_state(engine) == "behind"
    upgrade(engine)
    assert schema_state(engine) == "current"


def test_opening_a_store_does_not_load_the_migrations(tmp_path: Path) -> None:
    """Start-up of ``stats``, ``games`` and ``show``: the schema check reads the revision with plain SQL."""
    store = tmp_path / "club.db"
    upgrade(make_engine(f"sqlite:///{store}"))
    code = (
        "import sys\n"
        "from cribstats.store.db import make_engine, schema_state\n"
        f"assert schema_state(make_engine('sqlite:///{store}')) == 'current'\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_an_unknown_revision_is_refused(engine: sa.Engine) -> None:
    upgrade(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = 'from-the-future'")
    assert schema_state(engine) == "unknown"
    with pytest.raises(StoreError, match="not a cribstats store of a version this cribstats knows"):
        ensure_schema(engine)


def test_sqlite_runs_in_wal_mode_with_foreign_keys(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() >= 10_000
    upgrade(engine)
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO deal (game_id, number, dealer_id, starter, completed, after_end)"
            " VALUES (999, 1, 999, '5H', 1, 0)"
        )
    engine.dispose()


def test_urls() -> None:
    assert normalize_url("postgresql://u:p@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    with pytest.raises(StoreError, match="is not a database URL"):
        normalize_url("cribstats.db")
    with pytest.raises(StoreError, match="unsupported database 'mysql'"):
        make_engine("mysql://u@h/db")


def test_atomic_nests_as_savepoints(engine: sa.Engine) -> None:
    upgrade(engine)
    with engine.connect() as conn:
        with atomic(conn):
            conn.exec_driver_sql("INSERT INTO event (name, name_key) VALUES ('kept', 'kept')")
            with pytest.raises(ZeroDivisionError), atomic(conn):
                conn.exec_driver_sql("INSERT INTO event (name, name_key) VALUES ('rolled back', 'rolled back')")
                _ = 1 / 0
        names = [r[0] for r in conn.exec_driver_sql("SELECT name FROM event")]
    assert names == ["kept"]


def test_list_and_find_games(engine: sa.Engine, tmp_path: Path) -> None:
    sims = [
        g.log
        for g in simulate_games(
            2, seed=61, players=["Zoë Smith", "Bob"], events=["Open"], start_date="2026-05-01", games_per_night=1
        )
    ]
    import_paths([write_jsonl(tmp_path / "g.jsonl", [ONE_DEAL, *sims])], engine)
    with engine.connect() as conn:
        everything = list_games(conn)
        assert [g.key for g in everything] == [sims[0]["id"], sims[1]["id"], ONE_DEAL["id"]]
        assert [g.key for g in list_games(conn, player="zoë  SMITH")] == [s["id"] for s in sims]
        assert [g.key for g in list_games(conn, since=date(2026, 6, 1))] == [ONE_DEAL["id"]]
        assert [g.key for g in list_games(conn, until=date(2026, 5, 1))] == [sims[0]["id"]]
        assert [g.key for g in list_games(conn, event="OPEN", limit=1)] == [sims[0]["id"]]
        one = everything[-1]
        assert (one.players, one.scores, one.deals, one.findings, one.event) == (
            ["Alice", "Bob"],
            [22, 12],
            1,
            1,
            "Tuesday League",
        )
        digest = content_hash(validate_game(ONE_DEAL))
        for ref in (ONE_DEAL["id"], str(one.id), digest[:8]):
            found = find_game(conn, ref)
            assert found is not None and found.key == ONE_DEAL["id"] and found.content_hash == digest
        assert find_game(conn, digest[:5]) is None  # too short to be taken for a hash
        assert find_game(conn, ONE_DEAL["id"]).game() == validate_game(ONE_DEAL)
