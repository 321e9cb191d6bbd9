"""Reading JSON and JSON Lines logs, folders and standard input, and every way input can fail to read."""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribstats.errors import LogError
from cribstats.formats import SourceGame, read_games, read_paths, read_stream
from cribstats.formats.jsonlog import read_json_lines

DATA = Path(__file__).parent / "data" / "formats"
CARD_RULE = "ranks are A 2-9 T J Q K, suits C D H S"
GAME = b'{"format": "cribstats/game/1", "id": "%s", "players": ["Alice", "Bob"]}'


def read_all(path: str | Path) -> tuple[list[SourceGame], list[str]]:
    errors: list[LogError] = []
    games = list(read_games(str(path), on_error=errors.append))
    return games, [str(e) for e in errors]


def test_one_game_in_a_json_file() -> None:
    path = str(DATA / "logs" / "spec-example.json")
    (game,) = read_games(path)
    assert (game.file, game.place) == (path, "")
    assert game.game.id == "tuesday-2026-11-03-r2-t4"
    assert game.game.deals[0].play[8] == ("Bob", "4H", 3)


def test_an_array_of_games_reads_past_a_bad_element() -> None:
    path = DATA / "games-array.json"
    games, errors = read_all(path)
    assert [(g.place, g.game.id) for g in games] == [("[0]", "a1"), ("[2]", "a3")]
    assert errors == [f"{path}:[1].deals[0].muggins[0]: a play call needs 'event', the index of the play event "
                      "whose claim it corrects"]


def test_json_lines_report_each_bad_line_and_go_on() -> None:
    path = DATA / "bad-lines.jsonl"
    games, errors = read_all(path)
    assert [(g.place, g.game.id) for g in games] == [("line 1", "good-1"), ("line 8", "good-2")]
    assert errors == [
        f"{path}:line 2, column 55: not valid JSON: unexpected end of data",
        f"{path}:line 4: deals[0].play[1]: '1H' is not a card: {CARD_RULE}",
        f"{path}:line 5: deals[0].hands: 'Carol' is not a player of this game",
        f"{path}:line 6: missing required field 'players'",
        f"{path}:line 7: a line holds one game, a JSON object, not an array",
    ]


def test_without_on_error_the_first_error_is_raised_after_the_games_before_it() -> None:
    path = str(DATA / "bad-lines.jsonl")
    reader = read_games(path)
    assert next(reader).game.id == "good-1"
    with pytest.raises(LogError) as caught:
        next(reader)
    assert (caught.value.file, caught.value.place, caught.value.message) == (
        path, "line 2, column 55", "not valid JSON: unexpected end of data")


def test_a_file_that_is_not_json_is_one_error() -> None:
    path = DATA / "not-json.json"
    assert read_all(path) == ([], [f"{path}:line 3, column 12: not valid JSON: unexpected character, expected a "
                                   "JSON value"])


@pytest.mark.parametrize("name", ["empty.json", "blank.jsonl"])
def test_an_empty_file(name: str) -> None:
    path = DATA / name
    assert read_all(path) == ([], [f"{path}: the file is empty"])


def test_a_binary_file() -> None:
    path = DATA / "binary.json"
    assert read_all(path) == ([], [f"{path}: not a text file: it holds binary data"])


def test_a_missing_path(tmp_path: Path) -> None:
    for name in ("gone.jsonl", "gone"):
        path = tmp_path / name
        assert read_all(path) == ([], [f"{path}: no such file"])


def test_an_unreadable_file(tmp_path: Path) -> None:
    """A symbolic link to itself cannot be opened (even by a superuser, unlike a file without permissions)."""
    path = tmp_path / "loop.json"
    os.symlink(path, path)
    assert read_all(path) == ([], [f"{path}: cannot be read: Too many levels of symbolic links"])


