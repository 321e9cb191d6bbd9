"""The rules commands, ``cribstats score`` and ``cribstats peg``: output, exit codes and error messages."""

from __future__ import annotations

import json
import re
from itertools import pairwise

import pytest
import typer
from typer.testing import CliRunner

from cribstats.cli import rules

runner = CliRunner()
CARD_ERROR = "'1H' is not a card: ranks are A 2-9 T J Q K, suits C D H S"


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    """The rules group on an app of its own, as the root app registers it."""
    app = typer.Typer(rich_markup_mode="rich")
    rules.register(app)
    return app


def run_json(app: typer.Typer, *args: str) -> dict:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return json.loads(result.stdout)


def test_score_json_29(app: typer.Typer) -> None:
    data = run_json(app, "score", "5H", "5C", "5S", "JD", "5D", "--json")
    assert {k: data[k] for k in ("fifteens", "pairs", "runs", "flush", "nobs", "total")} == {
        "fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1, "total": 29,
    }
    assert data["hand"] == ["5H", "5C", "5S", "JD"]
    assert data["starter"] == "5D"
    assert data["crib"] is False
    assert {"kind": "nobs", "cards": ["JD"], "points": 1} in data["combinations"]
    assert len(data["combinations"]) == 8 + 6 + 1


def test_score_crib_rules(app: typer.Typer) -> None:
    assert run_json(app, "score", "2H", "4H", "6H", "8H", "KC", "--json")["total"] == 4
    assert run_json(app, "score", "2H", "4H", "6H", "8H", "KC", "--json", "--crib")["total"] == 0
    crib = run_json(app, "score", "--crib", "--json", "2H", "4H", "6H", "8H", "KH")
    assert (crib["flush"], crib["total"], crib["crib"]) == (5, 5, True)


def test_score_takes_any_spelling_and_hands_of_three_and_five(app: typer.Typer) -> None:
    # the seed deal's Bob: 6D JH 4H 7C, starter 5H: 9
    assert run_json(app, "score", "6d", "j♥", "4h", "7C", "5♥", "--json")["total"] == 9
    # 4+5+6: 2; 4-5-6-7: 4; a three-card flush with the starter's suit: 4
    assert run_json(app, "score", "4H", "5H", "6H", "7H", "--json")["total"] == 10
    # 2..6 of hearts, 7C: fifteens 2+6+7, 3+5+7, 4+5+6, 2+3+4+6: 8; run of six 6; flush 5
    assert run_json(app, "score", "2H 3H 4H 5H 6H", "7C", "--json")["total"] == 19
    assert run_json(app, "score", "10s,8d", "KC", "8C", "5H", "--json", "--crib")["total"] == 6


def test_score_table(app: typer.Typer) -> None:
    result = runner.invoke(app, ["score", "2H", "2S", "3D", "4C", "KS"])
    assert result.exit_code == 0
    out = result.stdout
    assert "2H 2S 3D 4C  starter KS  (hand)" in out
    for row in ("2H 3D KS", "2S 3D KS", "2H 2S", "2H 3D 4C", "2S 3D 4C"):
        assert row in out
    assert "fifteens 4  pairs 2  runs 6  flush 0  nobs 0" in out
    assert out.rstrip().endswith("total 12")


