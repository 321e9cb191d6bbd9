"""Reading stored matches: each match with its sides, rules, games, result recorded and replayed, and findings;
and the scorecard findings of club nights.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> with engine.connect() as conn:
...     load_matches(conn), load_match(conn, "final"), scorecard_findings(conn), night_findings(conn)
([], None, [], (0, []))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.findings import Finding
from cribstats.match.model import MatchRules
from cribstats.names import event_key
from cribstats.store import tables as t
from cribstats.store.tables import name_key


@dataclass(slots=True)
class StoredMatchGame:
    """Game ``number`` of a stored match: its key, the stored game's id (None until stored), the side that won
    it (1, 2, or None), the match points it gave and whether it counted (false: begun after the match ended)."""

    number: int
    game_key: str
    game_id: int | None
    winner_side: int | None
    match_points: int
    counted: bool


@dataclass(slots=True)
class StoredMatch:
    """A stored match. Sides are numbered 1 and 2 as in the store; ``points`` and ``winner_side`` are replayed
    from the stored games, ``recorded_*`` come from the record (None where it says nothing, or there is none:
    ``has_record`` false for a match known only from games carrying its id)."""

    id: int
    source_id: str
    event: str | None
    date: Date | None
    round: str | None
    site: str | None
    rules: MatchRules
    sides: tuple[tuple[str, ...], tuple[str, ...]]
    points: tuple[int, int]
    winner_side: int | None
    ended_after_game: int | None
    recorded_winner: str | None
    recorded_points: tuple[int | None, int | None]
    has_record: bool
    games: list[StoredMatchGame] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def winner(self) -> tuple[str, ...] | None:
        """The winning side's players, or None while the match is unfinished."""
        return None if self.winner_side is None else self.sides[self.winner_side - 1]

    @property
    def finished(self) -> bool:
        return self.winner_side is not None


def load_matches(
    conn: Connection,
    *,
    event: str | None = None,
    player: str | None = None,
    since: Date | None = None,
    until: Date | None = None,
    source_ids: list[str] | None = None,
) -> list[StoredMatch]:
    """Stored matches in date order (undated last), then by id; filtered by event name, a player on either side
    (any spelling of the name, an alias too), a date range (inclusive) or match ids."""
    m, e = t.match_table, t.event_table
    query = sa.select(m, e.c.name.label("event_name")).select_from(m.outerjoin(e, m.c.event_id == e.c.id))
    if event is not None:  # as every --event filter compares events: by key, case and spacing at the ends ignored
        query = query.where(e.c.name_key == event_key(event))
    if since is not None:
        query = query.where(m.c.date >= since)
    if until is not None:
        query = query.where(m.c.date <= until)
    if source_ids is not None:
        query = query.where(m.c.source_id.in_(source_ids))
    if player is not None:
        from cribstats.store.players import player_id_query

        mp = t.match_player_table  # the player, or a spelling renamed or merged into them
        on_side = sa.select(mp.c.match_id).where(mp.c.player_id == player_id_query(name_key(player)))
        query = query.where(m.c.id.in_(on_side))
    query = query.order_by(m.c.date.is_(None), m.c.date, m.c.id)
    matches = [_match(row) for row in conn.execute(query)]
    if not matches:
        return []
    by_id = {match.id: match for match in matches}
    ids = list(by_id)
    mg = t.match_game_table
    for chunk in _chunks(ids):
        games = sa.select(mg).where(mg.c.match_id.in_(chunk)).order_by(mg.c.match_id, mg.c.number)
        for row in conn.execute(games):
            by_id[row.match_id].games.append(StoredMatchGame(
                row.number, row.game_source_id, row.game_id, row.winner_side, row.match_points, bool(row.counted)))
        for match_id, finding in _findings(conn, t.match_finding_table.c.match_id.in_(chunk)):
            by_id[match_id].findings.append(finding)  # type: ignore[index]
    return matches


def load_match(conn: Connection, source_id: str) -> StoredMatch | None:
    """The stored match with this id, or None."""
    found = load_matches(conn, source_ids=[source_id])
    return found[0] if found else None


