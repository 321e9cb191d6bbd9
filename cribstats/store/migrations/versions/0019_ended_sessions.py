"""Sessions of ``cribstats serve`` signed out (``ended_session``): each one's random id, kept until the session
would have expired, so that signing out ends the session in every server process, a copy of its cookie kept
from before included. Going back drops the table: a session signed out opens pages again until it expires.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06 11:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ended_session",
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_ended_session")),
    )
    op.create_index("ix_ended_session_expires_at", "ended_session", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_ended_session_expires_at", table_name="ended_session")
    op.drop_table("ended_session")
