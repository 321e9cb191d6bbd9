"""Commands of the service: ``serve`` (the web pages and the API) and ``keys`` (who may write)."""

from __future__ import annotations

import errno
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from cribstats.cli.options import DbOption, err_console, fail
from cribstats.errors import CribstatsError

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

keys_app = typer.Typer(
    name="keys",
    help="API keys: who may upload through `cribstats serve` (recorders) and replace stored games (admins).",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


MAX_CONNECTIONS = 1000
"""Open connections a server process holds by default: far below the usual open-files limits (raised at start)."""
KEEP_ALIVE_S = 5
"""How long a kept-alive connection stays open idle after an answer."""


class KeyRole(StrEnum):
    recorder = "recorder"
    admin = "admin"


def serve(
    db: DbOption = "sqlite:///cribstats.db",
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port to listen on.")] = 8000,
    workers: Annotated[
        int,
        typer.Option("--workers", min=1, max=64,
                     help="Server processes; more than 1 needs PostgreSQL (an SQLite file is served by one)."),
    ] = 1,
    private: Annotated[
        bool, typer.Option("--private", help="Every page and API call needs a key, reading too.")
    ] = False,
    max_upload: Annotated[
        int, typer.Option("--max-upload", min=1, help="The largest upload in bytes (larger ones get 413).")
    ] = 50_000_000,
    max_connections: Annotated[
        int,
        typer.Option("--max-connections", min=1,
                     help="Connections a server process holds: one more closes the one that has waited "
                          "longest without sending a request; a request that comes while all are busy gets 503."),
    ] = MAX_CONNECTIONS,
) -> None:
    """Serve the store on the web: pages for the club and a JSON API (/api/v1, docs at /api/docs).

    Reading is open unless --private; uploading needs a key (`cribstats keys add NAME`). The store is created or
    checked as `import` does. Set CRIBSTATS_SECRET to the same value on every machine behind one proxy.

    A service open to the internet should stand behind a reverse proxy (nginx, Caddy) that times out slow clients:
    this server sets no time for sending a request, so clients that send their bodies a byte at a time can keep
    every connection it holds busy (then every other request gets 503).

    Examples:

        cribstats serve --db sqlite:///club.db

        cribstats serve --db postgresql://club@db/club --host 0.0.0.0 --workers 4 --private
    """
    from cribstats.service.settings import Settings
    from cribstats.store.db import ensure_schema, make_engine, normalize_url, shown_url
    from cribstats.store.store_file import check_store_folder

    if workers > 1 and normalize_url(db).get_backend_name() != "postgresql":
        raise fail("--workers above 1 needs PostgreSQL: one SQLite file is served by one process", 2)
    with _store_errors(db):
        check_store_folder(db)
        engine = make_engine(db)
        ensure_schema(engine)
        engine.dispose()
    settings = Settings.from_env({**os.environ, "CRIBSTATS_DB": db, "CRIBSTATS_SERVE_MAX_UPLOAD": str(max_upload),
                                  "CRIBSTATS_SERVE_PRIVATE": "1" if private else "0"})  # fmt: skip
    os.environ.update(settings.to_env())
    if host.startswith("[") and host.endswith("]") and ":" in host:
        host = host[1:-1]  # an IPv6 address written as in a URL
    sock = _listen(host, port)
    with sock:
        bound = _url_host(host or sock.getsockname()[0]) + f":{sock.getsockname()[1]}"
        err_console().print(Text(f"serving {shown_url(db)} on http://{bound}/ (stop with Ctrl-C)"), soft_wrap=True)
        _run(sock, host, workers, max_connections)


_BACKLOG = 2048  # uvicorn's
# Reasons worded for the one-line refusal; any other error is told by the system's own words.
_LISTEN_REASONS = {
    errno.EADDRINUSE: "address already in use",
    errno.EADDRNOTAVAIL: "no such address on this machine",
    errno.EACCES: "permission denied",
}
_HOST_NOT_FOUND = {socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)}


def _url_host(host: str) -> str:
    """``host`` as it is written in a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` (a name, an IPv4 or IPv6 address, or empty for every address) and ``port``
    (0: one the system chooses), made as uvicorn makes it (``SO_REUSEADDR``, its backlog) and inheritable by the
    worker processes. A name is resolved once, its IPv4 address preferred.

    :raises typer.Exit: (exit 2) ``cannot listen on HOST:PORT: reason`` when the host is not found or the address
        cannot be had.
    """
    where = f"{_url_host(host)}:{port}"
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = min(found, key=lambda info: info[0] != socket.AF_INET)
        sock = socket.socket(family, kind, proto)
    except socket.gaierror as err:
        reason = "host not found" if err.errno in _HOST_NOT_FOUND else _reason(err)
        raise fail(f"cannot listen on {where}: {reason}", 2) from None
    except (UnicodeError, ValueError):  # a name no resolver takes: a label too long, a NUL
        raise fail(f"cannot listen on {where}: host not found", 2) from None
    except OSError as err:
        raise fail(f"cannot listen on {where}: {_reason(err)}", 2) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(_BACKLOG)
    except OSError as err:
        sock.close()
        raise fail(f"cannot listen on {where}: {_reason(err)}", 2) from None
    sock.set_inheritable(True)
    return sock


