"""An import whose worker process is killed (the out-of-memory killer, an operator's kill -9): one line saying so
and what is stored, exit 1, whole batches only; the same import run again completes it. It was a traceback
(``BrokenProcessPool``)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import children

ROOT = Path(__file__).resolve().parent.parent
SEASON = ROOT / "sample_logs" / "season-2026.jsonl"


def cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def a_worker(importer: subprocess.Popen[str]) -> int | None:
    """A worker of the import's pool: a child of its fork server, once there is one."""
    while importer.poll() is None:
        for server in (p for p in children(importer.pid) if "forkserver" in cmdline(p)):
            workers = children(server)
            if workers:
                return workers[0]
        time.sleep(0.02)
    return None


def stored(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        games = conn.execute("SELECT count(*) FROM game").fetchone()[0]
        with_deals = conn.execute("SELECT count(DISTINCT game_id) FROM deal").fetchone()[0]
    return games, with_deals


def test_a_killed_worker_stops_the_import_in_one_line_and_a_second_run_completes_it(tmp_path: Path) -> None:
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to find the import's worker processes")
    logs = SEASON
    games_in_logs = len(SEASON.read_bytes().splitlines())
    db = tmp_path / "club.db"
    command = [sys.executable, "-c", "from cribstats.cli.app import main; main()", "import", "-q", "-j", "2",
               "--batch-size", "200", "--db", f"sqlite:///{db}", str(logs)]  # fmt: skip
    env = os.environ | {"PYTHONPATH": str(ROOT), "COLUMNS": "400"}
    importer = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    worker = a_worker(importer)
    if worker is None:
        pytest.skip("the import ended before a worker was seen")
    time.sleep(0.2)  # past its start-up: a worker at work is killed
    try:
        os.kill(worker, signal.SIGKILL)
    except ProcessLookupError:
        importer.communicate(timeout=300)
        pytest.skip("the import ended before its worker could be killed")
    _out, err = importer.communicate(timeout=300)
    assert importer.returncode == 1, err
    assert "Traceback" not in err and "BrokenProcessPool" not in err
    told = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(told) == 1 and "worker process" in told[0] and "run the same import again" in told[0], err
    games, with_deals = stored(db)
    assert games == with_deals  # whole games only
    assert f"; {games} game{'' if games == 1 else 's'} of this import were stored" in told[0]
    assert games % 200 == 0  # whole batches

    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert stored(db) == (games_in_logs, games_in_logs)
