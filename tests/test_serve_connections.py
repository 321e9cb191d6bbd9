"""Connections held open against a real ``cribstats serve``: a process holds at most ``--max-connections`` of
them, closing the one that has waited longest for a request when one more comes, so that idle or slow
connections neither keep a request out nor use up the open files (a server out of them accepts nothing and logs
every failed accept with its traceback)."""

from __future__ import annotations

import os
import resource
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from service_server import LiveServer, free_port, live_server, serving
from typer.testing import CliRunner

from cribstats.cli.app import app


@contextmanager
def _idle(url: str, count: int, batch: int = 20) -> Iterator[list[socket.socket]]:
    """``count`` connections to the server that send nothing, opened ``batch`` at a time; closed after."""
    host, port = url.removeprefix("http://").split(":")
    opened: list[socket.socket] = []
    try:
        for start in range(0, count, batch):
            more = min(batch, count - start)
            opened += [socket.create_connection((host, int(port)), timeout=5) for _ in range(more)]
            time.sleep(0.05)
        yield opened
    finally:
        for sock in opened:
            sock.close()


def _closed_by_the_server(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` the server has closed (readable, and at their end)."""
    time.sleep(0.5)
    readable, _, _ = select.select(sockets, [], [], 0.5)
    return sum(1 for sock in readable if sock.recv(1) == b"")


def _answers(site: LiveServer) -> int:
    started = time.monotonic()
    answer = httpx.get(site.url + "/api/v1/players?limit=1", timeout=5)
    assert time.monotonic() - started < 5
    return answer.status_code


def _clean(log: Path) -> None:
    text = log.read_text()
    assert "Traceback" not in text and "Too many open files" not in text, text[-3000:]


def test_idle_connections_past_the_limit_keep_no_request_out(sqlite_url: str, tmp_path: Path) -> None:
    with live_server(sqlite_url, tmp_path, "--max-connections", "20") as site:
        with _idle(site.url, 40) as idle:
            assert _answers(site) in (200, 503)
            assert _closed_by_the_server(idle) >= 20  # the longest waiting, each closed as one more came
            assert _answers(site) == 200
        assert _answers(site) == 200
        _clean(site.log)


OPEN_FILES = 160


def _limit_open_files() -> None:
    """In the server's process, before it starts: its open files limited, hard limit too (it raises the soft)."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


def test_more_connections_than_open_files_do_not_stop_the_server(sqlite_url: str, tmp_path: Path) -> None:
    """A process allowed 160 open files, 400 connections opened: it holds 40 of them, answers, logs nothing."""
    port = free_port()
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "cribstats.cli", "serve", "--db", sqlite_url, "--port", str(port),
               "--max-connections", "40"]  # fmt: skip
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_limit_open_files,
                                   env={**os.environ, "CRIBSTATS_SECRET": "s"})  # fmt: skip
    with serving(sqlite_url, f"http://127.0.0.1:{port}", process, log, "/api/v1/openapi.json") as site:
        with _idle(site.url, 400) as idle:
            assert _answers(site) == 200
            assert _closed_by_the_server(idle) >= 400 - 40
        _clean(site.log)


def test_serve_help_says_to_stand_behind_a_proxy_and_names_the_limit() -> None:
    done = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert done.exit_code == 0
    text = " ".join(done.output.split())
    assert "reverse proxy" in text and "times out slow clients" in text
    assert "--max-connections" in text and "[default: 1000]" in text
