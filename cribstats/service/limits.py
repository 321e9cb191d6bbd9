"""What a request may hold of the server: the size of its body (:class:`BodyLimit`), and a connection
(:class:`HeldConnections`).

The uploads (``POST /api/v1/logs``, the upload page's ``POST /upload`` and the scorecard page's ``POST
/scorecard``) take bodies up to ``--max-upload``; every other request up to :data:`SMALL_BODY`, which a sign-in
form (a key, a form token and an address) is far below. A body is refused, 413 in the service's own form (problem
details on the API, the error page on the pages), as soon as it passes its limit: at once when its
``Content-Length`` says it will, else when the bytes received pass it, whether or not the body declared its
length. Nothing past the limit is kept, in memory or on disk: what a client goes on sending is read and thrown
away by the server, so that a browser still gets the answer.

The limit is the request's, not a route's: a form that a route's parameters read before the route runs (the
sign-in and sign-out forms) is held to it as well as a body a route reads itself.

A server process holds at most ``--max-connections`` connections (uvicorn's ``limit_concurrency``): a new one
beyond closes the connection that has waited longest without sending a whole request (one sending its request a
byte at a time, or one kept alive and idle), and a request that comes while every held connection is busy with
one is answered 503 (uvicorn's). Connections held open by slow clients can neither fill the process's open
files (then it could accept nothing, logging every failed accept) nor keep a new request out, unless every one
held is busy with a request (bodies sent a byte at a time: a reverse proxy that times out slow clients stops
those).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

SMALL_BODY = 64 * 1024
"""The largest body of a request that is not an upload, in bytes."""
UPLOAD_PATHS = frozenset({"/api/v1/logs", "/upload", "/scorecard"})
"""The paths whose POST is an upload, held to ``--max-upload``."""


class BodyTooLarge(HTTPException):
    """413: the request's body passed its limit. It is an ``HTTPException`` so that FastAPI, reading a route's
    form parameters, passes it on as it is (it answers any other error while reading a body 400)."""

    def __init__(self, limit: int, upload: bool) -> None:
        what = "the upload" if upload else "the request's body"
        super().__init__(413, f"{what} is larger than this service takes ({limit:,} bytes)")


def body_limit(method: str, path: str, max_upload: int) -> tuple[int, bool]:
    """The largest body a request may send, in bytes, and whether the request is an upload.

    >>> body_limit("POST", "/upload", 5000), body_limit("POST", "/session", 5000), body_limit("GET", "/upload", 9)
    ((5000, True), (65536, False), (65536, False))
    """
    upload = method == "POST" and path in UPLOAD_PATHS
    return (max_upload if upload else SMALL_BODY), upload


def limited(receive: Receive, limit: int, too_large: Callable[[], Exception]) -> Receive:
    """``receive`` that raises ``too_large()`` once the body's bytes pass ``limit``, however it is sent."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise too_large()
        return message

    return wrapped


def declared_length(scope: Scope) -> int | None:
    """The body's length as its ``Content-Length`` gives it (None without one; the server refuses a malformed
    one before the app sees the request)."""
    for name, value in scope["headers"]:
        if name.lower() == b"content-length" and value.strip().isdigit():
            return int(value)
    return None


class BodyLimit:
    """Pure ASGI middleware holding every request's body to its limit (:func:`body_limit`). ``refuse`` makes the
    413 answer for a request (its scope), in the form of the rest of the service's errors: a body refused while a
    route reads it is answered by the app's handler of ``BodyTooLarge``, which ``refuse`` should match."""

    def __init__(self, app: ASGIApp, max_upload: int, refuse: Callable[[Scope, HTTPException], Response]) -> None:
        self.app = app
        self.max_upload = max_upload
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, upload = body_limit(scope["method"], scope["path"], self.max_upload)
        length = declared_length(scope)
        if length is not None and length > limit:  # refused before a byte of it is read
            await self.refuse(scope, BodyTooLarge(limit, upload))(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited(receive, limit, lambda: BodyTooLarge(limit, upload)), sending)
        except BodyTooLarge as error:  # read where no handler of the app answers it (none does today)
            if started:
                raise
            await self.refuse(scope, error)(scope, receive, send)


class HeldConnections(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, holding at most ``config.limit_concurrency`` connections in a process: a new
    connection beyond closes the one that has waited longest for a request (from when it was opened or last
    answered), never one whose request is being answered. The waiting connections are kept in that order, so the
    choice costs nothing however many there are."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        waiting = self._waiting()
        limit = self.config.limit_concurrency
        while limit is not None and len(self.connections) >= limit and waiting:
            oldest, _ = waiting.popitem(last=False)
            self.connections.discard(oldest)  # counted out now: it is lost only when the loop next turns
            oldest.transport.close()
        waiting[self] = None

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:  # a whole request: being answered
            self._waiting().pop(self, None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._waiting()[self] = None  # waiting for the next request from now

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._waiting().pop(self, None)

    def _waiting(self) -> OrderedDict[HeldConnections, None]:
        """The process's connections waiting for a request, the longest waiting first (kept with the server's
        own shared state)."""
        state: Any = self.server_state
        if not hasattr(state, "cribstats_waiting"):
            state.cribstats_waiting = OrderedDict()
        return state.cribstats_waiting  # type: ignore[no-any-return]
