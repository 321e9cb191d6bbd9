"""The pages: server-rendered HTML (jinja2, autoescaped) in the club report's look, readable on a phone and with
no script at all. Every name a user wrote goes through autoescape; the Content-Security-Policy lets no script
run and loads nothing from elsewhere."""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any
from urllib.parse import quote, urlencode

import jinja2
from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from cribstats.names import quoted
from cribstats.safetext import page_value
from cribstats.service import audit_views, views
from cribstats.service import filters as q
from cribstats.service.auth import (
    check_csrf,
    close_session,
    csrf_token,
    open_session,
    page_reader,
    service_of,
    session_holder,
)
from cribstats.service.keys import KeyHolder, check_key
from cribstats.service.problems import TITLES, ProblemError, ProblemPlace
from cribstats.stats.sides import PARTNERS

router = APIRouter(include_in_schema=False)
CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'none'")  # fmt: skip
# A chart opened on its own is a document: matplotlib's SVG styles every shape inline (style="fill: ..."), so
# those styles are let through; still no script runs and nothing is loaded.
CHART_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"
CHART_KINDS = ("skunks", "skunks-trend", "averages", "hands", "accuracy")
PAGE_SIZE = 50
Reader = Annotated[KeyHolder | None, Depends(page_reader)]


@cache
def _environment() -> jinja2.Environment:
    loader = jinja2.PackageLoader("cribstats", "templates/service")
    # names and text from the logs are shown as the report shows them: escaped, hidden characters made visible
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, finalize=page_value)  # fmt: skip
    env.globals["partners"] = PARTNERS  # how a partnership's two names are joined
    env.filters["typed"] = typed
    env.filters["q"] = lambda text: quote(str(text), safe="")
    env.filters["player_href"] = lambda name: _href("/players/", "/player?name=", name)
    env.filters["game_href"] = lambda key: _href("/games/", "/game?key=", key)
    return env


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def typed(text: object) -> Markup:
    """Text given back in a form's field exactly as it was typed: HTML-escaped, a control character as a character
    reference, so that the page holds no control code. Shown as any value is (a hidden character as its escape),
    the field would hold the escape's text, and sending the form again would store ``Ann\\u200b`` as a name."""
    return Markup(_CONTROL.sub(lambda found: f"&#{ord(found.group())};", str(escape(str(text)))))


DOT_SEGMENTS = (".", "..")


def _href(path: str, query: str, text: object) -> str:
    """The link to a player's or a game's page. A browser takes a path segment ``.`` or ``..`` (however
    percent-encoded) as a step in the path, and a route's path matches no line break (a name a store written
    before the name rule may hold), so a name that is one, or holds one, is linked by a query instead."""
    text = str(text)
    return (query if text in DOT_SEGMENTS or "\n" in text else path) + quote(text, safe="")


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    response = HTMLResponse("", status_code=status)
    context.setdefault("holder", None)
    if "csrf" in context:
        context["csrf"] = csrf_token(request, response)
    html = _environment().get_template(template).render(request_path=request.url.path, **context)
    response.body = html.encode("utf-8")
    response.headers["content-length"] = str(len(response.body))
    response.headers["content-security-policy"] = CSP
    response.headers["x-content-type-options"] = "nosniff"
    response.headers["referrer-policy"] = "same-origin"
    return response


def error_page(request: Request, status: int, detail: str, errors: list[ProblemPlace]) -> HTMLResponse:
    return render(request, "error.html.j2", status, title=TITLES.get(status, "Error"), detail=detail,
                  errors=errors)  # fmt: skip


@cache
def _style() -> str:
    """The report's stylesheet, read from the report's own template: one look, written once; then the pages' own
    rules (``templates/service/style.css``)."""
    from cribstats.report import _template_text

    found = re.search(r"<style>(.*?)</style>", _template_text(), re.S)
    environment = _environment()
    assert environment.loader is not None
    own, _, _ = environment.loader.get_source(environment, "style.css")
    return (found.group(1) if found else "") + own


@router.get("/static/style.css")
def style() -> Response:
    return Response(_style(), media_type="text/css", headers={"cache-control": "max-age=3600"})


FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           'fill="#08306b"/><circle cx="5" cy="5" r="1.5" fill="#fff"/><circle cx="11" cy="11" r="1.5" '
           'fill="#fff"/></svg>')  # fmt: skip


@router.get("/favicon.ico")
def favicon() -> Response:
    return Response(FAVICON, media_type="image/svg+xml", headers={"cache-control": "max-age=86400"})


