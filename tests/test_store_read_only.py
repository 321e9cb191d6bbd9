"""A store this user may read but not write: the reading commands work and write nothing beside it, the writing
ones fail with one line naming it (docs/decisions.md, "A store this user cannot write").

File modes do not stop root, so run as root the commands run as nobody (``setpriv``); run as another user they run
as that user, whom the modes stop. The cases of a file another user may write need root to make one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.simulate import simulate_games
from cribstats.store.db import StoreError, make_engine
from cribstats.store.importer import import_paths
from cribstats.store.queries import list_games

ROOT = Path(__file__).resolve().parent.parent
NOBODY = 65534
STORE = "club.db"


def logs(n: int, seed: int) -> list[dict]:
    return [g.log for g in simulate_games(n, seed=seed, players=["Ann", "Ben"], events=["Open"],
                                          start_date="2026-05-01", games_per_night=n)]  # fmt: skip


@pytest.fixture
def as_reader() -> list[str]:
    """The prefix that runs a command as a user the file modes stop."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("read-only store tests skipped: as root file modes stop no write, and setpriv is not here")
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


@pytest.fixture
def base(tmp_path: Path, as_reader: list[str]) -> Iterator[Path]:
    """Where the store's folder goes: ``tmp_path``, unless nobody must reach it. pytest's own folders are root's
    alone (and pytest makes them so again whenever a session starts), so nobody's store goes in a folder of its own
    in the system's temporary folder, removed after."""
    made = Path(tempfile.mkdtemp(prefix="cribstats-read-only-")) if as_reader else tmp_path
    try:
        made.chmod(0o755)
        if not all(up.stat().st_mode & stat.S_IXOTH for up in made.parents) and as_reader:
            pytest.skip(f"read-only store tests skipped: nobody cannot reach {made}")
        yield made
    finally:
        for path in [made, *made.rglob("*")]:  # the tests' read-only folders, writable again to be removed
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        if as_reader:
            shutil.rmtree(made)


@pytest.fixture
def folder(base: Path) -> Path:
    """A folder holding a store of three games."""
    store = base / "store"
    store.mkdir()
    import_paths([write_jsonl(base / "night.jsonl", logs(3, seed=5))], engine := make_engine(sqlite(store)))
    engine.dispose()
    (base / "night.jsonl").chmod(0o644)
    assert sorted(os.listdir(store)) == [STORE]
    return store


def sqlite(folder: Path) -> str:
    return f"sqlite:///{folder / STORE}"


def cribstats(prefix: list[str], folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line, run in ``folder`` (``--db sqlite:///club.db`` names the store there): in a process of
    nobody's after ``prefix``, or without one in this process, whose user the file modes stop."""
    scratch = folder.parent / "scratch"  # where the reader may write: matplotlib's cache, the report
    scratch.mkdir(exist_ok=True)
    scratch.chmod(0o777)
    if not prefix:
        with contextlib.chdir(folder):
            result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
        return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)
    env = os.environ | {"PYTHONPATH": str(ROOT), "HOME": str(scratch), "MPLCONFIGDIR": str(scratch),
                        "COLUMNS": "200"}  # fmt: skip
    command = [*prefix, sys.executable, "-c", "from cribstats.cli.app import main; main()", *args]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, check=False, timeout=300)


def snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Each file in the folder: its owner and the hash of its bytes."""
    return {
        p.name: (p.stat().st_uid, hashlib.sha256(p.read_bytes()).hexdigest()) for p in sorted(folder.iterdir())
    }


def read_only(folder: Path, *, folder_mode: int) -> dict[str, tuple[int, str]]:
    (folder / STORE).chmod(0o444)
    folder.chmod(folder_mode)
    return snapshot(folder)


def game_keys(folder: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(f"file:{folder / STORE}?mode=ro&immutable=1", uri=True)) as conn:
        return [row[0] for row in conn.execute("SELECT game_key FROM game ORDER BY game_key")]


def test_a_read_only_store_in_a_read_only_folder_is_read_and_left_as_it_was(
    folder: Path, as_reader: list[str]
) -> None:
    """The club's case: ``d.db`` 444 in a folder 555. Every reading command works; no file is made or changed."""
    before = read_only(folder, folder_mode=0o555)
    keys = game_keys(folder)
    db = ("--db", f"sqlite:///{STORE}")
    games = cribstats(as_reader, folder, "games", *db)
    assert (games.returncode, games.stderr) == (0, "")
    assert all(k in games.stdout for k in keys)
    for command in (["stats"], ["standings"], ["show", keys[0]], ["discards"]):
        done = cribstats(as_reader, folder, *command, *db)
        assert (command, done.returncode, done.stderr) == (command, 0, ""), done.stderr
        assert done.stdout.strip()
    report = folder.parent / "scratch" / "report.html"
    done = cribstats(as_reader, folder, "report", *db, "--out", str(report))
    assert done.returncode == 0, done.stderr
    assert "Ann" in report.read_text()
    assert snapshot(folder) == before


def test_writing_to_a_read_only_store_fails_with_one_line_naming_it(folder: Path, as_reader: list[str]) -> None:
    before = read_only(folder, folder_mode=0o555)
    night = folder.parent / "scratch" / "more.jsonl"
    (folder.parent / "scratch").mkdir()
    write_jsonl(night, logs(2, seed=6)).chmod(0o644)
    for command in (["import", str(night), "-q"], ["players", "rename", "Ann", "Anne"]):
        done = cribstats(as_reader, folder, *command, "--db", f"sqlite:///{STORE}")
        assert done.returncode == 1, (command, done.stdout, done.stderr)
        assert done.stderr == f"error: the store {STORE} is read-only: this user may not write it\n", command
    assert snapshot(folder) == before


def test_a_read_only_file_in_a_folder_the_reader_may_write_gets_no_wal_or_shm_beside_it(
    folder: Path, as_reader: list[str]
) -> None:
    """SQLite would make a -wal and a -shm of the reader's, and leave them: the store's owner could then no longer
    write it. A file nobody may write is read as immutable instead."""
    before = read_only(folder, folder_mode=0o777 if as_reader else 0o755)
    done = cribstats(as_reader, folder, "games", "--db", f"sqlite:///{STORE}")
    assert (done.returncode, done.stderr) == (0, "")
    assert snapshot(folder) == before


def test_a_store_another_user_may_write_is_not_read_as_immutable(folder: Path, as_reader: list[str]) -> None:
    """Root's ``club.db`` 644 in root's folder 755, with no writer at work: reading it safely takes a -shm the
    reader cannot (or, in a folder it may write, should not) make. It is refused with what to do, unless the URL
    says ``immutable=1``: the user's word that nobody writes it."""
    if not as_reader:
        pytest.skip("needs a file another user may write: root makes one")
    before = snapshot(folder)
    done = cribstats(as_reader, folder, "games", "--db", f"sqlite:///{STORE}")
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: the store {STORE} is read-only for this user, and cannot be read")
    assert "another user may write it" in done.stderr
    assert "chmod a-w" in done.stderr and done.stderr.count("\n") == 1
    done = cribstats(as_reader, folder, "games", "--db", f"sqlite:///{STORE}?immutable=1")
    assert (done.returncode, done.stderr) == (0, "")
    assert all(k in done.stdout for k in game_keys(folder))
    assert snapshot(folder) == before


