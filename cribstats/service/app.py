"""The application: ``create_app(settings)`` builds it; ``from_env()`` is the factory uvicorn's workers call.

Errors are RFC 9457 problem details on the API and an error page on the pages; a database that fails answers
503 with one line, never a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cribstats.service.auth import KEY_SCHEME, SESSION_COOKIE, Service, SignInNeeded, end_session, replaces_session
from cribstats.service.filters import in_words, message
from cribstats.service.limits import BodyLimit
from cribstats.service.problems import PROBLEM_TYPE, ProblemError, ProblemPlace, VisibleJSONResponse, problem
from cribstats.service.settings import Settings
from cribstats.store.db import ReadOnlyStore

LOGGER = logging.getLogger(__name__)
API_PREFIX = "/api/"


def create_app(settings: Settings) -> FastAPI:
    """The service over the store ``settings.db`` (migrated, or refused, as ``import`` does)."""
    from cribstats.service import api, apidocs, pages, scorecard_page, views
    from cribstats.store.db import ensure_schema, make_engine

    engine = make_engine(settings.db)
    ensure_schema(engine)
    app = FastAPI(
        title="cribstats",
        summary="A club's cribbage records: games, audits, statistics and standings.",
        version=_version(),
        openapi_url="/api/v1/openapi.json",
        docs_url=None,  # Swagger UI and ReDoc load from a CDN: the docs page is the service's own (apidocs)
        redoc_url=None,
        default_response_class=VisibleJSONResponse,
    )
    app.state.service = Service.start(settings, engine)
    views.CACHE.settles_collector = True  # a server's long-lived objects frozen as figures are cached
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(scorecard_page.router)
    app.include_router(apidocs.router)
    _handlers(app)
    app.add_middleware(HeadAsGet)
    app.add_middleware(BodyLimit, max_upload=settings.max_upload, refuse=_refusal)
    app.add_middleware(AnswerHeaders)  # the last added is the outermost: every answer above passes through it
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


class HeadAsGet:
    """HEAD answered as GET is, headers alone (RFC 9110 9.3.2: a server that answers GET answers HEAD): link
    checkers and uptime monitors ask HEAD. The server sends no body for a HEAD request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "HEAD":
            scope = {**scope, "method": "GET"}
        await self.app(scope, receive, send)


#: the answer to a request that failed, sent from outside every middleware: what :class:`AnswerHeaders` would
#: give it, and the connection closed (the server closes it after a failure; a client told so does not send its
#: next request down it)
FAILED_ANSWER_HEADERS = {"x-content-type-options": "nosniff", "cache-control": "no-store", "connection": "close"}