def _table(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> list[list[str]]:
    from cribstats.report import format_value

    return [[format_value(c, row[c]) for c in columns] for row in rows]


def _standings(engine: Any, filters: Any) -> dict[str, Any]:
    """The standings table as the pages show it, rendered once per store version and filters: a page with many
    players costs one cache look-up, not a table's formatting."""
    from cribstats.report import LABELS, PARTNERS_NOTE
    from cribstats.stats.measures import STANDINGS_COLUMNS

    def build() -> dict[str, Any]:
        rows = views.standings_rows(engine, filters)
        sides = views.partnerships(engine, filters)
        macro = _environment().get_template("_table.html.j2").module.table  # type: ignore[attr-defined]
        html = macro([LABELS[c] for c in STANDINGS_COLUMNS], _table(rows, STANDINGS_COLUMNS), sides=sides)
        return {"table": Markup(html), "players": [r["player"] for r in rows], "scope": filters.describe(),
                "partners": PARTNERS_NOTE if sides else ""}  # fmt: skip

    return views.CACHE.get(engine, ("standings-page", filters), build)


NIGHT_COLUMNS = ("place", "player", "card", "games", "wins", "losses", "game_points", "spread")


@router.get("/", response_class=HTMLResponse)
def home(request: Request, holder: Reader) -> Response:
    from cribstats.report import LABELS

    engine = service_of(request).engine
    found = views.latest_night(engine)
    night = latest = disagree = None
    if found is not None:
        night = {"event": found.event, "date": str(found.date)}  # the event isolated from the date: home.html.j2
        labels = LABELS | {"place": "Place", "card": "Card"}
        latest = {"head": [labels[c] for c in NIGHT_COLUMNS], "rows": _table(found.placings, NIGHT_COLUMNS)}
        disagree = _records(found.scorecards, NIGHT_CARD_COLUMNS)
    return render(request, "home.html.j2", title="Club records", holder=holder, night=night, latest=latest,
                  disagree=disagree, overall=_standings(engine, q.make_filter()))  # fmt: skip


FormText = Annotated[str | None, Query(max_length=q.TEXT_MAX)]


@router.get("/standings", response_class=HTMLResponse)
def standings(request: Request, holder: Reader, event: FormText = None, date: FormText = None,
              since: FormText = None, until: FormText = None, variant: FormText = None) -> Response:  # fmt: skip
    """The standings, filtered by the page's own form: a field left empty (sent as ``name=``) is no filter."""
    event, variant = q.form_text(event), q.form_text(variant)
    day, first, last = q.form_date(date, "date"), q.form_date(since, "since"), q.form_date(until, "until")
    if day is not None and (first is not None or last is not None):
        raise q.bad("date", "use date for one day, or since/until for a range, not both")
    filters = q.make_filter(None, event, day or first, day or last, variant)
    table = _standings(service_of(request).engine, filters)
    form = {"event": event or "", "date": day or "", "since": first or "", "until": last or "",
            "variant": variant or ""}  # fmt: skip
    return render(request, "standings.html.j2", title="Standings", holder=holder, standing=table, form=form)


@router.get("/players", response_class=HTMLResponse)
def players(request: Request, holder: Reader, offset: q.Offset = 0) -> Response:
    total, listed = views.players_page(service_of(request).engine, PAGE_SIZE, offset)
    return render(request, "players.html.j2", title="Players", holder=holder, players=listed,
                  pages=_pages(request, total, offset))  # fmt: skip


@router.get("/player", response_class=HTMLResponse)
def player_by_query(request: Request, holder: Reader,
                    name: Annotated[str, Query(max_length=300, description="the player's name")]) -> Response:
    """A player's page by ``?name=``: how the pages link a player called ``.`` or ``..``."""
    return player(request, name, holder)


@router.get("/players/{name:path}", response_class=HTMLResponse)
def player(request: Request, name: str, holder: Reader) -> Response:
    from cribstats.names import name_key

    # the page's figures at the store's version, gathered once: a hit costs one look-up of the version
    page = views.CACHE.get(service_of(request).engine, ("player-page", name_key(name)),
                           lambda: _player_page(request, name))  # fmt: skip
    return render(request, "player.html.j2", title=page["name"], holder=holder, **page)


def _player_page(request: Request, name: str) -> dict[str, Any]:
    from cribstats.report import LABELS, PLAYER_GROUPS, format_value
    from cribstats.service.api import player_detail

    detail = player_detail(request, name)
    groups = []
    if detail["stats"]:
        row = detail["stats"]
        groups = [(group, [(LABELS[c], format_value(c, row[c])) for c in cols]) for group, cols in PLAYER_GROUPS]
    charts = _player_charts(service_of(request).engine, detail["name"])
    return {"name": detail["name"], "groups": groups, "games": detail["recent_games"], "charts": charts,
            "discards": _player_discards(service_of(request).engine, detail["name"])}


def _player_charts(engine: Any, name: str) -> list[tuple[str, Any]]:
    """The player's charts: each image's address, and its figures as text (its alt and table), worked out as the
    image's own (:func:`cribstats.charts.plotted`, on the filters the image's address gives)."""
    from cribstats.charts import plotted
    from cribstats.stats import read_frames

    frames = read_frames(engine, q.make_filter(player=name))
    return [(f"/charts/{kind}.svg?{urlencode({'player': name})}", plotted(kind, frames).figures)
            for kind in ("averages", "accuracy", "skunks")]  # fmt: skip


def _player_discards(engine: Any, name: str) -> dict[str, Any] | None:
    """The player's discard quality as ``cribstats discards --player NAME`` gives it, and their costliest
    discards; None when none of their discards is valued."""
    from cribstats.discard_report import SUMMARY, WORD_COLUMNS, WORST, WORST_COLUMNS, discard_cell

    filters = q.make_filter(player=name)
    rows = views.discard_rows(engine, filters)
    if not rows:
        return None
    figures = [(label, discard_cell(column, rows[0][column])) for column, label in SUMMARY if column != "player"]
    worst = [c for c in WORST_COLUMNS if c[0] != "player"]
    listed = views.worst_discard_rows(engine, filters, WORST)
    return {"figures": figures, "worst_head": [label for _, label in worst],
            "worst_words": [column in WORD_COLUMNS for column, _ in worst],
            "worst": [[discard_cell(column, row[column]) for column, _ in worst] for row in listed]}  # fmt: skip


@router.get("/games", response_class=HTMLResponse)
def games(request: Request, holder: Reader, player: q.Player = None, event: q.Event = None,
          offset: q.Offset = 0) -> Response:  # fmt: skip
    total, listed = views.games_page(service_of(request).engine, q.make_filter(player, event), PAGE_SIZE, offset,
                                     newest_first=True)  # fmt: skip
    return render(request, "games.html.j2", title="Games", holder=holder, games=[g.to_dict() for g in listed],
                  pages=_pages(request, total, offset))  # fmt: skip


@router.get("/game", response_class=HTMLResponse)
def game_by_query(request: Request, holder: Reader, key: Annotated[str, Query(
        max_length=300, description="the game's key, store id or content hash prefix")]) -> Response:
    """A game's page by ``?key=``: how the pages link a game whose id is ``.`` or ``..``."""
    return game(request, key, holder)


@router.get("/games/{game:path}", response_class=HTMLResponse)
def game(request: Request, game: str, holder: Reader) -> Response:
    from cribstats.service.gameview import replayed_page

    stored = views.stored_game(service_of(request).engine, q.text(game, "game") or "")
    if stored is None:
        raise ProblemError(404, f"no stored game {quoted(game)}")
    detail, replay = replayed_page(stored)  # each name in the text in a <bdi> of its own
    return render(request, "game.html.j2", title=f"Game {stored.key}", holder=holder, game=detail, replay=replay)


@router.get("/audit", response_class=HTMLResponse)
def audit(request: Request, holder: Reader, offset: q.Offset = 0) -> Response:
    """The games with findings, a page at a time; then every scorecard of a night that disagrees and every
    match's findings (a few, where a club has any)."""
    engine = service_of(request).engine
    total, rows = audit_views.audit_page(engine, PAGE_SIZE, offset)
    cards_total, cards = audit_views.night_findings_page(engine, RECORD_FINDINGS_SHOWN, 0)
    matches = audit_views.match_findings(engine)
    return render(request, "audit.html.j2", title="Audit", holder=holder, games=rows,
                  pages=_pages(request, total, offset), scorecards=_records(cards, SCORECARD_COLUMNS),
                  scorecards_total=cards_total, matches=_records(matches, MATCH_FINDING_COLUMNS))  # fmt: skip


RECORD_FINDINGS_SHOWN = 100  # scorecards that disagree on the audit page, the latest nights' first
#: the columns of the records' findings the pages show, with their headings and whether each holds words
NIGHT_CARD_COLUMNS = {"player": ("Player", True), "claimed": ("Claimed", False), "due": ("Due", False),
                      "message": ("What the cards say", True)}  # fmt: skip
SCORECARD_COLUMNS = {"date": ("Date", False), "event": ("Event", True),
                     "round": ("Round", True)} | NIGHT_CARD_COLUMNS  # fmt: skip
MATCH_FINDING_COLUMNS = {"match": ("Match", True), "date": ("Date", False), "game": ("Game", True),
                         "kind": ("Kind", True), "player": ("Player", True), "message": ("What happened", True)}


def _records(rows: list[dict[str, Any]], columns: dict[str, tuple[str, bool]]) -> dict[str, Any] | None:
    """Findings of records (scorecards, matches) as a table for the pages; None when there are none."""
    if not rows:
        return None
    return {"head": [head for head, _ in columns.values()], "words": [word for _, word in columns.values()],
            "rows": _table(rows, tuple(columns))}  # fmt: skip


@router.get("/charts/{kind}.svg")
def chart(request: Request, kind: str, holder: Reader, player: q.Player = None, event: q.Event = None,
          since: q.Since = None, until: q.Until = None) -> Response:  # fmt: skip
    if kind not in CHART_KINDS:
        raise ProblemError(404, f"no chart {quoted(kind)}: use one of {', '.join(CHART_KINDS)}")
    svg = views.chart_svg(service_of(request).engine, kind, q.make_filter(player, event, since, until))
    return Response(svg, media_type="image/svg+xml", headers={"content-security-policy": CHART_CSP})


def _pages(request: Request, total: int, offset: int) -> dict[str, Any]:
    def link(start: int) -> str:
        params = dict(request.query_params) | {"offset": str(start)}
        return f"{request.url.path}?{urlencode(params)}"

    if total and offset >= total:  # past the end (a link kept while rows were deleted): the last page's link
        return {"total": total, "first": 0, "last": 0, "prev": link((total - 1) // PAGE_SIZE * PAGE_SIZE),
                "next": None, "past_end": True}  # fmt: skip
    prev = link(max(0, offset - PAGE_SIZE)) if offset > 0 else None
    following = link(offset + PAGE_SIZE) if offset + PAGE_SIZE < total else None
    return {"total": total, "first": offset + 1 if total else 0, "last": min(total, offset + PAGE_SIZE),
            "prev": prev, "next": following, "past_end": False}  # fmt: skip


# --- signing in, uploads and scorecards -------------------------------------------------------------------------


def _safe_next(target: str | None) -> str:
    """Where to go after signing in: a path on this site only."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/upload"
    return target


@router.get("/session", response_class=HTMLResponse)
def sign_in_form(request: Request, next: str | None = None) -> Response:
    return render(request, "session.html.j2", title="Sign in", holder=session_holder(request),
                  next=_safe_next(next), csrf="", error=None)  # fmt: skip


@router.post("/session", response_class=HTMLResponse)
def sign_in(request: Request,
            key: Annotated[str, Form(max_length=300, description="a key made with cribstats keys add")],
            csrf_token: Annotated[str, Form(max_length=500)] = "",
            next: Annotated[str, Form(max_length=2000)] = "/upload") -> Response:  # fmt: skip
    check_csrf(request, csrf_token)
    holder = check_key(service_of(request).engine, key.strip())
    if holder is None:
        return render(request, "session.html.j2", 401, title="Sign in", next=_safe_next(next), csrf="",
                      error="That key is not one in use.")  # fmt: skip
    response = RedirectResponse(_safe_next(next), status_code=303)
    open_session(request, response, holder)
    return response


@router.post("/session/end")
def sign_out(request: Request, csrf_token: Annotated[str, Form(max_length=500)] = "") -> Response:
    check_csrf(request, csrf_token)
    response = RedirectResponse("/", status_code=303)
    close_session(response)
    return response


@router.get("/upload", response_class=HTMLResponse)
def upload_form(request: Request) -> Response:
    holder = session_holder(request)
    if holder is None:
        return RedirectResponse("/session?next=/upload", status_code=303)
    return render(request, "upload.html.j2", title="Upload logs", holder=holder, csrf="", summary=None)


@router.post("/upload", response_class=HTMLResponse)
async def upload(request: Request) -> Response:
    from cribstats.service.api import receive_and_import

    holder = session_holder(request)
    if holder is None:
        return RedirectResponse("/session?next=/upload", status_code=303)
    # The form's action carries its token, so it is checked before the body is read and streamed on.
    check_csrf(request, request.query_params.get("csrf_token"))
    summary = await receive_and_import(request, replace=False)
    status = 200 if not summary["refused_count"] and not summary["conflict_count"] else 400
    return render(request, "upload.html.j2", status, title="Upload logs", holder=holder, csrf="", summary=summary)
