"""Giveaway games kept as such (``game.giveaway``), and their spread: the side at the target loses, so the
margins are the winning sides' distances under the target, each given to its side, and the loser is given minus
their sum (``game_player_totals.spread``). Before, the margins were the losers' distances under the target, always
0 in a giveaway game, and a giveaway game was told only by its stored log.

Upgrading adds the column, sets it for every stored game whose log says ``"giveaway":true``, and works out the
spread of every decided giveaway game's seats from their ``game_player`` rows; going back sets that spread to 0
again and drops the column, in place. Games stored later get both from the import (``add_game_totals``).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06 07:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

#: how a giveaway game's stored log (canonical JSON, no spaces) says so
_GIVEAWAY_LOG = '%"giveaway":true%'
_GIVEAWAY_SEATS = (
    "game_player_totals.won IS NOT NULL AND game_player_totals.game_id IN (SELECT id FROM game WHERE giveaway)"
)
#: how far a seat's side is under the target (never below 0, 0 when its score is unknown)
_UNDER = "CASE WHEN game.target - gp.final_score_claimed > 0 THEN game.target - gp.final_score_claimed ELSE 0 END"
_SEATS = "FROM game_player gp JOIN game ON game.id = gp.game_id WHERE gp.game_id = game_player_totals.game_id"
_OWN = f"(SELECT {_UNDER} {_SEATS} AND gp.player_id = game_player_totals.player_id)"
_WINNERS = f"(SELECT COALESCE(SUM({_UNDER}), 0) {_SEATS} AND gp.seat = gp.team AND gp.won)"


def _fire_pending_triggers() -> None:
    """On PostgreSQL, the store version's triggers (deferred to the commit) fire now for what the migrations before
    this one wrote in the same transaction: a table with pending trigger events cannot be altered."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("SET CONSTRAINTS ALL IMMEDIATE")


def upgrade() -> None:
    _fire_pending_triggers()
    op.add_column("game", sa.Column("giveaway", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(sa.text("UPDATE game SET giveaway = :yes WHERE log LIKE :giveaway")
               .bindparams(yes=True, giveaway=_GIVEAWAY_LOG))
    op.execute(f"UPDATE game_player_totals SET spread = CASE WHEN won THEN {_OWN} ELSE -{_WINNERS} END "
               f"WHERE {_GIVEAWAY_SEATS}")


def downgrade() -> None:
    op.execute(f"UPDATE game_player_totals SET spread = 0 WHERE {_GIVEAWAY_SEATS}")
    _fire_pending_triggers()
    op.drop_column("game", "giveaway")
