"""The simulators take their players' names by the rule the game logs follow, so that they never write a log that
``cribstats import`` refuses: a hidden character, a name over 64 characters, or two names one player apart only
in case are refused with the option (exit 2, nothing written); a name the rule keeps is written as the logs
keep it (NFC) and imports."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

COMMANDS = {
    "simulate": ["simulate", "-n", "2"],
    "simulate-nights": ["simulate-nights", "-n", "1"],
    "simulate-matches": ["simulate-matches", "-n", "1", "--rules", "best-of-3"],
}
BAD = [
    ("A\u202eb,Bob,Cy,Di", "--players: 'A\\u202eb': a player's name may not hold U+202E"),
    ("Ann,Bob,bob,Di", "--players: players 'Bob' and 'bob' differ only in case or spacing"),
    ("Ann," + "x" * 65 + ",Cy,Di", "a player's name is at most 64 characters, not 65"),
]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stderr


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(("players", "said"), BAD)
def test_a_name_the_logs_refuse_is_refused_by_the_simulators(
    tmp_path: Path, command: str, players: str, said: str
) -> None:
    out = tmp_path / "out.jsonl"
    code, err = run(*COMMANDS[command], "--players", players, "--out", str(out))
    assert code == 2
    assert said in err and err.startswith("error: ")
    assert not out.exists()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_name_the_rule_keeps_is_written_as_kept_and_imports(tmp_path: Path, command: str) -> None:
    decomposed = unicodedata.normalize("NFD", "Zoë")  # e and a combining diaeresis: kept as NFC
    out = tmp_path / "out.jsonl"
    others = ",Bob" if command == "simulate-matches" else ",Bob,Cy,Di"  # a match draws two: Zoë plays in it
    code, err = run(*COMMANDS[command], "--players", f" {decomposed} {others}", "--out", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert "Zo\u00eb" in text and decomposed not in text
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, err = run("import", str(out), "--db", db)
    assert code == 0, err
