"""Standard output written whole, or the command told why not.

Python's buffered writer hands a large write straight to the descriptor, and when the descriptor takes only part
of it (a pipe whose reader has gone: ``cribstats games | head -1``) it returns the count written instead of
raising: the rest is lost without a word, and the command would end with status 0 on a truncated output.
:func:`write_whole` puts a writer on standard output that writes again until all is written, so that a closed
pipe is met as :class:`BrokenPipeError` (exit 141, :mod:`cribstats.cli.app`) and any other failure (a full
disk behind ``> file``) as :class:`OutputFailed`, which the command line reports in one line.
"""

from __future__ import annotations

import errno
import io
import sys
from typing import Any


class OutputFailed(OSError):
    """Standard output could not take what was written (a full disk, an I/O error); not a closed pipe."""

    def __str__(self) -> str:
        return f"standard output: cannot write: {self.strerror or 'an error of the output'}"


class _WholeWrites(io.BufferedWriter):
    """A buffered writer whose ``write`` writes everything or raises; ``unbuffered`` (``python -u``,
    ``PYTHONUNBUFFERED``): each write is passed on at once, as the interpreter's own writer would."""

    def __init__(self, raw: io.RawIOBase, *, unbuffered: bool) -> None:
        super().__init__(raw)
        self.unbuffered = unbuffered

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        try:
            while done < len(view):
                written = super().write(view[done:])
                if not written:
                    raise OSError(errno.EIO, "the output took nothing")
                done += written
            if self.unbuffered:
                super().flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputFailed(err.errno, err.strerror) from err
        return done

    def flush(self) -> None:
        try:
            super().flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputFailed(err.errno, err.strerror) from err


def write_whole() -> None:
    """Put a writer that writes whole on standard output (``sys.stdout``, its text layer as it was: encoding,
    errors, line buffering). Nothing changes where standard output is not the interpreter's own (a test's
    capture)."""
    stdout = sys.stdout
    if not isinstance(stdout, io.TextIOWrapper):
        return
    binary = stdout.buffer
    if type(binary) is io.BufferedWriter:
        unbuffered = False
    elif type(binary) is io.FileIO:  # the interpreter run unbuffered
        unbuffered = True
    else:
        return
    stdout.flush()
    _REPLACED.append(stdout)  # kept: it owns the descriptor, which it would close if it were collected
    raw = io.FileIO(stdout.fileno(), "wb", closefd=False)
    sys.stdout = io.TextIOWrapper(
        _WholeWrites(raw, unbuffered=unbuffered), encoding=stdout.encoding, errors=stdout.errors,
        line_buffering=stdout.line_buffering, write_through=stdout.write_through,
    )


_REPLACED: list[io.TextIOWrapper] = []
