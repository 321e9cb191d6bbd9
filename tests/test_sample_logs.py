"""The sample logs are what their README says: mistake logs give exactly their expected findings, the rest none."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
MISTAKES = sorted((SAMPLES / "mistakes").glob("*.jsonl"))


@pytest.mark.parametrize("log", MISTAKES, ids=lambda p: p.name)
def test_a_mistakes_log_gives_exactly_its_expected_findings(log: Path) -> None:
    expected_file = log.with_name(log.name.removesuffix(".jsonl") + ".expected-findings.txt")
    expected = expected_file.read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", "--json", str(log)])
    assert result.exit_code == 1
    assert result.stdout == expected
    assert expected.count("\n") > 10


def test_the_other_samples_audit_clean() -> None:
    clean = [str(p) for p in (SAMPLES / "club-night.jsonl", SAMPLES / "variants", SAMPLES / "tally")]
    result = CliRunner().invoke(app, ["audit", "--json", *clean])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
