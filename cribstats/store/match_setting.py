"""Where and when the whole games of a match record were played, kept on their rows.

A game written inside a match record's ``games`` that does not give its own ``event``, ``date``, ``site`` or
``round`` was played at the record's (:func:`~cribstats.match.model.taken_setting`). The store keeps that on the
game's row, not in its log: the log stays as the table wrote it (with the match id the record gives it), so its
content hash, and with it the game's identity, is the one every earlier import of the same file stored. Reading
the file again therefore finds the games already stored, and gives the rows of a store that kept them before
this rule the record's event and date.

A game the record lists by id is a game of its own, given elsewhere or stored before: it keeps what it says.
"""

from __future__ import annotations

from datetime import date as Date
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.gamelog import GameLog, canonical_json
from cribstats.match.model import MatchRecord, inline_games, taken_setting
from cribstats.names import stored_event
from cribstats.store import tables as t
from cribstats.store.match_judge import event_id


def set_inline_settings(conn: Connection, record: MatchRecord) -> int:
    """Give the stored rows of ``record``'s whole games what they take from it; how many rows changed.

    A game is found by the content hash of the log the import stored for it, so a stored game of the same id
    with other content (a conflict) is not touched. A game with an ``id`` stored before exactly as the record
    writes it, only without the match id and number the record gives it (imported alone, then sent again in the
    record), is the same game: found by the hash of the game as written, it takes the setting too. Rows already
    right are not written, so a file read again changes nothing.
    """
    wanted: dict[str, dict[str, str | None]] = {}
    for (_number, game), written in zip(inline_games(record), _whole_games(record), strict=True):
        taken = taken_setting(record, written)
        if taken:
            wanted[canonical_json(game)[1]] = taken
            if written.id is not None:  # the same game stored before as written, without the record's match id
                wanted.setdefault(canonical_json(written)[1], taken)
    if not wanted:
        return 0
    g = t.game_table
    rows = conn.execute(sa.select(g.c.id, g.c.content_hash, g.c.event_id, g.c.date, g.c.site, g.c.round)
                        .where(g.c.content_hash.in_(list(wanted)))).all()  # fmt: skip
    columns: dict[str, tuple[str, Any]] = {}  # each field the record gives, as its games' rows keep it: found once
    changed = 0
    for row in rows:
        values: dict[str, Any] = {}
        for name, value in wanted[row.content_hash].items():
            if name not in columns:
                columns[name] = _column_value(conn, name, value)
            column, stored = columns[name]
            if getattr(row, column) != stored:
                values[column] = stored
        if values:
            conn.execute(sa.update(g).where(g.c.id == row.id).values(**values))
            changed += 1
    return changed


def _whole_games(record: MatchRecord) -> list[GameLog]:
    """The record's whole games as written, in the order :func:`inline_games` gives them."""
    return [game for game in record.games or () if not isinstance(game, str)]


def _column_value(conn: Connection, name: str, value: str | None) -> tuple[str, Any]:
    """The game row's column for a field of the setting, and the value it keeps (the event by its row, made if
    the store has none of that name yet; the date as a date), as the import stores a game's own."""
    if name == "date":
        return "date", None if value is None else Date.fromisoformat(value)
    if name == "event":
        event = stored_event(value)
        return "event_id", None if event is None else event_id(conn, event)
    return name, value
