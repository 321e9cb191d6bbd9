"""Every column of a table view that holds a player's name or a side's names is shortened to 24 terminal columns
with an ellipsis (docs/decisions.md, "Long names are shortened for display only"): ``matches`` (sides, winner,
recorded winner, and the winner of each of its games), ``head-to-head`` (player and opponent), ``bracket`` (sides
and winner), ``standings``. Widths are counted as a terminal counts them (a thumb with its skin tone two columns,
not four), the cut falls between whole characters (never between a thumb and its skin tone, or inside a flag), and
in a 100-column terminal nothing after a long name is pushed off the edge.

The stores are made by importing small hand-written logs (result-only games and match records) with the real
``import`` command; the widths and the shortened names below are worked out by hand."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.safetext import display_width, graphemes, shorten

CJK = "黄" * 20 + "龍" * 10  # 30 wide characters: 60 columns
THUMBS = "👍🏽" * 9 + " Tomás"  # 9 thumbs of 2 columns (a skin tone joins its thumb) and 6: 24 columns, whole
THUMBS13 = "👍🏽" * 13  # 26 columns
FLAGS = "🇸🇪" * 13  # 13 flags of two letters, a column each: 26 columns
LATIN = "Bartholomew Fitzwilliam-Smythe"  # 30 columns

# What a table shows, by hand: a name of more than 24 columns cut to at most 23 and an ellipsis, between whole
# characters (12 wide characters would take 24 columns, leaving none for the ellipsis).
SHOWN = {
    CJK: "黄" * 11 + "…",
    THUMBS: THUMBS,
    THUMBS13: "👍🏽" * 11 + "…",
    FLAGS: "🇸🇪" * 11 + "…",
    LATIN: "Bartholomew Fitzwilliam…",
    "Ann": "Ann",
}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def columns(text: str) -> int:
    """Terminal columns, by hand: a CJK character or a thumb two, a skin tone none (it joins the thumb before
    it), anything else here one (ASCII, á, …, the rules, each of a flag's two letters)."""
    return sum(2 if char in "黄龍👍" else 0 if char == "🏽" else 1 for char in text)


# --- the stores -----------------------------------------------------------------------------------------------


def game(game_id: str, first: str, second: str, winner: str, event: str = "Cup", round: str = "1") -> dict:
    """A result-only game, as a tally sheet's row records it."""
    loser = second if winner == first else first
    result = {"winner": winner, "scores": {winner: 121, loser: 100}}
    return {"format": "cribstats/game/1", "id": game_id, "event": event, "date": "2026-05-01", "round": round,
            "players": [first, second], "result": result}  # fmt: skip


def match(match_id: str, first: str, second: str, winners: list[str], recorded: str, event: str = "Cup",
          round: str = "1") -> dict:  # fmt: skip
    games = [game(f"{match_id}-g{i}", first, second, w, event, round) for i, w in enumerate(winners, 1)]
    points = {first: winners.count(first), second: winners.count(second)}
    return {"format": "cribstats/match/1", "id": match_id, "event": event, "date": "2026-05-01", "round": round,
            "players": [first, second], "rules": "best-of-3", "games": games,
            "result": {"winner": recorded, "points": points}}  # fmt: skip


QUALIFYING = [(CJK, "Ann"), (THUMBS13, "Bob"), (FLAGS, "Cy"), (LATIN, "Dee"), (CJK, LATIN), (FLAGS, THUMBS13)]
LOGS = {
    # two matches: the CJK name wins 2-0 against 13 thumbs; the 13 flags are recorded as winning a match the long
    # Latin name won 2-1 (a match-result finding)
    "matches": [
        match("m1", CJK, THUMBS13, [CJK, CJK], CJK),
        match("m2", FLAGS, LATIN, [FLAGS, LATIN, LATIN], FLAGS),
    ],
    "games": [
        game("g1", CJK, THUMBS, CJK),
        game("g2", THUMBS13, FLAGS, FLAGS),
        game("g3", LATIN, CJK, LATIN),
        game("g4", "Ann", FLAGS, "Ann"),
    ],
    # qualifying games of eight entrants (two qualifiers: the CJK name and the flags, two wins each), the final
    "bracket": [
        *(game(f"q{i}", a, b, a, "League") for i, (a, b) in enumerate(QUALIFYING)),
        match("final", CJK, FLAGS, [FLAGS, FLAGS], FLAGS, "League", "final"),
    ],
}


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("names")
    urls = {}
    for name, logs in LOGS.items():
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(log, ensure_ascii=False) + "\n" for log in logs), encoding="utf-8")
        urls[name] = f"sqlite:///{folder / name}.db"
        result = CliRunner().invoke(app, ["import", str(path), "--db", urls[name]])
        assert result.exit_code == 0, result.output
    return urls


def run(*args: str, width: int | None = None) -> str:
    """A command's standard output: to a pipe (tables 200 columns wide), or to a terminal ``width`` wide."""
    env = {"COLUMNS": str(width), "TTY_COMPATIBLE": "1", "TERM": "xterm", "NO_COLOR": "1"} if width else {}
    result = CliRunner().invoke(app, list(args), env=env)
    assert result.exit_code == 0, result.output
    return ANSI.sub("", result.stdout)


