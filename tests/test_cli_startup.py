"""The command line builds only the group of the command it runs: the same commands, help and errors as the whole
``app``, for every command."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from cribstats.cli.app import COMMANDS, GROUPS, build_app

WHOLE = build_app()
runner = CliRunner()


def names(app: typer.Typer) -> list[str]:
    command = typer.main.get_command(app)
    assert isinstance(command, typer.core.TyperGroup)
    return list(command.commands)


def test_every_command_is_known_with_the_group_that_registers_it() -> None:
    assert sorted(names(WHOLE)) == sorted(COMMANDS)
    for group in GROUPS:
        assert names(build_app((group,))) == [name for name in names(WHOLE) if COMMANDS[name] == group]
    assert set(COMMANDS.values()) == set(GROUPS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_commands_help_is_the_same_from_its_group_alone(name: str) -> None:
    alone = runner.invoke(build_app((COMMANDS[name],)), [name, "--help"], terminal_width=100)
    whole = runner.invoke(WHOLE, [name, "--help"], terminal_width=100)
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)
    assert alone.exit_code == 0 and name in alone.output


@pytest.mark.parametrize("args", [["audit", "--jsn", "x.jsonl"], ["audit"], ["score", "5H"], ["peg", "1X"]])
def test_a_usage_error_is_the_same_from_the_group_alone(args: list[str]) -> None:
    alone = runner.invoke(build_app((COMMANDS[args[0]],)), args, terminal_width=100)
    whole = runner.invoke(WHOLE, args, terminal_width=100)
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)
    assert alone.exit_code == 2


def run(code: str, *args: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False,
                          env={**os.environ, "COLUMNS": "100"})
    return done.returncode, done.stdout, done.stderr


MAIN, WHOLE_APP = "from cribstats.cli.app import main; main()", "from cribstats.cli.app import app; app()"


def test_main_runs_the_named_command_and_the_whole_command_for_anything_else() -> None:
    status, out, _ = run(MAIN, "score", "5C", "5D", "5H", "JS", "5S", "--json")
    assert status == 0 and '"total":29' in out.replace(" ", "")
    for args in ([], ["--help"], ["no-such-command"], ["--version"], ["audit", "--jsn"]):
        assert run(MAIN, *args) == run(WHOLE_APP, *args)
    status, out, _ = run(MAIN, "--version")
    assert status == 0 and out.startswith("cribstats ")
