"""cribbage-zero records: a round out of sequence and an unknown key are refused at their own line.

The dealer of a round is told by its number (player 1 deals the odd rounds), so rounds must run 1, 2, 3, ...: a
repeated or skipped number used to be read, and moved the deal to the wrong player. A word that is not a key, at
the start of a line, used to be read as values of the key before it and reported as that key's error, on that
key's line. Values that go on over the next line (a line starting with a value) are still read.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_formats_cribzero import ROUND as ROUND1
from test_formats_cribzero import TAGS

from cribstats.errors import LogError
from cribstats.formats import SourceGame, read_games

RECORDS = Path(__file__).parent / "data" / "cribbage-zero"
KEY_LIST = "H1, H2, D1, D2, S1, S2, SC, C, SH, P, SP"
IN_ORDER = "rounds run 1, 2, 3, ..."

# lines 1-3 tags, 4 blank; round 1 on lines 5-11, 12 blank; round 2 on lines 13-19 (game.pgn's first two rounds):
# the tags and round 1 are test_formats_cribzero's
ROUND2 = """2.
  H1 2H 3D 6H 8C 8H TH  D1 3D 8C  S1 6
  H2 AD AC 5C 5D TD KD  D2 AD AC  S2 10
  SC 6
  C 6D
  P 8H KD 2H 5C 6H | 5D TH TD
  SP 0 0 0 0 2 0 2 3
