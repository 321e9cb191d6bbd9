"""Who dealt first, kept with each player's game totals (``game_player_totals.first_dealer``), for the first
dealer's win rate of ``cribstats stats``.

``first_dealer`` is 1 on the row of the player who dealt the game's first deal, 0 on every other row (and on
every row of a game stored without its deals, whose first dealer the store does not know). Upgrading fills it
from the stored deals; going back drops it.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 07:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "game_player_totals", sa.Column("first_dealer", sa.Integer(), nullable=False, server_default="0")
    )
    op.execute(
        "UPDATE game_player_totals SET first_dealer = 1 WHERE EXISTS (SELECT 1 FROM deal "
        "WHERE deal.game_id = game_player_totals.game_id AND deal.number = 1 "
        "AND deal.dealer_id = game_player_totals.player_id)"
    )


def downgrade() -> None:
    op.drop_column("game_player_totals", "first_dealer")  # in place, as 0009 drops ``deal.play``
