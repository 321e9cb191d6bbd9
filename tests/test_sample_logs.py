"""The sample logs are what their README says: mistake logs give exactly their expected findings, the rest none."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
MISTAKES = sorted((SAMPLES / "mistakes").glob("*.jsonl"))
WITH_FINDINGS = [SAMPLES / "nights" / "grass-roots-2026-11-05.csv", SAMPLES / "matches" / "points-to-7.jsonl"]


@pytest.mark.parametrize("log", MISTAKES, ids=lambda p: p.name)
def test_a_mistakes_log_gives_exactly_its_expected_findings(log: Path) -> None:
    expected_file = log.with_name(log.name.removesuffix(".jsonl") + ".expected-findings.txt")
    expected = expected_file.read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", "--json", str(log)])
    assert result.exit_code == 1
    assert result.stdout == expected
    assert expected.count("\n") > 10


@pytest.mark.parametrize("log", WITH_FINDINGS, ids=lambda p: p.name)
def test_the_scorecards_and_the_cup_final_give_exactly_their_expected_findings(log: Path) -> None:
    expected = log.with_name(log.name.rsplit(".", 1)[0] + ".expected-findings.txt").read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", "--json", str(log)])
    assert result.exit_code == 1
    assert result.stdout == expected
    assert expected.count("\n") == 1


def test_the_other_samples_audit_clean() -> None:
    clean = [str(p) for p in (SAMPLES / "club-night.jsonl", SAMPLES / "variants", SAMPLES / "tally",
                              SAMPLES / "nights" / "grass-roots-season.jsonl",
                              SAMPLES / "matches" / "playoffs-best-of-3.jsonl", SAMPLES / "options")]
    result = CliRunner().invoke(app, ["audit", "--json", *clean])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
