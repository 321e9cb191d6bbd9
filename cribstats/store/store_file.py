"""Where an SQLite store's file is (:func:`sqlite_file`): a store that is not there refused where a command reads
one (:func:`check_store_exists`), and one whose folder is not there refused before SQLite says only "unable to
open database file" (:func:`check_store_folder`)."""

from __future__ import annotations

import os

from cribstats.store.db import StoreError, normalize_url


def no_store_message(file: str) -> str:
    """The one line for an SQLite store that is not there, where a command reads one.

    >>> no_store_message("club.db")
    'no database at club.db: import games first (`cribstats import PATH`)'
    """
    return f"no database at {file}: import games first (`cribstats import PATH`)"


def sqlite_file(url: str) -> str | None:
    """The file of an SQLite store's URL; None for another database, or one in memory.

    >>> sqlite_file("sqlite:///club.db"), sqlite_file("sqlite://"), sqlite_file("postgresql://club@db/club")
    ('club.db', None, None)
    """
    parsed = normalize_url(url)
    file = parsed.database if parsed.get_backend_name() == "sqlite" else None
    return None if file in (None, "", ":memory:") else str(file)


def check_store_exists(url: str) -> None:
    """Refuse an SQLite store that is not there, where a command reads one (rather than make an empty one).

    :raises StoreError: :func:`no_store_message`.
    """
    file = sqlite_file(url)
    if file is not None and not os.path.exists(file):
        raise StoreError(no_store_message(file))


def check_store_folder(url: str) -> None:
    """Refuse an SQLite store whose folder does not exist: it cannot be made there, and saying "unable to open
    database file" (SQLite's words) would not say why.

    :raises StoreError: naming the folder.
    """
    file = sqlite_file(url)
    if file is None or file.startswith("file:"):
        return
    folder = os.path.dirname(os.path.abspath(str(file)))
    if not os.path.isdir(folder):
        raise StoreError(f"no folder {folder} for the database {file}: make the folder first, or name a file in "
                         "one that exists")
