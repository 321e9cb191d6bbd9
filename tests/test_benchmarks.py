"""Every benchmark runs, at tiny sizes, from this checkout (a benchmark cannot rot unseen); the figures they
print are not judged here (speed is measured in ``benchmarks/``, not asserted in tests)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"

# each benchmark with the options that make it tiny, and a few words its report always has
TINY: dict[str, tuple[list[str], str]] = {
    "bench_audit.py": (["--games", "12", "--repeat", "1"], "games per CPU second"),
    "bench_discards.py": (["--deals", "20", "--stored", "300"], "naive evaluation"),
    "bench_import.py": (["--games", "24", "--base", "12", "--workers", "2"], "SQLite"),
    "bench_instructions.py": (["--games", "3", "--parts", "orjson,audit"], "x orjson"),
    "bench_parse.py": (["30"], "games/s"),
    "bench_serve.py": (["100", "--requests", "2", "--rounds", "1", "--seed-games", "10"], "upload of"),
    "bench_scoring.py": (["--runs", "1", "--sample", "20"], "hands"),
    "bench_simulate.py": (["--games", "4"], "games"),
    "bench_stats.py": (["40", "--seed-games", "1", "--repeat", "1", "--report-logs", "-"],
                       "compute_stats (SQL + polars)"),
    "realism.py": (["--games", "10"], "first dealer wins"),
}


def test_every_benchmark_has_a_smoke_run() -> None:
    assert sorted(p.name for p in BENCHMARKS.glob("*.py")) == sorted(TINY)


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_benchmark_runs_at_a_tiny_size(name: str, tmp_path: Path) -> None:
    options, expected = TINY[name]
    if name == "bench_instructions.py" and shutil.which("valgrind") is None:
        pytest.skip("bench_instructions.py counts instructions with valgrind, which is not installed")
    if name in ("bench_stats.py", "bench_serve.py"):
        options = [*options, "--folder", str(tmp_path / "stores")]
    env = {k: v for k, v in os.environ.items() if k != "CRIBSTATS_DB"}
    done = subprocess.run([sys.executable, str(BENCHMARKS / name), *options], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert expected in done.stdout
