"""``cribstats keys`` and ``cribstats serve`` as commands: keys printed once and stored as hashes, usage errors,
start-up refusals, and a command line that loads no web framework until ``serve`` runs."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from service_server import cli

from cribstats.service.uploads import part_name


def test_a_key_is_printed_alone_and_stored_only_as_its_hash(sqlite_url: str, tmp_path: Path) -> None:
    done = cli("keys", "add", "Tuesday recorder", "--role", "admin", db=sqlite_url)
    key = done.stdout
    assert key.endswith("\n") and key.count("\n") == 1 and key.startswith("crib_")
    key = key.strip()
    with sqlite3.connect(tmp_path / "cribstats.db") as conn:
        rows = conn.execute("SELECT * FROM api_key").fetchall()
    assert len(rows) == 1
    assert hashlib.sha256(key.encode()).hexdigest() in rows[0]
    assert all(key not in str(cell) for cell in rows[0])
    listing = cli("keys", "list", db=sqlite_url).stdout
    assert listing.startswith("Tuesday recorder\tadmin\t") and listing.rstrip().endswith("in use")
    assert key not in listing and hashlib.sha256(key.encode()).hexdigest() not in listing


def test_names_and_roles_are_checked(sqlite_url: str) -> None:
    cli("keys", "add", "ann", db=sqlite_url)
    twice = cli("keys", "add", "ann", db=sqlite_url, check=False)
    assert twice.returncode == 2 and "already has a key" in twice.stderr and "Traceback" not in twice.stderr
    assert cli("keys", "add", "bob", "--role", "owner", db=sqlite_url, check=False).returncode == 2
    unknown = cli("keys", "revoke", "carl", db=sqlite_url, check=False)
    assert unknown.returncode == 2 and "no key in use is named 'carl'" in unknown.stderr
    cli("keys", "revoke", "ann", db=sqlite_url)
    assert cli("keys", "revoke", "ann", db=sqlite_url, check=False).returncode == 2
    assert cli("keys", "add", "ann-2", db=sqlite_url).stdout.startswith("crib_")  # a new key takes a new name
    listing = cli("keys", "list", db=sqlite_url).stdout
    assert listing.count("ann\t") == 1 and listing.count("ann-2\t") == 1 and "in use" in listing


def test_a_revoked_key_keeps_its_record_and_its_name(sqlite_url: str, tmp_path: Path) -> None:
    """Trial 28: a new key under a revoked key's name overwrote the revoked key's row, its role and dates lost."""
    cli("keys", "add", "bob", db=sqlite_url)
    cli("keys", "revoke", "bob", db=sqlite_url)
    with sqlite3.connect(tmp_path / "cribstats.db") as conn:
        before = conn.execute("SELECT id, name, role, key_hash, created_at, revoked_at FROM api_key").fetchall()
    again = cli("keys", "add", "bob", "--role", "admin", db=sqlite_url, check=False)
    assert again.returncode == 2 and again.stdout == "" and "Traceback" not in again.stderr
    assert again.stderr.startswith("error: 'bob' is the name of a key revoked on ")
    assert "choose another name" in again.stderr and again.stderr.count("\n") == 1
    with sqlite3.connect(tmp_path / "cribstats.db") as conn:
        after = conn.execute("SELECT id, name, role, key_hash, created_at, revoked_at FROM api_key").fetchall()
    assert after == before and before[0][2] == "recorder" and before[0][5] is not None
    listing = cli("keys", "list", db=sqlite_url).stdout.splitlines()
    assert len(listing) == 1 and listing[0].startswith("bob\trecorder\t") and not listing[0].endswith("in use")


def test_serve_refuses_a_database_that_is_not_a_store(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    done = cli("serve", db=f"sqlite:///{other}", check=False)
    assert done.returncode == 1
    assert done.stderr.startswith("error: the database is not a cribstats store")
    assert "Traceback" not in done.stderr


def test_help_has_examples() -> None:
    for command in (["serve"], ["keys", "add"], ["keys", "list"], ["keys", "revoke"]):
        done = subprocess.run([sys.executable, "-m", "cribstats.cli", *command, "--help"], capture_output=True,
                              text=True, check=True)  # fmt: skip
        assert "Examples:" in done.stdout and f"cribstats {' '.join(command)}" in done.stdout


@pytest.mark.parametrize("statement", ["import cribstats.cli.app", "import cribstats.service.keys"])
def test_the_command_line_loads_no_web_framework(statement: str) -> None:
    code = f"import sys\n{statement}\nprint('\\n'.join(sys.modules))"
    loaded = set(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                text=True).stdout.split())  # fmt: skip
    assert not loaded & {"fastapi", "starlette", "uvicorn", "itsdangerous", "multipart", "cribstats.service.app"}


@given(st.text(max_size=300) | st.none(), st.integers(min_value=1, max_value=99))
@example("0" * 300, 1)  # a name too long keeps its end (the file's kind) as well as its start
def test_an_uploaded_files_name_is_one_printable_name(filename: str | None, number: int) -> None:
    name = part_name(filename, number)
    assert name and name.isprintable() and "/" not in name and "\\" not in name and len(name) <= 200
    plain = "".join(c for c in (filename or "") if c.isprintable()).strip()
    if plain and "/" not in plain and "\\" not in plain and len(plain) <= 200:
        assert name == plain
    assert part_name(f"C:\\club\\nights/{filename or ''}x.jsonl", number).endswith("x.jsonl")
    if len(plain) > 200 and "/" not in plain and "\\" not in plain:
        assert name.startswith(plain[:99]) and name.endswith(plain[-100:]) and len(name) == 200


def test_a_database_that_cannot_be_reached_is_one_line_and_exit_1() -> None:
    unreachable = "postgresql://nobody:secret@127.0.0.1:9/none"
    for command in (("keys", "add", "ann"), ("keys", "list"), ("serve",)):
        done = cli(*command, db=unreachable, check=False)
        assert done.returncode == 1, command
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1 and "secret" not in done.stderr
        assert "postgresql+psycopg://nobody:***@127.0.0.1:9/none" in done.stderr, command  # which database


def test_serve_refuses_a_store_behind_as_import_does(sqlite_url: str) -> None:
    from cribstats.store.db import make_engine, upgrade

    engine = make_engine(sqlite_url)
    upgrade(engine, "0003")
    engine.dispose()
    served = cli("serve", db=sqlite_url, check=False)
    log = Path(__file__).parent / "data" / "audit" / "clean.json"
    imported = cli("import", str(log), db=sqlite_url, check=False)
    assert served.returncode == imported.returncode == 1
    assert served.stderr == imported.stderr
    assert served.stderr == "error: the database schema is out of date: run `cribstats db upgrade`\n"
