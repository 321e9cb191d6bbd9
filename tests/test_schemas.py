"""The checked-in JSON Schemas: up to date with the models, and saying what the contracts say."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from cribstats.findings import FINDING_KINDS, KIND_RULES, PHASES, Finding
from cribstats.gamelog import GameLogError, validate_game
from cribstats.match.model import validate_match
from cribstats.schemas import FINDINGS_FILE, GAME_LOG_FILE, MATCH_FILE, main, schema_files

ROOT = Path(__file__).parent.parent
SCHEMAS = ROOT / "schemas"
LOGS = [p for folder in (ROOT / "sample_logs", Path(__file__).parent / "data" / "formats" / "logs")
        for suffix in ("*.json", "*.jsonl") for p in sorted(folder.rglob(suffix))]


def load(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def game_schema() -> Draft202012Validator:
    schema = load(GAME_LOG_FILE)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(scope="module")
def findings_schema() -> Draft202012Validator:
    schema = load(FINDINGS_FILE)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_checked_in_schemas_are_up_to_date() -> None:
    for name, text in schema_files().items():
        assert (SCHEMAS / name).read_text(encoding="utf-8") == text, (
            f"schemas/{name} is stale: run python -m cribstats.schemas")


def test_the_module_writes_every_schema(tmp_path: Path) -> None:
    assert main([str(tmp_path / "out")]) == 0
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted([GAME_LOG_FILE, FINDINGS_FILE, MATCH_FILE])
    assert (tmp_path / "out" / GAME_LOG_FILE).read_text(encoding="utf-8") == (SCHEMAS / GAME_LOG_FILE).read_text(
        encoding="utf-8")


def games_of(path: Path) -> list[Any]:
    if path.suffix == ".jsonl":
        return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    data = orjson.loads(path.read_bytes())
    return data if isinstance(data, list) else [data]


SAMPLE = 20  # games per file, spread over the file: jsonschema takes tens of milliseconds a game


@pytest.fixture(scope="module")
def match_schema() -> Draft202012Validator:
    schema = load(MATCH_FILE)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_logs_pass_the_schema(
    path: Path, game_schema: Draft202012Validator, match_schema: Draft202012Validator
) -> None:
    games = games_of(path)
    assert games
    step = max(1, len(games) // SAMPLE)
    for game in [*games[::step], games[-1]]:
        schema = match_schema if game.get("format") == "cribstats/match/1" else game_schema
        assert list(schema.iter_errors(game)) == []


@pytest.mark.parametrize(("change", "valid"), [
    ({}, True), ({"rules": "points-7"}, True), ({"rules": "best-of-4"}, False),
    ({"rules": {"first_to": 0}}, False),
    ({"players": ["Alice"]}, False), ({"players": [["Alice", "Carol"], ["Bob", "Dave"]]}, True),
    ({"games": ["g1", {"format": "cribstats/game/1", "players": ["Alice", "Bob"]}]}, True),
    ({"games": [3]}, False),
    ({"result": {"winner": "Alice", "points": {"Alice": 2, "Bob": -1}}}, False), ({"extra": 1}, False),
])
def test_the_match_schema_says_what_the_contract_says(
    match_schema: Draft202012Validator, change: dict[str, Any], valid: bool
) -> None:
    record = {"format": "cribstats/match/1", "id": "final", "players": ["Alice", "Bob"], **change}
    assert (list(match_schema.iter_errors(record)) == []) is valid
    try:
        validate_match(record)
        model_valid = True
    except GameLogError:
        model_valid = False
    assert model_valid is valid


SPEC_GAME = {
    "format": "cribstats/game/1", "id": "t", "muggins": True, "players": ["Alice", "Bob"],
    "deals": [{
        "dealer": "Alice",
        "hands": {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]},
        "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
        "starter": "5H", "heels": 0,
        "play": [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"]],
        "show": {"Bob": 9, "Alice": 12, "crib": 6},
        "muggins": [{"by": "Bob", "from": "Alice", "phase": "play", "points": 1, "event": 1}],
        "scores": {"Alice": 24, "Bob": 12},
    }],
    "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 88}},
}


def changed(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    game = copy.deepcopy(SPEC_GAME)
    target: Any = game
    for part in path[:-1]:
        target = target[part]
    if value is DROP:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return game


DROP = object()


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("deals", 0, "starter"), "5h"),
        (("deals", 0, "starter"), "10♥"),
        (("deals", 0, "hands", "Bob", 0), "10s"),
        (("deals", 0, "hands", "Bob", 1), "t♦"),
        (("deals", 0, "play", 4), ["Bob", "GO"]),
        (("deals", 0, "crib_card"), "q♣"),
        (("deals", 0, "pegged"), {"Alice": 6, "Bob": 0}),
        (("deals",), []),
        (("deals",), DROP),
        (("variant",), "three-player"),  # a wrong player count is refused by the model, not the schema
    ],
)
def test_the_schema_accepts_the_spellings_the_contract_allows(
    game_schema: Draft202012Validator, path: tuple[Any, ...], value: Any
) -> None:
    assert list(game_schema.iter_errors(changed(path, value))) == []


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("deals", 0, "play", 1), ["Alice", "1H"]),
        (("deals", 0, "play", 1), ["Alice", "5S", -1]),
        (("deals", 0, "play", 4), ["Bob", "go", 1]),
        (("deals", 0, "play", 1), ["Alice"]),
        (("deals", 0, "starter"), "5 H"),
        (("deals", 0, "starter"), "11H"),
        (("deals", 0, "hands", "Alice", 0), 5),
        (("deals", 0, "heels"), "2"),
        (("deals", 0, "cut"), "5H"),
        (("deals", 0, "starter"), DROP),
        (("deals", 0, "muggins", 0, "event"), DROP),
        (("deals", 0, "muggins", 0), {"by": "Bob", "from": "Alice", "phase": "hand", "points": 1, "event": 1}),
        (("deals", 0, "muggins", 0, "phase"), "show"),
        (("players",), DROP),
        (("players",), ["Alice"]),
        (("players",), ["Alice", "Alice"]),
        (("players",), ["Alice", "crib"]),
        (("players",), ["Alice", ""]),
        (("format",), "cribstats/game/2"),
        (("variant",), "nine-card"),
        (("muggins",), 1),
        (("target",), 0),
        (("date",), "3 Nov 2026"),
        (("result", "margin"), 3),
    ],
)
def test_the_schema_refuses_contract_breaks(
    game_schema: Draft202012Validator, path: tuple[Any, ...], value: Any
) -> None:
    assert list(game_schema.iter_errors(changed(path, value))) != []


def test_findings_lines_pass_the_findings_schema(findings_schema: Draft202012Validator) -> None:
    line = Finding("g1", 3, 5, "missed", "play", "Alice", 0, 2, "5S made fifteen (2) but Alice pegged 0").to_dict()
    assert list(findings_schema.iter_errors(line)) == []
    game_level = Finding("g1", None, None, "result", "result", None, None, None, "no side reached 121").to_dict()
    assert list(findings_schema.iter_errors(game_level)) == []
    match_level = Finding(None, None, None, "match-result", "match", None, None, None, "the record gives Bob the "
                          "match", "cup-final").to_dict()
    assert match_level["match"] == "cup-final" and "match" not in line
    assert list(findings_schema.iter_errors(match_level)) == []


@pytest.mark.parametrize(
    ("field", "value"),
    [("kind", "typo"), ("phase", "show"), ("deal", "3"), ("game", 3), ("message", None), ("extra", 1),
     ("deal", 0), ("deal", -1), ("event", -1),  # deals are numbered from 1, play events from 0
     ("kind", DROP), ("player", DROP), ("claimed", DROP)],
)
def test_the_findings_schema_refuses_broken_lines(
    findings_schema: Draft202012Validator, field: str, value: Any
) -> None:
    line = Finding("g1", 3, 5, "missed", "play", "Alice", 0, 2, "Alice pegged 0 for 5S").to_dict()
    if value is DROP:
        del line[field]
    else:
        line[field] = value
    assert list(findings_schema.iter_errors(line)) != []


def test_findings_schema_enums_are_the_contract_s() -> None:
    properties = load(FINDINGS_FILE)["properties"]
    assert properties["kind"]["enum"] == ["missed", "overclaim", "muggins-call", "illegal-card", "over-31",
                                          "false-go", "out-of-turn", "unplayed", "bad-deal", "bad-discard",
                                          "after-end", "board", "result", "match-result", "match-dealer",
                                          "match-after-end", "scorecard"]
    assert properties["phase"]["enum"] == ["deal", "play", "heels", "hand", "crib", "result", "match"]


# --- the schema and the model agree on what a card is ---------------------------------------------------------

CARD_ALPHABET = "A23456789TJQK10atjqkCDHScdhs♣♦♥♠ xZ1"


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=CARD_ALPHABET, min_size=0, max_size=4))
def test_schema_and_model_agree_on_cards(game_schema: Draft202012Validator, text: str) -> None:
    log = changed(("deals", 0, "starter"), text)
    schema_accepts = not list(game_schema.iter_errors(log))
    try:
        validate_game(log)
        model_accepts = True
    except GameLogError:
        model_accepts = False
    assert schema_accepts == model_accepts


# --- a muggins call's event: `null` for an optional field means it is absent (docs/decisions.md) --------------

@pytest.mark.parametrize(("phase", "event", "valid"), [
    ("play", 1, True), ("play", None, False),  # a play call names its event: null is no event
    ("hand", None, True), ("heels", None, True), ("crib", None, True),  # null is no event: as if left out
    ("hand", 1, False),
])
def test_schema_and_reader_agree_on_a_call_s_event(
    game_schema: Draft202012Validator, phase: str, event: int | None, valid: bool
) -> None:
    call = {"by": "Bob", "from": "Alice", "phase": phase, "points": 1, "event": event}
    assert_schema_and_reader_agree(game_schema, changed(("deals", 0, "muggins", 0), call), valid)


# --- a player's name is read trimmed (docs/decisions.md, the name rule): blank is empty, " crib" is the crib ----

@pytest.mark.parametrize(("name", "valid"), [
    ("Bob", True), (" Bob ", True), ("Crib", True), ("cribber", True),  # "Crib" is a name, as in a log
    ("", False), (" ", False), ("\t\n", False),  # nothing left once trimmed: an empty name
    ("crib", False), (" crib", False), ("crib\n", False),  # the show's crib, however spaced
])
def test_schema_and_reader_agree_on_a_player_s_name(
    game_schema: Draft202012Validator, name: str, valid: bool
) -> None:
    log = {"format": "cribstats/game/1", "players": ["Alice", name]}
    assert_schema_and_reader_agree(game_schema, log, valid)


def assert_schema_and_reader_agree(game_schema: Draft202012Validator, log: dict[str, Any], valid: bool) -> None:
    """The published schema and the reader both take ``log`` when ``valid``, and both refuse it otherwise."""
    try:
        validate_game(log)
        reader_accepts = True
    except GameLogError:
        reader_accepts = False
    assert reader_accepts is valid
    assert (list(game_schema.iter_errors(log)) == []) is valid


# the finding line of docs/findings.md, as the spec's example writes it
SPEC_FINDING = {"game": "tuesday-2026-11-03-r2-t4", "deal": 3, "event": 5, "kind": "missed", "phase": "play",
                "player": "Alice", "claimed": 0, "due": 2, "message": "5S made fifteen (2) but Alice pegged 0"}


@pytest.mark.parametrize(("deal", "event"), [(3, 5), (1, 0), (1, None), (None, None)])
def test_the_findings_schema_takes_the_spec_s_example_and_the_first_deal_and_event(
    findings_schema: Draft202012Validator, deal: int | None, event: int | None
) -> None:
    assert list(findings_schema.iter_errors(SPEC_FINDING | {"deal": deal, "event": event})) == []


# --- `match`: "the match id, on match findings only" (docs/findings.md) -----------------------------------------

@pytest.mark.parametrize(("phase", "match", "valid"), [
    ("match", "cup-final", True), ("match", DROP, False), ("match", None, False),  # a match finding names it
    ("play", DROP, True), ("play", "cup-final", False), ("result", "cup-final", False),  # no other finding has it
])
def test_the_findings_schema_puts_match_on_match_findings_only(
    findings_schema: Draft202012Validator, phase: str, match: Any, valid: bool
) -> None:
    line = {**SPEC_FINDING, "phase": phase, "kind": "match-result" if phase == "match" else "missed"}
    if match is not DROP:
        line["match"] = match
    assert (list(findings_schema.iter_errors(line)) == []) is valid


def test_the_audit_s_lines_pass_the_findings_schema(findings_schema: Draft202012Validator) -> None:
    """Every line `cribstats audit --json` prints for the sample match and the sample six-card mistakes: the match
    finding with its match, the others without."""
    lines = []
    for name in ("matches/points-to-7.jsonl", *(f"mistakes/{variant}.jsonl" for variant in (
            "six-card", "six-card-muggins", "five-card", "seven-card", "three-player", "four-player")),
            "nights/grass-roots-2026-11-05.csv"):
        done = subprocess.run([sys.executable, "-c", "from cribstats.cli.app import main; main()", "audit",
                               "--json", str(ROOT / "sample_logs" / name)], capture_output=True, check=False)
        assert done.returncode == 1
        lines += [orjson.loads(line) for line in done.stdout.splitlines()]
    assert {line["phase"] == "match" for line in lines} == {True, False}
    for line in lines:
        assert list(findings_schema.iter_errors(line)) == []



def test_every_kind_has_its_phases_and_points() -> None:
    """A new kind gets its row in findings.KIND_RULES, and its phases are the contract's."""
    assert list(KIND_RULES) == list(FINDING_KINDS)
    assert all(set(phases) <= set(PHASES) and phases for phases, _ in KIND_RULES.values())


