"""User text in messages prints literally: a name or a path holding a backslash or a quote is shown between single
quotes as typed (not as Python's repr shows it), and a command a message suggests can be pasted into a shell.
Only a hidden or controlling character is written as an escape. The command line runs (CliRunner, and a real
shell for the pasted command) against an SQLite file in tmp_path holding the sample club night."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.names import FORBIDDEN_CATEGORIES, quoted

CLUB_NIGHT = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"
ANN_TX = "Ann\\tX"  # six characters: A n n \ t X
SUGGESTED = re.compile(r"use `(cribstats players merge [^`]*)`")


def run(url: str, *args: str, input: str | None = None) -> Any:
    """``cribstats ARGS`` with the store named by CRIBSTATS_DB, as a user who exported it would type."""
    return CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "200", "CRIBSTATS_DB": url})


def players(url: str) -> dict[str, dict[str, Any]]:
    result = run(url, "players", "--format", "json")
    assert result.exit_code == 0, result.output
    return {row["name"]: row for row in orjson.loads(result.stdout)}


@pytest.fixture
def club(tmp_path: Path) -> str:
    """The sample club night stored in an SQLite file (Alice and Bob never met, nor did Carol and Dave)."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    result = run(url, "import", "-q", str(CLUB_NIGHT))
    assert result.exit_code == 0, result.output
    return url


def test_quoted_shows_text_as_typed_and_escapes_only_hidden_characters() -> None:
    assert quoted("C:\\games\\g1") == "'C:\\games\\g1'" == "'" + r"C:\games\g1" + "'"
    assert quoted(ANN_TX) == r"'Ann\tX'"
    assert quoted("Bob's") == "'Bob's'"
    assert quoted('Ann "the Cat"') == "'Ann \"the Cat\"'"
    assert quoted("Zoë 麻雀") == "'Zoë 麻雀'"
    assert quoted("") == "''"
    # a control character typed on the command line, a zero-width space, a bidi override: escaped, as visible()
    # does
    assert quoted("Ann\tX") == r"'Ann\x09X'"
    assert quoted("\x1b[31mRed") == r"'\x1b[31mRed'"
    assert quoted("Ann\u200b") == r"'Ann\u200b'"
    assert quoted("\u202eevil") == r"'\u202eevil'"
    assert quoted("Ann\U000e0fff") == r"'Ann\U000e0fff'"


def test_quoted_agrees_with_the_terminal_escapes() -> None:
    """quoted() escapes what safetext.visible() escapes, the same way; a message it made passes visible() as it
    is, so nothing is escaped twice."""
    from cribstats.safetext import HIDDEN_CATEGORIES, visible

    assert frozenset(FORBIDDEN_CATEGORIES) == HIDDEN_CATEGORIES
    for text in ("Ann\tX", "\x1b]0;title\x07", "Ann\u2028Bob", "Ann\ue000", "a\\b'c\"d", "Zoë\u200b"):
        assert quoted(text) == f"'{visible(text)}'"
        assert visible(quoted(text)) == quoted(text)


def test_rename_prints_the_new_name_literally(club: str) -> None:
    result = run(club, "players", "rename", "Alice", ANN_TX)
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == r"renamed 'Alice' to 'Ann\tX'"
    assert "\\\\" not in result.stderr
    assert players(club)[ANN_TX]["aliases"] == ["Alice"]  # the stored name is the six characters typed


def test_a_taken_name_suggests_a_merge_command_that_works_when_pasted(club: str) -> None:
    assert run(club, "players", "rename", "Alice", ANN_TX).exit_code == 0
    result = run(club, "players", "rename", "Bob", ANN_TX)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        r"error: 'Ann\tX' is the stored player 'Ann\tX': to make them one player, use "
        r"`cribstats players merge Bob 'Ann\tX'`"
    )
    command = SUGGESTED.search(result.stderr)
    assert command is not None
    words = shlex.split(command.group(1))  # as a POSIX shell reads the pasted command
    assert words == ["cribstats", "players", "merge", "Bob", ANN_TX]
    merged = run(club, *words[1:], input="y\n")
    assert merged.exit_code == 0, merged.output
    assert r"merged 'Bob' into 'Ann\tX': 7 games moved; 'Bob' is now an alias of 'Ann\tX'" in merged.stderr
    after = players(club)
    assert "Bob" not in after
    assert after[ANN_TX]["games"] == 14
    assert after[ANN_TX]["aliases"] == ["Alice", "Bob"]


def test_a_suggested_command_with_a_quote_in_a_name_runs_in_a_real_shell(club: str, tmp_path: Path) -> None:
    """A name holding a single quote (and a backslash): the suggestion is quoted as a shell needs, and running
    it with /bin/sh merges the players."""
    name = "Carol's \\Mum"
    assert run(club, "players", "rename", "Carol", name).exit_code == 0
    result = run(club, "players", "rename", "Dave", name)
    assert result.exit_code == 2
    assert "error: 'Carol's \\Mum' is the stored player 'Carol's \\Mum'" in result.stderr
    command = SUGGESTED.search(result.stderr)
    assert command is not None
    assert command.group(1) == "cribstats players merge Dave 'Carol'\"'\"'s \\Mum'"
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "CRIBSTATS_DB": club,
           "COLUMNS": "200"}
    shell = subprocess.run(["/bin/sh", "-c", command.group(1)], input="y\n", capture_output=True, text=True,
                           env=env, cwd=tmp_path, timeout=120)
    assert shell.returncode == 0, shell.stderr
    assert "merged 'Dave' into 'Carol's \\Mum': 7 games moved" in shell.stderr
    after = players(club)
    assert "Dave" not in after
    assert after[name]["games"] == 14


def test_show_names_an_unknown_path_as_typed(club: str) -> None:
    result = run(club, "show", "C:\\games\\g1")
    assert result.exit_code == 2
    assert result.stderr.strip() == r"error: no stored game 'C:\games\g1': `cribstats games` lists them"


def test_a_control_character_typed_on_the_command_line_is_escaped(club: str) -> None:
    result = run(club, "show", "g\x1b[2Jone")
    assert result.exit_code == 2
    assert result.stderr.strip() == r"error: no stored game 'g\x1b[2Jone': `cribstats games` lists them"
    assert "\x1b" not in result.stderr
