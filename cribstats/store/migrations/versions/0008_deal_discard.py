"""The value of every stored discard: ``deal_discard``, one row per player and deal with dealt cards and discards.

Stores imported before hold no values until ``cribstats analyse --store`` fills them (the analysis needs the
crib table and the scorer, which a migration should not run).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 09:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_discard",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=6), nullable=False),
        sa.Column("hand_only", sa.Boolean(), nullable=False),
        sa.Column("kept", sa.String(length=30), nullable=False),
        sa.Column("thrown", sa.String(length=30), nullable=False),
        sa.Column("hand_value", sa.Float(), nullable=False),
        sa.Column("crib_value", sa.Float(), nullable=True),
        sa.Column("expected", sa.Float(), nullable=False),
        sa.Column("best_kept", sa.String(length=30), nullable=False),
        sa.Column("best_thrown", sa.String(length=30), nullable=False),
        sa.Column("best_expected", sa.Float(), nullable=False),
        sa.Column("loss", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["deal_id"], ["deal.id"], name=op.f("fk_deal_discard_deal_id_deal"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_deal_discard_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_deal_discard_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal_discard")),
        sa.UniqueConstraint("deal_id", "seat", name="uq_deal_discard_seat"),
    )
    op.create_index("ix_deal_discard_game_id", "deal_discard", ["game_id"], unique=False)
    op.create_index("ix_deal_discard_player_id", "deal_discard", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_deal_discard_player_id", table_name="deal_discard")
    op.drop_index("ix_deal_discard_game_id", table_name="deal_discard")
    op.drop_table("deal_discard")
