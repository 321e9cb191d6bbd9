"""What a discard was worth is kept with the player's deal: ``deal_discard``'s columns become ``deal_player``'s.

One row per player and deal instead of two: the values move over to the ``deal_player`` row of the same deal and
seat, and a row without a value (no discard, cards that cannot be judged, not valued yet) holds nulls. Going back
makes the ``deal_discard`` rows again from the valued ones.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 15:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

VALUE_COLUMNS = (
    "hand_only", "kept", "thrown", "hand_value", "crib_value", "expected", "best_kept", "best_thrown",
    "best_expected", "loss",
)  # fmt: skip
CARDS = sa.String(length=30)


def _value_columns(*, nullable: bool) -> list[sa.Column[object]]:
    """The value columns as ``deal_discard`` had them (``nullable`` False) or as ``deal_player`` has them."""
    kinds: dict[str, sa.types.TypeEngine[object]] = {
        "hand_only": sa.Boolean(), "kept": CARDS, "thrown": CARDS, "hand_value": sa.Float(),
        "crib_value": sa.Float(), "expected": sa.Float(), "best_kept": CARDS, "best_thrown": CARDS,
        "best_expected": sa.Float(), "loss": sa.Float(),
    }  # fmt: skip
    return [sa.Column(name, kinds[name], nullable=nullable or name == "crib_value") for name in VALUE_COLUMNS]


def upgrade() -> None:
    for column in _value_columns(nullable=True):
        op.add_column("deal_player", column)
    listed = ", ".join(VALUE_COLUMNS)
    values = ", ".join(f"dd.{name}" for name in VALUE_COLUMNS)
    op.execute(
        f"UPDATE deal_player SET ({listed}) = (SELECT {values} FROM deal_discard dd "
        "WHERE dd.deal_id = deal_player.deal_id AND dd.seat = deal_player.seat) "
        "WHERE EXISTS (SELECT 1 FROM deal_discard dd "
        "WHERE dd.deal_id = deal_player.deal_id AND dd.seat = deal_player.seat)"
    )
    op.drop_index("ix_deal_discard_player_id", table_name="deal_discard")
    op.drop_index("ix_deal_discard_game_id", table_name="deal_discard")
    op.drop_table("deal_discard")


def downgrade() -> None:
    op.create_table(
        "deal_discard",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=6), nullable=False),
        *_value_columns(nullable=False),
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
    listed = ", ".join(VALUE_COLUMNS)
    op.execute(
        f"INSERT INTO deal_discard (deal_id, game_id, player_id, seat, role, {listed}) "
        f"SELECT deal_id, game_id, player_id, seat, role, {listed} FROM deal_player "
        "WHERE expected IS NOT NULL ORDER BY id"
    )
    with op.batch_alter_table("deal_player") as batch:
        for name in reversed(VALUE_COLUMNS):
            batch.drop_column(name)
