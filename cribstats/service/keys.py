"""API keys: made, listed and revoked by ``cribstats keys``, checked by the service on every write.

A key is 32 random bytes (URL-safe text, ``crib_`` in front), shown once when made; the store keeps only its
SHA-256. A key that random needs no slow hash: nobody can guess it from its digest. Revoking a key keeps its row
(its role, when it was made and when it was revoked) for good: a name is one key's record, so a new key takes a new
name.

>>> from cribstats.store.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> key = add_key(engine, "recorder-ann")
>>> check_key(engine, key).role, check_key(engine, "crib_wrong")
('recorder', None)
>>> revoke_key(engine, "recorder-ann"); check_key(engine, key) is None
True
"""

from __future__ import annotations

import hashlib
import secrets
import shlex
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, get_args

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from cribstats.errors import CribstatsError
from cribstats.names import quoted
from cribstats.store.db import ensure_schema, writer
from cribstats.store.tables import api_key_table
from cribstats.store.writes import now_utc, utc_text

Role = Literal["recorder", "admin"]
ROLES: tuple[str, ...] = get_args(Role)
KEY_PREFIX = "crib_"
NAME_MAX = 100


class KeyNameError(CribstatsError):
    """A key name that cannot be added or revoked (taken, unknown, or not a name)."""


@dataclass(frozen=True, slots=True)
class KeyHolder:
    """Whose key a request carried: the key's row id, its name, its role and the start of its hash (which ties
    a session to this key and no later key of the same name)."""

    id: int
    name: str
    role: str
    hash_head: str

    @property
    def may_replace(self) -> bool:
        """Admins may replace a stored game that conflicts with an upload; recorders may not."""
        return self.role == "admin"


@dataclass(frozen=True, slots=True)
class KeyListing:
    name: str
    role: str
    created_at: datetime
    revoked_at: datetime | None


def key_hash(key: str) -> str:
    """The SHA-256 of a key, as hex."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> datetime:
    """The time now as the store keeps it (:func:`cribstats.store.writes.now_utc`), to the second."""
    return now_utc().replace(microsecond=0)


def _check_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > NAME_MAX or not name.isprintable():
        raise KeyNameError(f"{quoted(name)} is not a key name: use 1 to {NAME_MAX} printable characters")
    return name


def add_key(engine: Engine, name: str, role: str = "recorder") -> str:
    """Make a key for ``name`` with ``role`` and return it (the only time it is seen).

    :raises KeyNameError: for a bad role or name, or a name that already has a key, in use or revoked (a revoked
        key's row is its record: when it was made, with which role and when it was revoked).
    """
    if role not in ROLES:
        raise KeyNameError(f"unknown role {quoted(role)}: use one of {', '.join(ROLES)}")
    name = _check_name(name)
    ensure_schema(engine)
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    k = api_key_table
    with writer(engine.connect()) as conn, conn.begin():
        row = conn.execute(sa.select(k.c.revoked_at).where(k.c.name == name)).first()
        if row is not None and row.revoked_at is None:
            raise KeyNameError(f"{quoted(name)} already has a key in use: choose another name for the new key "
                               f"(`cribstats keys revoke {shlex.quote(name)}` revokes that one)")
        if row is not None:
            revoked = utc_text(row.revoked_at)
            raise KeyNameError(f"{quoted(name)} is the name of a key revoked on {revoked}, whose record stays: "
                               "choose another name for the new key")
        conn.execute(sa.insert(k).values(name=name, role=role, key_hash=key_hash(key), created_at=_now()))
    return key


def list_keys(engine: Engine) -> list[KeyListing]:
    """Every key's name, role and dates (never the key or its hash), by name."""
    k = api_key_table
    with engine.connect() as conn:
        rows = conn.execute(sa.select(k.c.name, k.c.role, k.c.created_at, k.c.revoked_at).order_by(k.c.name))
        return [KeyListing(r.name, r.role, r.created_at, r.revoked_at) for r in rows]


def revoke_key(engine: Engine, name: str) -> None:
    """Revoke the key in use under ``name``: it stops working at once, in every worker.

    :raises KeyNameError: when no key in use has that name.
    """
    k = api_key_table
    with writer(engine.connect()) as conn, conn.begin():
        done = conn.execute(
            sa.update(k).where(k.c.name == name.strip(), k.c.revoked_at.is_(None)).values(revoked_at=_now())
        ).rowcount
    if not done:
        raise KeyNameError(f"no key in use is named {quoted(name.strip())}: `cribstats keys list` shows them")


def check_key(engine: Engine, key: str) -> KeyHolder | None:
    """The holder of a key in use, or None for a key that is unknown or revoked."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    digest = key_hash(key)
    k = api_key_table
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(k.c.id, k.c.name, k.c.role).where(k.c.key_hash == digest, k.c.revoked_at.is_(None))
        ).first()
    return None if row is None else KeyHolder(row.id, row.name, row.role, digest[:16])


def holder_by_id(engine: Engine, key_id: int, hash_head: str) -> KeyHolder | None:
    """The holder of the key a session was opened with, if that key is still in use."""
    k = api_key_table
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(k.c.id, k.c.name, k.c.role, k.c.key_hash).where(k.c.id == key_id, k.c.revoked_at.is_(None))
        ).first()
    if row is None or not secrets.compare_digest(row.key_hash[:16], hash_head):
        return None
    return KeyHolder(row.id, row.name, row.role, hash_head)
