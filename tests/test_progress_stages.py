"""The long store commands (``report``, ``head-to-head``, ``discards``, ``stats``, ``standings``, ``rating``) name
the stage they are working on in a transient line on standard error, when that is a terminal: run here as a real
terminal runs them, standard error on a pseudo-terminal. Their standard output is the same bytes as with no
terminal; with no terminal, or with ``--quiet``, standard error carries nothing new.

Before, they worked for many seconds on a large store (a report of 60,000 games 39 s) with nothing shown.
"""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from rich.console import Console

from cribstats.cli.stages import STEP, shown_on, stages
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

pytestmark = pytest.mark.skipif(not hasattr(pty, "openpty"), reason="no pseudo-terminals on this platform")

ROOT = Path(__file__).resolve().parent.parent
MAIN = "from cribstats.cli.app import main; main()"
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
ENV = {name: value for name, value in os.environ.items() if name not in ("FORCE_COLOR", "TTY_COMPATIBLE")} | {
    "PYTHONPATH": str(ROOT), "COLUMNS": "200", "TERM": "xterm"}  # fmt: skip
CHARTS = [f"charts {i}/5" for i in range(1, 6)]
CLUB = ["latest night", "season", "head-to-head", "ratings", "matches"]
# each command, and the stages it names in order on a terminal
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "report": (["report", "--out", "-"],
               ["reading games", "standings", *CHARTS, "discards", "costliest discards", *CLUB]),
    "head-to-head": (["head-to-head"], ["head-to-head", "matches", "table"]),
    "head-to-head-csv": (["head-to-head", "--format", "csv"], ["head-to-head", "matches"]),
    "discards": (["discards"], ["discards", "costliest discards", "table"]),
    "stats": (["stats"], ["statistics", "table"]),
    "standings": (["standings"], ["standings", "table"]),
    "rating": (["rating", "--history"], ["ratings", "table"]),
}  # fmt: skip
GENERATED = re.compile(rb"\d{4}-\d\d-\d\d \d\d:\d\d UTC")  # the report's time of making, to the minute


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The sample logs stored: games, club nights, matches and findings, a small real store."""
    url = f"sqlite:///{tmp_path_factory.mktemp('stages') / 'club.db'}"
    assert import_paths([ROOT / "sample_logs"], make_engine(url)).imported > 100
    return url


def _drain(fd: int, into: list[bytes]) -> None:
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end closed
            return
        if not chunk:
            return
        into.append(chunk)


def run(args: list[str], *, errors_on_terminal: bool, output_on_terminal: bool = False,
        cwd: Path | None = None) -> tuple[int, bytes, bytes]:  # fmt: skip
    """The command in a new process: its exit status, standard output and standard error. Standard error is a
    pseudo-terminal when asked, else a pipe; standard output a pipe, or with ``output_on_terminal`` the same
    terminal (its bytes are then all in the third item)."""
    leader, follower = pty.openpty() if errors_on_terminal else (-1, -1)
    err = follower if errors_on_terminal else subprocess.PIPE
    out = follower if output_on_terminal else subprocess.PIPE
    process = subprocess.Popen([sys.executable, "-c", MAIN, *args], stdout=out, stderr=err, env=ENV, cwd=cwd)
    shown: list[bytes] = []
    if errors_on_terminal:
        os.close(follower)
        reader = threading.Thread(target=_drain, args=(leader, shown))
        reader.start()
    stdout, stderr = process.communicate(timeout=600)
    if errors_on_terminal:
        reader.join()
        os.close(leader)
        stderr = b"".join(shown)
    return process.returncode, stdout or b"", stderr


def stage_names(shown: bytes, names: list[str]) -> list[str]:
    """The lines a terminal was shown (escapes taken out), each of ``names`` in the order it first appears."""
    lines = [line.strip() for line in ESCAPES.sub(b"", shown).replace(b"\n", b"\r").split(b"\r")]
    seen: list[str] = []
    for line in lines:
        text = line.decode("utf-8", errors="replace")
        for name in names:
            if name not in seen and re.search(rf"(^|\s){re.escape(name)}\s", text + " "):
                seen.append(name)
    return seen


@pytest.mark.parametrize("which", sorted(COMMANDS))
def test_a_terminal_is_told_each_stage_and_the_output_is_the_same_bytes(store: str, which: str) -> None:
    args, names = COMMANDS[which]
    status, out, shown = run([*args, "--db", store], errors_on_terminal=True)
    plain_status, plain_out, plain_err = run([*args, "--db", store], errors_on_terminal=False)
    assert status == plain_status == 0, plain_err
    assert stage_names(shown, names) == names
    assert b"0:00:" in ESCAPES.sub(b"", shown)  # the time spent
    if which == "report":  # made at another minute, perhaps
        out, plain_out = GENERATED.sub(b"", out), GENERATED.sub(b"", plain_out)
    assert out == plain_out and out
    assert plain_err == b""  # no terminal: nothing new (these commands say nothing when all is well)


@pytest.mark.parametrize(("args", "names"), [
    (["report"], ["reading games", "charts 3/5", "writing club.out"]),
    (["head-to-head"], ["head-to-head", "writing club.out"]),
    (["discards", "--format", "csv"], ["discards", "writing club.out"]),
])  # fmt: skip
def test_a_file_written_is_the_last_stage_and_its_message_comes_after_the_line(
    store: str, tmp_path: Path, args: list[str], names: list[str]
) -> None:
    status, out, shown = run([*args, "--db", store, "--out", "club.out"], errors_on_terminal=True, cwd=tmp_path)
    assert (status, out) == (0, b"")
    assert stage_names(shown, names) == names
    # the line is gone, and what the command says when done is left whole, on a line of its own
    assert shown.endswith(b"\x1b[2Kwrote club.out\r\n")
    (tmp_path / "plain").mkdir()
    status, out, said = run([*args, "--db", store, "--out", "club.out"], errors_on_terminal=False,
                            cwd=tmp_path / "plain")  # fmt: skip
    assert (status, out, said) == (0, b"", b"wrote club.out\n")
    written, plain = (tmp_path / "club.out").read_bytes(), (tmp_path / "plain" / "club.out").read_bytes()
    assert GENERATED.sub(b"", written) == GENERATED.sub(b"", plain)


def test_quiet_draws_nothing(store: str) -> None:
    for args in (["head-to-head"], ["discards", "--format", "json"], ["report", "--out", "-"]):
        status, out, shown = run([*args, "--db", store, "--quiet"], errors_on_terminal=True)
        assert status == 0 and out
        assert shown == b""


def test_the_line_is_gone_before_the_table_reaches_the_same_terminal(store: str) -> None:
    """Standard output on the terminal too: the table comes after the line is cleared, never into it."""
    status, _, shown = run(["head-to-head", "--db", store], errors_on_terminal=True, output_on_terminal=True)
    assert status == 0
    title = shown.index(b"Head to head (all games)")
    assert stage_names(shown[:title], ["head-to-head", "table"]) == ["head-to-head", "table"]
    assert b"0:00:" not in shown[title:]  # never drawn again after it
    lines = ESCAPES.sub(b"", shown).replace(b"\n", b"\r").split(b"\r")
    assert b"Head to head (all games)" in [line.strip() for line in lines]  # on a line of its own


def test_no_line_without_a_terminal() -> None:
    """A console on a file, a pipe or a terminal rich is told to assume (FORCE_COLOR in a CI log) draws nothing,
    and the stages cost nothing."""
    for console in (Console(file=io.StringIO()), Console(file=io.StringIO(), force_terminal=True)):
        assert not shown_on(console)
        with stages(console) as stage:
            stage("reading games")
            stage("charts 1/2")
        assert console.file.getvalue() == ""  # type: ignore[attr-defined]


def test_a_stage_of_steps() -> None:
    step = STEP.fullmatch("charts 3/9")
    assert step is not None and (step[1], step[2], step[3]) == ("charts", "3", "9")
    assert STEP.fullmatch("head-to-head") is None and STEP.fullmatch("writing 1/2.html") is None
