"""Covering indexes for the statistics' totals: deal facts and findings are added up from the indexes alone.

Deal facts: ``ix_deal_player_totals`` (player, role, completed, the points due, game) replaces
``ix_deal_player_player_completed``, and ``ix_deal_player_game_totals`` (game first, then the same columns)
replaces ``ix_deal_player_game_id``; both old indexes are prefixes of the new ones. Findings: ``ix_finding_totals``
(kind, player, phase, game, deal, claimed, due) replaces ``ix_finding_kind``, and ``ix_finding_game_totals`` (game
first) replaces ``ix_finding_game_id``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 21:45:00.000000
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

DEAL_FACTS = ["role", "completed", "pegged_due", "hand_due", "crib_due", "heels_due"]
FINDING_FACTS = ["phase", "deal_number", "claimed", "due"]
# (table, old index, its columns, new index, its columns)
REPLACED = [
    ("deal_player", "ix_deal_player_player_completed", ["player_id", "completed"],
     "ix_deal_player_totals", ["player_id", *DEAL_FACTS, "game_id"]),
    ("deal_player", "ix_deal_player_game_id", ["game_id"],
     "ix_deal_player_game_totals", ["game_id", "player_id", *DEAL_FACTS]),
    ("finding", "ix_finding_kind", ["kind"],
     "ix_finding_totals", ["kind", "player_id", "phase", "game_id", "deal_number", "claimed", "due"]),
    ("finding", "ix_finding_game_id", ["game_id"],
     "ix_finding_game_totals", ["game_id", "kind", "player_id", *FINDING_FACTS]),
]  # fmt: skip


def upgrade() -> None:
    for table, old, _, new, columns in REPLACED:
        op.create_index(new, table, columns, unique=False)
        op.drop_index(old, table_name=table)


def downgrade() -> None:
    for table, old, columns, new, _ in reversed(REPLACED):
        op.create_index(old, table, columns, unique=False)
        op.drop_index(new, table_name=table)