def test_score_table_of_a_hand_that_scores_nothing(app: typer.Typer) -> None:
    result = runner.invoke(app, ["score", "2H", "4H", "6H", "8H", "KC", "--crib"])
    assert result.exit_code == 0
    assert "nothing scores" in result.stdout
    assert result.stdout.rstrip().endswith("total 0")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1H", "5C", "5S", "JD", "5D"], CARD_ERROR),
        (["5H", "5C", "5X", "JD", "5D"], "'5X' is not a card: ranks are A 2-9 T J Q K, suits C D H S"),
        (["5H", "5C", "5H", "JD", "5D"], "5H is there twice: every card exists once"),
        (["5H", "5C", "5S", "JD", "JD"], "JD is there twice: every card exists once"),
        (["5H", "5C"], "2 cards given: give a hand of 3, 4 or 5 cards, then the starter"),
        (["5H"], "1 card given: give a hand of 3, 4 or 5 cards, then the starter"),
        (["AC 2C 3C 4C 5C 6C 7C"], "7 cards given: give a hand of 3, 4 or 5 cards, then the starter"),
        (["AC", "2C", "3C", "4C", "--crib"], "4 cards given: give a crib of 4 cards, then the starter"),
        ([","], "no cards: give the hand, then the starter"),
    ],
)
def test_score_errors(app: typer.Typer, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["score", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "error: " + message + "\n"  # README: wrong input is one line, "error:" and what


def test_score_without_cards_is_a_usage_error(app: typer.Typer) -> None:
    result = runner.invoke(app, ["score"])
    assert result.exit_code == 2
    assert "Missing argument" in result.stderr


@pytest.mark.parametrize(
    ("series", "points", "parts"),
    [
        ("6H 4D 5S", 5, {"count": 15, "fifteen": 2, "thirty_one": 0, "pairs": 0, "run": 3}),
        ("5C 5D 5H 5S", 12, {"count": 20, "fifteen": 0, "thirty_one": 0, "pairs": 12, "run": 0}),
        ("4C 5D 5H 6S", 0, {"count": 20, "fifteen": 0, "thirty_one": 0, "pairs": 0, "run": 0}),
        ("4C 5D 4H 6S", 3, {"count": 19, "fifteen": 0, "thirty_one": 0, "pairs": 0, "run": 3}),
        ("7C 7D 7H 5S 5C", 4, {"count": 31, "fifteen": 0, "thirty_one": 2, "pairs": 2, "run": 0}),
        ("AC 2D 3H 4S 5C 6D 7H", 7, {"count": 28, "fifteen": 0, "thirty_one": 0, "pairs": 0, "run": 7}),
    ],
)
def test_peg_json(app: typer.Typer, series: str, points: int, parts: dict[str, int]) -> None:
    data = run_json(app, "peg", *series.split(), "--json")
    assert data == {"points": points, **parts, "series": series.split()}


def test_peg_text(app: typer.Typer) -> None:
    result = runner.invoke(app, ["peg", "6h", "4d", "5♠"])
    assert result.exit_code == 0
    assert result.stdout == "6H 4D 5S  count 15\n5S scores 5: fifteen 2, run 3\n"
    quiet = runner.invoke(app, ["peg", "8C"])
    assert quiet.stdout == "8C  count 8\n8C scores 0\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["KH", "QH", "JH", "2C"], "KH QH JH 2C count 32: a series stops at 31"),
        (["6H", "1H"], CARD_ERROR),
        (["6H", "4D", "6H"], "6H is there twice: every card exists once"),
        ([","], "no cards: give the cards of the series in the order they were laid"),
    ],
)
def test_peg_errors(app: typer.Typer, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["peg", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "error: " + message + "\n"


@pytest.mark.parametrize("command", ["score", "peg"])
def test_help_has_an_example(app: typer.Typer, command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert f"Example: cribstats {command} " in result.stdout


def test_the_root_app_has_both_commands() -> None:
    from cribstats.cli.app import app as root

    result = runner.invoke(root, ["score", "--json", "4H", "4S", "5C", "5D", "6H"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["total"] == 24
    peg = runner.invoke(root, ["peg", "--json", "4C", "5D", "4H", "6S"])
    assert json.loads(peg.stdout)["points"] == 3


def test_version_and_a_root_help_that_shows_the_workflow() -> None:
    from importlib.metadata import version

    from cribstats.cli.app import app

    result = CliRunner().invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"cribstats {version('cribstats')}\n")
    helped = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert helped.exit_code == 0
    assert "cribstats import night.jsonl" in helped.stdout
    assert "cribstats report --out report.html" in helped.stdout


def test_the_root_help_gives_each_command_its_first_paragraph_on_one_line() -> None:
    """A line break in a command's docstring does not cut its line in the root help short."""
    from cribstats.cli.app import app

    helped = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "400"})
    assert helped.exit_code == 0
    line = next(row for row in helped.stdout.splitlines() if re.match(r"^│ audit\s", row))
    assert "every illegal play; judge every match (its records and the games that carry its id) and" in line
    panel = helped.stdout.split("─ Commands ─", 1)[1].split("╰", 1)[0].splitlines()[1:]
    assert len(panel) > 20 and all(re.match(r"^│ [a-z-]+ +\S", row) for row in panel)  # no line runs over


def every_command(command: object, words: list[str]) -> list[list[str]]:
    """The words that name every command and group below ``command`` (itself first)."""
    below = getattr(command, "commands", {})
    return [words] + [w for name, sub in below.items() for w in every_command(sub, [*words, name])]


@pytest.mark.parametrize("columns", [60, 100])
def test_a_commands_help_wraps_its_prose_to_the_terminal(columns: int) -> None:
    """No line of a command's help ends where the next word of its paragraph would have fitted, as a docstring's
    own line breaks would leave them at any width but one; the examples keep their lines."""
    from cribstats.cli.app import app

    checked = 0
    for words in every_command(typer.main.get_command(app), [])[1:]:
        shown = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": str(columns)}).stdout
        after_usage = re.split(r"\n\s*\n", shown.split("Usage:", 1)[1], maxsplit=1)[1]  # from the blank line on
        lines = after_usage.split("╭", 1)[0].splitlines()
        for line, following in pairwise(lines):
            text, next_text = line.strip(), following.strip()
            prose = not line.startswith("  ") and not following.startswith("  ")  # examples are indented
            if text and next_text and prose:  # two lines of one paragraph of prose
                checked += 1
                assert len(text) + 1 + len(next_text.split()[0]) > columns - 4, (words, line)
    assert checked > 30  # many lines of prose were looked at


def test_no_help_shows_a_type_beside_a_flag() -> None:
    """A flag takes no value, so its help shows none (typer would write ``--json <bool>``); an option that takes
    one still shows what it takes."""
    from cribstats.cli.app import app

    helps = every_command(typer.main.get_command(app), [])
    assert ["audit"] in helps and ["db", "upgrade"] in helps and ["keys", "revoke"] in helps
    for words in helps:
        shown = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "200"})
        assert shown.exit_code == 0, words
        assert "--help" in shown.stdout and "<bool>" not in shown.stdout, words
    audit = CliRunner().invoke(app, ["audit", "--help"], env={"COLUMNS": "200"}).stdout
    assert re.search(r"--json +One finding per line", audit)
    standings = CliRunner().invoke(app, ["standings", "--help"], env={"COLUMNS": "200"}).stdout
    assert re.search(r"--date +<str> +Only games of this day", standings)
