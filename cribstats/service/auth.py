"""Who may do what: reading is open unless the service is private; writing needs an API key
(``Authorization: Bearer KEY``) or, on the pages, a session opened with one.

The session is a cookie signed with the service's secret (itsdangerous) that names the key's row, the start of
its hash and a random id of the session's own; every request looks the key up again, so a revoked key's sessions
end at once, and looks the id up among the sessions signed out (:mod:`cribstats.store.ended_sessions`, in the
store, so every server process knows), so a copy of the cookie kept from before a sign-out opens nothing.

Forms carry a CSRF token: a random value in its own cookie and, signed, in a hidden field (the double-submit
pattern); both cookies are ``HttpOnly`` and ``SameSite=Lax``. Keys and cookies are never logged.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.engine import Engine

from cribstats.service.keys import KeyHolder, check_key, holder_by_id
from cribstats.service.problems import ProblemError
from cribstats.service.settings import Settings
from cribstats.store.ended_sessions import end_session as record_end
from cribstats.store.ended_sessions import session_ended

SESSION_COOKIE = "cribstats_session"
CSRF_COOKIE = "cribstats_csrf"
CSRF_FIELD = "csrf_token"
SESSION_SECONDS = 12 * 3600
KEY_SCHEME = "key"
"""The OpenAPI security scheme of a key (HTTP bearer)."""


@dataclass(slots=True)
class Service:
    """What every request reads: the settings, the store's engine and the signer of cookies."""

    settings: Settings
    engine: Engine
    signer: URLSafeTimedSerializer

    @classmethod
    def start(cls, settings: Settings, engine: Engine) -> Service:
        return cls(settings, engine, URLSafeTimedSerializer(settings.secret, salt="cribstats"))


def service_of(request: Request) -> Service:
    return request.app.state.service  # type: ignore[no-any-return]


class SignInNeeded(Exception):
    """A page that needs a key was asked for without one: the visitor is sent to the sign-in page."""


def bearer_holder(request: Request) -> KeyHolder | None:
    """The holder of the request's bearer key; None without one.

    :raises ProblemError: 401 for a key that is unknown or revoked.
    """
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, key = header.partition(" ")
    holder = check_key(service_of(request).engine, key.strip()) if scheme.lower() == "bearer" else None
    if holder is None:
        raise ProblemError(401, "the key is not one in use (unknown or revoked)",
                           headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})  # fmt: skip
    return holder


@dataclass(frozen=True, slots=True)
class Session:
    """What a session cookie says: the key's row and the start of its hash, the session's id, when it expires."""

    key_id: int
    hash_head: str
    id: str
    expires_at: datetime  # naive UTC, as the store keeps times


def read_session(svc: Service, cookie: str) -> Session | None:
    """The session a cookie holds: None unless it is signed by this service, unexpired and has an id (a cookie of
    an earlier version has none: sign in again)."""
    try:
        data: Any
        data, signed = svc.signer.loads(cookie, max_age=SESSION_SECONDS, salt="session", return_timestamp=True)
        session_id = str(data["s"])
        expires = signed.replace(tzinfo=None) + timedelta(seconds=SESSION_SECONDS)
        return Session(int(data["k"]), str(data["h"]), session_id, expires) if session_id else None
    except (BadSignature, KeyError, TypeError, ValueError):
        return None


def session_holder(request: Request) -> KeyHolder | None:
    """The holder of the key the request's session was opened with, while that key is in use and the session has
    not been signed out."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    svc = service_of(request)
    session = read_session(svc, cookie)
    if session is None:
        return None
    holder = holder_by_id(svc.engine, session.key_id, session.hash_head)
    return None if holder is None or session_ended(svc.engine, session.id) else holder


def open_session(request: Request, response: Response, holder: KeyHolder) -> None:
    data = {"k": holder.id, "h": holder.hash_head, "s": secrets.token_urlsafe(16)}
    value = service_of(request).signer.dumps(data, salt="session")
    response.set_cookie(SESSION_COOKIE, value, max_age=SESSION_SECONDS, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", path="/")  # fmt: skip


def close_session(response: Response) -> None:
    """Tell the browser to forget its session. The session itself is ended in the store by the app's middleware
    (``app.AnswerHeaders``), which sees this answer clear the cookie (:func:`replaces_session`) and calls
    :func:`end_session` before the answer is sent, so that a copy of the cookie opens nothing from then on."""
    response.delete_cookie(SESSION_COOKIE, path="/")


def replaces_session(set_cookies: list[str]) -> bool:
    """Whether an answer's ``Set-Cookie`` headers clear the session cookie (:func:`close_session`: signing out) or
    set a new one (signing in again): either way the session the request carried ends.

    >>> replaces_session(['cribstats_session=""; expires=Sun, 06 Dec 2026 10:29:23 GMT; Max-Age=0; Path=/'])
    True
    >>> replaces_session(['cribstats_csrf=""; Max-Age=0', "cribstats_sessions=x"]), replaces_session([])
    (False, False)
    """
    return any(c.startswith(SESSION_COOKIE + "=") for c in set_cookies)


def end_session(svc: Service, cookie: str) -> None:
    """End the session ``cookie`` holds, in the store, until it would have expired: every server process refuses
    it from then on. A cookie that holds no session of this service's is let be."""
    session = read_session(svc, cookie)
    if session is not None:
        record_end(svc.engine, session.id, session.expires_at)


def api_reader(request: Request) -> None:
    """Reading the API: open, unless the service is private."""
    if service_of(request).settings.private and bearer_holder(request) is None and session_holder(request) is None:
        raise ProblemError(401, "this service is private: send a key (Authorization: Bearer KEY)",
                           headers={"WWW-Authenticate": "Bearer"})  # fmt: skip


def api_writer(request: Request) -> KeyHolder:
    """Writing through the API needs a key in use."""
    holder = bearer_holder(request)
    if holder is None:
        raise ProblemError(401, "uploading needs a key: send Authorization: Bearer KEY",
                           headers={"WWW-Authenticate": "Bearer"})  # fmt: skip
    return holder


def page_reader(request: Request) -> KeyHolder | None:
    """Reading a page: open unless private (then a session is needed); the visitor's key holder, if any."""
    holder = session_holder(request)
    if holder is None and service_of(request).settings.private:
        raise SignInNeeded()
    return holder


# --- CSRF -------------------------------------------------------------------------------------------------------


def csrf_token(request: Request, response: Response) -> str:
    """The hidden field's value for a form on this page (setting the cookie it is checked against)."""
    value = request.cookies.get(CSRF_COOKIE) or ""
    if len(value) < 20:
        value = secrets.token_urlsafe(24)
        response.set_cookie(CSRF_COOKIE, value, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", path="/")  # fmt: skip
    return service_of(request).signer.dumps(value, salt="csrf")


def check_csrf(request: Request, token: str | None) -> None:
    """:raises ProblemError: 403 when the form's token does not match the visitor's cookie."""
    cookie = request.cookies.get(CSRF_COOKIE)
    try:
        value = service_of(request).signer.loads(token or "", max_age=SESSION_SECONDS, salt="csrf")
    except BadSignature:
        value = None
    if not cookie or value is None or not secrets.compare_digest(str(value), cookie):
        raise ProblemError(403, "the form has expired or did not come from this site: load the page and try again")
