"""A game recorded by its result alone, found stored however a sheet spelt it
(:func:`cribstats.gamelog.alike.result_identity`): the same game sent by both tables of a night is one game,
"already stored", as two copies of one sheet are."""

from __future__ import annotations

from collections.abc import Sequence

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.gamelog.alike import result_identity
from cribstats.store import tables as t
from cribstats.store.bulk import chunks
from cribstats.store.rows import GAME_OWN_COLUMNS, PreparedGame

_DATE = GAME_OWN_COLUMNS.index("date")
DATES_AT_ONCE = 300


def identity_of(g: PreparedGame) -> str | None:
    """``g``'s identity as a record of a result alone; None for a game with deals, an id, or no date."""
    if g.deals or g.source_id is not None or g.game_row[_DATE] is None:
        return None  # the common case, told without reading the log
    return result_identity(orjson.loads(g.log))


def stored_identities(conn: Connection, games: Sequence[PreparedGame],
                      identities: Sequence[str | None]) -> set[str]:  # fmt: skip
    """The identities of the stored records of a result alone on the dates of ``games``' records (``identities``:
    each game's :func:`identity_of`, worked out once by the caller)."""
    dates = sorted({game.game_row[_DATE] for game, identity in zip(games, identities, strict=True) if identity})
    g = t.game_table
    found: set[str] = set()
    for chunk in chunks(dates, DATES_AT_ONCE):
        query = sa.select(g.c.log).where(g.c.date.in_(chunk), g.c.deal_count == 0, g.c.source_id.is_(None))
        for (log,) in conn.execute(query):
            identity = result_identity(orjson.loads(log))
            if identity is not None:
                found.add(identity)
    return found
