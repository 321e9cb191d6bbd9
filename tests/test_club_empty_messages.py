"""The club tables on a store with nothing they can show say so as ``stats`` does: how to fill an empty store, or
which filter found nothing (never "for all games")."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("command", "what"),
    [
        (["season"], "finished, dated games"),
        (["head-to-head"], "finished games between players"),
        (["rating"], "finished games"),
        (["matches"], "matches"),
    ],
)
def test_an_empty_store_says_how_to_fill_it(tmp_path: Path, command: list[str], what: str) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    assert run("db", "upgrade", "--db", url)[0] == 0
    code, err = run(*command, "--db", url)
    assert (code, err.strip()) == (0, f"no {what} stored yet: `cribstats import PATH` stores them")


@pytest.mark.parametrize("command", [["head-to-head", "Ann"], ["rating", "Ann"]])
def test_a_player_and_an_event_that_find_nothing_are_both_named(tmp_path: Path, command: list[str]) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    assert run("db", "upgrade", "--db", url)[0] == 0
    code, err = run(*command, "--event", "Spring Cup", "--db", url)
    assert code == 0
    assert "player Ann" in err and "event Spring Cup" in err
