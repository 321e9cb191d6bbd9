"""Every command that writes a file, on a full disk (a small tmpfs, filled): the file is named, the command exits
1, the previous file is left exactly as it was, and no temporary file is left behind.

Mounting a tmpfs needs root (CI runs as root); elsewhere these tests are skipped, saying so.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from databases import tally_store
from typer.testing import CliRunner

from cribstats.cli.app import app

TALLY = """date,event,round,player1,player2,score1,score2
2026-03-03,Club,1,Ann,Ben,121,100
2026-03-03,Club,2,Ann,Cy,121,85
2026-03-03,Club,3,Cy,Ben,121,119
"""
FULL = "No space left on device"
OLD = b"the previous file, which must survive\n"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return tally_store(tmp_path_factory.mktemp("store"), TALLY)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs, mounted for the test and unmounted after."""
    if os.geteuid() != 0:
        pytest.skip("full-disk tests skipped: mounting a tmpfs needs root (CI runs them as root)")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"full-disk tests skipped: cannot mount a tmpfs: {done.stderr.strip() or done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def fill(folder: Path) -> None:
    """Fill the file system until not one more byte fits."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (1 << 16, 1 << 12, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError as err:
                    assert err.errno == errno.ENOSPC
                    break
    finally:
        os.close(fd)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def assert_refused(args: list[str], target: Path, disk: Path, *, old: bool) -> None:
    """Run with the disk full: exit 1, one line naming ``target``, the old file (or none) as it was."""
    if old:
        target.write_bytes(OLD)
    before = sorted(p.name for p in disk.iterdir())
    fill(disk)
    code, _, err = run(*args)
    assert (code, err) == (1, f"error: {target}: cannot write: {FULL}\n")
    if old:
        assert target.read_bytes() == OLD
    else:
        assert not target.exists()
    assert sorted(p.name for p in disk.iterdir()) == sorted([*before, "filler"])  # no temporary file left


TABLE_COMMANDS = [
    (command, fmt)
    for command in ("stats", "standings", "games", "players", "imports")
    for fmt in ("table", "csv", "json", "parquet")
]


@pytest.mark.parametrize(("command", "fmt"), TABLE_COMMANDS)
@pytest.mark.parametrize("old", [True, False], ids=["over-a-file", "new-file"])
def test_table_exports(db: str, disk: Path, command: str, fmt: str, old: bool) -> None:
    target = disk / f"{command}.{fmt}"
    assert_refused([command, "--db", db, "--format", fmt, "--out", str(target)], target, disk, old=old)


@pytest.mark.parametrize("old", [True, False], ids=["over-a-file", "new-file"])
def test_report(db: str, disk: Path, old: bool) -> None:
    target = disk / "report.html"
    assert_refused(["report", "--db", db, "--out", str(target)], target, disk, old=old)


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_chart(db: str, disk: Path, suffix: str) -> None:
    target = disk / f"skunks.{suffix}"
    assert_refused(["chart", "skunks", "--db", db, "--out", str(target)], target, disk, old=True)


@pytest.mark.parametrize("suffix", ["jsonl", "json"])
def test_simulate_log(disk: Path, suffix: str) -> None:
    target = disk / f"games.{suffix}"
    assert_refused(["simulate", "-n", "3", "--seed", "1", "--out", str(target)], target, disk, old=True)


def test_simulate_expected_findings(disk: Path, tmp_path: Path) -> None:
    target = disk / "expected.txt"
    logs = tmp_path / "games.jsonl"
    args = ["simulate", "-n", "3", "--seed", "1", "--mistakes", "0.2", "--out", str(logs),
            "--expected", str(target)]
    assert_refused(args, target, disk, old=True)
    assert not logs.exists()  # the games are not left without their findings


def test_simulate_folder(disk: Path) -> None:
    folder = disk / "games"
    folder.mkdir()
    fill(disk)
    code, _, err = run("simulate", "-n", "2", "--seed", "1", "--out", str(folder))
    assert code == 1
    assert err.startswith(f"error: {folder}/") and err.endswith(f".json: cannot write: {FULL}\n")
    assert list(folder.iterdir()) == []  # not one half-written game


@pytest.mark.parametrize(
    "args",
    [
        ["simulate-matches", "-n", "2", "--players", "Ann,Ben", "--rules", "best-of-3"],
        ["simulate-nights", "-n", "1"],
    ],
    ids=["matches", "nights"],
)
def test_club_simulations(disk: Path, args: list[str]) -> None:
    target = disk / "club.jsonl"
    assert_refused([*args, "--seed", "1", "--out", str(target)], target, disk, old=True)


def test_club_scorecards(disk: Path, tmp_path: Path) -> None:
    target = disk / "cards.csv"
    games = tmp_path / "night.jsonl"
    assert_refused(["simulate-nights", "-n", "1", "--out", str(games), "--scorecards", str(target)], target, disk,
                   old=True)  # fmt: skip


CLUB_TABLES = {
    "season": [], "head-to-head": [], "rating": [], "matches": [], "discards": [],
    "night": ["--event", "Club", "--date", "2026-03-03"], "bracket": ["--event", "Club"],
}


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "parquet"])
@pytest.mark.parametrize("command", sorted(CLUB_TABLES))
def test_club_and_discard_tables(db: str, disk: Path, command: str, fmt: str) -> None:
    target = disk / f"{command}.{fmt}"
    assert_refused([command, *CLUB_TABLES[command], "--db", db, "--format", fmt, "--out", str(target)], target,
                   disk, old=True)  # fmt: skip


def test_rating_chart(db: str, disk: Path) -> None:
    target = disk / "ratings.png"
    assert_refused(["rating", "--db", db, "--chart", str(target)], target, disk, old=True)


@pytest.mark.parametrize("args", [["analyse", "5H", "5C", "5S", "JD", "4D", "6C", "--format", "json"],
                                  ["discard-table", "--format", "json"]], ids=["analyse", "discard-table"])
def test_discard_analysis_files(disk: Path, args: list[str]) -> None:
    target = disk / "discards.json"
    assert_refused([*args, "--out", str(target)], target, disk, old=True)
