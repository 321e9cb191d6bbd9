"""What ``--db`` names, and a store a newer cribstats wrote: one line each, nothing stored where nothing is kept,
nothing changed in a store this version does not know."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.db import make_engine

SAMPLE_LOGS = Path(__file__).resolve().parent.parent / "sample_logs"


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite:///:memory:", "SQLITE:///?timeout=5",
                                 "sqlite+pysqlite://"])
def test_an_sqlite_url_without_a_file_is_refused_before_anything_is_read(url: str) -> None:
    # an import into an in-memory database would say its games were stored and keep none of them
    result = run("import", "-q", "--db", url, str(SAMPLE_LOGS))
    assert result.exit_code == 2, result.output
    assert "names no file, so nothing would be kept: write e.g. sqlite:///cribstats.db" in result.output
    assert "imported" not in result.output and "Traceback" not in result.output


def test_an_unset_variable_in_the_store_url_of_the_environment_is_refused_too() -> None:
    # CRIBSTATS_DB="sqlite:///$STORE" with STORE unset
    result = run("stats", env={"CRIBSTATS_DB": "sqlite:///"})
    assert result.exit_code == 2 and "names no file" in result.output


def test_a_file_store_is_taken_as_before(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    assert run("import", "-q", "--db", url, str(SAMPLE_LOGS / "club-night.jsonl")).exit_code == 0
    assert (tmp_path / "club.db").exists()


def test_an_sqlite_url_of_the_wrong_form_is_one_line_naming_the_right_form() -> None:
    result = run("games", "--db", "sqlite://lite.db")
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.output
    assert lines[0].startswith("error: cannot use sqlite://lite.db: Invalid SQLite URL")
    assert "write e.g. sqlite:///cribstats.db" in lines[0] and "\\x0a" not in lines[0]


def test_db_upgrade_of_a_store_a_newer_cribstats_wrote_is_one_line_and_changes_nothing(db_url: str) -> None:
    assert run("db", "upgrade", "--db", db_url).exit_code == 0
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0999'"))
        tables = sorted(sa.inspect(conn).get_table_names())
    result = run("db", "upgrade", "--db", db_url)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.output
    newer = "is at schema revision '0999', which this cribstats does not know: a newer cribstats wrote it"
    assert newer in lines[0]
    assert lines[0].endswith("nothing was changed")
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0999"
        assert sorted(sa.inspect(conn).get_table_names()) == tables
    engine.dispose()


@pytest.mark.parametrize("url", ["bogus://x", "mysql://league@db.example/league", "SQLITE:///club.db"])
def test_a_url_of_another_kind_of_database_is_a_wrong_option_value(url: str) -> None:
    """Exit 2, as for any wrong option value (exit 1 is a store that cannot be used), before anything is read."""
    result = run("games", "--db", url)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0] == (f"error: --db '{url}' is no database cribstats stores games in: write sqlite:///FILE or "
                        "postgresql://USER@HOST/DATABASE")
