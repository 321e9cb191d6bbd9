"""A game a sheet gives twice. A tally row without an id is stored under the hash of the game it gives, so a row
that repeats an earlier row of its sheet (the same date, event, round, players, scores and options) was taken as
"already stored": a game played twice was lost without a word. Such a row is now refused with its line and the
line it repeats; the rest of the sheet is stored, and the same sheet imported again changes nothing. Rows of two
sheets that give the same game are one game, as before (imports are idempotent). Scorecards the same way: two
pairs of cards told apart only by their tables make one game log, and the second pair is refused.

Run through ``cribstats import``, ``audit`` and ``games`` with a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app

HEAD = "date,event,round,player1,player2,score1,score2\n"
ALICE_BOB = "2022-03-03,Thursday Club,,Alice,Bob,121,100\n"
BOB_ALICE = "2022-03-03,Thursday Club,,Bob,Alice,121,100\n"
TWICE = "the same game as line 2 (date, players and scores alike): if it was played twice, give each its round"


def _import(db: str, *paths: str, stdin: str | None = None) -> tuple[int, list[str], str]:
    """Exit code, refusal lines (standard error) and the summary's words of ``cribstats import``."""
    done = CliRunner().invoke(app, ["import", "-q", "--db", db, *paths], input=stdin)
    return done.exit_code, done.stderr.splitlines(), " ".join(done.stdout.split())


def _games(db: str) -> list[tuple[str, list[str], list[int]]]:
    """The stored games: where each was read, its players and scores."""
    done = CliRunner().invoke(app, ["games", "--db", db, "-f", "json"])
    assert done.exit_code == 0, done.output
    return sorted((g["source"], g["players"], g["scores"]) for g in json.loads(done.stdout))


def test_a_row_repeating_an_earlier_one_is_refused_and_the_rest_stored(tmp_path: Path) -> None:
    sheet = tmp_path / "dup_rows.csv"
    sheet.write_text(HEAD + ALICE_BOB + BOB_ALICE + ALICE_BOB)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, summary = _import(db, str(sheet))
    assert (code, refused) == (2, [f"{sheet}:line 4: {TWICE}"])
    assert "games imported │ 2" in summary and "already stored │ 0" in summary and "refused │ 1" in summary
    stored = [(f"{sheet}:line 2", ["Alice", "Bob"], [121, 100]), (f"{sheet}:line 3", ["Bob", "Alice"], [121, 100])]
    assert _games(db) == stored
    # the same sheet again changes nothing: its two games are stored, the repeated row refused again
    code, refused, summary = _import(db, str(sheet))
    assert (code, refused) == (2, [f"{sheet}:line 4: {TWICE}"])
    assert "games imported │ 0" in summary and "already stored │ 2" in summary and "refused │ 1" in summary
    assert _games(db) == stored


def test_the_audit_refuses_the_repeated_row_too(tmp_path: Path) -> None:
    sheet = tmp_path / "dup_rows.csv"
    sheet.write_text(HEAD + ALICE_BOB + BOB_ALICE + ALICE_BOB)
    done = CliRunner().invoke(app, ["audit", "--json", str(sheet)])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"{sheet}:line 4: {TWICE}"]


def test_a_sheet_on_standard_input_is_read_the_same(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, _summary = _import(db, "-", stdin=HEAD + ALICE_BOB + ALICE_BOB)
    assert (code, refused) == (2, [f"<stdin>:line 3: {TWICE}"])
    assert _games(db) == [("<stdin>:line 2", ["Alice", "Bob"], [121, 100])]


def test_a_repeated_row_with_its_round_is_told_to_give_each_its_own(tmp_path: Path) -> None:
    sheet = tmp_path / "ladder.csv"
    row = "2022-03-03,Thursday Club,3,Alice,Bob,121,100\n"
    sheet.write_text(HEAD + row + row + row.replace(",3,", ",4,"))
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, _summary = _import(db, str(sheet))
    assert (code, refused) == (2, [
        f"{sheet}:line 3: the same game as line 2 (date, round, players and scores alike): if it was played "
        "twice, give each its own round",
    ])  # fmt: skip
    assert [source for source, _p, _s in _games(db)] == [f"{sheet}:line 2", f"{sheet}:line 4"]


def test_the_same_game_played_twice_in_two_rounds_is_two_games(tmp_path: Path) -> None:
    sheet = tmp_path / "ladder.csv"
    sheet.write_text(HEAD + ALICE_BOB.replace(",,", ",1,") + ALICE_BOB.replace(",,", ",2,"))
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, summary = _import(db, str(sheet))
    assert (code, refused) == (0, [])
    assert "games imported │ 2" in summary
    assert len(_games(db)) == 2


def test_the_same_game_in_two_sheets_is_one_game_already_stored(tmp_path: Path) -> None:
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    one.write_text(HEAD + ALICE_BOB)
    two.write_text(HEAD + BOB_ALICE + ALICE_BOB)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, summary = _import(db, str(one), str(two))
    assert (code, refused) == (0, [])
    assert "games imported │ 2" in summary and "already stored │ 1" in summary
    assert _games(db) == [(f"{one}:line 2", ["Alice", "Bob"], [121, 100]),
                          (f"{two}:line 2", ["Bob", "Alice"], [121, 100])]  # fmt: skip


CARDS = "date,event,round,table,player,opponent,game_points,spread\n"


def test_two_pairs_of_cards_told_apart_by_their_tables_alone_are_one_game_refused_once(tmp_path: Path) -> None:
    # Ann beat Ben by 18 at table 1 and again at table 3, no round given: the game logs are the same, so the
    # second pair is refused at its lines, as a tally row that repeats a game is
    pair = "2026-11-05,Club Night,,{t},Ann,Ben,2,+18\n2026-11-05,Club Night,,{t},Ben,Ann,0,-18\n"
    sheet = tmp_path / "cards.csv"
    sheet.write_text(CARDS + pair.format(t=1) + "2026-11-05,Club Night,,2,Cat,Dan,3,+40\n"
                     "2026-11-05,Club Night,,2,Dan,Cat,0,-40\n" + pair.format(t=3))  # fmt: skip
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, summary = _import(db, str(sheet))
    assert (code, refused) == (2, [
        f"{sheet}:lines 6, 7: the same game as lines 2, 3 (date, players and scores alike): if it was played "
        "twice, give each its round",
    ])  # fmt: skip
    assert "games imported │ 2" in summary
    assert _games(db) == [(f"{sheet}:lines 2, 3", ["Ann", "Ben"], [121, 103]),
                          (f"{sheet}:lines 4, 5", ["Cat", "Dan"], [121, 81])]  # fmt: skip


def test_two_pairs_of_cards_of_one_table_refuse_the_second_pair_card_by_card(tmp_path: Path) -> None:
    # the same two cards twice, no round and no table: the second pair is a second card of each player for one
    # game, refused at its lines (as before); one game is stored
    pair = "2026-11-05,Club Night,,,Ann,Ben,2,+18\n2026-11-05,Club Night,,,Ben,Ann,0,-18\n"
    sheet = tmp_path / "cards.csv"
    sheet.write_text(CARDS + pair + pair)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    code, refused, _summary = _import(db, str(sheet))
    assert (code, refused) == (2, [
        f"{sheet}:line 4: player: 'Ann' has a card for this game already (line 2)",
        f"{sheet}:line 5: player: 'Ben' has a card for this game already (line 3)",
    ])  # fmt: skip
    assert _games(db) == [(f"{sheet}:lines 2, 3", ["Ann", "Ben"], [121, 103])]
