"""A field a game log writes as ``null`` is the field left out, in the canonical form and so in the content hash: a
game written both ways is one game. Stored logs that kept such a ``null`` lose it and get the hash of the form
without it, so that the same file (or the same game written without the nulls) is found stored when read again;
each game keeps the key it is known by (an id-less game's key was made from the old hash: findings, pages and match
records name it so). A game whose form without its nulls is stored as a game of its own is left as it is (the
store holds that game twice, as before; ``cribstats delete`` takes one away). Going back changes nothing: the
form without nulls is what both ways of writing the game mean.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-05 18:00:00.000000
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

_GAME = sa.table(
    "game", sa.column("id", sa.Integer), sa.column("log", sa.Text), sa.column("content_hash", sa.String)
)


def _left_out(value: Any) -> Any:
    """``value`` with every object's ``null`` members left out, at any depth (a valid log holds ``null`` nowhere
    else: cards, names and points are never null)."""
    if isinstance(value, dict):
        return {key: _left_out(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_left_out(item) for item in value]
    return value


def upgrade() -> None:
    conn = op.get_bind()
    stored = conn.execute(sa.select(_GAME.c.id, _GAME.c.log).where(_GAME.c.log.like("%null%"))).all()
    for game_id, log in stored:
        data = orjson.loads(log)
        canonical = _left_out(data)
        if canonical == data:  # "null" inside a name or an event
            continue
        digest = hashlib.sha256(orjson.dumps(canonical, option=orjson.OPT_SORT_KEYS)).hexdigest()
        if conn.execute(sa.select(_GAME.c.id).where(_GAME.c.content_hash == digest)).first() is not None:
            continue
        text = orjson.dumps(canonical).decode()
        conn.execute(sa.update(_GAME).where(_GAME.c.id == game_id).values(log=text, content_hash=digest))


def downgrade() -> None:
    pass
