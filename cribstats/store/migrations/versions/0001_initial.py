"""The initial schema: players, events, imports, games, game players, deals, deal facts, play events, findings.

Revision ID: 0001
Revises:
Create Date: 2026-11-29 19:18:05.873755
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event")),
        sa.UniqueConstraint("name", name=op.f("uq_event_name")),
    )
    op.create_table(
        "import_run",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("file", sa.Text(), nullable=False),
        sa.Column("file_hash", sa.String(length=64), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("games_imported", sa.Integer(), server_default="0", nullable=False),
        sa.Column("games_present", sa.Integer(), server_default="0", nullable=False),
        sa.Column("games_conflicting", sa.Integer(), server_default="0", nullable=False),
        sa.Column("games_refused", sa.Integer(), server_default="0", nullable=False),
        sa.Column("findings", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_import_run")),
    )
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_key", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("name_key", name=op.f("uq_player_name_key")),
    )
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Text(), nullable=True),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("game_key", sa.Text(), nullable=False),
        sa.Column("variant", sa.String(length=20), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("muggins", sa.Boolean(), nullable=False),
        sa.Column("player_count", sa.Integer(), nullable=False),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("site", sa.Text(), nullable=True),
        sa.Column("round", sa.Text(), nullable=True),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_place", sa.Text(), nullable=True),
        sa.Column("recorded_winner", sa.Integer(), nullable=True),
        sa.Column("ended_in_deal", sa.Integer(), nullable=True),
        sa.Column("skunk_level", sa.Integer(), nullable=False),
        sa.Column("deal_count", sa.Integer(), nullable=False),
        sa.Column("finding_count", sa.Integer(), nullable=False),
        sa.Column("log", sa.Text(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name=op.f("fk_game_event_id_event"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["import_id"], ["import_run.id"], name=op.f("fk_game_import_id_import_run"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["recorded_winner"], ["player.id"], name=op.f("fk_game_recorded_winner_player"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
        sa.UniqueConstraint("content_hash", name=op.f("uq_game_content_hash")),
        sa.UniqueConstraint("game_key", name=op.f("uq_game_game_key")),
        sa.UniqueConstraint("source_id", name=op.f("uq_game_source_id")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index("ix_game_date", ["date"], unique=False)
        batch_op.create_index("ix_game_event_id", ["event_id"], unique=False)

    op.create_table(
        "deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("starter", sa.String(length=2), nullable=False),
        sa.Column("crib_card", sa.String(length=2), nullable=True),
        sa.Column("completed", sa.Boolean(), nullable=False),
        sa.Column("after_end", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["dealer_id"], ["player.id"], name=op.f("fk_deal_dealer_id_player")),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_deal_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal")),
        sa.UniqueConstraint("game_id", "number", name="uq_deal_game_number"),
    )
    op.create_table(
        "finding",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("deal_number", sa.Integer(), nullable=True),
        sa.Column("event", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("phase", sa.String(length=10), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("claimed", sa.Integer(), nullable=True),
        sa.Column("due", sa.Integer(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_finding_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_finding_player_id_player"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_finding")),
    )
    with op.batch_alter_table("finding", schema=None) as batch_op:
        batch_op.create_index("ix_finding_game_id", ["game_id"], unique=False)
        batch_op.create_index("ix_finding_kind", ["kind"], unique=False)
        batch_op.create_index("ix_finding_player_id", ["player_id"], unique=False)

    op.create_table(
        "game_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.Column("final_score_claimed", sa.Integer(), nullable=True),
        sa.Column("final_score_due", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("won_due", sa.Boolean(), nullable=False),
        sa.Column("skunk_level", sa.Integer(), nullable=False),
        sa.Column("recorded_score", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_game_player_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_game_player_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_player")),
        sa.UniqueConstraint("game_id", "player_id", name="uq_game_player_player"),
        sa.UniqueConstraint("game_id", "seat", name="uq_game_player_seat"),
    )
    with op.batch_alter_table("game_player", schema=None) as batch_op:
        batch_op.create_index("ix_game_player_player_id", ["player_id"], unique=False)

    op.create_table(
        "deal_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=6), nullable=False),
        sa.Column("dealt", sa.String(length=30), nullable=False),
        sa.Column("discards", sa.String(length=30), nullable=False),
        sa.Column("pegged_due", sa.Integer(), nullable=True),
        sa.Column("pegged_claimed", sa.Integer(), nullable=True),
        sa.Column("hand_due", sa.Integer(), nullable=True),
        sa.Column("hand_claimed", sa.Integer(), nullable=True),
        sa.Column("crib_due", sa.Integer(), nullable=True),
        sa.Column("crib_claimed", sa.Integer(), nullable=True),
        sa.Column("heels_due", sa.Integer(), nullable=False),
        sa.Column("heels_claimed", sa.Integer(), nullable=False),
        sa.Column("muggins_gained", sa.Integer(), nullable=False),
        sa.Column("muggins_lost", sa.Integer(), nullable=False),
        sa.Column("completed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["deal_id"], ["deal.id"], name=op.f("fk_deal_player_deal_id_deal"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_deal_player_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_deal_player_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal_player")),
        sa.UniqueConstraint("deal_id", "seat", name="uq_deal_player_seat"),
    )
    with op.batch_alter_table("deal_player", schema=None) as batch_op:
        batch_op.create_index("ix_deal_player_game_id", ["game_id"], unique=False)
        batch_op.create_index("ix_deal_player_player_completed", ["player_id", "completed"], unique=False)

    op.create_table(
        "play_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("card", sa.String(length=2), nullable=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("due", sa.Integer(), nullable=False),
        sa.Column("claimed", sa.Integer(), nullable=True),
        sa.Column("after_end", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["deal_id"], ["deal.id"], name=op.f("fk_play_event_deal_id_deal"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_play_event_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_event")),
        sa.UniqueConstraint("deal_id", "seq", name="uq_play_event_seq"),
    )


def downgrade() -> None:

    op.drop_table("play_event")
    with op.batch_alter_table("deal_player", schema=None) as batch_op:
        batch_op.drop_index("ix_deal_player_player_completed")
        batch_op.drop_index("ix_deal_player_game_id")

    op.drop_table("deal_player")
    with op.batch_alter_table("game_player", schema=None) as batch_op:
        batch_op.drop_index("ix_game_player_player_id")

    op.drop_table("game_player")
    with op.batch_alter_table("finding", schema=None) as batch_op:
        batch_op.drop_index("ix_finding_player_id")
        batch_op.drop_index("ix_finding_kind")
        batch_op.drop_index("ix_finding_game_id")

    op.drop_table("finding")
    op.drop_table("deal")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index("ix_game_event_id")
        batch_op.drop_index("ix_game_date")

    op.drop_table("game")
    op.drop_table("player")
    op.drop_table("import_run")
    op.drop_table("event")
