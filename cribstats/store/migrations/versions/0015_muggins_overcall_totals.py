"""A muggins call taking more than its victim missed counts in its caller's points over-claimed
(``game_player_totals.points_overclaimed``): the rules call such a call "itself an over-claim by the caller".

Upgrading adds ``claimed - due`` of each player's stored ``muggins-call`` findings to their game's total; going
back takes it off again. Totals of games stored later are worked out with it by ``add_game_totals``.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 14:00:00.000000
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def _shift(sign: str) -> None:
    op.execute(
        f"UPDATE game_player_totals SET points_overclaimed = points_overclaimed {sign} ("
        "SELECT COALESCE(SUM(finding.claimed - finding.due), 0) FROM finding "
        "WHERE finding.game_id = game_player_totals.game_id AND finding.player_id = game_player_totals.player_id "
        "AND finding.kind = 'muggins-call') "
        "WHERE EXISTS (SELECT 1 FROM finding WHERE finding.game_id = game_player_totals.game_id "
        "AND finding.player_id = game_player_totals.player_id AND finding.kind = 'muggins-call')"
    )


def upgrade() -> None:
    _shift("+")


def downgrade() -> None:
    _shift("-")
