"""``cribstats serve`` takes its address before it says it is serving: a port already taken or a host not found
is one line and exit 2 (no "serving" line, no uvicorn log, no traceback), and the "serving" line names the port
the server got, ``--port 0`` included. Each test runs the command as a process on a real SQLite file."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from service_server import START_TIMEOUT_S, cli

SERVING = re.compile(r"serving \S+ on (http://(\S+):(\d+)/) \(stop with Ctrl-C\)\n")


@contextmanager
def _held_port(host: str) -> Iterator[int]:
    """A port on ``host`` that a listening socket of the test holds."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.bind((host, 0))
    except OSError as err:
        pytest.skip(f"no {host} on this machine: {err}")
    with sock:
        sock.listen()
        yield int(sock.getsockname()[1])


@pytest.mark.parametrize(("host", "shown"), [("127.0.0.1", "127.0.0.1"), ("::1", "[::1]"), ("[::1]", "[::1]")])
def test_a_port_in_use_is_one_line_and_exit_2(sqlite_url: str, host: str, shown: str) -> None:
    with _held_port(host.strip("[]")) as port:
        done = cli("serve", "--host", host, "--port", str(port), db=sqlite_url, check=False)
    assert done.returncode == 2
    assert done.stderr == f"error: cannot listen on {shown}:{port}: address already in use\n"
    assert done.stdout == ""


@pytest.mark.parametrize("host", ["999.1.1.1", "x" * 64 + ".invalid"])  # the second no resolver is asked about
def test_a_host_not_found_is_one_line_and_exit_2(sqlite_url: str, host: str) -> None:
    done = cli("serve", "--host", host, "--port", "8000", db=sqlite_url, check=False)
    assert done.returncode == 2
    assert done.stderr == f"error: cannot listen on {host}:8000: host not found\n"
    assert done.stdout == ""


def test_port_0_announces_the_port_it_got_and_serves_there(sqlite_url: str, sample_logs_dir: Path,
                                                           tmp_path: Path) -> None:  # fmt: skip
    cli("import", str(sample_logs_dir / "club-night.jsonl"), db=sqlite_url)
    log = tmp_path / "serve.log"
    env = {**os.environ, "CRIBSTATS_SECRET": "test-secret-port-0"}
    command = [sys.executable, "-m", "cribstats.cli", "serve", "--db", sqlite_url, "--port", "0"]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not (announced := SERVING.fullmatch(log.read_text())):
            assert process.poll() is None, f"cribstats serve exited {process.returncode}: {log.read_text()}"
            assert time.monotonic() < deadline, f"no serving line in {START_TIMEOUT_S} s: {log.read_text()}"
            time.sleep(0.1)
        url, host, port = announced.groups()
        assert host == "127.0.0.1" and int(port) != 0
        while True:  # the port is taken before the line is printed; the application may still be starting
            try:
                answer = httpx.get(url, timeout=30)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
        process.send_signal(signal.SIGINT)  # Ctrl-C, as the line says
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert SERVING.fullmatch(log.read_text()), log.read_text()  # nothing more: no log lines, no traceback
    with socket.create_server(("127.0.0.1", int(port))):  # the port is given back
        pass
