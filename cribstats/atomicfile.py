"""Output files written whole or not at all: into a temporary file beside the target, flushed to disk, then renamed
over it. A full disk, a missing folder or a kill part-way (Ctrl-C or SIGTERM) leaves the previous file exactly as
it was, and the temporary file is removed. A link is followed: the file it points to is replaced. Every writer of
cribstats (reports, exports, charts, simulated logs) comes here. The path ``-`` is standard output, and a device
or a pipe is written into as it is.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", "fifteen two")
>>> (folder / "a.txt").read_text()
'fifteen two'
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
"""

from __future__ import annotations

import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from cribstats.errors import CribstatsError

STDOUT = "-"
"""The output path that means standard output, as ``-`` means standard input to the readers."""
STDOUT_NAME = "standard output"


class WriteError(CribstatsError):
    """An output file that could not be written; the file named is as it was before."""


def write_error(path: str | os.PathLike[str], err: OSError) -> WriteError:
    """``report.html: cannot write: No space left on device``."""
    return WriteError(f"{os.fspath(path)}: cannot write: {err.strerror or err}")


def _new_file_mode(target: Path) -> int:
    """The mode the file keeps: the old file's, or what a plain ``open`` would give under the umask."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class AtomicOutput:
    """The handle :func:`atomic_output` gives: ``write`` bytes; a failed write names the target file."""

    def __init__(self, handle: BinaryIO, path: str | os.PathLike[str]) -> None:
        self._handle = handle
        self._path = path

    def write(self, data: bytes) -> int:
        try:
            return self._handle.write(data)
        except OSError as err:
            raise write_error(self._path, err) from None


@contextmanager
def atomic_output(path: str | os.PathLike[str], *, durable: bool = True) -> Iterator[AtomicOutput]:
    """A handle whose bytes become ``path`` only when the ``with`` block ends without an error; on any error the
    temporary file is removed and the error goes on. ``durable`` waits for the bytes to reach the disk before the
    rename (a writer of many small files may instead sync once at the end, see :func:`sync_all`).

    :raises WriteError: naming ``path`` when it cannot be written (the old file, if any, is left alone).
    """
    if os.fspath(path) == STDOUT:
        with _standard_output() as handle:
            yield handle
        return
    # asked of the path as given, which the system follows: /dev/stdout on a pipe is a link to a name that is
    # no path (/proc/self/fd/1 -> "pipe:[...]"), which only the system can open
    if _written_in_place(Path(path)):
        with _in_place_output(Path(path), path) as handle:
            yield handle
        return
    # a link is followed: the file it points to is replaced (a club's web folder linking to its report)
    target = Path(os.path.realpath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as err:
        raise write_error(path, err) from None
    try:
        with os.fdopen(fd, "wb") as handle, _removed_on_term(temp):
            yield AtomicOutput(handle, path)
            try:
                handle.flush()
                if durable:
                    os.fsync(handle.fileno())
            except OSError as err:
                raise write_error(path, err) from None
        os.chmod(temp, _new_file_mode(target))
        os.replace(temp, target)
    except OSError as err:  # closing (the last bytes reach the disk), the mode, the rename
        _remove(temp)
        raise write_error(path, err) from None
    except BaseException:
        _remove(temp)
        raise


@contextmanager
def _removed_on_term(temp: str) -> Iterator[None]:
    """While the block runs, SIGTERM (``kill``, a time limit, a service manager) removes the temporary file first
    and is then handled as it was before (by default it ends the process), as Ctrl-C's exception removes it."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set a handler
        yield
        return
    before = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: object) -> None:
        _remove(temp)
        signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)


@contextmanager
def _standard_output() -> Iterator[AtomicOutput]:
    """``-``: the bytes go to standard output as they come (a pipe is never whole-or-nothing)."""
    stream = sys.stdout.buffer
    try:
        yield AtomicOutput(stream, STDOUT_NAME)
        stream.flush()
    except OSError as err:
        raise write_error(STDOUT_NAME, err) from None


def _written_in_place(target: Path) -> bool:
    """True for a target that is no file but a device, a pipe or a terminal (``/dev/null``, ``/dev/stdout``, a
    FIFO): its bytes go to it as they come, and it is never replaced by a file."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


@contextmanager
def _in_place_output(target: Path, path: str | os.PathLike[str]) -> Iterator[AtomicOutput]:
    try:
        handle = open(target, "wb")  # noqa: SIM115 - closed below, its errors named
    except OSError as err:
        raise write_error(path, err) from None
    try:
        yield AtomicOutput(handle, path)
        handle.flush()
    except OSError as err:
        raise write_error(path, err) from None
    finally:
        with suppress(OSError):
            handle.close()


def _remove(temp: str) -> None:
    with suppress(OSError):
        os.unlink(temp)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *, durable: bool = True) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all.

    :raises WriteError: naming ``path`` when it cannot be written.
    """
    with atomic_output(path, durable=durable) as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


def sync_all() -> None:
    """Wait until every file written so far is on the disk: one wait for many files written without ``durable``."""
    os.sync()