class AnswerHeaders:
    """What every answer carries: ``X-Content-Type-Options: nosniff`` (no browser reads JSON or a chart as anything
    else), and ``Cache-Control: no-store`` when the request carried a session cookie or a key, or is not a GET (or
    HEAD), unless the route set its own (the style sheet's and the icon's ``max-age``: the same for everyone). An
    answer that clears the session cookie (signing out) or sets a new one (signing in again) ends the session the
    request carried, in the store, before it is sent (:func:`~cribstats.service.auth.end_session`): a copy of the
    old cookie opens nothing after."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        session = request.cookies.get(SESSION_COOKIE)
        keyed = "authorization" in request.headers or session is not None
        private = keyed or scope["method"] not in ("GET", "HEAD")

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("x-content-type-options", "nosniff")
                if private:
                    headers.setdefault("cache-control", "no-store")
                if session and replaces_session(headers.getlist("set-cookie")):
                    await run_in_threadpool(end_session, scope["app"].state.service, session)
            await send(message)

        await self.app(scope, receive, sending)


def from_env() -> FastAPI:
    """The app as the environment describes it (:class:`Settings.from_env`): what each worker runs."""
    return create_app(Settings.from_env())


def _version() -> str:
    from importlib.metadata import version

    return version("cribstats")


def _problem_response(request: Request, status: int, detail: str, errors: list[ProblemPlace] | None = None,
                      headers: dict[str, str] | None = None) -> Response:  # fmt: skip
    """The error as problem details (the API) or a page, with the error's headers (a 405's ``Allow``, a 401's
    ``WWW-Authenticate``) on either."""
    headers = _with_head(headers)
    if request.url.path.startswith(API_PREFIX):
        body = problem(status, detail, request.url.path, errors).model_dump(mode="json")
        return VisibleJSONResponse(body, status_code=status, media_type=PROBLEM_TYPE, headers=headers)
    from cribstats.service.pages import error_page

    page = error_page(request, status, detail, errors or [])
    page.headers.update(headers or {})
    return page


def _refusal(scope: Scope, error: HTTPException) -> Response:
    """A body refused before the app reads it (:class:`~cribstats.service.limits.BodyLimit`), answered as the app's
    own handler answers one refused while a route reads it."""
    return _problem_response(Request(scope), error.status_code, str(error.detail), None,
                             dict(error.headers) if error.headers else None)  # fmt: skip


def _with_head(headers: dict[str, str] | None) -> dict[str, str] | None:
    """A 405's ``Allow`` with HEAD beside GET: every route that answers GET answers HEAD (:class:`HeadAsGet`).

    >>> _with_head({"allow": "GET"}), _with_head({"Allow": "POST"}), _with_head(None)
    ({'allow': 'GET, HEAD'}, {'Allow': 'POST'}, None)
    """
    if not headers:
        return headers
    fixed = dict(headers)
    for name, value in headers.items():
        methods = [m.strip() for m in value.split(",")]
        if name.lower() == "allow" and "GET" in methods and "HEAD" not in methods:
            fixed[name] = ", ".join([*methods, "HEAD"])
    return fixed


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(ProblemError)
    async def _problem(request: Request, exc: ProblemError) -> Response:
        return _problem_response(request, exc.status, exc.detail, exc.errors, exc.headers)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        return _problem_response(request, exc.status_code, str(exc.detail), None,
                                 dict(exc.headers) if exc.headers else None)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        if not request.url.path.startswith(API_PREFIX):  # a page: 400, in a sentence naming the field
            described = _descriptions(request)
            detail = "; ".join(in_words(e, described.get(str(e.get("loc", ("",))[-1]))) for e in exc.errors())
            return _problem_response(request, 400, detail or "the request is not valid")
        errors = [
            ProblemPlace(file=None, place=".".join(str(p) for p in e.get("loc", ())), detail=message(e))
            for e in exc.errors()
        ]
        first = errors[0] if errors else None
        detail = f"{first.place}: {first.detail}" if first else "the request is not valid"
        return _problem_response(request, 422, detail, errors)

    @app.exception_handler(SignInNeeded)
    async def _sign_in(request: Request, exc: SignInNeeded) -> Response:
        from urllib.parse import quote

        # back to the very address asked for: its path as sent (a name's %2F kept) and its query (a filter, a page)
        target = request.scope.get("raw_path", request.url.path.encode()).decode("latin-1")
        if request.url.query:
            target += "?" + request.url.query
        return RedirectResponse(f"/session?next={quote(target, safe='')}", status_code=303)

    @app.exception_handler(ClientDisconnect)
    async def _gone(request: Request, exc: ClientDisconnect) -> Response:
        # the client closed the connection before sending the whole body: not the server's failure, and nothing
        # was stored (the body is read whole before the import starts); no one is left to read an answer
        LOGGER.info("%s %s: the client closed the connection before its body was sent; nothing stored",
                    request.method, request.url.path)  # fmt: skip
        return Response(status_code=400)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        LOGGER.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        # answered from outside every middleware (Starlette's own error handler): the headers every answer carries
        return _problem_response(request, 500, "the server failed on this request; it has been logged",
                                 headers=dict(FAILED_ANSWER_HEADERS))

    @app.exception_handler(ReadOnlyStore)
    async def _read_only(request: Request, exc: ReadOnlyStore) -> Response:
        LOGGER.error("%s %s: %s", request.method, request.url.path, exc)  # the store's file: for the log alone
        return _problem_response(request, 503, "this server's store is read-only: nothing can be stored until its "
                                 "operator opens it for writing")

    @app.exception_handler(sa.exc.SQLAlchemyError)
    async def _database(request: Request, exc: sa.exc.SQLAlchemyError) -> Response:
        from cribstats.store.db import describe_db_error

        LOGGER.error("the database failed: %s", describe_db_error(exc))
        return _problem_response(request, 503, "the store cannot be read just now: try again shortly")


def _descriptions(request: Request) -> dict[str, str]:
    """What each parameter of the request's route holds (its ``description``), by the name it is sent as."""
    found: dict[str, str] = {}
    dependant = getattr(request.scope.get("route"), "dependant", None)
    waiting = [dependant] if dependant is not None else []
    while waiting:  # the route's own parameters and those of its dependencies
        one = waiting.pop()
        waiting += one.dependencies
        for field in [*one.path_params, *one.query_params, *one.body_params]:
            if field.field_info.description:
                found.setdefault(field.alias, field.field_info.description)
    return found


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The generated document, with each problem answer typed only as ``application/problem+json``, and the key:
    an operation that declares no ``security`` of its own takes one only on a private server."""
    if app.openapi_schema:
        return app.openapi_schema
    from fastapi.openapi.utils import get_openapi

    schema = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
    key = "A key made with `cribstats keys add NAME`, sent as `Authorization: Bearer KEY`."
    schema.setdefault("components", {})["securitySchemes"] = {
        KEY_SCHEME: {"type": "http", "scheme": "bearer", "description": key}}  # fmt: skip
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            operation.setdefault("security", [{}, {KEY_SCHEME: []}])
            for response in operation.get("responses", {}).values():
                content = response.get("content", {})
                if PROBLEM_TYPE in content and "application/json" in content:
                    content[PROBLEM_TYPE] = content.pop("application/json")
    app.openapi_schema = schema
    return schema
