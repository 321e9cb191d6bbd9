"""Alembic environment of the cribstats store: migrations run on a connection handed in by ``db.upgrade``."""

from __future__ import annotations

from alembic import context

import cribstats.store.version  # noqa: F401  (its table is on the same metadata)
from cribstats.store.tables import metadata


def run_migrations() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is None:
        from cribstats.store.db import DEFAULT_URL, make_engine

        url = config.get_main_option("sqlalchemy.url") or DEFAULT_URL
        with make_engine(url).connect() as conn:
            _run(conn)
            conn.commit()
        return
    _run(connection)


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _in_alembic() -> bool:
    """False when this file is merely imported (a doctest collector walking the package)."""
    try:
        context.config  # noqa: B018
    except AttributeError:
        return False
    return True


if _in_alembic():
    if context.is_offline_mode():
        raise RuntimeError("cribstats migrations run online only: use `cribstats db upgrade`")
    run_migrations()
