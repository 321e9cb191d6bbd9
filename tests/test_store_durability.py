"""An import killed mid-write (kill -9) and two imports at once: the store stays whole and holds no duplicates."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest
import sqlalchemy as sa
from stored_play import play_events

from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

BASE_NAMES = ("Alice", "Bob")


def many_logs(n: int, *, names_per_side: int = 1) -> list[bytes]:
    """``n`` distinct games (JSON lines) made from a few simulated ones: each copy gets its own id and, with
    ``names_per_side`` > 1, players renamed from a pool, so that new players keep arriving."""
    bases = [orjson.dumps(g.log) for g in simulate_games(8, seed=77, mistake_rate=0.05)]
    lines = []
    for i in range(n):
        text = bases[i % len(bases)].decode()
        base_id = orjson.loads(text)["id"]
        text = text.replace(f'"{base_id}"', f'"copy-{i:05d}"')
        if names_per_side > 1:
            for name in BASE_NAMES:
                text = text.replace(f'"{name}"', f'"{name} {i % names_per_side}"')
        lines.append(text.encode() + b"\n")
    return lines


def cli_import(url: str, path: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cribstats.cli", "import", "--db", url, "--quiet", *extra, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def game_count(engine: sa.Engine) -> int:
    try:
        with engine.connect() as conn:
            return conn.exec_driver_sql("SELECT count(*) FROM game").scalar_one()
    except sa.exc.DBAPIError:  # the tables are not there yet
        return 0


def assert_whole(engine: sa.Engine) -> None:
    """Every stored game has all its rows: deals, deal facts, play events and findings, none twice."""
    with engine.connect() as conn:
        games = conn.execute(sa.text("SELECT id, log, deal_count, finding_count, player_count FROM game")).all()
        deals = dict(conn.execute(sa.text("SELECT game_id, count(*) FROM deal GROUP BY game_id")).all())
        facts = dict(conn.execute(sa.text("SELECT game_id, count(*) FROM deal_player GROUP BY game_id")).all())
        seats = dict(conn.execute(sa.text("SELECT game_id, count(*) FROM game_player GROUP BY game_id")).all())
        found = dict(conn.execute(sa.text("SELECT game_id, count(*) FROM finding GROUP BY game_id")).all())
        game_of = dict(conn.execute(sa.text("SELECT id, game_id FROM deal")).all())
        plays = Counter(game_of[event[0]] for event in play_events(conn))
        hashes = conn.execute(sa.text("SELECT count(DISTINCT content_hash), count(*) FROM game")).one()
        orphans = conn.execute(
            sa.text("SELECT count(*) FROM deal_player WHERE game_id NOT IN (SELECT id FROM game)")
        ).scalar_one()
    assert hashes[0] == hashes[1]
    assert orphans == 0
    for game in games:
        log = orjson.loads(game.log)
        assert deals.get(game.id, 0) == game.deal_count == len(log["deals"])
        assert facts.get(game.id, 0) == game.deal_count * game.player_count
        assert seats.get(game.id, 0) == game.player_count
        assert plays.get(game.id, 0) == sum(len(d.get("play", [])) for d in log["deals"])
        assert found.get(game.id, 0) == game.finding_count


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, their children, ...), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # ended meanwhile
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    wanted = [pid]
    while wanted:
        parent = wanted.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found.add(child)
                wanted.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_kill_9_mid_import_then_a_rerun_completes_it(db_url: str, tmp_path: Path, workers: str) -> None:
    n = 600
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"".join(many_logs(n)))
    engine = make_engine(db_url)
    proc = cli_import(db_url, path, "--batch-size", "25", "--workers", workers)
    deadline = time.monotonic() + 120
    helpers: set[int] = set()
    try:
        while game_count(engine) < 50:
            assert proc.poll() is None, "the import finished before it could be killed; give it more games"
            assert time.monotonic() < deadline, "the import wrote nothing in time"
            time.sleep(0.02)
        if workers != "1" and Path("/proc").is_dir():
            helpers = descendants(proc.pid)
            assert helpers, "the parallel import runs no worker process"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    # the worker processes see their parent gone and end by themselves
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in helpers):
        assert time.monotonic() < deadline, "worker processes outlived the killed import"
        time.sleep(0.1)
    engine.dispose()
    engine = make_engine(db_url)
    kept = game_count(engine)
    assert 50 <= kept < n
    assert_whole(engine)

    summary = import_paths([path], engine, workers=int(workers))
    assert (summary.present, summary.imported, summary.refused_count) == (kept, n - kept, 0)
    assert game_count(engine) == n
    assert_whole(engine)
    with engine.connect() as conn:
        runs = conn.execute(sa.text("SELECT finished_at IS NULL AS open FROM import_run ORDER BY id")).all()
    assert [r.open for r in runs] == [True, False]  # the killed import is on record as unfinished
    engine.dispose()


@pytest.mark.slow
@pytest.mark.postgres
def test_two_imports_of_overlapping_files_at_once(pg_url: str, tmp_path: Path) -> None:
    lines = many_logs(900, names_per_side=30)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_bytes(b"".join(lines[:600]))
    second.write_bytes(b"".join(reversed(lines[300:])))  # the overlap meets from both ends
    procs = [cli_import(pg_url, first, "--batch-size", "40"), cli_import(pg_url, second, "--batch-size", "40")]
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (_out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err.decode()
    engine = make_engine(pg_url)
    with engine.connect() as conn:
        games = conn.execute(sa.text("SELECT count(*), count(DISTINCT game_key) FROM game")).one()
        players = conn.execute(sa.text("SELECT count(*), count(DISTINCT name_key) FROM player")).one()
        imported = conn.execute(sa.text("SELECT sum(games_imported), sum(games_present) FROM import_run")).one()
    assert tuple(games) == (900, 900)
    assert tuple(players) == (60, 60)  # "Alice 0".."Alice 29" and "Bob 0".."Bob 29"
    assert tuple(imported) == (900, 300)
    assert_whole(engine)
    engine.dispose()


@pytest.mark.slow
@pytest.mark.postgres
def test_the_server_ending_the_import_connection_then_a_rerun_completes_it(pg_url: str, tmp_path: Path) -> None:
    """The server ends the import's connection (``pg_terminate_backend``, as a restart of the server would) after
    some batches: one line saying what happened and how many games are stored, exit 1, whole batches only; the
    same import again stores the rest."""
    n, batch = 600, 25
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"".join(many_logs(n)))
    engine = make_engine(pg_url)
    database = engine.url.database
    proc = cli_import(pg_url, path, "--batch-size", str(batch), "--workers", "2")
    deadline = time.monotonic() + 120
    try:
        while game_count(engine) < 50:
            assert proc.poll() is None, "the import finished before its connection could be ended"
            assert time.monotonic() < deadline, "the import wrote nothing in time"
            time.sleep(0.02)
        with engine.connect() as conn:
            ended = conn.execute(
                sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = :db AND pid <> pg_backend_pid()"), {"db": database},
            ).scalars().all()  # fmt: skip
        assert ended and all(ended)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    message = err.decode()
    assert proc.returncode == 1, message
    assert "Traceback" not in message and message.count("\n") == 1
    kept = game_count(engine)
    assert 50 <= kept < n and kept % batch == 0
    assert message.startswith("error: ")
    assert f"; {kept} games of this import were stored (whole batches, nothing else); " in message
    assert_whole(engine)
    rerun = cli_import(pg_url, path, "--workers", "2")
    _out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err.decode()
    assert game_count(engine) == n
    assert_whole(engine)
    engine.dispose()