"""
TWO_ROUNDS = TAGS + ROUND1 + "\n" + ROUND2


def record(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "record.pgn"
    path.write_text(text, encoding="utf-8")
    return path


def read_all(path: Path) -> tuple[list[SourceGame], list[str]]:
    errors: list[LogError] = []
    games = list(read_games(str(path), on_error=errors.append))
    return games, [str(e) for e in errors]


def line_of(text: str, line: str) -> int:
    """The 1-based number of the one line of ``text`` that is ``line``."""
    numbers = [n for n, each in enumerate(text.splitlines(), 1) if each == line]
    assert len(numbers) == 1, (line, numbers)
    return numbers[0]


def test_the_two_rounds_read_with_the_deal_alternating(tmp_path: Path) -> None:
    (game,) = read_games(str(record(tmp_path, TWO_ROUNDS)))
    assert [d.dealer for d in game.game.deals] == ["Ann", "Bo"]


# --- rounds out of sequence --------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "message"),
    [
        # round 2 numbered 1: a repeated number (it made Ann deal twice running)
        (TWO_ROUNDS.replace("\n2.\n", "\n1.\n"),
         f"line 13: round 1 comes after round 1: {IN_ORDER} (expected round 2)"),
        # round 2 numbered 9: a skipped number (odd, so Ann dealt again)
        (TWO_ROUNDS.replace("\n2.\n", "\n9.\n"),
         f"line 13: round 9 comes after round 1: {IN_ORDER} (expected round 2)"),
        # round 2 numbered 4: even, so the dealer would have come out right, but 2 and 3 are missing
        (TWO_ROUNDS.replace("\n2.\n", "\n4.\n"),
         f"line 13: round 4 comes after round 1: {IN_ORDER} (expected round 2)"),
        # the first round is not 1
        (TAGS + ROUND2, f"line 5: round 2 is the first round: {IN_ORDER} (expected round 1)"),
        (TAGS + ROUND1.replace("1.\n", "0.\n"),
         f"line 5: round 0 is the first round: {IN_ORDER} (expected round 1)"),
        # keys on the round's own line do not change where it is refused
        (TWO_ROUNDS.replace("\n2.\n  H1", "\n3. H1"),
         f"line 13: round 3 comes after round 1: {IN_ORDER} (expected round 2)"),
    ],
)
def test_a_round_out_of_sequence_is_refused_at_its_line(tmp_path: Path, text: str, message: str) -> None:
    path = record(tmp_path, text)
    assert read_all(path) == ([], [f"{path}:{message}"])


def test_a_huge_round_number_is_refused_not_a_crash(tmp_path: Path) -> None:
    label = "9" * 5000  # beyond Python's int() digit limit
    path = record(tmp_path, TAGS + ROUND1.replace("1.\n", f"{label}.\n"))
    assert read_all(path) == ([], [f"{path}:line 5: round {'9' * 20}... is the first round: {IN_ORDER} "
                                   "(expected round 1)"])


def test_the_real_record_renumbered(tmp_path: Path) -> None:
    """game.pgn: five tag lines, a blank line, then rounds of eight lines (the number, six keys' lines, a blank):
    round 2 starts on line 15, round 3 on line 23, round 4 on line 31."""
    text = (RECORDS / "game.pgn").read_text(encoding="utf-8")
    assert (line_of(text, "2."), line_of(text, "3."), line_of(text, "4.")) == (15, 23, 31)
    for number in ("1", "9"):
        path = record(tmp_path, text.replace("\n2.\n", f"\n{number}.\n"))
        assert read_all(path) == (
            [], [f"{path}:line 15: round {number} comes after round 1: {IN_ORDER} (expected round 2)"])
    lines = text.splitlines(keepends=True)
    without_round3 = "".join(lines[:22] + lines[30:])  # lines 23-30 (round 3) left out: round 4 on line 23
    path = record(tmp_path, without_round3)
    assert read_all(path) == ([], [f"{path}:line 23: round 4 comes after round 2: {IN_ORDER} (expected round 3)"])


def test_each_record_of_a_file_counts_from_1_and_a_bad_one_is_skipped(tmp_path: Path) -> None:
    bad = TWO_ROUNDS.replace("\n2.\n", "\n1.\n")  # 19 lines and a blank: the second record starts on line 21
    path = record(tmp_path, bad + "\n" + TWO_ROUNDS)
    games, errors = read_all(path)
    assert [g.place for g in games] == ["game 2"]
    assert [d.dealer for d in games[0].game.deals] == ["Ann", "Bo"]
    assert errors == [f"{path}:line 13: round 1 comes after round 1: {IN_ORDER} (expected round 2)"]
    path = record(tmp_path, TWO_ROUNDS + "\n" + TWO_ROUNDS.replace("\n2.\n", "\n3.\n"))
    games, errors = read_all(path)
    assert [g.place for g in games] == ["game 1"]
    assert errors == [f"{path}:line 33: round 3 comes after round 1: {IN_ORDER} (expected round 2)"]


# --- unknown keys ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "message"),
    [
        # the tester's case: XX 5 after SC 5 (was "line 8: round 1: SC is one number, found 3")
        (TAGS + ROUND1.replace("  SC 5\n", "  SC 5\n  XX 5\n"), f"line 9: round 1: XX is not a key ({KEY_LIST})"),
        # after a card key: XX is no card (was "line 10: P: 'XX' is not a card ...")
        (TAGS + ROUND1.replace("  SP 0", "  XX 5\n  SP 0"), f"line 11: round 1: XX is not a key ({KEY_LIST})"),
        # keys are upper case
        (TAGS + ROUND1.replace("  SC 5", "  sc 5"), f"line 8: round 1: sc is not a key ({KEY_LIST})"),
        # a misspelt key in the second round, and on the round's own line
        (TWO_ROUNDS.replace("  SC 6", "  S3 6"), f"line 16: round 2: S3 is not a key ({KEY_LIST})"),
        (TAGS + ROUND1.replace("1.\n  H1", "1. HH"), f"line 5: round 1: HH is not a key ({KEY_LIST})"),
    ],
)
def test_an_unknown_key_is_refused_at_its_own_line(tmp_path: Path, text: str, message: str) -> None:
    path = record(tmp_path, text)
    assert read_all(path) == ([], [f"{path}:{message}"])


def test_the_real_record_with_an_unknown_key(tmp_path: Path) -> None:
    text = (RECORDS / "game.pgn").read_text(encoding="utf-8")
    assert line_of(text, "  SC 5") == 10
    path = record(tmp_path, text.replace("  SC 5\n", "  SC 5\n  XX 5\n", 1))
    assert read_all(path) == ([], [f"{path}:line 11: round 1: XX is not a key ({KEY_LIST})"])


def test_values_going_on_over_the_next_lines_are_still_read(tmp_path: Path) -> None:
    """A line that starts with a value of the last key continues it: cards (and ``|``) for a card key, numbers
    for a number key."""
    (whole,) = read_games(str(record(tmp_path, TWO_ROUNDS)))
    wrapped = (TWO_ROUNDS
               .replace("  H1 3D 9S TC TH TD JH", "  H1 3D 9S TC\n  TH TD JH")
               .replace("  SC 5", "  SC\n  5")
               .replace("  P 4C TH AD TC AS | JH QS 9S", "  P 4C TH AD TC AS\n  | JH QS 9S")
               .replace("  SP 0 0 2 0 1 0 0 1", "  SP 0 0 2 0\n  1 0 0 1")
               .replace("  P 8H KD 2H 5C 6H | 5D TH TD", "  P 8H KD 2H\n  5C 6H |\n  5D TH TD"))
    (game,) = read_games(str(record(tmp_path, wrapped)))
    assert game.game.deals == whole.game.deals
    assert [d.dealer for d in game.game.deals] == ["Ann", "Bo"]


def test_a_bad_value_going_on_is_still_that_key_s_error(tmp_path: Path) -> None:
    """Not a word that reads as a key: the value errors keep their messages, at the value's own line."""
    text = TAGS + ROUND1.replace("  H2 AD AS 4C 8C 9H QS", "  H2 AD AS\n  4C 1H 9H QS")
    path = record(tmp_path, text)
    card_rule = "ranks are A 2-9 T J Q K, suits C D H S"
    assert read_all(path) == ([], [f"{path}:line 8: H2: '1H' is not a card: {card_rule}"])
    text = TAGS + ROUND1.replace("  SC 5", "  SC 5\n  6")
    path = record(tmp_path, text)
    assert read_all(path) == ([], [f"{path}:line 8: round 1: SC is one number, found 2"])
    # a card where no key has been given yet still comes before any key
    path = record(tmp_path, TAGS + "1.\n  AS H1\n")
    assert read_all(path) == ([], [f"{path}:line 6: 'AS' comes before any key (H1, H2, D1, D2, C, P, ...)"])
