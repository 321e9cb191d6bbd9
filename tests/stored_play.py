"""The stored play of every deal read back as one row per event, as the store kept it before a deal's play
became one value (``deal.play``): ``(deal_id, seq, player_id, card, count, due, claimed, after_end)``, in deal and
event order. The player is the one at the event's seat in the deal (``deal_player``)."""

from __future__ import annotations

from typing import Any

import orjson
import sqlalchemy as sa

PlayEventRow = tuple[int, int, int, str | None, int, int, int | None, int]


def play_events(conn: sa.Connection) -> list[PlayEventRow]:
    seats = {(d, s): p for d, s, p in conn.execute(sa.text("SELECT deal_id, seat, player_id FROM deal_player"))}
    out: list[PlayEventRow] = []
    for deal_id, play in conn.execute(sa.text("SELECT id, play FROM deal ORDER BY id")):
        events: list[list[Any]] = orjson.loads(play)
        for seq, (seat, card, count, due, claimed, after_end) in enumerate(events):
            out.append((deal_id, seq, seats[(deal_id, seat)], card, count, due, claimed, after_end))
    return out
