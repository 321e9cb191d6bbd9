"""`cribstats analyse` as a club player tries it: the hand at the table, cards spelled as players write them,
mistakes in the input, the formats and the exit statuses, with numbers worked out independently
(tests/discard_brute.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from discard_brute import hand_value, table_value
from typer.testing import CliRunner

from cribstats.cli.app import app


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_club_players_hand_as_dealer() -> None:
    code, out, err = run("analyse", "5H", "5C", "JD", "4S", "6H", "KC", "--dealer", "--format", "json")
    assert code == 0 and err == ""
    ranked = json.loads(out)
    dealt = ["5H", "5C", "JD", "4S", "6H", "KC"]
    # keeping 4-5-5-6 and throwing the jack and king to one's own crib is best
    hand = hand_value(dealt, ["4S", "5C", "5H", "6H"])
    assert ranked[0]["keep"] == ["4S", "5C", "5H", "6H"] and ranked[0]["throw"] == ["JD", "KC"]
    assert ranked[0]["hand"] == pytest.approx(hand, abs=5e-5)
    assert ranked[0]["expected"] == pytest.approx(hand + table_value(["JD", "KC"], "dealer"), abs=5e-5)


@pytest.mark.parametrize(
    "spelling",
    [
        ["5h", "5c", "jd", "4s", "6h", "kc"],
        ["5♥", "5♣", "J♦", "4♠", "6♥", "K♣"],
        ["5H", "5C", "JD", "4S", "6H", "KC"],
    ],
    ids=["lower-case", "suit-symbols", "canonical"],
)
def test_cards_as_players_write_them(spelling: list[str]) -> None:
    code, out, _ = run("analyse", *spelling, "--format", "json")
    assert code == 0 and json.loads(out)[0]["throw"] == ["JD", "KC"]


def test_a_ten_written_10_is_the_ten() -> None:
    code, out, _ = run("analyse", "10H", "5C", "JD", "4S", "6H", "KC", "--format", "json")
    assert code == 0 and {c for d in json.loads(out) for c in d["keep"] + d["throw"]} == set(
        ["TH", "5C", "JD", "4S", "6H", "KC"]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["5H", "5C", "JD", "4S"], "4 cards given"),
        (["5H", "5C", "JD", "4S", "6H", "KC", "2D", "3D"], "8 cards given"),
        (["5H", "5C", "JD", "4S", "6H", "5H"], "5H is there twice"),
        (["5H", "5c", "JD", "4S", "6H", "5C"], "5C is there twice"),
        (["5H", "5C", "JD", "4S", "6H", "1C"], "'1C' is not a card"),
        (["5H", "5C", "JD", "4S", "6H", "KC", "--variant", "five-card"], "6 cards given: five-card deals 5"),
        (["5H", "5C", "JD", "4S", "6H", "KC", "--variant", "nine"], "unknown variant 'nine'"),
        (["5H", "5C", "JD", "4S", "6H", "KC", "--dealer", "--pone"], "not both"),
    ],
)
def test_bad_input_is_named_with_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("analyse", *args)
    assert code == 2 and out == "" and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_file_that_cannot_be_written_exits_1_whatever_the_format(tmp_path: Path) -> None:
    # as every command: a write error names the file and exits 1 (docs/decisions.md, printing and writing files)
    missing = tmp_path / "no-such-folder"
    for fmt, name in [("csv", "a.csv"), ("json", "a.json"), ("table", "a.txt"), ("parquet", "a.parquet")]:
        code, _, err = run("analyse", "5H", "5C", "JD", "4S", "6H", "KC", "--format", fmt, "--out",
                           str(missing / name))  # fmt: skip
        assert code == 1 and str(missing / name) in err and "Traceback" not in err, fmt


def test_equal_discards_share_a_rank() -> None:
    # 4S 5H 6H KC keeping, 5C JD thrown, and 4S 5C 6H KC keeping, 5H JD thrown, are worth the same (a heart for
    # a club among cards that make no flush, both throws off-suit): the same rank, and the next one a rank lower
    code, out, _ = run("analyse", "5H", "5C", "JD", "4S", "6H", "KC", "--dealer", "--format", "csv")
    rows = [line.split(",") for line in out.splitlines()[1:]]
    rank_of = {row[2]: int(row[0]) for row in rows}
    assert code == 0 and rank_of["JD KC"] == 1
    assert rank_of["5C JD"] == rank_of["5H JD"] == 2
    dealt = ["5H", "5C", "JD", "4S", "6H", "KC"]
    worth = {}
    for throw in rank_of:
        worth[throw] = hand_value(dealt, [c for c in dealt if c not in throw.split()])
        worth[throw] += table_value(throw.split(), "dealer")
    for throw, rank in rank_of.items():  # one more than the number of throws worth more
        assert rank == 1 + sum(1 for other in worth.values() if other > worth[throw] + 1e-9), throw


@pytest.mark.parametrize("variant", ["three-player", "four-player"])
@pytest.mark.parametrize("role", ["--dealer", "--pone"])
def test_a_hand_valued_alone_is_not_said_to_be_the_dealers_or_the_pones(variant: str, role: str) -> None:
    # three and four players: no crib value, so the ranking is the same whoever deals, and the title says so
    code, out, _ = run("analyse", "5H", "5C", "JD", "4S", "6H", "--variant", variant, role)
    title = " ".join(out.split("rank")[0].split())
    assert code == 0 and "as dealer" not in title and "as pone" not in title and "hand value only" in title
    assert variant in title


@pytest.mark.parametrize(
    "args",
    [["5H 5C JD 4S 6H KC"], ["5H,5C,JD,4S,6H,KC"], ["5H, 5C,", "JD 4S", "6H", "KC"]],
    ids=["one-quoted-argument", "commas", "mixed"],
)
def test_the_hand_in_one_argument_or_with_commas_as_score_takes_it(args: list[str]) -> None:
    # `cribstats score "5H 5C JD 4S 6H"` takes cards spaced or with commas in one argument; analyse does too
    code, out, err = run("analyse", *args, "--format", "json")
    assert code == 0 and err == ""
    ranked = json.loads(out)
    assert len(ranked) == 15 and ranked[0]["throw"] == ["JD", "KC"]


def test_the_tables_values_are_all_to_two_places() -> None:
    # as pone the expected value goes below 1 and below 0: every value of a column to the same two places
    code, out, _ = run("analyse", "4S", "AD", "3C", "3H", "JH", "--pone")
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert code == 0 and len(rows) == 10
    dealt = ["4S", "AD", "3C", "3H", "JH"]
    for row in rows:
        hand, crib, expected = row[-3:]
        assert all(len(v.split(".")[1]) == 2 for v in (hand, crib, expected)), row
        throw = row[-5:-3]
        worth = hand_value(dealt, [c for c in dealt if c not in throw]) - table_value(throw, "pone", "five-card")
        assert expected == f"{worth:.2f}", row