def table(out: str, title: str) -> list[str]:
    """The lines of the table whose title begins with ``title``, up to the next table's title."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    titles = ("Matches (", "Games of the matches", "Findings", "Head to head", "Bracket", "Standings")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(titles)), len(lines))
    return lines[start:end]


def row(*cells: str) -> re.Pattern[str]:
    """A line holding exactly these cells, in order, between blanks."""
    return re.compile(r"^\s*" + r"\s+".join(re.escape(c) for c in cells) + r"\s*$", re.MULTILINE)


def assert_whole_characters(lines: list[str]) -> None:
    for line in lines:
        assert "🏽" not in line.replace("👍🏽", "") and "👍" not in line.replace("👍🏽", ""), line
        assert not re.search("[🇸🇪]", line.replace("🇸🇪", "")), line  # no flag split, none cut to one letter


# --- wide: every name column shortened, cell by cell ---------------------------------------------------------


def test_matches_shorten_both_sides_the_winner_and_the_recorded_winner(stores: dict[str, str]) -> None:
    out = run("matches", "--db", stores["matches"])
    listed, played = table(out, "Matches ("), table(out, "Games of the matches")
    text = "\n".join(listed + played)
    assert row("m1", "2026-05-01", "Cup", "1", "first to 2 games", SHOWN[CJK], SHOWN[THUMBS13], "2-0", SHOWN[CJK],
               "2", "0", SHOWN[CJK], "0").search(text), text  # fmt: skip
    assert row("m2", "2026-05-01", "Cup", "1", "first to 2 games", SHOWN[FLAGS], SHOWN[LATIN], "1-2", SHOWN[LATIN],
               "3", "0", SHOWN[FLAGS], "1", "match-result").search(text), text  # fmt: skip
    for number, winner in ((1, CJK), (2, CJK)):
        assert row("m1", str(number), f"m1-g{number}", "yes", SHOWN[winner], "1", "yes").search(text), text
    for number, winner in ((1, FLAGS), (2, LATIN), (3, LATIN)):
        assert row("m2", str(number), f"m2-g{number}", "yes", SHOWN[winner], "1", "yes").search(text), text
    for name in (CJK, THUMBS13, FLAGS, LATIN):
        assert name not in text
    assert_whole_characters(listed + played)


def test_head_to_head_shortens_the_opponent_as_well_as_the_player(stores: dict[str, str]) -> None:
    lines = table(run("head-to-head", "--db", stores["games"]), "Head to head")
    text = "\n".join(lines)
    pairs = [(CJK, THUMBS), (THUMBS13, FLAGS), (LATIN, CJK), ("Ann", FLAGS)]
    for player, opponent in [*pairs, *((b, a) for a, b in pairs)]:
        numbers = r"(\s+-?\d+(\.\d+)?){10}\s*$"  # games to matches lost, none pushed off
        pattern = r"^\s*" + re.escape(SHOWN[player]) + r"\s+" + re.escape(SHOWN[opponent]) + numbers
        assert re.search(pattern, text, re.MULTILINE), (player, opponent, text)
    for name in (CJK, THUMBS13, FLAGS, LATIN):
        assert name not in text
    assert_whole_characters(lines)


def test_bracket_shortens_its_sides_and_winner(stores: dict[str, str]) -> None:
    lines = table(run("bracket", "--event", "League", "--db", stores["bracket"]), "Bracket")
    assert row("1", "1", "1", SHOWN[CJK], "2", SHOWN[FLAGS], SHOWN[FLAGS]).search("\n".join(lines)), lines
    assert_whole_characters(lines)


def test_a_thumb_keeps_its_skin_tone_and_a_flag_its_two_letters(stores: dict[str, str]) -> None:
    # 👍🏽 is two columns as rich and a terminal count it: nine of them and " Tomás" fit 24 columns whole
    assert [columns(name) for name in (CJK, THUMBS, THUMBS13, FLAGS, LATIN)] == [60, 24, 26, 26, 30]
    assert [columns(SHOWN[name]) for name in (CJK, THUMBS13, FLAGS, LATIN)] == [23, 23, 23, 24]
    text = "\n".join(table(run("standings", "--db", stores["games"]), "Standings"))
    for name in (THUMBS, THUMBS13, FLAGS, CJK, LATIN):
        assert re.search(r"^\s*\d+\s+" + re.escape(SHOWN[name]) + r"(\s+-?\d+){7}\s*$", text, re.MULTILINE), text
    assert_whole_characters(text.splitlines())
    assert display_width(THUMBS) == 24 and shorten(THUMBS, 24) == THUMBS
    assert shorten(THUMBS13, 24) == SHOWN[THUMBS13] and shorten(FLAGS, 24) == SHOWN[FLAGS]
    assert shorten("👍🏽" * 3 + "x", 4) == "👍🏽…" and shorten("🇸🇪" * 3, 4) == "🇸🇪…"  # never 👍 or 🇸 alone
    assert graphemes("Zoe\u0308👍🏽🇸🇪") == ["Z", "o", "e\u0308", "👍🏽", "🇸🇪"]


# --- narrow: a 100-column terminal loses nothing past a long name -------------------------------------------


@pytest.mark.parametrize(
    ("command", "store", "titles"),
    [
        (["matches"], "matches", ["Matches (", "Games of the matches", "Findings"]),
        (["head-to-head"], "games", ["Head to head"]),
        (["bracket", "--event", "League"], "bracket", ["Bracket"]),
    ],
    ids=["matches", "head-to-head", "bracket"],
)
def test_a_100_column_terminal_shows_every_column(stores: dict[str, str], command: list[str], store: str,
                                                  titles: list[str]) -> None:  # fmt: skip
    wide = run(*command, "--db", stores[store])
    narrow = run(*command, "--db", stores[store], width=100)
    assert narrow.count("…") >= 3  # long names, shortened
    for title in titles:
        lines = table(narrow, title)
        assert max(columns(line.rstrip()) for line in lines) <= 100, lines
        assert_whole_characters(lines)
        # the same characters as the table at 200 columns (whose cells are checked above), only wrapped: no
        # column cut off at the terminal's edge, nothing of a shortened name lost
        seen = Counter(c for line in lines for c in line if c not in " ─")
        assert seen == Counter(c for line in table(wide, title) for c in line if c not in " ─"), title
