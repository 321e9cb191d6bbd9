"""Matches: match records and their games, each side's players, and the findings of matches and scorecards.

``match`` holds a record (rules, sides, the result recorded) and the result its stored games give;
``match_game`` numbers its games, joined to ``game`` once a game is stored (``game_id`` null until then);
``match_player`` puts each player on a side; ``match_finding`` keeps match and scorecard findings
(``cribstats.store.matches``).

Revision ID: 0006
Revises: 0003
Create Date: 2026-12-01 09:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=True),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("round", sa.Text(), nullable=True),
        sa.Column("site", sa.Text(), nullable=True),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("first_to", sa.Integer(), nullable=False),
        sa.Column("count_by", sa.String(length=6), nullable=False),
        sa.Column("side1", sa.Text(), nullable=False),
        sa.Column("side2", sa.Text(), nullable=False),
        sa.Column("winner_side", sa.Integer(), nullable=True),
        sa.Column("recorded_winner", sa.Text(), nullable=True),
        sa.Column("recorded_points1", sa.Integer(), nullable=True),
        sa.Column("recorded_points2", sa.Integer(), nullable=True),
        sa.Column("points1", sa.Integer(), server_default="0", nullable=False),
        sa.Column("points2", sa.Integer(), server_default="0", nullable=False),
        sa.Column("ended_after_game", sa.Integer(), nullable=True),
        sa.Column("finding_count", sa.Integer(), server_default="0", nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_place", sa.Text(), nullable=True),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name=op.f("fk_match_event_id_event"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
        sa.UniqueConstraint("source_id", name=op.f("uq_match_source_id")),
    )
    op.create_index("ix_match_date", "match", ["date"], unique=False)
    op.create_index("ix_match_event_id", "match", ["event_id"], unique=False)
    op.create_table(
        "match_finding",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("game_key", sa.Text(), nullable=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("phase", sa.String(length=10), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("claimed", sa.Integer(), nullable=True),
        sa.Column("due", sa.Integer(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("round", sa.Text(), nullable=True),
        sa.Column("finding_hash", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name=op.f("fk_match_finding_event_id_event"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_finding_match_id_match"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_match_finding_player_id_player"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_finding")),
        sa.UniqueConstraint("finding_hash", name=op.f("uq_match_finding_finding_hash")),
    )
    op.create_index("ix_match_finding_kind", "match_finding", ["kind"], unique=False)
    op.create_index("ix_match_finding_match_id", "match_finding", ["match_id"], unique=False)
    op.create_table(
        "match_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("game_source_id", sa.Text(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("winner_side", sa.Integer(), nullable=True),
        sa.Column("match_points", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_match_game_game_id_game"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_game_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_game")),
        sa.UniqueConstraint("match_id", "number", name="uq_match_game_number"),
    )
    op.create_index("ix_match_game_game_id", "match_game", ["game_id"], unique=False)
    op.create_index("ix_match_game_game_source_id", "match_game", ["game_source_id"], unique=False)
    op.create_table(
        "match_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_player_match_id_match"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_match_player_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_player")),
        sa.UniqueConstraint("match_id", "player_id", name="uq_match_player_player"),
    )
    op.create_index("ix_match_player_player_id", "match_player", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_match_player_player_id", table_name="match_player")
    op.drop_table("match_player")
    op.drop_index("ix_match_game_game_source_id", table_name="match_game")
    op.drop_index("ix_match_game_game_id", table_name="match_game")
    op.drop_table("match_game")
    op.drop_index("ix_match_finding_match_id", table_name="match_finding")
    op.drop_index("ix_match_finding_kind", table_name="match_finding")
    op.drop_table("match_finding")
    op.drop_index("ix_match_event_id", table_name="match")
    op.drop_index("ix_match_date", table_name="match")
    op.drop_table("match")
