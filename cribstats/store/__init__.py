"""The relational store: SQLite by default, PostgreSQL for a club server.

:mod:`~cribstats.store.tables` defines the tables, :mod:`~cribstats.store.db` opens engines and runs the
migrations, :mod:`~cribstats.store.importer` imports game logs, :mod:`~cribstats.store.queries` reads games back.

>>> from cribstats.store import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
"""

from cribstats.store.db import StoreError, make_engine, upgrade
from cribstats.store.importer import ImportSummary, Refusal, import_file, import_games, import_paths

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
