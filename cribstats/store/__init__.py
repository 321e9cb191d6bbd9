"""The relational store: SQLite by default, PostgreSQL for a club server.

:mod:`~cribstats.store.tables` defines the tables, :mod:`~cribstats.store.db` opens engines and runs the
migrations, :mod:`~cribstats.store.importer` imports game logs, :mod:`~cribstats.store.queries` reads games back.
The names below are loaded on first use: reading the store need not load the importer and the replay.

>>> from cribstats.store import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cribstats.store.db import StoreError, make_engine, upgrade
    from cribstats.store.importer import ImportSummary, Refusal, import_file, import_games, import_paths

_MODULES: dict[str, tuple[str, ...]] = {
    "cribstats.store.db": ("StoreError", "make_engine", "upgrade"),
    "cribstats.store.importer": ("ImportSummary", "Refusal", "import_file", "import_games", "import_paths"),
}
_HOME: dict[str, str] = {name: module for module, names in _MODULES.items() for name in names}

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


def __getattr__(name: str) -> Any:
    """Load a public name from its module the first time it is asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'cribstats.store' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
