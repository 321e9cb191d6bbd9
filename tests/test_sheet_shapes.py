"""Sheets as clubs save them. A spreadsheet often ends every line with blank columns (``...,score2,,``): those
columns have no name and no value and are not part of the sheet; a value in one is still refused at its line. A
sheet with its header and no row (a blank form) is refused as an empty file is: nothing was read. A sheet saved
with semicolons between its cells is read as with commas."""

from __future__ import annotations

from pathlib import Path

import pytest
from databases import night_cards
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.errors import LogError
from cribstats.formats import read_games

TALLY = ("date,event,round,player1,player2,score1,score2,,\r\n"
         "2026-11-03,Tuesday League,1,Ann,Ben,121,88,,\r\n"
         "2026-11-03,Tuesday League,2,Cat,Dan,97,121,, \r\n"
         "2026-11-03,Tuesday League,3,Ann,Cat,121,60,,oops\r\n")  # fmt: skip
CARDS = ("date,event,round,player,opponent,game_points,spread,,,\n"
         "2026-11-28,Club Night,1,Ann,Ben,2,+30,,,\n"
         "2026-11-28,Club Night,1,Ben,Ann,0,-30,,,\n")  # fmt: skip
ANN_BEATS_BEN = [("Ann", "2/1 +30"), ("Ben", "0/0 -30")]  # the night's cards of CARDS


def test_a_tally_sheet_with_blank_columns_at_the_end_is_read(tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    path.write_text(TALLY, encoding="utf-8", newline="")
    errors: list[LogError] = []
    games = list(read_games(str(path), on_error=errors.append))
    assert [(g.place, g.game.result.winner, g.game.result.scores) for g in games] == [
        ("line 2", "Ann", {"Ann": 121, "Ben": 88}),
        ("line 3", "Dan", {"Cat": 97, "Dan": 121}),
    ]
    assert [str(e) for e in errors] == [
        f"{path}:line 4: expected 7 values, as the header has, found 9",
    ]


def test_a_scorecard_sheet_with_blank_columns_at_the_end_makes_its_game(tmp_path: Path) -> None:
    (tmp_path / "cards.csv").write_text(CARDS, encoding="utf-8")
    assert night_cards(tmp_path / "cards.csv", "Club Night", "2026-11-28") == ANN_BEATS_BEN


@pytest.mark.parametrize("header", ["date,event,round,player1,player2,score1,score2",
                                    "date,event,round,player,opponent,game_points,spread"])
def test_a_sheet_with_its_header_and_no_rows_is_refused_as_an_empty_file_is(tmp_path: Path, header: str) -> None:
    path = tmp_path / "blank.csv"
    path.write_text(f"\n{header}\n", encoding="utf-8")
    errors: list[LogError] = []
    assert list(read_games(str(path), on_error=errors.append)) == []
    assert [str(e) for e in errors] == [f"{path}:line 2: the sheet has its header and no rows after it"]
    code = CliRunner().invoke(app, ["audit", str(path)]).exit_code
    assert code == 2


@pytest.mark.parametrize("text", ["[]", "[ ]\n", "\ufeff[\n]\n"])
def test_a_json_array_of_no_game_is_refused_as_an_empty_file_is(tmp_path: Path, text: str) -> None:
    """An array with no game in it: nothing was read, so the audit and the import exit 2, not 0 (a clean audit)."""
    path = tmp_path / "night.json"
    path.write_text(text, encoding="utf-8")
    errors: list[LogError] = []
    assert list(read_games(str(path), on_error=errors.append)) == []
    assert [str(e) for e in errors] == [f"{path}: the array holds no game"]
    audit = CliRunner().invoke(app, ["audit", "--json", str(path)])
    assert (audit.exit_code, audit.stdout) == (2, "")
    imported = CliRunner().invoke(app, ["import", "-q", "--db", f"sqlite:///{tmp_path / 'club.db'}", str(path)])
    assert imported.exit_code == 2


def test_a_sheet_saved_with_semicolons_reads_as_with_commas(tmp_path: Path) -> None:
    """A spreadsheet set to use the comma as its decimal sign saves CSV with semicolons between the cells: the
    same sheets, read the same (a name holding a comma is then one cell unquoted)."""
    tally = ("date;event;round;player1;player2;score1;score2\n"
             "2026-11-03;Tuesday League;1;Smith, Ann;Ben;121;88\n")  # fmt: skip
    cards = CARDS.replace(",", ";")
    (tmp_path / "ladder.csv").write_text(tally, encoding="utf-8")
    (tmp_path / "cards.csv").write_text(cards, encoding="utf-8")
    games = list(read_games(str(tmp_path / "ladder.csv")))
    assert [(g.place, g.game.players, g.game.result.scores) for g in games] == [
        ("line 2", ["Smith, Ann", "Ben"], {"Smith, Ann": 121, "Ben": 88}),
    ]
    assert night_cards(tmp_path / "cards.csv", "Club Night", "2026-11-28") == ANN_BEATS_BEN
    # a header with both (a comma in a column's name) is read with commas, and refused for its columns
    (tmp_path / "mixed.csv").write_text("date;event,round;player1;player2;score1;score2\n", encoding="utf-8")
    errors: list[LogError] = []
    assert list(read_games(str(tmp_path / "mixed.csv"), on_error=errors.append)) == []
    assert "missing column 'date'" in str(errors[0])
