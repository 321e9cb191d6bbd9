"""Whose cards a stored scorecard finding is about (``match_finding.pair_key``: the two players' name keys,
sorted, as a JSON array), so that a night's sheet read again with a card corrected retires the disagreement its
first reading stored.

Scorecard findings stored before keep a null key: they are retired by no later reading (the message names the
players, but a finding's text is not read back). Going back drops the column, in place.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 07:45:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("match_finding", sa.Column("pair_key", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("match_finding", "pair_key")  # in place, as 0009 drops ``deal.play``
