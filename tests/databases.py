"""Databases for tests: a fresh PostgreSQL database on the test server, dropped after; a store migrated to a
revision; an SQLite store of a tally sheet's games; the cards of a night imported from a scorecard sheet."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa


@contextmanager
def new_pg_database(server: sa.URL, options: str = "") -> Iterator[str]:
    """A fresh, empty PostgreSQL database on ``server`` (its URL), made with the ``CREATE DATABASE`` ``options``
    given (e.g. an encoding), dropped when the block ends."""
    name = f"cribstats_t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}" {options}')
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


def tally_store(folder: Path, sheet: str) -> str:
    """The URL of a new SQLite store in ``folder`` holding the games of ``sheet`` (a tally sheet's text), every one
    of them imported."""
    from cribstats.store.db import make_engine
    from cribstats.store.importer import import_paths

    (folder / "club.csv").write_text(sheet)
    url = f"sqlite:///{folder / 'club.db'}"
    assert import_paths([folder / "club.csv"], make_engine(url)).imported == sheet.count("\n") - 1
    return url


def night_cards(sheet: Path, event: str, date: str) -> list[tuple[str, str]]:
    """Import the scorecard ``sheet`` with ``cribstats import`` into a new SQLite store beside it; the players of
    the night and their cards as ``cribstats night`` gives them, in its order."""
    import json

    from typer.testing import CliRunner

    from cribstats.cli.app import app

    db = f"sqlite:///{sheet.parent / 'club.db'}"
    done = CliRunner().invoke(app, ["import", str(sheet), "--db", db])
    assert done.exit_code == 0, done.output
    night = CliRunner().invoke(app, ["night", "--db", db, "--event", event, "--date", date, "-fjson"])
    assert night.exit_code == 0, night.output
    return [(row["player"], row["card"]) for row in json.loads(night.stdout)]


def copy_rows(engine: sa.Engine, rows: dict[str, list[tuple[Any, ...]]], columns: dict[str, list[str]]) -> None:
    """Write rows read from a newer store (``rows`` and their ``columns`` by table, in order) into the store at
    ``engine``, an older revision: only the columns that store has (the later migrations' columns left out)."""
    with engine.begin() as conn:
        for name, table_rows in rows.items():
            has = {c["name"] for c in sa.inspect(conn).get_columns(name)}
            kept = [i for i, c in enumerate(columns[name]) if c in has]
            names = [columns[name][i] for i in kept]
            marks = ", ".join(":" + n for n in names)
            insert = sa.text(f'INSERT INTO "{name}" ({", ".join(names)}) VALUES ({marks})')
            conn.execute(insert, [dict(zip(names, [r[i] for i in kept], strict=True)) for r in table_rows])
