"""A batch's games against the stored ones: the same content, the same source id, the same key; and what became
of each game of a batch (imported, present, conflicting, refused)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.names import quoted
from cribstats.store import tables as t
from cribstats.store.bulk import chunks
from cribstats.store.rows import PreparedGame

IN_CHUNK = 300  # games per identity query (three IN lists of this many values: under SQLite's oldest limit)


def file_hash(path: str) -> str | None:
    """sha256 of a file's bytes, or None for standard input, anything that is not a regular file, and a file
    that cannot be read (its reader refuses it with its name)."""
    if path in ("-", "<stdin>") or not os.path.isfile(path):
        return None
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 16):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


@dataclass(slots=True)
class BatchOutcome:
    imported: list[tuple[PreparedGame, bool]] = field(default_factory=list)
    present: list[PreparedGame] = field(default_factory=list)
    conflicts: list[tuple[PreparedGame, str]] = field(default_factory=list)
    refused: list[tuple[PreparedGame, str]] = field(default_factory=list)
    players: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)

    def merge(self, other: BatchOutcome) -> None:
        self.imported += other.imported
        self.present += other.present
        self.conflicts += other.conflicts
        self.refused += other.refused
        self.players |= other.players
        self.events |= other.events


REPLACE_HINT = "import with --replace to replace it"
"""How a conflict's message says it may be stored instead (the service words it its own way)."""


def id_conflict(g: PreparedGame) -> str:
    return f"game {quoted(g.source_id or g.key)} is already stored with different content ({REPLACE_HINT})"


def key_conflict(g: PreparedGame) -> str:
    return f"another stored game is already known as {quoted(g.key)}"


def existing_games(conn: Connection, games: Sequence[PreparedGame]) -> list[Any]:
    """The stored games that share a content hash (or the hash of the game as a match record writes it), a
    source id or a game key with any of ``games``."""
    gt = t.game_table
    cols = (gt.c.id, gt.c.content_hash, gt.c.source_id, gt.c.game_key)
    found: dict[int, Any] = {}
    for chunk in chunks(games, IN_CHUNK):
        sources = [g.source_id for g in chunk if g.source_id]
        hashes = [g.content_hash for g in chunk] + [g.written_hash for g in chunk if g.written_hash]
        wanted = sa.or_(
            gt.c.content_hash.in_(hashes),
            gt.c.game_key.in_([g.key for g in chunk]),
            *([gt.c.source_id.in_(sources)] if sources else []),
        )
        for row in conn.execute(sa.select(*cols).where(wanted)):
            found[row.id] = row
    return list(found.values())
