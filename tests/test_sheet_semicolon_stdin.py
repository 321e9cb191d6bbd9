"""A sheet saved with semicolons between its cells (a spreadsheet where the comma is the decimal sign) read from
standard input: it was taken for JSON ("not valid JSON") while the same file by its path was read as a sheet.
Standard input is told a sheet by its header with either separator, as a file is (docs/match.md "Which CSV is
which"); run through ``cribstats import -`` with a real SQLite file and ``cribstats audit -``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

TALLY = ("date;event;round;player1;player2;score1;score2;first_dealer\n"
         "2016-02-11;Ærø Vinterliga;1;Søren;O'Brien, Jr.;121;88;O'Brien, Jr.\n"
         "2016-02-11;Ærø Vinterliga;2;Søren;Zoë;97;121;\n")  # fmt: skip
CARDS = ("date;event;round;player;opponent;game_points;spread\n"
         "2016-02-11;Ærø Vinterliga;3;Ann;Ben;3;+40\n"
         "2016-02-11;Ærø Vinterliga;3;Ben;Ann;0;-40\n")  # fmt: skip
EXCEL = "\ufeff" + TALLY.replace("\n", "\r\n")  # Excel's "CSV (semicolon delimited)": a BOM, CRLF line ends


def _games(db: str) -> list[tuple[str, list[str], list[int]]]:
    done = CliRunner().invoke(app, ["games", "--db", db, "-f", "json"])
    assert done.exit_code == 0, done.output
    return sorted((g["source"], g["players"], g["scores"]) for g in json.loads(done.stdout))


TALLY_GAMES = [("<stdin>:line 2", ["O'Brien, Jr.", "Søren"], [88, 121]),
               ("<stdin>:line 3", ["Søren", "Zoë"], [97, 121])]  # fmt: skip


@pytest.mark.parametrize("text", [TALLY, EXCEL], ids=["lf", "excel"])
def test_a_semicolon_tally_sheet_on_standard_input_is_imported(tmp_path: Path, text: str) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    done = CliRunner().invoke(app, ["import", "-q", "--db", db, "-"], input=text.encode())
    assert (done.exit_code, done.stderr) == (0, ""), done.output
    assert "games imported │ 2" in " ".join(done.stdout.split())
    assert _games(db) == TALLY_GAMES


def test_a_semicolon_scorecard_sheet_on_standard_input_is_imported(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    done = CliRunner().invoke(app, ["import", "-q", "--db", db, "-"], input=CARDS.encode())
    assert (done.exit_code, done.stderr) == (0, ""), done.output
    assert _games(db) == [("<stdin>:lines 2, 3", ["Ann", "Ben"], [121, 81])]


@pytest.mark.parametrize("text", [TALLY, EXCEL], ids=["lf", "excel"])
def test_the_audit_of_a_semicolon_sheet_on_standard_input_reads_its_games(text: str) -> None:
    done = CliRunner().invoke(app, ["audit", "--json", "-"], input=text.encode())
    assert (done.exit_code, done.stdout, done.stderr) == (0, "", "")  # two clean games, no finding
    done = CliRunner().invoke(app, ["audit", "-"], input=text.encode())
    assert done.exit_code == 0 and "games audited │ 2" in " ".join(done.stdout.split())


def test_a_semicolon_sheet_with_a_bad_row_on_standard_input_is_refused_at_its_row(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    text = TALLY + "2016-02-11;Ærø Vinterliga;3;Søren;Zoë;-5;121;\n"
    done = CliRunner().invoke(app, ["import", "-q", "--db", db, "-"], input=text.encode())
    assert (done.exit_code, done.stderr) == (2, "<stdin>:line 4: score1: '-5' is below 0: a score is 0 or more\n")
    assert _games(db) == TALLY_GAMES
