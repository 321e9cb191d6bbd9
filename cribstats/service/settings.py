"""What a running service needs to know, read from the environment so that every worker process reads the same.

``cribstats serve`` sets these variables for the server it starts; a league that runs the app under its own
process manager sets them itself (``CRIBSTATS_SECRET`` the same on every machine behind one proxy).

=============================== ==========================================================================
variable                        meaning
=============================== ==========================================================================
``CRIBSTATS_DB``                the store's SQLAlchemy URL (default ``sqlite:///cribstats.db``)
``CRIBSTATS_SERVE_PRIVATE``     ``1``: every page and API call needs a key, reading too
``CRIBSTATS_SERVE_MAX_UPLOAD``  the largest upload body in bytes (default 50 MB)
``CRIBSTATS_SECRET``            signs session cookies and form tokens (random per ``serve`` when unset)
=============================== ==========================================================================

>>> Settings.from_env({"CRIBSTATS_SERVE_PRIVATE": "1", "CRIBSTATS_SECRET": "s"}).private
True
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from cribstats.errors import CribstatsError
from cribstats.names import quoted

DB_ENV = "CRIBSTATS_DB"
PRIVATE_ENV = "CRIBSTATS_SERVE_PRIVATE"
MAX_UPLOAD_ENV = "CRIBSTATS_SERVE_MAX_UPLOAD"
SECRET_ENV = "CRIBSTATS_SECRET"
DEFAULT_DB = "sqlite:///cribstats.db"
DEFAULT_MAX_UPLOAD = 50 * 1000 * 1000


class SettingsError(CribstatsError):
    """A setting that cannot be used."""


@dataclass(frozen=True, slots=True)
class Settings:
    db: str = DEFAULT_DB
    private: bool = False
    max_upload: int = DEFAULT_MAX_UPLOAD
    secret: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment gives (``os.environ`` by default).

        :raises SettingsError: for a size that is not a positive whole number of bytes.
        """
        env = os.environ if env is None else env
        size = env.get(MAX_UPLOAD_ENV, str(DEFAULT_MAX_UPLOAD))
        if not size.isdigit() or int(size) == 0:
            raise SettingsError(f"{MAX_UPLOAD_ENV}={quoted(size)}: give the largest upload in bytes, "
                                "e.g. 50000000")
        return cls(
            db=env.get(DB_ENV) or DEFAULT_DB,
            private=env.get(PRIVATE_ENV, "") in ("1", "true", "yes"),
            max_upload=int(size),
            secret=env.get(SECRET_ENV) or secrets.token_urlsafe(32),
        )

    def to_env(self) -> dict[str, str]:
        """The variables that give these settings to a worker process."""
        return {
            DB_ENV: self.db,
            PRIVATE_ENV: "1" if self.private else "0",
            MAX_UPLOAD_ENV: str(self.max_upload),
            SECRET_ENV: self.secret,
        }
