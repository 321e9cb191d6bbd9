"""A deal's play as one value: ``deal.play`` replaces the ``play_event`` rows (one per card laid or go said).

Each deal's events move over in their order as ``[seat, card, count, due, claimed, after_end]`` (the notes of
:class:`cribstats.store.tables.Deal`); the seat is the player's in the deal (``deal_player``). Going back makes
the ``play_event`` rows again from the value.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 12:30:00.000000
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

WRITE_EVERY = 5000  # deals (upgrade) or events (downgrade) written at a time


def _by_deal(rows: Any) -> Iterator[tuple[int, list[list[Any]]]]:
    """Events in (deal, seq) order, grouped by deal."""
    deal_id: int | None = None
    events: list[list[Any]] = []
    for row in rows:
        if row[0] != deal_id:
            if deal_id is not None:
                yield deal_id, events
            deal_id, events = row[0], []
        events.append([row[1], row[2], row[3], row[4], row[5], int(row[6])])
    if deal_id is not None:
        yield deal_id, events


def upgrade() -> None:
    conn = op.get_bind()
    op.add_column("deal", sa.Column("play", sa.Text(), nullable=False, server_default="[]"))
    # the seat of the player in the deal (the lowest, should a merge of players have made two seats one player)
    found = conn.execute(sa.text(
        "SELECT pe.deal_id, (SELECT min(dp.seat) FROM deal_player dp WHERE dp.deal_id = pe.deal_id "
        "AND dp.player_id = pe.player_id), pe.card, pe.count, pe.due, pe.claimed, pe.after_end "
        "FROM play_event pe ORDER BY pe.deal_id, pe.seq"
    ))  # fmt: skip
    update = sa.text("UPDATE deal SET play = :play WHERE id = :id")
    pending: list[dict[str, Any]] = []
    for deal_id, events in _by_deal(found):
        pending.append({"id": deal_id, "play": orjson.dumps(events).decode()})
        if len(pending) >= WRITE_EVERY:
            conn.execute(update, pending)
            pending = []
    if pending:
        conn.execute(update, pending)
    op.drop_table("play_event")


def downgrade() -> None:
    conn = op.get_bind()
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
    seats = {(d, s): p for d, s, p in conn.execute(sa.text("SELECT deal_id, seat, player_id FROM deal_player"))}
    insert = sa.text(
        "INSERT INTO play_event (deal_id, seq, player_id, card, count, due, claimed, after_end) "
        "VALUES (:deal_id, :seq, :player_id, :card, :count, :due, :claimed, :after_end)"
    )
    pending: list[dict[str, Any]] = []
    for deal_id, play in conn.execute(sa.text("SELECT id, play FROM deal ORDER BY id")):
        for seq, (seat, card, count, due, claimed, after_end) in enumerate(orjson.loads(play)):
            pending.append({
                "deal_id": deal_id, "seq": seq, "player_id": seats[(deal_id, seat)], "card": card, "count": count,
                "due": due, "claimed": claimed, "after_end": bool(after_end),
            })  # fmt: skip
        if len(pending) >= WRITE_EVERY:
            conn.execute(insert, pending)
            pending = []
    if pending:
        conn.execute(insert, pending)
    op.drop_column("deal", "play")
