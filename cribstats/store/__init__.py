"""The relational store: SQLite by default, PostgreSQL for a club server.

:mod:`~cribstats.store.tables` defines the tables, :mod:`~cribstats.store.db` opens engines and runs the
migrations, :mod:`~cribstats.store.importer` imports game logs, :mod:`~cribstats.store.queries` reads games back.
The names below are loaded on first use: reading the store need not load the importer and the replay.

>>> from cribstats.store import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cribstats.lazy import lazy_names

if TYPE_CHECKING:
    from cribstats.store.db import StoreError, make_engine, upgrade
    from cribstats.store.importer import ImportSummary, Refusal, import_file, import_games, import_paths

_MODULES: dict[str, tuple[str, ...]] = {
    "cribstats.store.db": ("StoreError", "make_engine", "upgrade"),
    "cribstats.store.importer": ("ImportSummary", "Refusal", "import_file", "import_games", "import_paths"),
}

__all__ = [
    "ImportSummary",
    "Refusal",
    "StoreError",
    "import_file",
    "import_games",
    "import_paths",
    "make_engine",
    "upgrade",
]

__getattr__, __dir__ = lazy_names(__name__, _MODULES, globals())
