"""Stores left by earlier versions of cribstats are brought up to date by `cribstats db upgrade`, on an SQLite file
and a PostgreSQL database.

For one commit of the main line (c447c5f) the store version's migration (0010) ran before the deal's play value
(0009): a store upgraded by that version holds both, at revision 0009. Upgrading it must not make the store
version twice."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.db import make_engine, schema_state, upgrade


def _as_the_0010_first_version_left_it(url: str) -> None:
    """Both migrations applied, the version stamped 0009: what 0008 -> 0010 -> 0009 left behind."""
    engine = make_engine(url)
    try:
        upgrade(engine, "0010")
        with engine.begin() as conn:
            conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0009'")
    finally:
        engine.dispose()


def test_a_store_with_the_store_version_before_the_play_value_upgrades(db_url: str, sample_logs_dir: Path) -> None:
    _as_the_0010_first_version_left_it(db_url)
    runner = CliRunner()
    done = runner.invoke(app, ["db", "upgrade", "--db", db_url])
    assert done.exit_code == 0, done.output
    engine = make_engine(db_url)
    try:
        assert schema_state(engine) == "current"
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM store_version").scalar_one() == 1
            before = conn.exec_driver_sql("SELECT version FROM store_version").scalar_one()
    finally:
        engine.dispose()
    night = sample_logs_dir / "club-night.jsonl"
    done = runner.invoke(app, ["import", str(night), "--db", db_url])
    assert done.exit_code == 0, done.output
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM game")).scalar_one() == 40
            # the triggers are in place: the import raised the version
            assert conn.exec_driver_sql("SELECT version FROM store_version").scalar_one() > before
    finally:
        engine.dispose()
