"""The JSON API, ``/api/v1``: uploads, games, players, statistics, standings, findings, matches and the club
views (nights, seasons, head-to-head, ratings, discards). Every list is paged
(``limit``, ``offset``) and sorted; every answer, errors included, is typed in the OpenAPI document."""

from __future__ import annotations

from datetime import date as Date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool

from cribstats.findings import FindingKind
from cribstats.names import quoted
from cribstats.service import audit_views, views
from cribstats.service import filters as q
from cribstats.service.auth import KEY_SCHEME, api_reader, api_writer, service_of
from cribstats.service.keys import KeyHolder
from cribstats.service.models import (
    DiscardRow,
    GameDetail,
    GameItem,
    HeadToHeadRow,
    MatchItem,
    NightRow,
    Page,
    PlayerDetail,
    PlayerItem,
    RatingRow,
    RatingStep,
    ScorecardFinding,
    SeasonRow,
    StandingsRow,
    StatsRow,
    StoredFinding,
    UploadProblem,
    UploadSummary,
)
from cribstats.service.problems import (
    PROBLEM_TYPE,
    ProblemError,
    ProblemPlace,
    VisibleJSONResponse,
    problem_responses,
)
from cribstats.service.uploads import (
    RAW_TYPES,
    Part,
    check_coding,
    import_parts,
    is_sheet,
    part_name,
    read_form,
    spool,
)
from cribstats.stats.frames import StatsFilter

READ_PROBLEMS = problem_responses(400, 401, 422, 503)
router = APIRouter(prefix="/api/v1", dependencies=[Depends(api_reader)], responses=READ_PROBLEMS)

UPLOAD_BODY = {
    "required": True,
    "content": {
        "multipart/form-data": {
            "schema": {"type": "object", "properties": {"file": {"type": "array", "items": {
                "type": "string", "format": "binary"}}}, "required": ["file"]},
        },
        **{kind: {"schema": {} if kind == "application/json" else {"type": "string"}} for kind in RAW_TYPES},
    },
}  # fmt: skip


def _filter(player: str | None = None, event: str | None = None, since: Date | None = None,
            until: Date | None = None, variant: str | None = None) -> StatsFilter:  # fmt: skip
    """The filters of an API call: a check of ours refuses as the parameters' types do, 422 with ``query.NAME``."""
    return q.make_filter(player, event, since, until, variant, refuse=q.bad_query)


@router.post(
    "/logs",
    response_model=UploadSummary,
    summary="Upload game logs",
    openapi_extra={"requestBody": UPLOAD_BODY, "security": [{KEY_SCHEME: []}]},
    responses={
        **problem_responses(401, 403, 413, 415),
        400: {"model": UploadProblem, "description": "Games refused (the rest stored)",
              "content": {PROBLEM_TYPE: {}}},
        409: {"model": UploadProblem, "description": "Games conflicting with stored ones (the rest stored)",
              "content": {PROBLEM_TYPE: {}}},
    },
)  # fmt: skip
async def upload_logs(
    request: Request,
    holder: Annotated[KeyHolder, Depends(api_writer)],
    replace: Annotated[bool, Query(description="Store over conflicting games (admin keys only).")] = False,
) -> Any:
    """Store one or more log files (any format `cribstats import` reads), as `import` does: each game
    replayed, audited and stored whole or not at all. The same upload twice changes nothing."""
    if replace and not holder.may_replace:
        raise ProblemError(403, "only an admin key may replace stored games")
    summary = await receive_and_import(request, replace=replace)
    return upload_answer(summary, request.url.path)


