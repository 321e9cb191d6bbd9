"""How an SQLite store is opened: as ever, or read-only, when this user cannot write it where it is or the URL
asks for it (docs/decisions.md, "A store this user cannot write"). :func:`cribstats.store.db.make_engine` asks
:func:`sqlite_access` for the URL to open.
"""

from __future__ import annotations

import os
from urllib.parse import quote

import sqlalchemy as sa

from cribstats.store.db import StoreError

SQLITE_HEADER = b"SQLite format 3\x00"


def sqlite_access(url: sa.URL) -> tuple[sa.URL, str | None]:
    """The URL to open an SQLite store by, and, for one opened read-only, the one line a write to it fails with.

    A store is opened as ever (None) unless it exists and this user cannot write it where it is
    (:func:`_writable`), or the URL says ``mode=ro`` or ``immutable=1``. Then it is opened through a read-only
    ``file:`` URI, without the WAL pragma: ``immutable=1`` when nobody but root could change it
    (:func:`_unchanging`), otherwise sharing the -wal and -shm files already beside it with whoever writes it
    (docs/decisions.md, "A store this user cannot write"). A URL that is an SQLite URI already (``uri=true``) is
    left as it is.

    :raises StoreError: for a ``mode`` or ``immutable`` that is not understood, a read-only store that is not
        there, or one that could only be read by creating a -shm file beside it that its owner could not write.
    """
    query = dict(url.query)
    if "uri" in query:
        return url, None
    mode, immutable = query.pop("mode", None), query.pop("immutable", None)
    if mode not in (None, "ro") or immutable not in (None, "0", "1"):
        raise StoreError("an SQLite URL takes ?mode=ro (read-only) or ?immutable=1 (read-only, nobody writes it)")
    asked = mode == "ro" or immutable == "1"
    file = str(url.database or "")
    path = os.path.realpath(file) if file not in ("", ":memory:") else ""
    if not asked and (not path or not os.path.exists(path) or _writable(path)):
        return url.set(query=query), None
    if not path:
        raise StoreError("a read-only SQLite store is a file: write e.g. sqlite:///cribstats.db?mode=ro")
    if not os.path.exists(path):
        raise StoreError(f"no database at {file}: a store opened read-only is not created")
    if asked:
        why = f"it is opened with {'immutable=1' if immutable == '1' else 'mode=ro'}"
    elif not os.access(path, os.W_OK):
        why = "this user may not write it"
    else:
        why = "this user may not write its folder, where SQLite keeps its -journal, -wal and -shm files"
    uri = {"uri": "true", "mode": "ro"}
    if immutable == "1" or _unchanging(path):
        uri["immutable"] = "1"
    elif _in_wal_mode(path) and not _has_wal_files(path) and not _writable(path):
        if os.path.exists(path + "-wal") and os.path.getsize(path + "-wal") > 0:
            cause, remedy = "its -wal holds changes not yet in the file", "open it once as a user who may write it"
        else:
            cause = "another user may write it"
            remedy = "its owner can make it read-only (chmod a-w), or add ?immutable=1 to the URL if nobody does"
        raise StoreError(
            f"the store {file} is read-only for this user, and cannot be read without writing beside it: {cause}, "
            f"so it is read through a -shm file, and there is none (cribstats makes none for it); {remedy}"
        )
    query.update(uri)
    return url.set(database="file:" + quote(path), query=query), f"the store {file} is read-only: {why}"


def _writable(path: str) -> bool:
    """Whether this user can write the SQLite file at ``path`` where it is: the file, and its folder (for the
    -journal, -wal and -shm files) or the -wal and -shm of a WAL store already there."""
    if not os.access(path, os.W_OK):
        return False
    if os.access(os.path.dirname(path), os.W_OK | os.X_OK):
        return True
    return _in_wal_mode(path) and all(os.access(path + end, os.W_OK) for end in ("-wal", "-shm"))


def _unchanging(path: str) -> bool:
    """Whether the SQLite file at ``path`` may be read as ``immutable`` (no locks, no -shm): nothing waits in a
    -journal or -wal to be rolled back or copied into it, and no process without root could open it to write:
    it has no write permission for anyone, or it is a WAL store with no -wal, in a folder nobody may write (a
    writer must create the -wal there first)."""
    wal = path + "-wal"
    if os.path.exists(path + "-journal") or (os.path.exists(wal) and os.path.getsize(wal) > 0):
        return False
    if not os.stat(path).st_mode & 0o222:
        return True
    folder = os.stat(os.path.dirname(path)).st_mode
    return not folder & 0o222 and not os.path.exists(wal) and _in_wal_mode(path)


def _in_wal_mode(path: str) -> bool:
    """Whether the SQLite file at ``path`` is in WAL mode: its header's read and write versions are 2."""
    try:
        with open(path, "rb") as file:
            head = file.read(20)
    except OSError:
        return False
    return head[:16] == SQLITE_HEADER and head[18:20] == b"\x02\x02"


def _has_wal_files(path: str) -> bool:
    """Whether the -wal and -shm of the SQLite file at ``path`` are there, so that a reader creates neither."""
    return os.path.exists(path + "-wal") and os.path.exists(path + "-shm")
