"""The command line as scripts meet it, run as a real process: a reader that goes away (``| head -1``), Ctrl-C
and SIGTERM during an import, and usage errors.

A closed standard output ended a command with exit 1 (the status of a database that cannot be used), and only
sometimes; Ctrl-C during an import printed tracebacks from the fork server and the worker processes, and its
message did not say what was stored; SIGTERM early in an import ended it without a word; a usage error was a
panel of five lines.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from processes import children

ROOT = Path(__file__).resolve().parent.parent
MAIN = "from cribstats.cli.app import main; main()"
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"} | {
    "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
# as some shells run it: unbuffered, where Python's writer drops without a word what a pipe did not take of one
# write when its reader went away (only a later write fails): the command writes again until all is taken
UNBUFFERED = ENV | {"PYTHONUNBUFFERED": "1"}
CLOSED_OUTPUT = 141  # 128 + SIGPIPE
GAMES = 1500
PROC = Path("/proc/self/stat").exists()


def cribstats(*args: str) -> list[str]:
    return [sys.executable, "-c", MAIN, *args]


def stored(db: Path) -> int:
    """The games in the SQLite store ``db`` (none when it is not made yet)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM game").fetchone()[0])
    except sqlite3.OperationalError:  # no tables yet, or being written
        return 0
    finally:
        conn.close()


@pytest.fixture(scope="module")
def games_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,500 simulated games, with some mistakes (so that the audit has findings to print)."""
    path = tmp_path_factory.mktemp("logs") / "club.jsonl"
    done = subprocess.run(cribstats("simulate", "--games", str(GAMES), "--mistakes", "0.02", "--seed", "29",
                                    "--out", str(path)), env=ENV, capture_output=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture(scope="module")
def store(games_file: Path) -> str:
    """A store holding the 1,500 games."""
    url = f"sqlite:///{games_file.parent / 'club.db'}"
    done = subprocess.run(cribstats("import", "-q", "--db", url, str(games_file)), env=ENV, capture_output=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return url


# --- a closed standard output ---------------------------------------------------------------------------


def read_one_line_then_close(*args: str, env: dict[str, str] = ENV) -> tuple[int, bytes, bytes]:
    """The command with its output read by a reader that takes one line and goes away (``| head -1``): the
    command's exit status, the line, and what it said on standard error. Its output is larger than a pipe
    holds, so that it is still writing when the reader goes."""
    process = subprocess.Popen(cribstats(*args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    line = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    return process.wait(timeout=300), line, err


def closed_before_it_writes(*args: str) -> tuple[int, bytes]:
    """The command writing to a pipe whose reader is gone before the command starts (``| true``): its exit
    status and standard error."""
    read, write = os.pipe()
    os.close(read)
    try:
        process = subprocess.Popen(cribstats(*args), env=ENV, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    _, err = process.communicate(timeout=300)
    return process.returncode, err


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(lambda logs, url: ["games", "--db", url], id="games"),
        pytest.param(lambda logs, url: ["games", "--db", url, "--format", "csv"], id="games-csv"),
        pytest.param(lambda logs, url: ["audit", "--json", str(logs)], id="audit-json"),
        pytest.param(lambda logs, url: ["games", "--db", url, "--format", "json"], id="games-json"),
        pytest.param(lambda logs, url: ["audit", "--json", str(logs)], id="audit-json"),
        pytest.param(lambda logs, url: ["simulate", "--games", "300", "--out", "-"], id="simulate"),
        pytest.param(lambda logs, url: ["rating", "--db", url, "--history", "--format", "csv"], id="rating-csv"),
    ],
)
@pytest.mark.parametrize("env", [ENV, UNBUFFERED], ids=["buffered", "unbuffered"])
def test_a_reader_that_goes_away_ends_the_command_quietly_with_141(
    games_file: Path, store: str, args: Callable[[Path, str], list[str]], env: dict[str, str]
) -> None:
    status, line, err = read_one_line_then_close(*args(games_file, store), env=env)
    assert line.strip()  # it was writing
    assert (status, err) == (CLOSED_OUTPUT, b"")


FULL = Path("/dev/full")  # a device that refuses every write: "No space left on device"


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args",
    [
        pytest.param(lambda logs, url: ["games", "--db", url], id="games"),
        pytest.param(lambda logs, url: ["stats", "--db", url, "--format", "csv"], id="stats-csv"),
        pytest.param(lambda logs, url: ["audit", "--json", str(logs)], id="audit-json"),
        pytest.param(lambda logs, url: ["score", "5H", "5C", "5S", "JD", "5D"], id="score"),
    ],
)
@pytest.mark.parametrize("env", [ENV, UNBUFFERED], ids=["buffered", "unbuffered"])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_1(
    games_file: Path, store: str, args: Callable[[Path, str], list[str]], env: dict[str, str]
) -> None:
    with FULL.open("wb") as full:
        done = subprocess.run(cribstats(*args(games_file, store)), env=env, stdout=full, stderr=subprocess.PIPE,
                              timeout=300, check=False)
    said = b"error: standard output: cannot write: No space left on device\n"
    assert (done.returncode, done.stderr) == (1, said)


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(lambda url: ["score", "5H", "5C", "5S", "JD", "5D"], id="score"),
        pytest.param(lambda url: ["--help"], id="help"),
        pytest.param(lambda url: ["games", "--help"], id="games-help"),
        pytest.param(lambda url: ["show", "1", "--db", url], id="show"),
        pytest.param(lambda url: ["players", "--db", url], id="players"),
        pytest.param(lambda url: ["stats", "--db", url, "--format", "csv"], id="stats-csv"),
    ],
)
def test_an_output_closed_before_the_command_writes_ends_it_quietly_with_141(
    store: str, args: Callable[[str], list[str]]
) -> None:
    assert closed_before_it_writes(*args(store)) == (CLOSED_OUTPUT, b"")


def test_an_import_whose_summary_cannot_be_printed_keeps_what_it_stored(tmp_path: Path) -> None:
    logs = ROOT / "sample_logs" / "club-night.jsonl"
    closed, whole = tmp_path / "closed.db", tmp_path / "whole.db"
    status, err = closed_before_it_writes("import", "--db", f"sqlite:///{closed}", str(logs))
    assert (status, err) == (CLOSED_OUTPUT, b"")
    done = subprocess.run(cribstats("import", "--db", f"sqlite:///{whole}", str(logs)), env=ENV,
                          capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert stored(closed) == stored(whole) > 0


# --- Ctrl-C and SIGTERM during an import ----------------------------------------------------------------


def fork_server(pid: int) -> int | None:
    for child in children(pid):
        try:
            if b"forkserver" in (Path("/proc") / str(child) / "cmdline").read_bytes():
                return child
        except OSError:
            continue
    return None


def takes_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM: the import command sets one first thing."""
    try:
        status = (Path("/proc") / str(pid) / "status").read_text()
    except OSError:
        return False
    caught = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.MULTILINE)
    return caught is not None and bool(int(caught.group(1), 16) & (1 << (signal.SIGTERM - 1)))


