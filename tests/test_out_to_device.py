"""``--out`` naming no file but a pipe or a device (a FIFO, ``/dev/null``, ``/dev/stdout``, ``-``): the bytes go
to it, and it stays what it was. The whole-or-nothing write renamed a file over it: ``--out /dev/null`` run as root
replaced the system's /dev/null with a file of the export, and a FIFO's reader got nothing."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ANALYSE = ["analyse", "5H", "5C", "JD", "6S", "2C", "9D", "--format", "csv"]


def cribstats(*args: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-c", "from cribstats.cli.app import main; main()", *args]
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    return subprocess.run(command, env=env, capture_output=True, timeout=120, check=False)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_out_to_a_named_pipe_writes_into_it_and_leaves_it_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "export.csv"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    done = cribstats(*ANALYSE, "--out", str(fifo))
    if reader.is_alive():  # a command that did not open the pipe leaves the reader waiting: open it to end it
        with open(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK), "wb"):
            pass
    reader.join(10)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got == [cribstats(*ANALYSE).stdout]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.csv"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_out_to_a_device_is_written_and_the_device_stays(tmp_path: Path) -> None:
    """A null device of its own (as /dev/null is, major 1 minor 3), so that the test never touches the system's."""
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    done = cribstats(*ANALYSE, "--out", str(null))
    assert done.returncode == 0, done.stderr
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


@pytest.mark.parametrize("args", [ANALYSE, [*ANALYSE[:-1], "json"]])
def test_out_dash_is_standard_output(tmp_path: Path, args: list[str]) -> None:
    """``--out -`` is standard output, as ``-`` is standard input to the readers: no file ``-``, no "wrote"."""
    command = [sys.executable, "-c", "from cribstats.cli.app import main; main()", *args, "--out", "-"]
    done = subprocess.run(command, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, timeout=120,
                          check=False, cwd=tmp_path)  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == cribstats(*args).stdout != b""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="needs /dev/stdout")
def test_out_dev_stdout_on_a_pipe_writes_into_the_pipe(tmp_path: Path) -> None:
    """``--out /dev/stdout`` with standard output a pipe (``| wc -c``, as captured here): the system's link leads
    to a name that is no path (``pipe:[...]``), and only opening the name as given reaches the pipe."""
    done = cribstats(*ANALYSE, "--out", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert done.stdout == cribstats(*ANALYSE).stdout != b""
