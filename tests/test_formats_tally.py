"""Club tally sheets (CSV): each row a result-only game log, each bad row refused with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribstats.errors import LogError
from cribstats.formats import SourceGame, read_games
from cribstats.formats.export import write_game_json

DATA = Path(__file__).parent / "data" / "formats"
HEADER = "date,event,round,player1,player2,score1,score2"


def read_all(path: Path) -> tuple[list[SourceGame], list[str]]:
    errors: list[LogError] = []
    games = list(read_games(str(path), on_error=errors.append))
    return games, [str(e) for e in errors]


def sheet(tmp_path: Path, text: str, name: str = "sheet.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_each_row_is_a_result_only_record() -> None:
    path = DATA / "tally.csv"
    games, errors = read_all(path)
    assert errors == []
    assert [g.place for g in games] == ["line 2", "line 3", "line 4", "line 6"]  # line 5 is blank
    first = games[0].game
    assert (first.date, first.event, first.round) == ("2026-11-03", "Tuesday League", "1")
    assert first.players == ["Alice", "Bob"]
    assert first.deals is None
    assert (first.variant, first.target, first.id) == (None, None, None)
    assert (first.result.winner, first.result.scores) == ("Alice", {"Alice": 121, "Bob": 88})
    second = games[1].game
    assert (second.players, second.result.winner, second.result.scores) == (
        ["Carol", "Dave"], "Dave", {"Carol": 104, "Dave": 121})
    last = games[3].game
    assert (last.date, last.result.winner) == ("2026-11-10", "Bob")


def test_the_written_log_is_the_record_the_spec_describes() -> None:
    (game, *_) = read_games(str(DATA / "tally.csv"))
    assert write_game_json(game.game) == (
        b'{"format":"cribstats/game/1","event":"Tuesday League","date":"2026-11-03","round":"1",'
        b'"players":["Alice","Bob"],"result":{"winner":"Alice","scores":{"Alice":121,"Bob":88}}}'
    )


def test_optional_columns() -> None:
    games, errors = read_all(DATA / "tally-optional.csv")
    assert errors == []
    five, plain, no_meta = (g.game for g in games)
    # first_dealer Ben is listed first: seat order starts with the first dealer
    assert (five.players, five.variant, five.target) == (["Ben", "Ann"], "five-card", 61)
    assert (five.result.winner, five.result.scores) == ("Ann", {"Ann": 61, "Ben": 44})
    assert (plain.players, plain.variant, plain.target, plain.result.winner) == (["Cy", "Di"], None, None, "Di")
    assert (no_meta.date, no_meta.event, no_meta.round) == (None, None, None)
    assert (no_meta.players, no_meta.result.winner) == (["Ed", "Fay"], "Ed")


def test_bad_rows_are_refused_with_their_line_and_the_rest_read() -> None:
    path = DATA / "tally-bad.csv"
    games, errors = read_all(path)
    assert [g.place for g in games] == ["line 2", "line 8"]
    assert errors == [
        f"{path}:line 3: a tie (104-104) is not a result: a game of cribbage has a winner",
        f"{path}:line 4: player1 and player2 are both 'Alice'",
        f"{path}:line 5: score1: '12a' is not a whole number",
        f"{path}:line 6: expected 7 values, as the header has, found 6",
        f"{path}:line 7: date: '3/11/2026' is not a date: write YYYY-MM-DD",
    ]


def test_without_on_error_the_first_bad_row_raises() -> None:
    path = DATA / "tally-bad.csv"
    reader = read_games(str(path))
    assert next(reader).place == "line 2"
    with pytest.raises(LogError) as caught:
        next(reader)
    assert (caught.value.place, caught.value.message) == (
        "line 3", "a tie (104-104) is not a result: a game of cribbage has a winner")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("2026-11-03,L,1,,Bob,121,88", "line 2: player1: no name"),
        ("2026-11-03,L,1,Alice, ,121,88", "line 2: player2: no name"),
        ("2026-11-03,L,1,Alice,Bob,121,-3", "line 2: score2: '-3' is below 0: a score is 0 or more"),
        ("2026-11-03,L,1,Alice,Bob,121,88.5", "line 2: score2: '88.5' is not a whole number"),
        ("2026-11-03,L,1,Alice,crib,121,88", "line 2: player1, player2: 'crib' cannot be a player's name: show "
                                             "uses it for the crib"),
        ("2026-02-30,L,1,Alice,Bob,121,88", "line 2: date: '2026-02-30' is not a date of the calendar"),
    ],
)
def test_row_problems(tmp_path: Path, row: str, message: str) -> None:
    path = sheet(tmp_path, f"{HEADER}\n{row}\n")
    assert read_all(path) == ([], [f"{path}:{message}"])


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("Carol,,", "line 2: first_dealer: 'Carol' is neither player1 nor player2"),
        (",nine-card,", "line 2: variant: 'nine-card' is not a variant: use one of six-card, five-card, "
                        "seven-card, three-player, four-player"),
        (",three-player,", "line 2: variant: three-player is played by 3: a row of this sheet is a game "
                           "between two players"),
        (",,lots", "line 2: target: 'lots' is not a whole number"),
        (",,0", "line 2: target: must be more than 0, not 0"),
    ],
)
def test_optional_column_problems(tmp_path: Path, row: str, message: str) -> None:
    path = sheet(tmp_path, f"{HEADER},first_dealer,variant,target\n2026-11-03,L,1,Alice,Bob,121,88,{row}\n")
    assert read_all(path) == ([], [f"{path}:{message}"])


@pytest.mark.parametrize(
    ("player1", "player2", "first_dealer", "seats"),
    [
        ("Ann", "BEN", "Ben", ["BEN", "Ann"]),  # case
        ("Ann  Lee", "Bo", "Ann Lee", ["Ann  Lee", "Bo"]),  # inner spacing
        ("Ann", "Zo\u00eb", "Zoe\u0308", ["Zo\u00eb", "Ann"]),  # Unicode form
    ],
)
def test_first_dealer_names_a_player_as_players_are_matched(
    tmp_path: Path, player1: str, player2: str, first_dealer: str, seats: list[str]
) -> None:
    """The first dealer is one of the players, matched as the store matches players (case, spacing and
    Unicode form apart): he deals first, spelt as his player column spells him."""
    path = sheet(tmp_path, f"{HEADER},first_dealer\n2026-11-03,L,1,{player1},{player2},121,88,{first_dealer}\n")
    (game,) = read_games(str(path))
    assert game.game.players == seats


def test_variant_names_ignore_case(tmp_path: Path) -> None:
    path = sheet(tmp_path, f"{HEADER},variant\n2026-11-03,L,1,Alice,Bob,61,40,Five-Card\n")
    (game,) = read_games(str(path))
    assert game.game.variant == "five-card"


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("date,event,round,player1,player2,score1",
         "line 1: missing column 'score2': a tally sheet has the columns " + HEADER),
        (f"{HEADER},table",
         f"line 1: unknown column 'table': a tally sheet has the columns {HEADER}, and may add first_dealer, "
         "variant, target, match, match_game"),
        (f"{HEADER},date", "line 1: column 'date' is named twice"),
    ],
)
def test_header_problems_are_one_error_for_the_file(tmp_path: Path, header: str, message: str) -> None:
    path = sheet(tmp_path, f"{header}\n2026-11-03,L,1,Alice,Bob,121,88\n2026-11-03,L,1,Carol,Dave,121,88\n")
    assert read_all(path) == ([], [f"{path}:{message}"])


def test_header_in_any_order_and_case_quoted_cells_and_a_byte_order_mark(tmp_path: Path) -> None:
    path = sheet(tmp_path, '\ufeffPlayer2,Player1,Score2,Score1,Date,Event,Round\n'
                           'Bob,"Smith, Jo",90,121,2026-11-03,"Tuesday League, spring",3\n')
    (game,) = read_games(str(path))
    assert game.game.players == ["Smith, Jo", "Bob"]
    assert (game.game.event, game.game.round, game.game.result.winner) == ("Tuesday League, spring", "3",
                                                                           "Smith, Jo")


def test_an_empty_sheet_and_a_header_only_sheet(tmp_path: Path) -> None:
    empty = sheet(tmp_path, "", "empty.csv")
    assert read_all(empty) == ([], [f"{empty}: the file is empty"])
    header_only = sheet(tmp_path, HEADER + "\n", "header.csv")  # nothing to read, as an empty file
    assert read_all(header_only) == ([], [f"{header_only}:line 1: the sheet has its header and no rows after it"])


SAMPLE_SHEETS = sorted((DATA.parents[2] / "sample_logs").rglob("*.csv")) or [DATA / "tally.csv"]


@pytest.mark.parametrize("path", SAMPLE_SHEETS, ids=lambda p: p.name)
def test_every_sample_sheet_reads_cleanly(path: Path) -> None:
    games, errors = read_all(path)
    assert errors == []
    assert games
    for source in games:
        result = source.game.result
        assert result.winner in source.game.players
        assert result.scores[result.winner] == max(result.scores.values())


@pytest.mark.parametrize(
    ("columns", "row", "target"),
    [
        ("", "Alice,Bob,130,121", 121),  # six-card: the winner may go past 121, the loser never reaches it
        ("", "Alice,Bob,121,125", 121),
        (",variant", "Alice,Bob,62,61,five-card", 61),
        (",target", "Alice,Bob,100,91,91", 91),
    ],
)
def test_a_row_whose_two_scores_both_reach_the_target_is_refused(
    tmp_path: Path, columns: str, row: str, target: int
) -> None:
    # The game ends the moment one player reaches the target, so a result with both at or past it is no game.
    path = sheet(tmp_path, f"{HEADER}{columns}\n2026-11-03,L,1,{row}\n")
    one, two = row.split(",")[2:4]
    assert read_all(path) == ([], [
        f"{path}:line 2: both scores ({one}-{two}) reach the target, {target}: the game ends the moment one "
        "player reaches it, so the loser's score is below it"])


def test_a_loser_one_short_of_the_target_is_a_result(tmp_path: Path) -> None:
    path = sheet(tmp_path, f"{HEADER},variant\n2026-11-03,L,1,Alice,Bob,131,120,\n2026-11-03,L,2,Alice,Bob,60,64,"
                           "five-card\n")
    games, errors = read_all(path)
    assert errors == []
    assert [(g.game.result.winner, g.game.result.scores) for g in games] == [
        ("Alice", {"Alice": 131, "Bob": 120}), ("Bob", {"Alice": 60, "Bob": 64})]


@pytest.mark.parametrize("kind", ["tally", "scorecards"])
def test_a_cell_longer_than_the_csv_limit_is_refused_at_its_line_and_the_other_rows_read(
    tmp_path: Path, kind: str
) -> None:
    """It was a traceback (``csv.Error: field larger than field limit``), and the sheet's other rows were lost."""
    import csv

    long_event = "A" * (csv.field_size_limit() + 1)
    if kind == "tally":
        rows = ["date,event,round,player1,player2,score1,score2",
                "2026-09-08,Ladder,1,Ann,Bob,121,100",
                f"2026-09-08,{long_event},1,Cid,Dee,121,90",
                "2026-09-08,Ladder,1,Eve,Fay,99,121"]  # fmt: skip
        games_left = 2  # lines 2 and 4, a game each
    else:
        rows = ["date,event,round,player,opponent,game_points,spread",
                "2026-11-05,Night,1,Ann,Bob,2,+21", "2026-11-05,Night,1,Bob,Ann,0,-21",
                f"2026-11-05,{long_event},1,Cid,Dee,2,+31"]  # fmt: skip
        games_left = 1  # the two cards of lines 2 and 3 agree
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("\n".join(rows) + "\n")
    errors: list[LogError] = []
    games = list(read_games(sheet, on_error=errors.append))
    assert [(e.place, e.message) for e in errors] == [
        ("line 3" if kind == "tally" else "line 4", f"a cell is longer than {csv.field_size_limit()} characters")
    ]
    assert len(games) == games_left


