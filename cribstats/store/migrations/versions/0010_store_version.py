"""The store's version (``store_version``, one row) and the triggers that raise it with every write of games,
players, aliases and matches, so that the service's cached figures are never older than a completed write.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 12:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

WATCHED = ("game", "player", "player_alias", "match", "match_player", "match_game", "match_finding")
OPERATIONS = ("insert", "update", "delete")
PG_FUNCTION = """
CREATE FUNCTION store_version_raise() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE store_version SET version = version + 1, changed_in = txid_current()
     WHERE id = 1 AND changed_in <> txid_current();
    RETURN NULL;
END $$
"""


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("store_version"):
        # made already: for one commit of the main line (c447c5f) this migration ran before 0009, and a store
        # upgraded by it is stamped 0009 with the store version and its triggers in place
        return
    op.create_table(
        "store_version",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.Column("changed_in", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_store_version")),
    )
    op.execute("INSERT INTO store_version (id, version, changed_in) VALUES (1, 1, 0)")
    postgresql = op.get_bind().dialect.name == "postgresql"
    if postgresql:
        op.execute(PG_FUNCTION)
    for table in WATCHED:
        for operation in OPERATIONS:
            name = f"store_version_{table}_{operation}"
            if postgresql:  # at commit, once per transaction (the function skips a second raise)
                op.execute(f'CREATE CONSTRAINT TRIGGER {name} AFTER {operation.upper()} ON "{table}" '
                           "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_version_raise()")
            else:
                op.execute(f'CREATE TRIGGER {name} AFTER {operation.upper()} ON "{table}" FOR EACH ROW '
                           "BEGIN UPDATE store_version SET version = version + 1 WHERE id = 1; END")


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in WATCHED:
        for operation in OPERATIONS:
            name = f"store_version_{table}_{operation}"
            op.execute(f'DROP TRIGGER IF EXISTS {name} ON "{table}"' if postgresql
                       else f"DROP TRIGGER IF EXISTS {name}")  # fmt: skip
    if postgresql:
        op.execute("DROP FUNCTION IF EXISTS store_version_raise()")
    op.drop_table("store_version")
