"""Player aliases, games by import, and deals with a ``bad-deal`` finding left out of the per game deal totals.

* ``player_alias``: a spelling (its name key) that belongs to another player, made by ``cribstats players
  merge``; later imports of that spelling are stored on the player it was merged into.
* ``ix_game_import_id``: the games an import stored, for ``cribstats imports`` and ``cribstats delete --import``.
* ``game_player_totals``: the deal columns of the games that have a ``bad-deal`` finding are worked out again
  without those deals (a misdealt deal counts in no per-deal figure; the game's result stands). The statement is
  written out here as it stood at this revision, so that this migration keeps doing the same.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 09:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BAD_DEALS = (
    "SELECT d.id FROM deal AS d JOIN finding AS f ON f.game_id = d.game_id AND f.deal_number = d.number "
    "WHERE f.kind = 'bad-deal'"
)
DEALER = "dp.completed AND dp.role = 'dealer'"
PONE = "dp.completed AND dp.role = 'pone'"
# column of game_player_totals: its aggregate over deal_player rows
DEAL_COLUMNS = {
    "deals": "sum(CASE WHEN dp.completed THEN 1 END)",
    "deals_as_dealer": f"sum(CASE WHEN {DEALER} THEN 1 END)",
    "deals_as_pone": f"sum(CASE WHEN {PONE} THEN 1 END)",
    "pegged_due_dealer": f"sum(CASE WHEN {DEALER} THEN dp.pegged_due END)",
    "pegged_deals_dealer": f"count(CASE WHEN {DEALER} THEN dp.pegged_due END)",
    "pegged_due_pone": f"sum(CASE WHEN {PONE} THEN dp.pegged_due END)",
    "pegged_deals_pone": f"count(CASE WHEN {PONE} THEN dp.pegged_due END)",
    "hand_due_dealer": f"sum(CASE WHEN {DEALER} THEN dp.hand_due END)",
    "hand_deals_dealer": f"count(CASE WHEN {DEALER} THEN dp.hand_due END)",
    "hand_due_pone": f"sum(CASE WHEN {PONE} THEN dp.hand_due END)",
    "hand_deals_pone": f"count(CASE WHEN {PONE} THEN dp.hand_due END)",
    "crib_due": f"sum(CASE WHEN {DEALER} THEN dp.crib_due END)",
    "crib_deals": f"count(CASE WHEN {DEALER} THEN dp.crib_due END)",
    "heels_due": "sum(dp.heels_due)",
}


def refill_sql(exclude_bad_deals: bool) -> str:
    """Set the deal columns of the totals of games with a ``bad-deal`` finding from their deal facts."""
    left_out = f" AND dp.deal_id NOT IN ({BAD_DEALS})" if exclude_bad_deals else ""
    sets = ",\n".join(
        f"{column} = (SELECT coalesce({aggregate}, 0) FROM deal_player AS dp "
        f"WHERE dp.game_id = game_player_totals.game_id AND dp.player_id = game_player_totals.player_id"
        f"{left_out})"
        for column, aggregate in DEAL_COLUMNS.items()
    )
    missed = (
        "missed_completed = (SELECT coalesce(sum(f.due - f.claimed), 0) FROM finding AS f "
        "JOIN deal AS d ON d.game_id = f.game_id AND d.number = f.deal_number "
        "WHERE f.game_id = game_player_totals.game_id AND f.player_id = game_player_totals.player_id "
        "AND f.kind = 'missed' AND d.completed"
        + (f" AND d.id NOT IN ({BAD_DEALS})" if exclude_bad_deals else "")
        + ")"
    )
    return (f"UPDATE game_player_totals SET {sets},\n{missed}\n"
            "WHERE game_id IN (SELECT game_id FROM finding WHERE kind = 'bad-deal')")


def upgrade() -> None:
    op.create_table(
        "player_alias",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_key", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_player_alias_player_id_player"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_alias")),
        sa.UniqueConstraint("name_key", name=op.f("uq_player_alias_name_key")),
    )
    op.create_index("ix_player_alias_player_id", "player_alias", ["player_id"], unique=False)
    op.create_index("ix_game_import_id", "game", ["import_id"], unique=False)
    op.execute(refill_sql(exclude_bad_deals=True))


def downgrade() -> None:
    op.execute(refill_sql(exclude_bad_deals=False))
    op.drop_index("ix_game_import_id", table_name="game")
    op.drop_index("ix_player_alias_player_id", table_name="player_alias")
    op.drop_table("player_alias")
