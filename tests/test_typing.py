"""mypy over the package (strict on the rules core, see pyproject.toml) and the benchmarks finds nothing, and the
finding kinds are typed: a misspelt kind is a type error, not a finding nobody can count."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("mypy", reason="mypy is in the test extras: pip install -e '.[test]'")


def mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MYPYPATH": str(ROOT)}  # the package as a checkout, wherever mypy runs from
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", *args], cwd=cwd, capture_output=True, text=True, env=env
    )


def test_the_package_and_the_benchmarks_type_check() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert {"cribstats", "benchmarks"} <= set(config["files"]), config["files"]  # what mypy with no paths checks
    run = mypy()
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_misspelt_finding_kind_does_not_type_check(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from cribstats.findings import Finding\n"
        "good = Finding('g', 1, None, 'missed', 'play', 'Ann', 0, 2, 'Ann pegged 0')\n"
        "bad = Finding('g', 1, None, 'mised', 'play', 'Ann', 0, 2, 'Ann pegged 0')\n",
        encoding="utf-8",
    )
    run = mypy("--config-file", str(ROOT / "pyproject.toml"), str(probe), cwd=tmp_path)
    assert run.returncode == 1
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "probe.py:3:" in errors[0] and "mised" in errors[0]
