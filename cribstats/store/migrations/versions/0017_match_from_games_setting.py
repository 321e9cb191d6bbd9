"""A match known only from its games (no record yet) is where and when its first game was played: ``match``'s
``event_id``, ``date`` and ``site`` are its lowest-numbered stored game's, so that the event and date filters and
the bracket find it. Matches stored before, with all three empty, are given them; a record's own are left as they
are. Going back leaves them (a match with its games' event is what a record would give it).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05 21:30:00.000000
"""

from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_FIRST_GAME = (
    "(SELECT game.{column} FROM match_game JOIN game ON game.id = match_game.game_id "
    "WHERE match_game.match_id = match.id ORDER BY match_game.number LIMIT 1)"
)


def upgrade() -> None:
    op.execute(
        "UPDATE match SET "
        + ", ".join(f"{column} = {_FIRST_GAME.format(column=column)}" for column in ("event_id", "date", "site"))
        + " WHERE content_hash IS NULL AND event_id IS NULL AND date IS NULL AND site IS NULL"
    )


def downgrade() -> None:
    pass
