"""Standard input fed as games are played: what came before a pause is stored, and audited, during the pause.

A feed (``tail -f played.jsonl | cribstats import -``) may leave its pipe quiet for a long time; the games read
before a pause must not wait for a batch of 1,000 to fill, nor be lost if the import is then stopped.
"""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribstats.formats.live import PAUSE, lines_as_they_come

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = ROOT / "sample_logs" / "mistakes" / "six-card.jsonl"
EXPECTED = MISTAKES.with_name("six-card.expected-findings.txt")
WAIT = 60.0  # seconds a check waits for what a pause should bring, on a loaded machine


def _pipe_lines(chunks: list[bytes], pause_after: int | None = None) -> tuple[list[object], threading.Thread]:
    """``chunks`` written to a pipe (with a pause longer than PAUSE after chunk ``pause_after``), read by
    lines_as_they_come; what it gave, the pauses among the lines as ``"idle"``."""
    read_end, write_end = os.pipe()
    got: list[object] = []

    def write() -> None:
        with os.fdopen(write_end, "wb", buffering=0) as out:
            for i, chunk in enumerate(chunks):
                out.write(chunk)
                if i == pause_after:
                    time.sleep(PAUSE * 3)

    writer = threading.Thread(target=write)
    writer.start()
    with os.fdopen(read_end, "rb") as stream:
        got.extend(lines_as_they_come(stream, on_idle=lambda: got.append("idle")))
    return got, writer


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=8))
def test_a_pipe_gives_the_lines_a_file_of_the_same_bytes_gives(chunks: list[bytes]) -> None:
    got, writer = _pipe_lines(chunks)
    writer.join()
    assert [line for line in got if line != "idle"] == list(io.BytesIO(b"".join(chunks)))


def test_a_pause_is_told_after_the_lines_before_it_and_before_the_lines_after() -> None:
    got, writer = _pipe_lines([b'{"a": 1}\n{"b"', b': 2}\n', b'{"c": 3}'], pause_after=1)
    writer.join()
    # the pipe is empty for a moment before its first bytes too (a pause may be told there)
    assert [x for i, x in enumerate(got) if not (i == 0 and x == "idle")] == [
        b'{"a": 1}\n', b'{"b": 2}\n', "idle", b'{"c": 3}',
    ]


def test_a_stream_with_no_descriptor_is_read_as_it_is() -> None:
    told: list[str] = []
    assert list(lines_as_they_come(io.BytesIO(b"x\r\ny\rz\n"), on_idle=lambda: told.append("idle"))) == [
        b"x\r\n", b"y\rz\n",
    ]
    assert told == []


def _games(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines(keepends=True) if line.strip()]


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as conn:
            return int(conn.execute("select count(*) from game").fetchone()[0])
    except sqlite3.OperationalError:  # the schema not made yet
        return 0


def _until(check: Callable[[], bool]) -> bool:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("workers", ["1", "2"])
def test_import_stores_the_games_before_a_pause_while_standard_input_is_still_open(tmp_path: Path,
                                                                                   workers: str) -> None:
    games = _games(MISTAKES)
    db = tmp_path / "live.db"
    command = [sys.executable, "-m", "cribstats.cli", "import", "--db", f"sqlite:///{db}", "-q", "-j", workers,
               "-"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None
    try:
        process.stdin.write(b"".join(games[:2]))
        process.stdin.flush()
        assert _until(lambda: _stored(db) == 2), "the two games before the pause were not stored during it"
        process.stdin.write(games[2])
        process.stdin.flush()
        assert _until(lambda: _stored(db) == 3)
        process.stdin.close()
        process.wait(timeout=WAIT)
        assert process.stderr is not None
        err = process.stderr.read()
    finally:
        process.kill()
    assert process.returncode == 0, err.decode()
    assert _stored(db) == 3


def test_audit_passes_on_a_games_findings_while_standard_input_is_still_open() -> None:
    games = _games(MISTAKES)
    first_game = games[0]
    first_id = b'"mistakes-night-s301-g000001"'
    assert first_id in first_game
    expected = [line for line in EXPECTED.read_bytes().splitlines(keepends=True) if first_id in line]
    assert expected  # the first game of the sample has findings worked out in the expected file
    process = subprocess.Popen([sys.executable, "-m", "cribstats.cli", "audit", "--json", "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    stdout = process.stdout
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.extend(iter(stdout.readline, b"")), daemon=True)
    try:
        process.stdin.write(first_game)
        process.stdin.flush()
        reader.start()
        assert _until(lambda: len(got) >= len(expected)), "the first game's findings did not come during the pause"
        assert got == expected
        process.stdin.write(games[1])
        process.stdin.close()
        process.wait(timeout=WAIT)
    finally:
        process.kill()
    reader.join(timeout=WAIT)
    assert process.returncode == 1  # findings found: the audit's exit status says so (docs/findings.md)
    second_id = b'"mistakes-night-s301-g000002"'
    assert got[len(expected):] == [line for line in EXPECTED.read_bytes().splitlines(keepends=True)
                                   if second_id in line]
