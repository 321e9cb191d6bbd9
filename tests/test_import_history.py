"""The import history tells the truth: a killed import's row says what it committed; an import stopped by SIGTERM
or by a full disk says so, and how many games were stored and that running it again completes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from test_store_import import sim_logs, write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.db import make_engine

BATCH = 25


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def scalar(url: str, sql: str) -> Any:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql)).scalar_one()
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def many_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("logs")
    return write_jsonl(folder / "season.jsonl", sim_logs(600, seed=81))


def test_a_killed_import_says_what_it_committed(tmp_path: Path, many_games: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    command = [sys.executable, "-m", "cribstats.cli", "import", "--db", url, "-q", "-j", "1",
               "--batch-size", str(BATCH), str(many_games)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        stored = 0
        while time.monotonic() < deadline and process.poll() is None:
            if (tmp_path / "club.db").exists():
                try:
                    stored = scalar(url, "SELECT count(*) FROM game")
                except sa.exc.OperationalError:
                    stored = 0
                if stored >= 4 * BATCH:
                    break
            time.sleep(0.05)
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    stored = scalar(url, "SELECT count(*) FROM game")
    recorded = scalar(url, "SELECT games_imported FROM import_run")
    assert stored % BATCH == 0 and stored >= 4 * BATCH  # whole batches, nothing else
    # the row is written with each batch: at most the batch in flight when the kill came is not in it yet
    assert stored - BATCH <= recorded <= stored
    assert scalar(url, "SELECT count(*) FROM import_run WHERE finished_at IS NULL") == 1
    history = orjson.loads(run("imports", "--db", url, "--format", "json").stdout)
    assert [(h["status"], h["imported"], h["stored"]) for h in history] == [("unfinished", stored, stored)]
    # running it again completes it
    again = run("import", "--db", url, "-q", str(many_games))
    assert again.exit_code == 0
    assert scalar(url, "SELECT count(*) FROM game") == 600


def _started(command: list[str], url: str, db: Path, batches: int) -> subprocess.Popen[bytes]:
    """The import ``command`` running, once it has stored ``batches`` batches."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if db.exists():
            try:
                if scalar(url, "SELECT count(*) FROM game") >= batches * BATCH:
                    break
            except sa.exc.OperationalError:
                pass
        time.sleep(0.05)
    assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
    return process


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_import_stopped_by_sigterm_says_what_it_stored(tmp_path: Path, many_games: Path, workers: str) -> None:
    """``kill``, a service manager or a time limit sends SIGTERM: the import ends as Ctrl-C ends it, in one line
    saying so, exit 143, whole batches stored; running it again completes it."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    command = [sys.executable, "-m", "cribstats.cli", "import", "--db", url, "-q", "-j", workers,
               "--batch-size", str(BATCH), str(many_games)]
    process = _started(command, url, tmp_path / "club.db", 4)
    try:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 143
    message = err.decode().strip()
    assert "\n" not in message and "Traceback" not in message, message
    stored = scalar(url, "SELECT count(*) FROM game")
    assert message == (f"error: stopped (SIGTERM): the games of finished batches are stored ({stored} games of "
                       "this import), the unfinished batch is not; run the same import again to complete it")
    assert stored % BATCH == 0 and 4 * BATCH <= stored < 600  # whole batches, nothing else
    assert scalar(url, "SELECT count(*) FROM deal") == scalar(url, "SELECT sum(deal_count) FROM game")
    again = run("import", "--db", url, "-q", str(many_games))
    assert again.exit_code == 0, again.output
    assert scalar(url, "SELECT count(*) FROM game") == 600


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (root only: elsewhere the test is skipped, saying so)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("the full-disk test mounts a small tmpfs, which needs root (it runs as root in CI)")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_an_import_on_a_full_disk_says_what_was_stored(small_disk: Path, many_games: Path) -> None:
    url = f"sqlite:///{small_disk / 'club.db'}"
    result = run("import", "--db", url, "-q", "-j", "1", "--batch-size", str(BATCH), str(many_games))
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert "\n" not in message and "Traceback" not in result.output
    assert "database or disk is full" in message
    stored = scalar(url, "SELECT count(*) FROM game")
    assert 0 < stored < 600 and stored % BATCH == 0
    assert f"; {stored} games of this import were stored" in message
    assert message.endswith("run the same import again to complete it")
    # the history says what is stored, not a batch less: it is written in each batch's own transaction
    assert scalar(url, "SELECT games_imported FROM import_run") == stored
    assert scalar(url, "SELECT findings FROM import_run") == scalar(url, "SELECT count(*) FROM finding")
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    again = run("import", "--db", url, "-q", str(many_games))
    assert again.exit_code == 0, again.output
    assert scalar(url, "SELECT count(*) FROM game") == 600
    assert scalar(url, "SELECT sum(games_imported) FROM import_run") == 600
    assert scalar(url, "SELECT sum(findings) FROM import_run") == scalar(url, "SELECT count(*) FROM finding")


def test_the_history_is_written_with_its_batch_or_not_at_all(tmp_path: Path, many_games: Path) -> None:
    # the store refuses the history's third write (a trigger, as a full disk would at that moment): the batch it
    # belongs to must not be stored either, so the history never says less than what is stored
    url = f"sqlite:///{tmp_path / 'club.db'}"
    assert run("db", "upgrade", "--db", url).exit_code == 0
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                f"CREATE TRIGGER history_stops BEFORE UPDATE OF games_imported ON import_run "
                f"WHEN NEW.games_imported > {2 * BATCH} "
                "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"))
    finally:
        engine.dispose()
    result = run("import", "--db", url, "-q", "-j", "1", "--batch-size", str(BATCH), str(many_games))
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"; {2 * BATCH} games of this import were stored" in result.stderr
    stored = scalar(url, "SELECT count(*) FROM game")
    assert stored == 2 * BATCH
    assert scalar(url, "SELECT games_imported FROM import_run") == stored
    assert scalar(url, "SELECT findings FROM import_run") == scalar(url, "SELECT count(*) FROM finding")
