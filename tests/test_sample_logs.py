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


def test_the_readme_tells_the_four_player_partnerships_as_the_games_have_them() -> None:
    import json

    row = next(line for line in (SAMPLES / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `variants/four-player/`"))  # fmt: skip
    games: dict[tuple[str, str, str, str], list[int]] = {}
    pairs = set()
    for number, path in enumerate(sorted((SAMPLES / "variants" / "four-player").glob("*.json")), 1):
        seats = json.loads(path.read_text(encoding="utf-8"))["players"]
        sides = [seats[0::2], seats[1::2]]  # partners sit in seats 0 and 2, 1 and 3
        jacks, leos = (next(side for side in sides if name in side) for name in ("Jack", "Leo"))
        assert jacks is not leos
        partner = {"Jack": next(n for n in jacks if n != "Jack"), "Leo": next(n for n in leos if n != "Leo")}
        games.setdefault(("Jack", partner["Jack"], "Leo", partner["Leo"]), []).append(number)
        pairs |= {frozenset(jacks), frozenset(leos)}
    assert len(games) > 1  # the partnerships change between games
    for (a, b, c, d), numbers in games.items():
        listed = ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
        assert f"{a} and {b} against {c} and {d} in games {listed}" in row
    assert frozenset({"Jack", "Leo"}) not in pairs and "Jack and Leo are never partners" in row
