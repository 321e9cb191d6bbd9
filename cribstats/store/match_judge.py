"""A stored match judged again from its stored games: the games' facts read back, the result, each game's part
and the findings written (:func:`judge_stored`), with the small lookups the match writer shares and the choice of
the scorecards read that have the word on their games (:func:`last_word`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from cribstats.findings import Finding
from cribstats.formats.sources import SourceAgreement, SourceFinding
from cribstats.match.judge import MatchGame, judge_match
from cribstats.match.model import MatchResult, MatchRules, Sides
from cribstats.names import event_key
from cribstats.store import tables as t
from cribstats.store.bulk import chunks
from cribstats.store.identity import IN_CHUNK
from cribstats.store.tables import name_key


@dataclass(slots=True)
class StoredGame:
    """What the match needs of a stored game: its id and key, variant, skunk level, players in seat order,
    winners (as the table had them) and first dealer (None without deals)."""

    id: int
    key: str
    variant: str
    skunk_level: int
    players: list[str]  # seat order, stored spelling
    winners: list[str]
    first_dealer: str | None


def stored_games(conn: Connection, keys: list[str]) -> dict[str, StoredGame]:
    """The stored games with these keys, by key, with their players, winners and first dealer."""
    g, gp, pt, d = t.game_table, t.game_player_table, t.player_table, t.deal_table
    found: dict[str, StoredGame] = {}
    by_id: dict[int, StoredGame] = {}
    for chunk in chunks(keys, IN_CHUNK):
        for row in conn.execute(sa.select(g.c.id, g.c.game_key, g.c.variant, g.c.skunk_level)
                                .where(g.c.game_key.in_(chunk))):
            game = StoredGame(row.id, row.game_key, row.variant, row.skunk_level, [], [], None)
            found[row.game_key] = by_id[row.id] = game
    ids = list(by_id)
    for id_chunk in chunks(ids, IN_CHUNK):
        seats = (sa.select(gp.c.game_id, gp.c.seat, gp.c.won, pt.c.name).join(pt, pt.c.id == gp.c.player_id)
                 .where(gp.c.game_id.in_(id_chunk)).order_by(gp.c.game_id, gp.c.seat))
        for seat in conn.execute(seats):
            by_id[seat.game_id].players.append(seat.name)
            if seat.won:
                by_id[seat.game_id].winners.append(seat.name)
        dealers = (sa.select(d.c.game_id, pt.c.name).join(pt, pt.c.id == d.c.dealer_id)
                   .where(d.c.game_id.in_(id_chunk), d.c.number == 1))
        for dealt in conn.execute(dealers):
            by_id[dealt.game_id].first_dealer = dealt.name
    return found


def own_match_numbers(conn: Connection, keys: list[str]) -> dict[str, tuple[str, int]]:
    """The match id and number (``match``, ``match_game``) the stored games with these keys give themselves in
    their logs, by key: only those that give both."""
    g = t.game_table
    found: dict[str, tuple[str, int]] = {}
    for chunk in chunks(keys, IN_CHUNK):
        for row in conn.execute(sa.select(g.c.game_key, g.c.log).where(g.c.game_key.in_(chunk))):
            if '"match_game":' not in row.log:
                continue
            log = orjson.loads(row.log)
            if isinstance(log.get("match"), str) and isinstance(log.get("match_game"), int):
                found[row.game_key] = (log["match"], log["match_game"])
    return found


def judge_stored(conn: Connection, match_id: int) -> None:
    """Judge a stored match from its stored games and write its result, its games' parts and its findings."""
    m, mg, mf = t.match_table, t.match_game_table, t.match_finding_table
    row = conn.execute(sa.select(m).where(m.c.id == match_id)).one()
    sides: Sides = (tuple(orjson.loads(row.side1)), tuple(orjson.loads(row.side2)))
    spelling = {name_key(n): n for side in sides for n in side}
    rules = MatchRules.model_validate(orjson.loads(row.rules))
    numbered = conn.execute(sa.select(mg.c.number, mg.c.game_source_id, mg.c.game_id)
                            .where(mg.c.match_id == match_id).order_by(mg.c.number)).all()
    stored = stored_games(conn, [r.game_source_id for r in numbered if r.game_id is not None])

    def shown(name: str | None) -> str | None:
        return None if name is None else spelling.get(name_key(name), name)

    games = [
        MatchGame(r.number, r.game_source_id, tuple(shown(p) or p for p in game.players), game.variant,
                  tuple(shown(p) or p for p in game.winners), game.skunk_level, shown(game.first_dealer))
        for r in numbered if (game := stored.get(r.game_source_id)) is not None
    ]
    result = None
    if row.content_hash is not None:
        recorded = (row.recorded_points1, row.recorded_points2)
        points = {sides[i][0]: p for i, p in enumerate(recorded) if p is not None}
        result = MatchResult(winner=row.recorded_winner, points=points or None)
    outcome = judge_match(row.source_id, sides, rules, games, result)
    conn.execute(sa.update(m).where(m.c.id == match_id).values(
        winner_side=None if outcome.winner_side is None else outcome.winner_side + 1,
        points1=outcome.points[0], points2=outcome.points[1], ended_after_game=outcome.ended_after_game,
        finding_count=len(outcome.findings)))
    parts = {part.number: part for part in outcome.games}
    for r in numbered:
        part = parts.get(r.number)
        conn.execute(sa.update(mg).where(mg.c.match_id == match_id, mg.c.number == r.number).values(
            winner_side=None if part is None or part.winner_side is None else part.winner_side + 1,
            match_points=0 if part is None else part.match_points,
            counted=True if part is None else part.counted))
    conn.execute(sa.delete(mf).where(mf.c.match_id == match_id))
    rows = [_finding_row(conn, match_id, seq, f) for seq, f in enumerate(outcome.findings)]
    if rows:
        conn.execute(sa.insert(mf), rows)


