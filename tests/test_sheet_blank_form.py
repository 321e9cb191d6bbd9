"""A blank form saved from a spreadsheet: the header and empty rows after it, which a spreadsheet writes as lines
of separators (``,,,,,,`` or ``;;;;;;``) or leaves as empty lines. Such a sheet was read as rows that held nothing:
exit 0, no file read, no import history. A row of only separators and spaces is a blank row: passed over among
other rows, and a sheet with nothing else after its header is refused as a header alone is, "the sheet has its
header and no rows after it", exit 2 (docs/decisions.md "A sheet's blank columns at the end"). Run through
``cribstats import`` (a real SQLite file, its history) and ``cribstats audit``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

TALLY = "date,event,round,player1,player2,score1,score2"
CARDS = "date,event,round,player,opponent,game_points,spread"
BLANK_FORMS = {
    "excel": "\ufeff" + TALLY.replace(",", ";") + "\r\n;;;;;;\r\n",  # BOM, semicolons, CRLF
    "commas": TALLY + "\n,,,,,,\n",
    "empty lines": TALLY + "\n\n\n",
    "spaces": TALLY + "\n , ,,\t,,, \n   \n,,\n",
    "cards": CARDS + "\n,,,,,,\n,,,,,,\n",
    "blank lines first": "\n\n" + TALLY + "\n,,,,,,\n",
}


def _import(db: str, *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, ["import", "-q", "--db", db, *args], input=stdin)
    return done.exit_code, done.stderr, " ".join(done.stdout.split())


@pytest.mark.parametrize("name", list(BLANK_FORMS))
def test_a_blank_form_is_refused_as_a_header_alone_is(tmp_path: Path, name: str) -> None:
    text = BLANK_FORMS[name]
    header_line = 3 if name == "blank lines first" else 1
    sheet = tmp_path / "form.csv"
    sheet.write_bytes(text.encode())
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, summary = _import(db, str(sheet))
    assert (code, refused) == (2, f"{sheet}:line {header_line}: the sheet has its header and no rows after it\n")
    assert "files read │ 1" in summary and "refused │ 1" in summary and "games imported │ 0" in summary
    history = json.loads(CliRunner().invoke(app, ["imports", "--db", db, "-f", "json"]).stdout)
    assert [(run["file"], run["imported"], run["refused"]) for run in history] == [(str(sheet), 0, 1)]
    audit = CliRunner().invoke(app, ["audit", "--json", str(sheet)])
    assert (audit.exit_code, audit.stdout, audit.stderr) == (2, "", refused)
    # the same from standard input
    code, refused, _summary = _import(db, "-", stdin=text.encode())
    assert (code, refused) == (2, f"<stdin>:line {header_line}: the sheet has its header and no rows after it\n")


def test_blank_rows_among_rows_are_passed_over(tmp_path: Path) -> None:
    sheet = tmp_path / "ladder.csv"
    sheet.write_text(TALLY + "\n,,,,,,\n2026-11-03,Ladder,1,Ann,Ben,121,88\n \n,,, ,,,\n")
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, summary = _import(db, str(sheet))
    assert (code, refused) == (0, "")
    assert "games imported │ 1" in summary


def test_a_sheet_whose_only_row_is_refused_is_refused_for_that_row_alone(tmp_path: Path) -> None:
    # a row was there: it is refused at its line, and the sheet is not said to have no rows
    sheet = tmp_path / "ladder.csv"
    sheet.write_text(TALLY + '\n2026-11-03,"Ladder,1,Ann,Ben,121,88\n,,,,,,\n')
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, _summary = _import(db, str(sheet))
    assert (code, refused) == (2, f'{sheet}:line 2: a quote (") opened on this line is not closed on it\n')
    # a cell the csv module cannot read (over its limit) refuses its row: that row was there too
    sheet.write_text(TALLY + "\n2026-11-03,Ladder,1," + "A" * 200_000 + ",Ben,121,88\n")
    code, refused, _summary = _import(db, str(sheet))
    assert (code, refused) == (2, f"{sheet}:line 2: a cell is longer than 131072 characters\n")
    sheet.write_text(TALLY + "\n2026-11-03,Ladder,1,Ann,Ben,121,-5\n,,,,,,\n")
    code, refused, _summary = _import(db, str(sheet))
    assert (code, refused) == (2, f"{sheet}:line 2: score2: '-5' is below 0: a score is 0 or more\n")
