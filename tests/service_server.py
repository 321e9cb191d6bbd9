"""A real ``cribstats serve`` process on a free local port, for the service tests (imported by them)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

START_TIMEOUT_S = 90


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cli(*args: str, db: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a ``cribstats`` command in a new process, as a user would."""
    return subprocess.run([sys.executable, "-m", "cribstats.cli", *args, "--db", db], capture_output=True,
                          text=True, timeout=300, check=check)  # fmt: skip


def import_simulated(db: str, folder: Path, players: list[str], seed: int, **options: Any) -> None:
    """Two simulated games of ``players`` (dated from 2026-11-26; more of ``simulate_games``' ``options``) written
    to ``folder/games.jsonl`` and imported into ``db`` by ``cribstats import``."""
    import orjson

    from cribstats.simulate import simulate_games

    games = simulate_games(2, players=players, seed=seed, start_date="2026-11-26", **options)
    logs = folder / "games.jsonl"
    logs.write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    cli("import", str(logs), db=db)


@dataclass(slots=True)
class LiveServer:
    db: str
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def client(self, key: str | None = None, **kwargs: object) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=120, **kwargs)  # type: ignore[arg-type]

    def add_key(self, name: str, role: str = "recorder") -> str:
        return cli("keys", "add", name, "--role", role, db=self.db).stdout.strip()


@contextmanager
def live_server(db: str, folder: Path, *extra: str) -> Iterator[LiveServer]:
    """Start ``cribstats serve`` on ``db`` and wait until it answers; stop it afterwards."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    env = {**os.environ, "CRIBSTATS_SECRET": "test-secret-" + str(port)}
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "cribstats.cli", "serve", "--db", db, "--port", str(port), *extra],
            stdout=out, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    with serving(db, f"http://127.0.0.1:{port}", process, log, "/api/v1/openapi.json", (200, 401)) as site:
        yield site


@contextmanager
def serving(db: str, url: str, process: subprocess.Popen[bytes], log: Path, probe: str,
            ready: tuple[int, ...] = (200,)) -> Iterator[LiveServer]:  # fmt: skip
    """A started service process, once ``probe`` answers with a ``ready`` status; stopped afterwards (a process
    that exits first, or does not answer in :data:`START_TIMEOUT_S`, fails with its log)."""
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the service exited {process.returncode}: {log.read_text()}")
            try:
                if httpx.get(url + probe, timeout=5).status_code in ready:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the service did not answer in {START_TIMEOUT_S} s: {log.read_text()}")
            time.sleep(0.3)
        yield LiveServer(db, url, process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
