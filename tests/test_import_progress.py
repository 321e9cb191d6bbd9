"""The import's progress on a terminal: games done of the games the inputs hold, and the time left."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cribstats.cli.progress import games_in, games_to_import
from cribstats.formats.sources import kind_of
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

CRIBSTATS = [sys.executable, "-m", "cribstats.cli"]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_the_estimate_counts_the_games_an_import_meets(sample_logs_dir: Path, tmp_path: Path) -> None:
    """Every sample log (JSON Lines, match records, JSON, tally sheets) holds as many games as the import then
    meets; a scorecard sheet's two cards of a game may disagree, and then make one game fewer."""
    engine = make_engine(f"sqlite:///{tmp_path / 'club.db'}")
    sheets = sorted(sample_logs_dir.glob("nights/*.csv"))
    logs = [p for p in sorted(sample_logs_dir.rglob("*")) if kind_of(str(p)) and p not in sheets]
    summary = import_paths(logs, engine)
    assert games_to_import([str(p) for p in logs]) == summary.games
    for sheet in sheets:
        rows = len(sheet.read_text().splitlines()) - 1
        met = import_paths([sheet], make_engine(f"sqlite:///{tmp_path / (sheet.stem + '.db')}")).games
        assert games_in(str(sheet)) == rows // 2 and met <= rows // 2


def test_the_estimate_of_each_kind(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text('{"id": 1}\n\n{"id": 2}\n{"id": 3}')  # a blank line is no game
    (tmp_path / "b.json").write_text('[{"id": 1}, {"id": 2}]')
    (tmp_path / "c.json").write_text('{"id": 1}')
    (tmp_path / "d.csv").write_text("date,player1,player2,score1,score2\n2026-03-03,A,B,121,90\n")
    (tmp_path / "e.pgn").write_text('[FirstDealer "A"]\n[Result "1-0"]\n\n1.\n  H1 3D\n[FirstDealer "B"]\n\n1.\n')
    (tmp_path / "f.json").write_text("not json")
    got = {p.name: games_in(str(p)) for p in sorted(tmp_path.iterdir())}
    assert got == {"a.jsonl": 3, "b.json": 2, "c.json": 1, "d.csv": 1, "e.pgn": 2, "f.json": 0}
    assert games_to_import([str(tmp_path), "-"]) is None  # standard input: no size known


def _import_on_a_terminal(*args: str) -> list[str]:
    """Run ``cribstats import`` with standard error on a pseudo-terminal; the progress lines it drew."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
    process = subprocess.Popen([*CRIBSTATS, "import", *args], stderr=slave, stdout=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert process.wait(timeout=300) == 0
    os.close(master)
    text = b"".join(chunks).decode("utf-8", errors="replace")
    return [line.strip() for line in ESCAPES.sub("", text).replace("\n", "\r").split("\r") if line.strip()]


@pytest.mark.skipif(not hasattr(pty, "openpty"), reason="no pseudo-terminals on this platform")
def test_the_progress_shows_games_of_the_total_and_time_left(tmp_path: Path) -> None:
    import orjson

    from cribstats.simulate import simulate_games

    logs = tmp_path / "season.jsonl"
    logs.write_bytes(b"".join(orjson.dumps(g.log) + b"\n" for g in simulate_games(600, seed=4)))
    lines = _import_on_a_terminal("--db", f"sqlite:///{tmp_path / 'p.db'}", "-j", "1", "--batch-size", "100",
                                  str(logs))  # fmt: skip
    shown = [re.search(r"(\d+)/(\d+) games (\d+:\d\d:\d\d|-:--:--)", line) for line in lines]
    counts = [(int(m.group(1)), int(m.group(2))) for m in shown if m]
    assert counts, lines
    assert {total for _, total in counts} == {600}
    done = [n for n, _ in counts]
    assert done == sorted(done) and done[-1] == 600 and len(set(done)) > 2  # it moved, batch by batch
    assert any(m and re.fullmatch(r"\d+:\d\d:\d\d", m.group(3)) for m in shown)  # a time left was shown


@pytest.mark.skipif(not hasattr(pty, "openpty"), reason="no pseudo-terminals on this platform")
def test_a_file_name_in_the_progress_is_text(tmp_path: Path) -> None:
    """The progress names the file being read: markup and control characters in the name stay text."""
    import orjson

    from cribstats.simulate import simulate_games

    logs = tmp_path / "[bold red]night\x1b[2J.jsonl"
    logs.write_bytes(b"".join(orjson.dumps(g.log) + b"\n" for g in simulate_games(30, seed=5)))
    lines = _import_on_a_terminal("--db", f"sqlite:///{tmp_path / 'p.db'}", "-j", "1", "--batch-size", "10",
                                  str(logs))  # fmt: skip
    assert any("[bold red]night\\x1b[2J.jsonl" in line for line in lines), lines