def until(process: subprocess.Popen[bytes], ready: Callable[[], bool]) -> bool:
    """Wait (no time limit but the import's own end) until ``ready()``; False when the import ended first."""
    while process.poll() is None:
        if ready():
            return True
        time.sleep(0.005)
    return False


def the_one_message(err: bytes, opening: str) -> int:
    """The number of games the one line on standard error says were stored; no other line (no traceback, no
    worker's error)."""
    lines = [line for line in err.decode(errors="replace").splitlines() if line.strip()]
    assert len(lines) == 1, err.decode(errors="replace")
    assert lines[0].startswith(opening) and "run the same import again" in lines[0], lines[0]
    said = re.search(r"\((\d+) games? of this import\)", lines[0])
    assert said is not None, lines[0]
    return int(said.group(1))


@pytest.mark.slow
@pytest.mark.skipif(not PROC, reason="needs /proc to see the import's fork server and workers")
def test_ctrl_c_during_an_import_says_what_is_stored_and_no_worker_says_anything(
    games_file: Path, tmp_path: Path
) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it; and to the importing process alone) at
    several moments: before the workers, while the fork server loads its module, while a worker starts, and
    once a batch is stored. Exit 130, one line naming the games stored, and the store holding exactly those."""
    several = len(os.sched_getaffinity(0)) > 1  # one worker a core: on one core there is no pool

    def started(process: subprocess.Popen[bytes], db: Path) -> bool:
        return until(process, lambda: takes_sigterm(process.pid)) and not time.sleep(0.3)

    def fork_server_started(process: subprocess.Popen[bytes], db: Path) -> bool:
        return until(process, lambda: fork_server(process.pid) is not None)

    def worker_started(process: subprocess.Popen[bytes], db: Path) -> bool:
        def worker() -> bool:
            server = fork_server(process.pid)
            return server is not None and bool(children(server))

        return until(process, worker)

    def batch_stored(process: subprocess.Popen[bytes], db: Path) -> bool:
        return until(process, lambda: stored(db) >= 1000) and not time.sleep(0.05)  # between two commits

    moments = [("group", started), ("group", batch_stored)]
    if several:
        moments += [("group", fork_server_started), ("group", worker_started), ("main", fork_server_started)]
    runs = 0
    for _ in range(2):
        for to, moment in moments:
            db = tmp_path / f"club-{runs}.db"
            runs += 1
            process = subprocess.Popen(cribstats("import", "--db", f"sqlite:///{db}", str(games_file)), env=ENV,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            try:
                reached = moment(process, db)
                assert reached, f"the import ended before the moment ({to}, {moment})"
                if to == "group":
                    os.killpg(process.pid, signal.SIGINT)
                else:
                    os.kill(process.pid, signal.SIGINT)
                out, err = process.communicate(timeout=300)
            finally:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
            assert (process.returncode, out) == (130, b""), err.decode(errors="replace")
            said = the_one_message(err, "error: interrupted: ")
            assert said == stored(db), (to, moment, err)


@pytest.mark.skipif(not PROC, reason="needs /proc to see when the import takes SIGTERM")
def test_sigterm_as_soon_as_the_import_has_started_says_so(games_file: Path, tmp_path: Path) -> None:
    """SIGTERM the moment the import command has started (its SIGTERM handler is the first thing it sets): the
    one line, exit 143; it ended silently (status -15) in its first second or so."""
    db = tmp_path / "club.db"
    process = subprocess.Popen(cribstats("import", "--db", f"sqlite:///{db}", str(games_file)), env=ENV,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert until(process, lambda: takes_sigterm(process.pid)), "the import ended before it took SIGTERM"
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert (process.returncode, out) == (143, b""), err.decode(errors="replace")
    assert the_one_message(err, "error: stopped (SIGTERM): ") == stored(db) == 0


# --- usage errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["games", "--format", "xml"], ["'--format'", "'xml'"]),
        (["games", "--limit", "-1"], ["'--limit'", "-1"]),
        (["games", "--no-such-option"], ["--no-such-option"]),
        (["audit"], ["'paths'"]),
        (["no-such-command"], ["'no-such-command'"]),
    ],
)
def test_a_usage_error_is_one_line_saying_what_and_where(args: list[str], named: list[str]) -> None:
    done = subprocess.run(cribstats(*args), env=ENV, capture_output=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, b"")
    [line] = done.stderr.decode().splitlines()
    assert line.startswith("error: ") and all(name in line for name in named), line