def _reason(err: OSError) -> str:
    """An operating system error in words, lower case, without its number."""
    if err.errno in _LISTEN_REASONS:
        return _LISTEN_REASONS[err.errno]
    words = err.strerror or (os.strerror(err.errno) if err.errno else str(err))
    return words[:1].lower() + words[1:]


def _run(sock: socket.socket, host: str, workers: int, max_connections: int) -> None:
    """Serve on ``sock`` as ``uvicorn.run`` would have (one process, or ``workers`` started by uvicorn's
    supervisor), the application made by ``from_env`` in each process; Ctrl-C stops it quietly, and a server that
    never started exits 3 as uvicorn's does. Each process holds at most ``max_connections`` connections
    (:class:`~cribstats.service.limits.HeldConnections`, uvicorn's ``limit_concurrency``) and closes a kept-alive
    connection idle for :data:`KEEP_ALIVE_S`."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from cribstats.service.limits import HeldConnections

    _raise_open_files_limit()
    config = uvicorn.Config("cribstats.service.app:from_env", factory=True, host=host,
                            port=sock.getsockname()[1], workers=workers, proxy_headers=True, log_level="warning",
                            server_header=False, http=HeldConnections, limit_concurrency=max_connections,
                            timeout_keep_alive=KEEP_ALIVE_S)  # fmt: skip
    server = uvicorn.Server(config)
    try:
        if workers > 1:
            Multiprocess(config, sockets=[sock]).run()
        else:
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    if workers == 1 and not server.started:
        raise typer.Exit(3)


def _raise_open_files_limit() -> None:
    """The soft limit on open files raised to the hard limit (the workers inherit it): each connection is an open
    file, and a server out of them can accept none, not even to answer 503."""
    try:
        import resource
    except ImportError:  # not on this system (Windows)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        with suppress(OSError, ValueError):  # a hard limit the system will not give (macOS: OPEN_MAX): kept
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _engine(db: str) -> Engine:
    from cribstats.store.db import make_engine
    from cribstats.store.store_file import check_store_folder

    check_store_folder(db)
    return make_engine(db)


@contextmanager
def _store_errors(db: str) -> Iterator[None]:
    """A key name that cannot be used exits 2; a database that cannot be used exits 1, named (its password
    hidden); one line each."""
    import sqlalchemy as sa

    from cribstats.service.keys import KeyNameError
    from cribstats.store.db import describe_db_error, shown_url

    try:
        yield
    except KeyNameError as err:
        raise fail(str(err), 2) from None
    except CribstatsError as err:
        raise fail(str(err), 1) from None
    except sa.exc.SQLAlchemyError as err:
        raise fail(f"the database {shown_url(db)} failed: {describe_db_error(err)}", 1) from None


@keys_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="Who the key is for, e.g. the club recorder's name.")],
    db: DbOption = "sqlite:///cribstats.db",
    role: Annotated[KeyRole, typer.Option("--role", help="recorder: upload; admin: also replace games.")] = (
        KeyRole.recorder
    ),
) -> None:
    """Make a key and print it alone on standard output: it is shown this once and stored only as a hash.

    Examples:

        cribstats keys add tuesday-recorder

        cribstats keys add league-admin --role admin --db postgresql://club@db/club
    """
    from cribstats.service.keys import add_key

    with _store_errors(db):
        key = add_key(_engine(db), name, role.value)
    sys.stdout.write(key + "\n")


@keys_app.command("list")
def list_(db: DbOption = "sqlite:///cribstats.db") -> None:
    """List the keys: name, role, when made and when revoked (never the keys).

    Examples:

        cribstats keys list
    """
    from cribstats.service.keys import list_keys
    from cribstats.store.db import StoreError, schema_state
    from cribstats.store.writes import utc_text

    with _store_errors(db):
        engine = _engine(db)
        if schema_state(engine) != "current":
            raise StoreError("no current cribstats store here: `cribstats db upgrade` or `cribstats import`")
        rows = list_keys(engine)
    for row in rows:  # the times in UTC, the offset written: 2026-12-06 13:30:08+00:00
        revoked = utc_text(row.revoked_at) if row.revoked_at else "in use"
        sys.stdout.write(f"{row.name}\t{row.role}\t{utc_text(row.created_at)}\t{revoked}\n")
    if not rows:
        err_console().print("no keys yet: `cribstats keys add NAME` makes one", markup=False)


@keys_app.command("revoke")
def revoke(
    name: Annotated[str, typer.Argument(help="The name the key was made for.")],
    db: DbOption = "sqlite:///cribstats.db",
) -> None:
    """Revoke a key: it stops working at once, in every server process.

    Examples:

        cribstats keys revoke tuesday-recorder
    """
    from cribstats.service.keys import revoke_key

    with _store_errors(db):
        revoke_key(_engine(db), name)
    err_console().print(Text(f"revoked the key of {name.strip()}"), soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("serve")(serve)
    app.add_typer(keys_app)
