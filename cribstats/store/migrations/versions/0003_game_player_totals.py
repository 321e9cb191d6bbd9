"""Per game and player totals: ``game_player_totals``, filled for the games already stored; plain indexes again.

``cribstats stats`` and ``standings`` now add up ``game_player_totals`` (one row per game and player, written
with the game: ``cribstats.store.totals``), so the covering indexes of 0002 are read by nothing and only slow
the import down. They give way to the plain indexes of 0001 that the remaining reads, the cascades and the
totals' own filling use (``ix_deal_player_game_id``, ``ix_finding_game_id``, ``ix_finding_kind``);
``ix_deal_player_player_completed`` is not brought back (nothing reads deal facts by player any more).
The totals are keyed by (player, game), and on SQLite stored in that order (``WITHOUT ROWID``), so that adding
them up per player needs no sort; ``ix_game_player_totals_game_id`` serves filling, replacing and deleting games.

The backfill is the statement of ``cribstats.store.totals`` as it stood at this revision, written out here so
that this migration keeps doing the same whatever that module later becomes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 22:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

COUNTS = [
    "skunk_level", "game_points", "spread", "deals", "deals_as_dealer", "deals_as_pone",
    "pegged_due_dealer", "pegged_deals_dealer", "pegged_due_pone", "pegged_deals_pone",
    "hand_due_dealer", "hand_deals_dealer", "hand_due_pone", "hand_deals_pone", "crib_due", "crib_deals",
    "heels_due", "points_missed", "points_overclaimed", "missed_completed", "illegal_plays",
]  # fmt: skip
# (table, covering index of 0002, its columns, plain index, its columns)
REPLACED = [
    ("deal_player", "ix_deal_player_game_totals",
     ["game_id", "player_id", "role", "completed", "pegged_due", "hand_due", "crib_due", "heels_due"],
     "ix_deal_player_game_id", ["game_id"]),
    ("finding", "ix_finding_game_totals",
     ["game_id", "kind", "player_id", "phase", "deal_number", "claimed", "due"],
     "ix_finding_game_id", ["game_id"]),
    ("finding", "ix_finding_totals",
     ["kind", "player_id", "phase", "game_id", "deal_number", "claimed", "due"],
     "ix_finding_kind", ["kind"]),
]  # fmt: skip
DROPPED = (
    "deal_player",
    "ix_deal_player_totals",
    ["player_id", "role", "completed", "pegged_due", "hand_due", "crib_due", "heels_due", "game_id"],
)

BACKFILL = """
INSERT INTO game_player_totals (game_id, player_id, won, {counts})
SELECT gp.game_id, gp.player_id,
       CASE WHEN pg.decided = 1 THEN gp.won END,
       CASE WHEN pg.decided = 1 AND gp.won THEN pg.game_skunk WHEN pg.decided = 1 THEN gp.skunk_level ELSE 0 END,
       CASE WHEN pg.decided = 1 AND gp.won THEN CASE WHEN pg.game_skunk >= 1 THEN 3 ELSE 2 END ELSE 0 END,
       CASE WHEN pg.decided = 1 AND gp.won THEN coalesce(pg.margin, 0)
            WHEN pg.decided = 1 THEN -(CASE WHEN pg.target - gp.final_score_claimed > 0
                                            THEN pg.target - gp.final_score_claimed ELSE 0 END)
            ELSE 0 END,
       {deal_columns},
       {finding_columns}
FROM game_player AS gp
JOIN (SELECT gp.game_id, max(g.target) AS target, max(gp.skunk_level) AS game_skunk,
             max(CAST(gp.won AS INTEGER)) AS decided,
             sum(CASE WHEN gp.seat = gp.team AND NOT gp.won
                      THEN CASE WHEN g.target - gp.final_score_claimed > 0
                                THEN g.target - gp.final_score_claimed ELSE 0 END END) AS margin
      FROM game_player AS gp JOIN game AS g ON g.id = gp.game_id
      GROUP BY gp.game_id) AS pg ON pg.game_id = gp.game_id