def _finding_row(conn: Connection, match_id: int, seq: int, f: Finding) -> dict[str, Any]:
    return {"match_id": match_id, "seq": seq, "game_key": f.game, "kind": f.kind, "phase": f.phase,
            "player_id": None if f.player is None else player_id(conn, f.player), "claimed": f.claimed,
            "due": f.due, "message": f.message, "date": None, "event_id": None, "round": None,
            "finding_hash": None}


def player_id(conn: Connection, name: str) -> int:
    pt = t.player_table
    key = name_key(name)
    insert_ignore(conn, pt, [{"name": name.strip(), "name_key": key}], ["name_key"])
    return int(conn.execute(sa.select(pt.c.id).where(pt.c.name_key == key)).scalar_one())


def event_id(conn: Connection, name: str) -> int:
    et = t.event_table
    insert_ignore(conn, et, [{"name": name, "name_key": event_key(name)}], ["name"])
    return int(conn.execute(sa.select(et.c.id).where(et.c.name == name)).scalar_one())


def insert_ignore(conn: Connection, table: sa.Table, rows: list[dict[str, Any]], keys: list[str]) -> None:
    insert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)
    conn.execute(insert.on_conflict_do_nothing(index_elements=keys), rows)


def last_word(read: list[SourceFinding | SourceAgreement]) -> list[SourceFinding | SourceAgreement]:
    """Of the scorecards ``read`` (findings and agreements, in the order read), those of the last sheet that gives
    cards of each game (the same night, round and two players): a sheet and its corrected version read in one
    import leave what the corrected one says, as two imports would."""
    last: dict[tuple[object, ...], tuple[str, list[SourceFinding | SourceAgreement]]] = {}
    for item in read:
        game = (item.date, None if item.event is None else event_key(item.event), item.round, item.pair)
        if last.get(game, ("",))[0] != item.file:
            last[game] = (item.file, [])
        last[game][1].append(item)
    return [item for _sheet, items in last.values() for item in items]