def test_an_unknown_suffix(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("{}")
    assert read_all(path) == ([], [f"{path}: not a kind of file cribstats reads: use one of .json, .jsonl, "
                                   ".ndjson, .csv, .pgn"])


def test_not_utf8_text_in_a_tally_sheet(tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes("date,event,round,player1,player2,score1,score2\n,Café,1,A,B,121,90\n".encode("latin-1"))
    # line 2 is ",Café,...": the é is its fifth character
    said = f"{path}:line 2, column 5: not UTF-8 text (byte b'\\xe9'): save the file as UTF-8"
    assert read_all(path) == ([], [said])


def test_not_utf8_text_in_json_lines_is_named_at_its_line_and_column(tmp_path: Path) -> None:
    """A line saved in Windows-1252 (Café) is refused at the column of its bad byte, counted in characters; the
    other lines are read."""
    path = tmp_path / "night.jsonl"
    bad = (GAME % b"w2").replace(b'"players"', '"site": "Caf\u00e9 \u00e9t\u00e9", "players"'.encode("cp1252"))
    path.write_bytes((GAME % b"w1") + b"\n" + bad + b"\n" + (GAME % b"w3") + b"\n")
    games, errors = read_all(path)
    column = bad.index(b"\xe9") + 1  # the bytes before it are ASCII: one character each
    assert [g.game.id for g in games] == ["w1", "w3"]
    assert errors == [f"{path}:line 2, column {column}: not UTF-8 text (byte b'\\xe9'): save the file as UTF-8"]


def test_not_utf8_text_in_a_json_document_is_named_at_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes('{\n  "format": "cribstats/game/1",\n  "site": "\u00e9t\u00e9 Caf\u00e9",\n'
                     '  "players": ["A", "B"]\n}\n'.encode("cp1252"))
    assert read_all(path) == ([], [f"{path}:line 3, column 12: not UTF-8 text (byte b'\\xe9'): save the file as "
                                   "UTF-8"])


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_log_saved_as_unicode_on_windows_is_named_so(tmp_path: Path, encoding: str) -> None:
    """Notepad's "Unicode" is UTF-16 (with a byte-order mark); said so, not called binary data."""
    path = tmp_path / "night.jsonl"
    path.write_bytes(((GAME % b"u1") + b"\n").decode().encode(encoding))
    wide = "UTF-32" if "32" in encoding else "UTF-16"
    assert read_all(path) == ([], [f"{path}: {wide} text, not UTF-8: save the file as UTF-8"])


def test_a_value_that_is_not_a_game_or_an_array(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    path.write_text("42")
    assert read_all(path) == ([], [f"{path}: a log holds a game (a JSON object) or an array of games, not the "
                                   "number 42"])


def test_a_single_game_with_a_contract_break_has_no_line(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text('{"format": "cribstats/game/1", "players": ["Alice", "Bob"], "target": "121"}')
    assert read_all(path) == ([], [f"{path}:target: expected a whole number, found '121'"])
    path.write_text('{"format": "cribstats/game/1"}')
    assert read_all(path) == ([], [f"{path}: missing required field 'players'"])


def test_byte_order_mark_and_windows_line_ends(tmp_path: Path) -> None:
    lines = tmp_path / "bom.jsonl"
    lines.write_bytes(b"\xef\xbb\xbf" + (GAME % b"g1") + b"\r\n\r\n" + (GAME % b"g2") + b"\r\n")
    assert [(g.place, g.game.id) for g in read_games(str(lines))] == [("line 1", "g1"), ("line 3", "g2")]
    single = tmp_path / "bom.json"
    single.write_bytes(b"\xef\xbb\xbf" + (GAME % b"g3") + b"\r\n")
    assert [g.game.id for g in read_games(single)] == ["g3"]


def test_json_lines_stream_one_line_at_a_time() -> None:
    """The reader asks for the next line only when the next game is wanted: bounded memory for any size."""
    asked: list[int] = []

    def lines() -> Iterator[bytes]:
        for n in range(1, 1_000_000):
            asked.append(n)
            yield GAME % str(n).encode()

    reader = read_json_lines(lines(), "big.jsonl")
    assert next(reader).game.id == "1"
    assert next(reader).game.id == "2"
    assert asked == [1, 2]


def test_folders_are_walked_sorted_with_known_suffixes_only(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "b" / "2.jsonl").write_bytes(GAME % b"b2")
    (tmp_path / "a" / "deep" / "1.json").write_bytes(GAME % b"a-deep-1")
    (tmp_path / "a" / "0.JSON").write_bytes(GAME % b"a0")
    (tmp_path / "a" / "notes.txt").write_text("not a log")
    (tmp_path / ".hidden" / "x.json").write_bytes(GAME % b"hidden")
    (tmp_path / "a" / ".draft.json").write_bytes(GAME % b"draft")
    shutil.copy(DATA / "tally.csv", tmp_path / "c.csv")
    games = list(read_paths([tmp_path]))
    assert [g.game.id or g.place for g in games] == ["a0", "a-deep-1", "b2", "line 2", "line 3", "line 4",
                                                      "line 6"]
    assert games[0].file == str(tmp_path / "a" / "0.JSON")


def test_read_paths_reports_a_missing_file_and_goes_on(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_bytes(GAME % b"ok")
    errors: list[LogError] = []
    games = list(read_paths([tmp_path / "missing.json", good], on_error=errors.append))
    assert [g.game.id for g in games] == ["ok"]
    assert [str(e) for e in errors] == [f"{tmp_path / 'missing.json'}: no such file"]


# --- standard input ----------------------------------------------------------------------------------------------


def stdin_games(monkeypatch: pytest.MonkeyPatch, data: bytes) -> tuple[list[SourceGame], list[str]]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    errors: list[LogError] = []
    games = list(read_games("-", on_error=errors.append))
    return games, [str(e) for e in errors]


def test_stdin_json_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    games, errors = stdin_games(monkeypatch, b"\n" + (GAME % b"s1") + b"\n{oops}\n" + (GAME % b"s2") + b"\n")
    assert [(g.file, g.place, g.game.id) for g in games] == [
        ("<stdin>", "line 2", "s1"), ("<stdin>", "line 4", "s2")]
    assert errors == ["<stdin>:line 3, column 2: not valid JSON: unexpected character, expected a string key"]


def test_stdin_one_game_over_several_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (DATA / "logs" / "spec-example.json").read_bytes()
    games, errors = stdin_games(monkeypatch, data)
    assert ([(g.place, g.game.id) for g in games], errors) == ([("", "tuesday-2026-11-03-r2-t4")], [])


def test_stdin_an_array(monkeypatch: pytest.MonkeyPatch) -> None:
    games, errors = stdin_games(monkeypatch, (DATA / "games-array.json").read_bytes())
    assert [g.place for g in games] == ["[0]", "[2]"]
    assert len(errors) == 1 and errors[0].startswith("<stdin>:[1].deals[0].muggins[0]: ")


def test_stdin_a_tally_sheet_and_a_cribbage_zero_record(monkeypatch: pytest.MonkeyPatch) -> None:
    games, errors = stdin_games(monkeypatch, (DATA / "tally.csv").read_bytes())
    assert ([g.place for g in games], errors) == (["line 2", "line 3", "line 4", "line 6"], [])
    games, errors = stdin_games(monkeypatch, b"player1,player2,score1,score2\nAnn,Bo,121,80\n")
    assert errors == ["<stdin>:line 1: missing column 'date': a tally sheet has the columns "
                      "date,event,round,player1,player2,score1,score2"]
    record = (Path(__file__).parent / "data" / "cribbage-zero" / "game2.pgn").read_bytes()
    games, errors = stdin_games(monkeypatch, record)
    assert ([(g.place, len(g.game.deals)) for g in games], errors) == ([("game 1", 6)], [])


def test_stdin_empty_not_json_and_binary(monkeypatch: pytest.MonkeyPatch) -> None:
    assert stdin_games(monkeypatch, b"") == ([], ["<stdin>: nothing came on standard input"])
    assert stdin_games(monkeypatch, b"hello\n") == (
        [], ["<stdin>:line 1, column 1: not valid JSON: unexpected character, expected a JSON value"])
    assert stdin_games(monkeypatch, b"\x00\x01{") == ([], ["<stdin>: not a text input: it holds binary data"])
    assert stdin_games(monkeypatch, (GAME % b"u1").decode().encode("utf-16")) == (
        [], ["<stdin>: UTF-16 text, not UTF-8: save the input as UTF-8"])


def test_read_stream_on_an_open_handle() -> None:
    games = list(read_stream(io.BytesIO((GAME % b"h1") + b"\n"), "pipe"))
    assert [(g.file, g.place, g.game.id) for g in games] == [("pipe", "line 1", "h1")]


def test_a_stray_nul_refuses_its_line_and_not_the_file(tmp_path: Path) -> None:
    # three games a line, a NUL inside the second's id (at its column 43): that line is refused where the NUL is;
    # the file is text all the same, and the first and third are read
    lines = [GAME % b"g1", GAME % b"g\x002", GAME % b"g3"]
    path = tmp_path / "night.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    games, errors = read_all(path)
    assert [g.game.id for g in games] == ["g1", "g3"]
    column = lines[1].index(b"\x00") + 1
    assert errors == [f"{path}:line 2, column {column}: not valid JSON: unexpected control character in string"]


def test_a_stray_nul_in_a_sheet_refuses_its_row(tmp_path: Path) -> None:
    path = tmp_path / "ladder.csv"
    path.write_bytes(b"date,event,round,player1,player2,score1,score2,first_dealer\n"
                     b"2026-09-08,Autumn Ladder,1,Frank,Irene,118,121,Frank\n"
                     b"2026-09-08,Autumn\x00Ladder,1,Grace,Alice,72,121,Grace\n"
                     b"2026-09-08,Autumn Ladder,2,Frank,Alice,121,99,Alice\n")
    games, errors = read_all(path)
    # (a sheet's game seats its first dealer first)
    assert [(g.place, g.game.players) for g in games] == [("line 2", ["Frank", "Irene"]),
                                                          ("line 4", ["Alice", "Frank"])]
    assert errors == [f"{path}:line 3: event: an event may not hold U+0000 (a control character)"]
