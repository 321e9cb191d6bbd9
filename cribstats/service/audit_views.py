"""What the audit page and the API show of findings: the games' findings, the games with findings worst first,
the stored matches with theirs, and the scorecards of club nights that disagree; read from the store as the
commands read it."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from cribstats.stats.frames import StatsFilter
from cribstats.store import tables as t


def findings_page(engine: Engine, filters: StatsFilter, kind: str | None, limit: int,
                  offset: int) -> tuple[int, list[dict[str, Any]]]:  # fmt: skip
    """Stored findings of the covered games (a player filter keeps that player's), newest game first, then in
    game order."""
    from cribstats.stats.frames import game_ids
    from cribstats.store.players import player_id_query

    f, g, p = t.finding_table, t.game_table, t.player_table
    conditions: list[sa.ColumnElement[bool]] = []
    ids = game_ids(StatsFilter(None, filters.event, filters.since, filters.until, filters.variant))
    if ids is not None:
        conditions.append(f.c.game_id.in_(ids))
    if filters.player is not None:  # a spelling renamed or merged away finds the player it now is
        conditions.append(f.c.player_id == player_id_query(filters.player_key or ""))
    if kind is not None:
        conditions.append(f.c.kind == kind)
    source = f.join(g, f.c.game_id == g.c.id).outerjoin(p, f.c.player_id == p.c.id)
    query = (
        sa.select(g.c.game_key.label("game"), g.c.date, f.c.deal_number.label("deal"), f.c.event, f.c.kind,
                  f.c.phase, p.c.name.label("player"), f.c.claimed, f.c.due, f.c.message)
        .select_from(source).where(*conditions)
        .order_by(g.c.date.is_(None), g.c.date.desc(), g.c.id.desc(), f.c.seq)
        .limit(limit).offset(offset)
    )  # fmt: skip
    with engine.connect() as conn:
        total = conn.execute(sa.select(sa.func.count()).select_from(f).where(*conditions)).scalar_one()
        rows = [dict(r._mapping) for r in conn.execute(query)]
    return int(total), rows


def audit_page(engine: Engine, limit: int, offset: int) -> tuple[int, list[dict[str, Any]]]:
    """Games with findings, worst first: the most points between claimed and due, then the most findings."""
    f, g = t.finding_table, t.game_table
    gap = sa.func.sum(sa.func.abs(sa.func.coalesce(f.c.due, 0) - sa.func.coalesce(f.c.claimed, 0)))
    query = (
        sa.select(g.c.game_key.label("game"), g.c.date, g.c.finding_count.label("findings"),
                  gap.label("points"))
        .select_from(f.join(g, f.c.game_id == g.c.id))
        .group_by(g.c.id, g.c.game_key, g.c.date, g.c.finding_count)
        .order_by(gap.desc(), g.c.finding_count.desc(), g.c.id)
        .limit(limit).offset(offset)
    )  # fmt: skip
    with engine.connect() as conn:
        total = conn.execute(sa.select(sa.func.count()).where(g.c.finding_count > 0)).scalar_one()
        rows = [dict(r._mapping) for r in conn.execute(query)]
    return int(total), rows


def match_json(match: Any) -> dict[str, Any]:
    """A stored match (``cribstats.store.matches.StoredMatch``) as the API gives it."""
    return {
        "match": match.source_id, "event": match.event, "date": match.date, "round": match.round,
        "site": match.site, "rules": match.rules.model_dump(mode="json"),
        "sides": [list(side) for side in match.sides], "points": list(match.points),
        "winner": list(match.winner) if match.winner else None, "finished": match.finished,
        "ended_after_game": match.ended_after_game, "recorded_winner": match.recorded_winner,
        "recorded_points": list(match.recorded_points), "has_record": match.has_record,
        "games": [{"number": g.number, "game": g.game_key, "stored": g.game_id is not None,
                   "winner_side": g.winner_side, "match_points": g.match_points, "counted": g.counted}
                  for g in match.games],
        "findings": [f.to_dict() for f in match.findings],
    }  # fmt: skip


def matches_page(engine: Engine, filters: StatsFilter, limit: int,
                 offset: int) -> tuple[int, list[dict[str, Any]]]:  # fmt: skip
    """Stored matches (``cribstats.store.matches``) in date order, then by id: one page, and the total."""
    from cribstats.store.matches import load_matches

    with engine.connect() as conn:
        found = load_matches(conn, event=filters.event, player=filters.player, since=filters.since,
                             until=filters.until)  # fmt: skip
    return len(found), [match_json(m) for m in found[offset : offset + limit]]


def stored_match(engine: Engine, ref: str) -> dict[str, Any] | None:
    from cribstats.store.matches import load_match

    with engine.connect() as conn:
        found = load_match(conn, ref)
    return None if found is None else match_json(found)


def night_findings_page(engine: Engine, limit: int, offset: int) -> tuple[int, list[dict[str, Any]]]:
    """The scorecards of club nights that disagree (``scorecard`` findings), the latest night first: one page,
    and the total."""
    from cribstats.store.matches import night_findings

    with engine.connect() as conn:
        total, found = night_findings(conn, limit=limit, offset=offset)
    return total, [
        {"date": n.date, "event": n.event, "round": n.round, "player": n.finding.player,
         "claimed": n.finding.claimed, "due": n.finding.due, "message": n.finding.message}
        for n in found
    ]  # fmt: skip


def match_findings(engine: Engine) -> list[dict[str, Any]]:
    """The findings of every stored match, the latest match first, each match's in the order found."""
    from cribstats.store.matches import match_findings as stored

    with engine.connect() as conn:
        found = stored(conn)
    return [{"match": f.match, "date": date, "game": f.game, "kind": f.kind, "player": f.player,
             "message": f.message} for date, f in found]  # fmt: skip
