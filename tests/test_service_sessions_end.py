"""Signing out ends the session in the store, against a real ``cribstats serve``: a copy of the session cookie
kept from before ``POST /session/end`` opens nothing after (in any worker), a new session with the same key
works, and signing in again ends the session the browser held. The ended sessions' table (migration 0019) is
kept small, on SQLite and PostgreSQL."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from databases import migrate
from service_server import LiveServer, live_server

from cribstats.store.db import make_engine, upgrade
from cribstats.store.ended_sessions import end_session, session_ended

SESSION = "cribstats_session"


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return html.unescape(found.group(1))


def _sign_in(browser: httpx.Client, key: str) -> str:
    """Sign in with ``key``; the session cookie the service set."""
    form = browser.get("/session?next=/upload")
    signed = browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/upload"})
    assert signed.status_code == 303 and signed.headers["location"] == "/upload"
    cookie = browser.cookies.get(SESSION)
    assert cookie
    return cookie


def _opens_upload(site: LiveServer, cookie: str) -> bool:
    with httpx.Client(base_url=site.url, timeout=60, cookies={SESSION: cookie}) as other:
        answer = other.get("/upload")
    assert answer.status_code in (200, 303), answer.status_code
    return answer.status_code == 200


def _sign_out_ends_the_session(site: LiveServer, key: str) -> None:
    with httpx.Client(base_url=site.url, timeout=60) as browser:
        kept = _sign_in(browser, key)
        assert _opens_upload(site, kept)
        page = browser.get("/session")  # signed in: its sign-out form
        out = browser.post("/session/end", data={"csrf_token": _token(page.text)})
        assert out.status_code == 303
        assert browser.get("/upload").status_code == 303  # the browser forgot the cookie
        for _ in range(4):  # the copy kept from before: refused by whichever worker answers
            assert not _opens_upload(site, kept)
        again = _sign_in(browser, key)  # the same key opens a new session
        assert again != kept and _opens_upload(site, again) and browser.get("/upload").status_code == 200


def test_signing_out_ends_the_session_for_every_copy_of_its_cookie(sqlite_url: str, tmp_path: Path) -> None:
    with live_server(sqlite_url, tmp_path) as site:
        _sign_out_ends_the_session(site, site.add_key("recorder"))


def test_signing_in_again_ends_the_session_the_browser_held(sqlite_url: str, tmp_path: Path) -> None:
    with live_server(sqlite_url, tmp_path) as site:
        key = site.add_key("recorder")
        with httpx.Client(base_url=site.url, timeout=60) as browser:
            first = _sign_in(browser, key)
            second = _sign_in(browser, key)
            assert first != second
            assert not _opens_upload(site, first) and _opens_upload(site, second)
        with httpx.Client(base_url=site.url, timeout=60) as browser:  # a failed sign-in ends nothing
            page = browser.get("/session")
            browser.cookies.set(SESSION, second)
            wrong = browser.post("/session", data={"key": "crib_nope", "csrf_token": _token(page.text)})
            assert wrong.status_code == 401 and _opens_upload(site, second)


@pytest.mark.postgres
def test_signing_out_ends_the_session_in_every_worker(pg_url: str, tmp_path: Path) -> None:
    with live_server(pg_url, tmp_path, "--workers", "2") as site:
        _sign_out_ends_the_session(site, site.add_key("recorder"))


def test_ended_sessions_are_kept_until_they_would_have_expired(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        now = datetime(2026, 12, 6, 12, 0)
        end_session(engine, "a" * 22, now + timedelta(hours=1), now=now)
        end_session(engine, "b" * 22, now + timedelta(hours=12), now=now)
        end_session(engine, "b" * 22, now + timedelta(hours=12), now=now)  # signed out twice: one row
        assert session_ended(engine, "a" * 22) and session_ended(engine, "b" * 22)
        assert not session_ended(engine, "c" * 22)
        end_session(engine, "c" * 22, now + timedelta(hours=14), now=now + timedelta(hours=2))  # "a" expired
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT session_id FROM ended_session ORDER BY session_id")).scalars()
            assert list(rows) == ["b" * 22, "c" * 22]
    finally:
        engine.dispose()


def test_migration_0019_adds_and_drops_the_ended_sessions(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        end_session(engine, "s" * 22, datetime(2026, 12, 6, 23, 0), now=datetime(2026, 12, 6, 11, 0))
        migrate(engine, "downgrade", "0018")
        assert not sa.inspect(engine).has_table("ended_session")
        migrate(engine, "upgrade", "0019")
        assert sa.inspect(engine).has_table("ended_session") and not session_ended(engine, "s" * 22)
    finally:
        engine.dispose()
