"""A match's row as the store keeps it: the record's values, the sides, the rules and names as JSON text."""

from __future__ import annotations

from datetime import date as Date
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.formats.sources import SourceMatch
from cribstats.match.model import MatchRecord, MatchRules, Sides
from cribstats.safetext import storable_path
from cribstats.store import tables as t
from cribstats.store.match_judge import event_id, player_id
from cribstats.store.writes import now_utc

#: the match's columns that say where and when it was played
SETTING = ("event_id", "date", "round", "site")


def record_values(conn: Connection, record: MatchRecord, digest: str, source: SourceMatch) -> dict[str, Any]:
    """The match row a record makes (its hash ``digest``, where it was read ``source``)."""
    one, two = record.sides
    result = record.result
    points: list[int | None] = [None, None]
    for name, value in (result.points or {}).items() if result else ():
        side = record.side_of(name)
        if side is not None:
            points[side] = value
    return {
        "source_id": record.id, "content_hash": digest,
        "event_id": None if record.event is None else event_id(conn, record.event),
        "date": as_date(record.date), "round": record.round, "site": record.site,
        "rules": rules_json(record.rules), "first_to": record.rules.first_to, "count_by": record.rules.count,
        "side1": names_json(one), "side2": names_json(two),
        "recorded_winner": None if result is None else result.winner,
        "recorded_points1": points[0], "recorded_points2": points[1],
        "source_file": storable_path(source.file), "source_place": source.place or None, "imported_at": now_utc(),
    }


def set_sides(conn: Connection, match_id: int, sides: Sides) -> None:
    """The match's players, each with their side (1 or 2), in place of any before."""
    mp = t.match_player_table
    conn.execute(sa.delete(mp).where(mp.c.match_id == match_id))
    conn.execute(sa.insert(mp), [{"match_id": match_id, "player_id": player_id(conn, name), "side": i + 1}
                                 for i, side in enumerate(sides) for name in side])


def rules_json(rules: MatchRules) -> str:
    return orjson.dumps(rules.model_dump(mode="json")).decode()


def names_json(names: tuple[str, ...]) -> str:
    return orjson.dumps(list(names)).decode()


def as_date(text: str | None) -> Date | None:
    return None if text is None else Date.fromisoformat(text)