# --- each kind's phase, and no points where the kind carries none (docs/findings.md, the kinds' table) ---------

@pytest.mark.parametrize(("kind", "phase", "points", "valid"), [
    ("missed", "hand", (10, 12), True), ("missed", "deal", (10, 12), False), ("overclaim", "heels", (2, 0), True),
    ("muggins-call", "crib", (4, 2), True), ("muggins-call", "result", (4, 2), False),
    ("illegal-card", "play", (None, None), True), ("illegal-card", "play", (1, 0), False),
    ("illegal-card", "hand", (None, None), False), ("unplayed", "play", (None, 0), False),
    ("bad-deal", "deal", (None, None), True), ("bad-discard", "play", (None, None), False),
    ("after-end", "crib", (None, None), True), ("after-end", "deal", (None, None), True),
    ("after-end", "result", (None, None), False), ("after-end", "play", (3, 3), False),
    ("board", "deal", (14, 12), True), ("board", "play", (14, 12), False),
    ("result", "result", (None, None), True), ("result", "result", (121, 88), True),
    ("result", "deal", (1, 2), False),
    ("scorecard", "result", (2, 3), True), ("scorecard", "match", (2, 3), False),
])
def test_the_findings_schema_holds_each_kind_to_its_phases_and_points(
    findings_schema: Draft202012Validator, kind: str, phase: str, points: tuple[Any, Any], valid: bool
) -> None:
    line = {**SPEC_FINDING, "kind": kind, "phase": phase, "claimed": points[0], "due": points[1]}
    assert (list(findings_schema.iter_errors(line)) == []) is valid


def test_every_match_kind_passes_the_findings_schema_with_its_match(findings_schema: Draft202012Validator) -> None:
    # match-result carries recorded and replayed points; match-dealer and match-after-end none (docs/match.md)
    for kind, points in (("match-result", True), ("match-dealer", False), ("match-after-end", False)):
        line = {**SPEC_FINDING, "game": None, "deal": None, "event": None, "kind": kind, "phase": "match",
                "claimed": None, "due": None, "match": "cup-final"}
        assert list(findings_schema.iter_errors(line)) == []
        assert (list(findings_schema.iter_errors(line | {"claimed": 2, "due": 1})) == []) is points
