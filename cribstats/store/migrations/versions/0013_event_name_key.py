"""Each event's key (``event.name_key``), what an ``--event`` filter is compared with: the name trimmed, in NFC and
in lower case (:func:`cribstats.names.event_key`), worked out in Python. SQL's ``lower()`` folds only ASCII
letters on SQLite (and on a PostgreSQL database in the C locale), so an event stored as ``ÖREBRO OPEN`` or
``КЛУБ`` was found by no filter there.

Upgrading fills the key of every stored event; going back drops it.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 07:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cribstats.names import event_key

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


# The column is added in place, never by copying the table (SQLite's batch mode): dropping the old ``event``
# table with foreign keys on would set every game's ``event_id`` to null (its ON DELETE SET NULL). Hence the
# default, which SQLite needs to add a NOT NULL column in place; every event gets its key below, every later one
# on insert.


def upgrade() -> None:
    op.add_column("event", sa.Column("name_key", sa.Text(), nullable=False, server_default=""))
    conn = op.get_bind()
    events = sa.table("event", sa.column("id", sa.Integer()), sa.column("name", sa.Text()),
                      sa.column("name_key", sa.Text()))  # fmt: skip
    keys = [{"event_id": id_, "key": event_key(name)} for id_, name in conn.execute(sa.select(events.c.id,
                                                                                              events.c.name))]
    if keys:
        conn.execute(
            events.update().where(events.c.id == sa.bindparam("event_id")).values(name_key=sa.bindparam("key")),
            keys,
        )
    op.create_index("ix_event_name_key", "event", ["name_key"])


def downgrade() -> None:
    op.drop_index("ix_event_name_key", table_name="event")
    op.execute("ALTER TABLE event DROP COLUMN name_key")  # in place on SQLite too (3.35 and later)