async def receive_and_import(request: Request, *, replace: bool) -> dict[str, Any]:
    """The request's logs stored: a multipart form's ``file`` parts or a raw body of a log type (held to
    ``--max-upload`` as it is sent, by :class:`~cribstats.service.limits.BodyLimit`)."""
    check_coding(request.headers.get("content-encoding"))
    svc = service_of(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    parts: list[Part] = []
    if kind == "multipart/form-data":
        form = await read_form(request, max_files=10_000, max_fields=100)
        for number, item in enumerate(form.getlist("file"), 1):
            if isinstance(item, str):
                raise ProblemError(400, "each file field must be a file", [ProblemPlace(place="file", detail=
                                   "a text field, not a file")])  # fmt: skip
            sheet = is_sheet(item.filename, item.content_type)
            parts.append(Part(part_name(item.filename, number), item.file, sheet))
    elif kind in RAW_TYPES:
        handle = spool()
        async for chunk in request.stream():
            handle.write(chunk)
        parts.append(Part("upload", handle, kind == "text/csv"))
    else:
        raise ProblemError(415, "send multipart/form-data with file fields, or a body typed "
                           + ", ".join(RAW_TYPES))  # fmt: skip
    if not parts:
        raise ProblemError(400, "the form holds no file field", [ProblemPlace(place="file", detail="missing")])
    return await run_in_threadpool(import_parts, svc.engine, parts, replace=replace)


def upload_answer(summary: dict[str, Any], instance: str) -> Any:
    """200 with the summary, or a problem (400 refused, 409 conflicting) that carries it."""
    if not summary["refused_count"] and not summary["conflict_count"]:
        return summary
    status = 400 if summary["refused_count"] else 409
    errors = [{"file": r["file"], "place": r["place"], "detail": r["reason"]}
              for r in summary["refused"] + summary["conflicts"]]  # fmt: skip
    refused, conflicts = summary["refused_count"], summary["conflict_count"]
    detail = f"{refused} refused, {conflicts} conflicting; {summary['imported']} imported, {summary['present']} " \
             "already stored"
    body = UploadProblem(title="Games refused" if status == 400 else "Conflicting games", status=status,
                         detail=detail, instance=instance, errors=errors, summary=UploadSummary(**summary))
    return VisibleJSONResponse(body.model_dump(mode="json"), status_code=status, media_type=PROBLEM_TYPE)


def _page(total: int, limit: int, offset: int, items: list[Any]) -> dict[str, Any]:
    return {"total": total, "limit": limit, "offset": offset, "items": items}


@router.get("/games", response_model=Page[GameItem], summary="Stored games, oldest first")
def games(request: Request, player: q.Player = None, event: q.Event = None, since: q.Since = None,
          until: q.Until = None, limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:  # fmt: skip
    """The games `cribstats games` lists, with its filters, oldest first (by date, round, the file's name and the
    place in it, then the game's key)."""
    filters = _filter(player, event, since, until)
    total, listed = views.games_page(service_of(request).engine, filters, limit, offset)
    return _page(total, limit, offset, [g.to_dict() for g in listed])


@router.get("/games/{game:path}", response_model=GameDetail, summary="One game replayed",
            responses=problem_responses(404, 409))  # fmt: skip
def game(request: Request, game: str) -> Any:
    """A stored game by its key, store id or content hash prefix: its deals, play, show and findings."""
    from cribstats.service.gameview import replayed

    stored = views.stored_game(service_of(request).engine, q.text(game, "game") or "")
    if stored is None:
        raise ProblemError(404, f"no stored game {quoted(game)}")
    return replayed(stored)[0]


@router.get("/players", response_model=Page[PlayerItem], summary="Stored players, by name")
def players(request: Request, limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:
    total, listed = views.players_page(service_of(request).engine, limit, offset)
    return _page(total, limit, offset, [{"name": p.name, "games": p.games} for p in listed])


@router.get("/players/{name:path}", response_model=PlayerDetail, summary="A player's statistics",
            responses=problem_responses(404))  # fmt: skip
def player(request: Request, name: str) -> Any:
    """The player's row of `cribstats stats --player NAME` and their latest games, newest first."""
    return player_detail(request, name)


def player_detail(request: Request, name: str) -> dict[str, Any]:
    engine = service_of(request).engine
    stored = views.player_name(engine, q.text(name, "name") or "")
    if stored is None:
        raise ProblemError(404, f"no stored player {quoted(name)}")
    rows = views.stats_rows(engine, _filter(player=stored))
    recent = [g.to_dict() for g in views.recent_games(engine, stored)]
    return {"name": stored, "stats": rows[0] if rows else None, "recent_games": recent}


@router.get("/stats", response_model=Page[StatsRow], summary="Player statistics")  # type: ignore[valid-type]
def stats(request: Request, player: q.Player = None, event: q.Event = None, since: q.Since = None,
          until: q.Until = None, variant: q.Variant = None, limit: q.Limit = q.LIMIT_DEFAULT,
          offset: q.Offset = 0) -> Any:  # fmt: skip
    """The rows of `cribstats stats --format json` with the same filters, in its order (by name)."""
    rows = views.stats_rows(service_of(request).engine, _filter(player, event, since, until, variant))
    return _page(len(rows), limit, offset, rows[offset : offset + limit])


@router.get("/standings", response_model=Page[StandingsRow],  # type: ignore[valid-type]
            summary="Standings in the ACC order")
def standings(request: Request, event: q.Event = None,
              date: Annotated[q.Day | None, Query(description="Only games of this day: a club night.")] = None,
              since: q.Since = None, until: q.Until = None, variant: q.Variant = None,
              limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:  # fmt: skip
    """The rows of `cribstats standings --format json`: game points, then games won, then spread."""
    if date is not None and (since is not None or until is not None):
        raise q.bad_query("date", "use date for one day, or since/until for a range, not both")
    filters = _filter(None, event, date or since, date or until, variant)
    rows = views.standings_rows(service_of(request).engine, filters)
    return _page(len(rows), limit, offset, rows[offset : offset + limit])


@router.get("/findings", response_model=Page[StoredFinding], summary="Stored findings, newest game first")
def findings(request: Request, player: q.Player = None, event: q.Event = None, since: q.Since = None,
             until: q.Until = None,
             kind: Annotated[FindingKind | None, Query(description="Only findings of this kind.")] = None,
             limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:  # fmt: skip
    """The audit's findings of the stored games (a player filter keeps that player's own). A match's findings
    are the match's (`/matches`), a club night's scorecards that disagree are `/scorecards`."""
    filters = _filter(player, event, since, until)
    total, rows = audit_views.findings_page(service_of(request).engine, filters, kind, limit, offset)
    return _page(total, limit, offset, rows)


@router.get("/scorecards", response_model=Page[ScorecardFinding],
            summary="Scorecards of club nights that disagree, the latest night first")
def scorecards(request: Request, limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:
    """The `scorecard` findings: two players' cards of a night's game that do not tell the same result (the game
    is stored once they agree), with the night's date, event and round."""
    total, rows = audit_views.night_findings_page(service_of(request).engine, limit, offset)
    return _page(total, limit, offset, rows)


@router.get("/matches", response_model=Page[MatchItem], summary="Stored matches, in date order")
def matches(request: Request, player: q.Player = None, event: q.Event = None, since: q.Since = None,
            until: q.Until = None, limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:  # fmt: skip
    """Matches from their records and from games carrying a match id, judged from the stored games."""
    filters = _filter(player, event, since, until)
    total, items = audit_views.matches_page(service_of(request).engine, filters, limit, offset)
    return _page(total, limit, offset, items)


@router.get("/matches/{match:path}", response_model=MatchItem, summary="One match",
            responses=problem_responses(404))  # fmt: skip
def match(request: Request, match: str) -> Any:
    found = audit_views.stored_match(service_of(request).engine, q.text(match, "match") or "")
    if found is None:
        raise ProblemError(404, f"no stored match {quoted(match)}")
    return found


def _listed(rows: list[dict[str, Any]], limit: int, offset: int) -> dict[str, Any]:
    return _page(len(rows), limit, offset, rows[offset : offset + limit])


@router.get("/nights", response_model=Page[NightRow],  # type: ignore[valid-type]
            summary="A club night's placings in the ACC order")
def nights(request: Request,
           date: Annotated[q.Day, Query(description="The night's date (YYYY-MM-DD).")],
           event: Annotated[str | None, Query(max_length=q.TEXT_MAX, description=(
               "The event (case ignored); left out or empty, the night of the games of no event."))] = None,
           limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:  # fmt: skip
    """The placings of `cribstats night --event EVENT --date DATE --format json`: game points, then games won,
    then spread (an empty list when no finished game of that night is stored)."""
    rows = views.night_rows(service_of(request).engine, q.text(event, "event") or None, date)
    return _listed(rows, limit, offset)


@router.get("/seasons", response_model=Page[SeasonRow],  # type: ignore[valid-type]
            summary="Season standings from the club nights")
def seasons(request: Request, since: q.Since = None, until: q.Until = None, event: q.Event = None,
            quarters: Annotated[bool, Query(description="Standings for each calendar quarter.")] = False,
            drop_lowest: Annotated[bool, Query(description="Leave out each player's lowest night of the "
                                                           "period.")] = False,
            limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:  # fmt: skip
    """The rows of `cribstats season [--quarters] [--drop-lowest] --format json` with the same filters, in its
    order (by period, then rank)."""
    rows = views.season_rows(service_of(request).engine, _filter(None, event, since, until),
                             quarters=quarters, drop_lowest=drop_lowest)  # fmt: skip
    return _listed(rows, limit, offset)


@router.get("/head-to-head", response_model=Page[HeadToHeadRow],  # type: ignore[valid-type]
            summary="Head-to-head records")
def head_to_head(request: Request, player: q.Player = None, event: q.Event = None, since: q.Since = None,
                 until: q.Until = None, limit: q.Limit = q.LIMIT_DEFAULT,
                 offset: q.Offset = 0) -> Any:  # fmt: skip
    """The rows of `cribstats head-to-head [PLAYER] --format json` with the same filters, in its order."""
    filters = _filter(None, event, since, until)
    rows = views.head_to_head_rows(service_of(request).engine, filters, q.text(player, "player"))
    return _listed(rows, limit, offset)


@router.get("/ratings", response_model=Page[RatingRow] | Page[RatingStep],  # type: ignore[valid-type]
            summary="Ratings after the covered games, best first; or after every game")
def ratings(request: Request, player: q.Player = None, event: q.Event = None, since: q.Since = None,
            until: q.Until = None,
            history: Annotated[bool, Query(description="The rating after every game (rows of RatingStep, in "
                                                       "game order) instead of the latest.")] = False,
            limit: q.Limit = q.LIMIT_DEFAULT, offset: q.Offset = 0) -> Any:  # fmt: skip
    """The rows of `cribstats rating [PLAYER] [--history] --format json` with the same filters: the latest
    ratings best first, or with `history` each player's rating after each of their games."""
    filters = _filter(None, event, since, until)
    rows = views.rating_rows(service_of(request).engine, filters, q.text(player, "player"), history=history)
    return _listed(rows, limit, offset)


@router.get("/discards", response_model=Page[DiscardRow],  # type: ignore[valid-type]
            summary="Discard quality per player, by name")
def discards(request: Request, player: q.Player = None, event: q.Event = None, since: q.Since = None,
             until: q.Until = None, variant: q.Variant = None, limit: q.Limit = q.LIMIT_DEFAULT,
             offset: q.Offset = 0) -> Any:  # fmt: skip
    """The rows of `cribstats discards --format json` with the same filters: expected points lost by the
    discard per deal as dealer and as pone, the share of best discards and each player's worst discard."""
    rows = views.discard_rows(service_of(request).engine, _filter(player, event, since, until, variant))
    return _listed(rows, limit, offset)