def test_a_reader_shares_the_wal_of_a_writer_at_work(folder: Path, as_reader: list[str]) -> None:
    """While root's connection is open, games it committed are in the -wal, not yet in the file: the reader sees
    them through the -shm root's connection made, and makes nothing itself."""
    if not as_reader:
        pytest.skip("needs a file another user may write: root makes one")
    held = sqlite3.connect(folder / STORE)
    try:
        held.execute("PRAGMA wal_autocheckpoint=0")
        held.execute("SELECT count(*) FROM game").fetchone()
        engine = make_engine(sqlite(folder))
        import_paths([write_jsonl(folder.parent / "more.jsonl", logs(2, seed=6))], engine)
        engine.dispose()
        with contextlib.closing(sqlite3.connect(folder / STORE)) as conn:
            stored = [row[0] for row in conn.execute("SELECT game_key FROM game ORDER BY game_key")]
        assert len(stored) == 5 and len(game_keys(folder)) == 3  # the file alone: two new games wait in the -wal
        before = snapshot(folder)
        assert sorted(before) == [STORE, f"{STORE}-shm", f"{STORE}-wal"]
        done = cribstats(as_reader, folder, "games", "--db", f"sqlite:///{STORE}")
        assert (done.returncode, done.stderr) == (0, "")
        assert all(k in done.stdout for k in stored)
        assert {name: uid for name, (uid, _) in snapshot(folder).items()} == {name: 0 for name in before}
    finally:
        held.close()


# --- ?mode=ro in the URL: SQLite refuses the writes, whoever runs ------------------------------------------------


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / STORE}"
    import_paths([write_jsonl(tmp_path / "night.jsonl", logs(3, seed=5))], engine := make_engine(url))
    engine.dispose()
    return url


def test_mode_ro_in_the_url_opens_the_store_read_only_without_a_warning(store_url: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine = make_engine(f"{store_url}?mode=ro")
        with engine.connect() as conn:
            assert len(list_games(conn)) == 3
        refused = pytest.raises(StoreError, match=f"^the store .*{STORE} is read-only: it is opened with mode=ro$")
        with refused, engine.begin() as conn:
            conn.exec_driver_sql("DELETE FROM player")
        engine.dispose()
    runner = CliRunner()
    listed = runner.invoke(app, ["games", "--db", f"{store_url}?mode=ro"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0 and "Warning" not in listed.output
    refused = runner.invoke(app, ["players", "rename", "Ann", "Anne", "--db", f"{store_url}?mode=ro"])
    assert refused.exit_code == 1
    assert refused.output.strip().endswith("is read-only: it is opened with mode=ro")


def test_sqlite_uri_parameters_that_are_not_understood_are_refused(tmp_path: Path, store_url: str) -> None:
    for query in ("mode=rw", "mode=memory", "immutable=yes"):
        with pytest.raises(StoreError, match=r"takes \?mode=ro .* or \?immutable=1"):
            make_engine(f"{store_url}?{query}")
    with pytest.raises(StoreError, match=r"no database at .*missing\.db: a store opened read-only is not created"):
        make_engine(f"sqlite:///{tmp_path / 'missing.db'}?mode=ro")
    assert not (tmp_path / "missing.db").exists()
    with pytest.raises(StoreError, match="a read-only SQLite store is a file"):
        make_engine("sqlite://?mode=ro")


def test_a_store_this_user_may_write_is_opened_as_ever(store_url: str) -> None:
    """The URL is not rewritten, and the store keeps WAL journalling, foreign keys and the busy timeout."""
    engine = make_engine(store_url)
    assert engine.url == sa.make_url(store_url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 60_000
    engine.dispose()


def test_the_service_answers_an_upload_to_a_read_only_store_as_unavailable(tmp_path: Path, store_url: str) -> None:
    """A running service on a store opened read-only reads it, and refuses an upload with a 503 that says why
    (the store's file goes to the server's log, not to the client)."""
    from service_server import cli, live_server

    key = cli("keys", "add", "desk", "--role", "recorder", db=store_url).stdout.strip()
    night = write_jsonl(tmp_path / "more.jsonl", logs(2, seed=9))
    with live_server(store_url + "?mode=ro", tmp_path) as server, server.client(key) as client:
        assert client.get("/api/v1/games").json()["total"] == 3
        answer = client.post("/api/v1/logs", files={"file": ("more.jsonl", night.read_bytes())})
        assert answer.status_code == 503
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.json()["detail"] == ("this server's store is read-only: nothing can be stored until its "
                                           "operator opens it for writing")
        assert str(tmp_path) not in answer.text
        assert client.get("/api/v1/games").json()["total"] == 3
    assert "is read-only: it is opened with mode=ro" in server.log.read_text()
