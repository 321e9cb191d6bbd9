"""The project's own description of the log format and the findings (``docs/game-log.md``, ``docs/findings.md``):
every example in them is read by cribstats as the text says, every finding example is what the audit prints for
the change the text gives, and the schemas point there."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.findings import FINDING_KINDS
from cribstats.gamelog import validate_game
from cribstats.schemas import findings_schema, game_log_schema

DOCS = Path(__file__).resolve().parent.parent / "docs"
GAME_LOG = (DOCS / "game-log.md").read_text(encoding="utf-8")
FINDINGS = (DOCS / "findings.md").read_text(encoding="utf-8")


def json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)


def example_game() -> dict[str, Any]:
    """The example game of game-log.md with its example deal, as findings.md uses it."""
    game_text, deal_text = json_blocks(GAME_LOG)[:2]
    game = json.loads(game_text)
    game["deals"] = [json.loads(deal_text)]
    game["id"] = "example"
    del game["result"]
    return game


def test_the_examples_of_the_log_format_are_logs() -> None:
    blocks = json_blocks(GAME_LOG)
    game = validate_game(json.loads(blocks[0]))
    assert game.result is not None and game.result.winner == "Alice"
    with_deal = validate_game(example_game())
    play = with_deal.deals[0].play  # type: ignore[index]
    assert play is not None
    # every kind of play event the table lists is in the example deal
    assert ["Bob", "JH"] in [list(e) for e in play]
    assert ["Alice", "5S", 2] in [list(e) for e in play]
    assert ["Bob", "go"] in [list(e) for e in play]
    calls = json.loads("{" + blocks[2] + "}")
    called = example_game() | {"muggins": True}
    called["deals"][0].update(calls)
    assert [c.phase for c in validate_game(called).deals[0].muggins] == ["hand", "play"]  # type: ignore[index,union-attr]
    three = json.loads(blocks[3])
    three_player = validate_game({"format": "cribstats/game/1", "variant": "three-player",
                                  "players": ["Ann", "Bo", "Cy"], "deals": [three]})
    assert three_player.deals[0].crib_card == "KC"  # type: ignore[index]


def test_the_limits_the_format_gives_are_the_ones_applied() -> None:
    from cribstats.names import MAX_EVENT, MAX_GAME_BYTES, MAX_ID, MAX_NAME, MAX_ROUND, MAX_SITE

    text = " ".join(GAME_LOG.split())
    assert f"longer than {MAX_NAME} characters" in text
    assert f"`event` and `site` may be {MAX_EVENT} characters long, `round` {MAX_ROUND}, `id` {MAX_ID}" in text
    assert MAX_SITE == MAX_EVENT
    assert f"1 MiB ({MAX_GAME_BYTES:,} bytes)" in text


Change = Callable[[dict[str, Any]], None]


def _deal(game: dict[str, Any]) -> dict[str, Any]:
    return game["deals"][0]  # type: ignore[no-any-return]


def _muggins(game: dict[str, Any]) -> None:
    game["muggins"] = True
    _deal(game)["show"]["Alice"] = 10
    _deal(game)["muggins"] = [{"by": "Bob", "from": "Alice", "phase": "hand", "points": 4}]


# the change findings.md gives for each kind, in the same words
CHANGES: dict[str, Change] = {
    "missed": lambda g: _deal(g)["show"].__setitem__("Alice", 10),
    "overclaim": lambda g: _deal(g)["show"].__setitem__("Bob", 11),
    "muggins-call": _muggins,
    "illegal-card": lambda g: _deal(g)["play"].__setitem__(2, ["Bob", "KC"]),
    "over-31": lambda g: _deal(g)["play"].__setitem__(4, ["Bob", "6D"]),
    "false-go": lambda g: _deal(g)["play"].insert(0, ["Bob", "go"]),
    "out-of-turn": lambda g: _deal(g)["play"].__setitem__(slice(0, 2), [["Alice", "5S"], ["Bob", "JH", 2]]),
    "unplayed": lambda g: _deal(g)["play"].pop(),
    "bad-deal": lambda g: _deal(g).__setitem__("starter", "8D"),
    "bad-discard": lambda g: _deal(g)["discards"].__setitem__("Alice", ["8D", "9C"]),
    "after-end": lambda g: g.__setitem__("target", 5),
    "board": lambda g: _deal(g)["scores"].__setitem__("Bob", 14),
    "result": lambda g: g.__setitem__("result", {"winner": "Bob"}),
}


def documented_findings() -> dict[str, dict[str, Any]]:
    sections = re.split(r"^### `([a-z0-9-]+)`$", FINDINGS, flags=re.MULTILINE)[1:]
    found = {}
    for kind, body in zip(sections[::2], sections[1::2], strict=True):
        (block,) = json_blocks(body)
        found[kind] = json.loads(block)
    return found


MATCH_KINDS = ("match-result", "match-dealer", "match-after-end", "scorecard")


def test_every_kind_is_documented_with_an_example() -> None:
    game_kinds = [k for k in FINDING_KINDS if k not in MATCH_KINDS]
    assert sorted(documented_findings()) == sorted(game_kinds) == sorted(CHANGES)
    # the kinds of match records and scorecards are described in a table of their own
    for kind in MATCH_KINDS:
        assert kind in FINDING_KINDS and f"| `{kind}` |" in FINDINGS


def test_the_example_game_is_clean() -> None:
    result = CliRunner().invoke(app, ["audit", "--json", "-"], input=orjson.dumps(example_game()))
    assert result.exit_code == 0 and result.stdout == ""


@pytest.mark.parametrize("kind", sorted(CHANGES))
def test_each_finding_example_is_what_the_audit_prints(kind: str) -> None:
    game = copy.deepcopy(example_game())
    CHANGES[kind](game)
    result = CliRunner().invoke(app, ["audit", "--json", "-"], input=orjson.dumps(game))
    assert result.exit_code == 1, result.output
    printed = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert documented_findings()[kind] in printed


def test_the_examples_fit_the_schemas_and_the_schemas_point_here() -> None:
    validator = Draft202012Validator(findings_schema())
    for block in json_blocks(FINDINGS):
        validator.validate(json.loads(block))
    assert "docs/game-log.md" in game_log_schema()["description"]
    assert "docs/findings.md" in findings_schema()["description"]
    for schema in (game_log_schema(), findings_schema()):
        assert "spec/" not in json.dumps(schema)


# --- docs/match.md: match records, tally sheets and scorecard sheets -----------------------------------------

MATCH = (DOCS / "match.md").read_text(encoding="utf-8")


def sheet_blocks(text: str) -> list[str]:
    return re.findall(r"```\n(date,.*?)```", text, flags=re.DOTALL)


def audit_lines(text: str, name: str, tmp_path: Path) -> tuple[int, list[dict[str, Any]]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", "--json", str(path)])
    return result.exit_code, [orjson.loads(line) for line in result.stdout.splitlines()]


def test_the_match_record_example_is_judged_as_the_text_says(tmp_path: Path) -> None:
    record_text, finding_text = json_blocks(MATCH)[:2]
    record = json.loads(record_text)
    # the text: Alice wins games 1 and 3, Bob game 2, so the match is Alice's, 2-1, as recorded
    wins = [game["result"]["winner"] for game in record["games"]]
    assert (wins.count("Alice"), wins.count("Bob")) == (2, 1) == tuple(record["result"]["points"].values())
    assert audit_lines(record_text, "final.json", tmp_path) == (0, [])
    record["result"]["winner"] = "Bob"
    status, printed = audit_lines(json.dumps(record), "final.json", tmp_path)
    assert status == 1 and printed == [json.loads(finding_text)]


def test_the_tally_sheet_example_is_read_as_the_text_says(tmp_path: Path) -> None:
    from cribstats.formats import read_games

    tally = sheet_blocks(MATCH)[0]
    path = tmp_path / "ladder.csv"
    path.write_text(tally, encoding="utf-8")
    games = [g.game for g in read_games(path)]
    assert [g.players for g in games] == [["Bob", "Alice"], ["Carol", "Dave"]]  # Bob dealt first in game 1
    assert [(g.result.winner, g.result.scores) for g in games if g.result] == [
        ("Alice", {"Alice": 121, "Bob": 97}), ("Dave", {"Carol": 84, "Dave": 121})]
    assert all(not g.deals and g.event == "Autumn Ladder" for g in games)


def test_the_scorecard_example_gives_one_game_and_the_finding_shown(tmp_path: Path) -> None:
    from cribstats.formats import read_games

    sheet = sheet_blocks(MATCH)[1]
    path = tmp_path / "night.csv"
    path.write_text(sheet, encoding="utf-8")
    games = [g.game for g in read_games(path)]
    # Alice's card: a win by a spread of 17, so Bob ends at 121 - 17
    assert [(g.players, g.result.scores) for g in games if g.result] == [
        (["Alice", "Bob"], {"Alice": 121, "Bob": 121 - 17})]
    status, printed = audit_lines(sheet, "night.csv", tmp_path)
    assert status == 1 and printed == [json.loads(json_blocks(MATCH)[2])]


def test_the_schemas_and_the_help_point_into_the_project() -> None:
    from cribstats.schemas import match_schema

    assert "docs/match.md" in match_schema()["description"]
    for schema in (game_log_schema(), findings_schema(), match_schema()):
        assert "spec" not in json.dumps(schema)
    for path in ("simulate-matches", "audit"):
        shown = " ".join(CliRunner().invoke(app, [path, "--help"], env={"COLUMNS": "200"}).output.split())
        assert "spec" not in shown
    assert "docs/match.md" in " ".join(CliRunner().invoke(app, ["simulate-matches", "--help"],
                                                          env={"COLUMNS": "200"}).output.split())