def scorecard_findings(conn: Connection, *, event: str | None = None, date: Date | None = None) -> list[Finding]:
    """The stored ``scorecard`` findings (cards of a club night that disagree), for one event or night if asked."""
    f = t.match_finding_table
    where = [f.c.kind == "scorecard"]
    if event is not None:
        where.append(f.c.event_id.in_(sa.select(t.event_table.c.id).where(t.event_table.c.name == event)))
    if date is not None:
        where.append(f.c.date == date)
    return [finding for _match_id, finding in _findings(conn, sa.and_(*where))]


@dataclass(frozen=True, slots=True)
class NightFinding:
    """A stored ``scorecard`` finding with the night it is about: its date, event and round."""

    date: Date | None
    event: str | None
    round: str | None
    finding: Finding


def night_findings(conn: Connection, *, limit: int | None = None,
                   offset: int = 0) -> tuple[int, list[NightFinding]]:  # fmt: skip
    """The stored ``scorecard`` findings of every night, the latest night first (then by event, round and the
    order they were found): how many there are, and the page of them asked for."""
    f, e = t.match_finding_table, t.event_table
    where = f.c.kind == "scorecard"
    query = _query(where).order_by(f.c.date.is_(None), f.c.date.desc(), e.c.name, f.c.round, f.c.seq, f.c.id)
    total = conn.execute(sa.select(sa.func.count()).select_from(f).where(where)).scalar_one()
    rows = conn.execute(query.limit(limit).offset(offset))
    return int(total), [NightFinding(row.date, row.event_name, row.round, _finding(row)) for row in rows]


def match_findings(conn: Connection) -> list[tuple[Date | None, Finding]]:
    """Every stored match's findings with the match's date, the latest match first (undated ones, newest stored
    first, before the dated: the reverse of :func:`load_matches`' order), each match's in the order found."""
    f, m = t.match_finding_table, t.match_table
    query = (_query(f.c.match_id.is_not(None)).add_columns(m.c.date.label("match_date"))
             .order_by(m.c.date.is_(None).desc(), m.c.date.desc(), m.c.id.desc(), f.c.seq, f.c.id))  # fmt: skip
    return [(row.match_date, _finding(row)) for row in conn.execute(query)]


def _findings(conn: Connection, where: sa.ColumnElement[bool]) -> list[tuple[int | None, Finding]]:
    f = t.match_finding_table
    query = _query(where).order_by(f.c.match_id, f.c.seq, f.c.id)
    return [(row.match_id, _finding(row)) for row in conn.execute(query)]


def _query(where: sa.ColumnElement[bool]) -> sa.Select[Any]:
    """Stored match and scorecard findings with their player's name, match id and event name."""
    f, pt, m, e = t.match_finding_table, t.player_table, t.match_table, t.event_table
    return (
        sa.select(f, pt.c.name.label("player_name"), m.c.source_id.label("match_source"),
                  e.c.name.label("event_name"))
        .select_from(f.outerjoin(pt, pt.c.id == f.c.player_id).outerjoin(m, m.c.id == f.c.match_id)
                     .outerjoin(e, e.c.id == f.c.event_id))
        .where(where)
    )  # fmt: skip


def _finding(row: sa.Row[Any]) -> Finding:
    return Finding(row.game_key, None, None, row.kind, row.phase, row.player_name, row.claimed, row.due,
                   row.message, row.match_source)


def _match(row: sa.Row[Any]) -> StoredMatch:
    sides = (tuple(orjson.loads(row.side1)), tuple(orjson.loads(row.side2)))
    return StoredMatch(
        id=row.id,
        source_id=row.source_id,
        event=row.event_name,
        date=row.date,
        round=row.round,
        site=row.site,
        rules=MatchRules.model_validate(orjson.loads(row.rules)),
        sides=sides,
        points=(row.points1, row.points2),
        winner_side=row.winner_side,
        ended_after_game=row.ended_after_game,
        recorded_winner=row.recorded_winner,
        recorded_points=(row.recorded_points1, row.recorded_points2),
        has_record=row.content_hash is not None,
    )


def _chunks(ids: list[int], size: int = 300) -> list[list[int]]:
    return [ids[i:i + size] for i in range(0, len(ids), size)]