LEFT JOIN (SELECT game_id, player_id,
                  sum(CASE WHEN completed THEN 1 END) AS deals,
                  sum(CASE WHEN completed AND role = 'dealer' THEN 1 END) AS deals_as_dealer,
                  sum(CASE WHEN completed AND role = 'pone' THEN 1 END) AS deals_as_pone,
                  sum(CASE WHEN completed AND role = 'dealer' THEN pegged_due END) AS pegged_due_dealer,
                  count(CASE WHEN completed AND role = 'dealer' THEN pegged_due END) AS pegged_deals_dealer,
                  sum(CASE WHEN completed AND role = 'pone' THEN pegged_due END) AS pegged_due_pone,
                  count(CASE WHEN completed AND role = 'pone' THEN pegged_due END) AS pegged_deals_pone,
                  sum(CASE WHEN completed AND role = 'dealer' THEN hand_due END) AS hand_due_dealer,
                  count(CASE WHEN completed AND role = 'dealer' THEN hand_due END) AS hand_deals_dealer,
                  sum(CASE WHEN completed AND role = 'pone' THEN hand_due END) AS hand_due_pone,
                  count(CASE WHEN completed AND role = 'pone' THEN hand_due END) AS hand_deals_pone,
                  sum(CASE WHEN completed AND role = 'dealer' THEN crib_due END) AS crib_due,
                  count(CASE WHEN completed AND role = 'dealer' THEN crib_due END) AS crib_deals,
                  sum(heels_due) AS heels_due
           FROM deal_player GROUP BY game_id, player_id) AS dt
       ON dt.game_id = gp.game_id AND dt.player_id = gp.player_id
LEFT JOIN (SELECT f.game_id, f.player_id,
                  sum(CASE WHEN f.kind = 'missed' THEN f.due - f.claimed END) AS points_missed,
                  sum(CASE WHEN f.kind = 'overclaim' THEN f.claimed - f.due END) AS points_overclaimed,
                  sum(CASE WHEN f.kind = 'missed' AND d.completed THEN f.due - f.claimed END) AS missed_completed,
                  sum(CASE WHEN f.kind IN ('illegal-card', 'over-31', 'false-go', 'out-of-turn', 'unplayed')
                           THEN 1 END) AS illegal_plays
           FROM finding AS f LEFT JOIN deal AS d ON d.game_id = f.game_id AND d.number = f.deal_number
           WHERE f.player_id IS NOT NULL
           GROUP BY f.game_id, f.player_id) AS ft
       ON ft.game_id = gp.game_id AND ft.player_id = gp.player_id
"""


def backfill_sql() -> str:
    deal_columns = COUNTS[3:17]
    finding_columns = COUNTS[17:]
    return BACKFILL.format(
        counts=", ".join(COUNTS),
        deal_columns=", ".join(f"coalesce(dt.{c}, 0)" for c in deal_columns),
        finding_columns=", ".join(f"coalesce(ft.{c}, 0)" for c in finding_columns),
    )


def upgrade() -> None:
    op.create_table(
        "game_player_totals",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("won", sa.Boolean(), nullable=True),
        *(sa.Column(name, sa.Integer(), server_default="0", nullable=False) for name in COUNTS),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_game_player_totals_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_game_player_totals_player_id_player")
        ),
        sa.PrimaryKeyConstraint("player_id", "game_id", name=op.f("pk_game_player_totals")),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_game_player_totals_game_id", "game_player_totals", ["game_id"], unique=False)
    op.execute(backfill_sql())
    for table, covering, _, plain, columns in REPLACED:
        op.create_index(plain, table, columns, unique=False)
        op.drop_index(covering, table_name=table)
    table, covering, _ = DROPPED
    op.drop_index(covering, table_name=table)


def downgrade() -> None:
    table, covering, columns = DROPPED
    op.create_index(covering, table, columns, unique=False)
    for table, covering, columns, plain, _ in reversed(REPLACED):
        op.create_index(covering, table, columns, unique=False)
        op.drop_index(plain, table_name=table)
    op.drop_table("game_player_totals")
