"""Who may do what: reading is open unless the service is private; writing needs an API key
(``Authorization: Bearer KEY``) or, on the pages, a session opened with one.

The session is a cookie signed with the service's secret (itsdangerous) that names the key's row and the start
of its hash; every request looks the key up again, so a revoked key's sessions end at once. Forms carry a CSRF
token: a random value in its own cookie and, signed, in a hidden field (the double-submit pattern); both cookies
are ``HttpOnly`` and ``SameSite=Lax``. Keys and cookies are never logged.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.engine import Engine

from cribstats.service.keys import KeyHolder, check_key, holder_by_id
from cribstats.service.problems import ProblemError
from cribstats.service.settings import Settings

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


def session_holder(request: Request) -> KeyHolder | None:
    """The holder of the key the request's session was opened with, while that key is in use."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    svc = service_of(request)
    try:
        data: Any = svc.signer.loads(cookie, max_age=SESSION_SECONDS, salt="session")
        key_id, head = int(data["k"]), str(data["h"])
    except (BadSignature, KeyError, TypeError, ValueError):
        return None
    return holder_by_id(svc.engine, key_id, head)


def open_session(request: Request, response: Response, holder: KeyHolder) -> None:
    value = service_of(request).signer.dumps({"k": holder.id, "h": holder.hash_head}, salt="session")
    response.set_cookie(SESSION_COOKIE, value, max_age=SESSION_SECONDS, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", path="/")  # fmt: skip


def close_session(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/")


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
