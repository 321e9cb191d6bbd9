"""Standard input read as it comes, telling the caller whenever it pauses.

A program that feeds games as they finish (``tail -f played.jsonl | cribstats import -``) may leave a pipe
quiet for minutes. :func:`lines_as_they_come` yields its lines as soon as each is whole, and calls ``on_idle``
each time nothing more has come for half a second (:data:`PAUSE`), before it waits on: the import then stores
the games read so far and the audit passes their findings on, rather than holding them until a batch fills or
the input ends.

>>> import io
>>> list(lines_as_they_come(io.BytesIO(b'{"a": 1}\\n{"b": 2}'), on_idle=print))  # not a pipe: no pauses
[b'{"a": 1}\\n', b'{"b": 2}']
"""

from __future__ import annotations

import io
import os
import select
from collections.abc import Callable, Iterator
from typing import BinaryIO

#: bytes read from the stream at a time
READ_SIZE = 1 << 16
#: seconds with nothing to read that make a pause (a program writing quickly never leaves its pipe empty so long)
PAUSE = 0.5

OnIdle = Callable[[], None]


def lines_as_they_come(stream: BinaryIO, on_idle: OnIdle) -> Iterator[bytes]:
    """The lines of ``stream`` (each with its newline; the last one as it ends), ``on_idle()`` called whenever no
    whole line is left and nothing has come for :data:`PAUSE` seconds. A stream with no file descriptor that
    ``select`` can watch (a file in memory, a platform without it) is read line by line as it is, with no pauses
    told."""
    fd = _watchable(stream)
    if fd is None:
        yield from stream
        return
    pending = b""
    while True:
        if not select.select([fd], [], [], PAUSE)[0]:
            on_idle()
        chunk = os.read(fd, READ_SIZE)
        if not chunk:
            break
        *lines, pending = (pending + chunk).split(b"\n")  # as a file is read: a line ends at a newline only
        for line in lines:
            yield line + b"\n"
    if pending:
        yield pending


def _watchable(stream: BinaryIO) -> int | None:
    """The stream's file descriptor when its pauses can be told (POSIX). The stream must not have been read from:
    its lines are read from the descriptor, past any buffer of Python's."""
    if os.name != "posix":
        return None
    try:
        return stream.fileno()
    except (OSError, io.UnsupportedOperation, AttributeError):
        return None