@pytest.mark.parametrize("kind", ["tally", "scorecards"])
def test_a_quote_left_open_is_refused_where_it_opens_and_the_rows_after_it_read(tmp_path: Path, kind: str) -> None:
    """The open quote ran its cell on to the end of the sheet: the error named the last line, for its number of
    values, and the good rows after the quote were lost without a word."""
    if kind == "tally":
        rows = ["date,event,round,player1,player2,score1,score2",
                "2026-09-08,Ladder,1,Ann,Bob,121,100",
                '2026-09-08,"Ladder,1,Cid,Dee,121,90',
                "2026-09-08,Ladder,1,Eve,Fay,99,121",
                "2026-09-08,Ladder,2,Ann,Fay,121,80"]  # fmt: skip
        read = ["line 2", "line 4", "line 5"]
    else:
        rows = ["date,event,round,player,opponent,game_points,spread",
                '2026-11-05,"Night,1,Ann,Bob,2,+21',
                "2026-11-05,Night,1,Cid,Dee,2,+21", "2026-11-05,Night,1,Dee,Cid,0,-21"]  # fmt: skip
        read = ["lines 3, 4"]  # the two cards of lines 3 and 4 agree: a game
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("\n".join(rows) + "\n")
    errors: list[LogError] = []
    games = list(read_games(sheet, on_error=errors.append))
    line = "line 3" if kind == "tally" else "line 2"
    message = 'a quote (") opened on this line is not closed on it'
    assert [(e.place, e.message) for e in errors] == [(line, message)]
    assert [g.place for g in games] == read
