"""The fast decoding path (msgspec) against the pydantic model: the same games accepted, built alike and written
alike, and every refusal left to the model, so that it is named at the same place with the same message."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_game_options import deal as option_deal
from test_gamelog import CONTRACT_BREAKS, spec_game
from test_names import HOSTILE

from cribstats.gamelog import (
    CANONICAL_CARDS,
    GameLog,
    GameLogError,
    canonical_json,
    content_hash,
    dump_game,
    validate_game,
    validate_game_json,
    validate_game_model,
)
from cribstats.gamelog.fast import (
    BidStruct,
    DealStruct,
    GameStruct,
    MugginsStruct,
    ResultStruct,
    convert_game,
    convert_game_struct,
    decode_game_json,
    decode_game_struct,
    game_model,
)
from cribstats.gamelog.model import Bid, Deal, MugginsCall, Result

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_LINES = [
    line for path in sorted((ROOT / "sample_logs").rglob("*.jsonl")) for line in path.read_bytes().splitlines()
    if line.strip() and b'"cribstats/game/1"' in line[:60]
]
FORMATS = ROOT / "tests" / "data" / "formats"


def verdict(read: Any, data: Any) -> tuple[Any, ...]:
    """What a reader makes of a log: the canonical form, the fields given and the hash, or place and message."""
    try:
        game = read(data)
    except GameLogError as err:
        return ("refused", err.place, err.message)
    except orjson.JSONDecodeError:
        return ("not JSON",)
    text, digest = canonical_json(game)  # a game as Structs is written from them, a model from its fields
    assert text == orjson.dumps(dump_game(game)) and digest == content_hash(game, dump_game(game))
    assert digest == content_hash(game)
    return ("accepted", dump_game(game), model_dump(game_model(game)), text, digest)


def model_dump(game: GameLog) -> dict[str, Any]:
    """The canonical form as pydantic writes it: the reference for :func:`dump_game`."""
    return game.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=True)


def assert_same_as_model(data: Any) -> tuple[Any, ...]:
    """The fast path and the model agree on ``data``, as a value and as JSON text; the model's verdict."""
    expected = verdict(validate_game_model, data)
    assert verdict(validate_game, data) == expected
    fast = convert_game(copy.deepcopy(data))
    if fast is not None:
        assert expected[0] == "accepted"
        assert verdict(lambda _: fast, None) == expected
        structs = convert_game_struct(copy.deepcopy(data))
        assert verdict(lambda _: structs, None) == expected
    try:
        text = orjson.dumps(data)
    except TypeError:
        return expected
    assert verdict(validate_game_json, text) == expected
    fast = decode_game_json(text)
    if fast is not None:
        assert verdict(lambda _: fast, None) == expected
        assert verdict(lambda _: decode_game_struct(text), None) == expected
    return expected


# --- every refusal of the other tests, through both paths --------------------------------------------------------

def _breaks() -> list[tuple[str, Any]]:
    cases: list[tuple[str, Any]] = []
    for change, message in CONTRACT_BREAKS:
        data = spec_game()
        change(data)
        cases.append((message, data))
    for kind, name in HOSTILE.items():
        cases.append((f"player: {kind}", {"format": "cribstats/game/1", "players": [name, "Bob"]}))
        cases.append((f"site: {kind}", {"format": "cribstats/game/1", "players": ["Ann", "Bob"], "site": name}))
    base = {"format": "cribstats/game/1", "players": ["Alice", "Bob"]}
    cases += [
        ("bid without bidding", {**base, "deals": [option_deal("Bob", bid={"player": "Alice", "points": 3})]}),
        ("bid of 0", {**base, "bidding": True,
                      "deals": [option_deal("Bob", bid={"player": "Alice", "points": 0})]}),
        ("bid by Carol", {**base, "bidding": True,
                          "deals": [option_deal("Bob", bid={"player": "Carol", "points": 2})]}),
        ("bidding five-card", {**base, "bidding": True, "variant": "five-card"}),
        ("negative score", {**base, "deals": [option_deal("Bob", scores={"Alice": -3, "Bob": 12})]}),
        ("match_game without match", {**base, "match_game": 2}),
        ("not an object", [spec_game()]),
        ("a string", "game"),
        ("event too long", {**base, "event": "x" * 201}),
        ("round too long", {**base, "round": "x" * 41}),
        ("empty match", {**base, "match": ""}),
    ]
    for number, line in enumerate((FORMATS / "bad-lines.jsonl").read_bytes().splitlines(), 1):
        try:
            cases.append((f"bad-lines.jsonl line {number}", orjson.loads(line)))
        except orjson.JSONDecodeError:
            continue
    for number, item in enumerate(orjson.loads((FORMATS / "games-array.json").read_bytes())):
        cases.append((f"games-array.json [{number}]", item))
    return cases


BREAKS = _breaks()


@pytest.mark.parametrize("data", [data for _, data in BREAKS], ids=[name for name, _ in BREAKS])
def test_a_refusal_has_the_models_place_and_message(data: Any) -> None:
    expected = assert_same_as_model(data)
    if expected[0] == "refused":
        assert convert_game(copy.deepcopy(data)) is None
        if isinstance(data, dict):
            assert decode_game_json(orjson.dumps(data)) is None


def test_the_refusal_cases_are_refusals() -> None:
    """The collection above is of refusals, the good games of the format files apart."""
    accepted = [name for name, data in BREAKS if verdict(validate_game_model, data)[0] != "refused"]
    assert accepted == ["bad-lines.jsonl line 1", "bad-lines.jsonl line 8", "games-array.json [0]",
                        "games-array.json [2]"]
    assert len(BREAKS) > 100


# --- what the fast path accepts, and what it leaves to the model -------------------------------------------------

@pytest.mark.parametrize("line", SAMPLE_LINES[:60])
def test_the_sample_logs_are_read_fast_and_as_the_model_reads_them(line: bytes) -> None:
    fast = decode_game_json(line)
    assert fast is not None
    model = validate_game_model(orjson.loads(line))
    assert fast == model
    assert fast.model_fields_set == model.model_fields_set
    assert [d.model_fields_set for d in fast.deals or ()] == [d.model_fields_set for d in model.deals or ()]
    assert dump_game(fast) == model_dump(model) == dump_game(model)
    assert content_hash(fast) == content_hash(model)


def test_the_spec_example_is_read_fast() -> None:
    data = spec_game()
    fast = convert_game(copy.deepcopy(data))
    assert fast is not None
    assert fast.deals is not None and fast.deals[0].play is not None
    assert fast.deals[0].play[1] == ("Alice", "5S", 2)  # play events are tuples, as the model makes them
    assert fast == validate_game_model(data)


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = spec_game()
    target: Any = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return data


LEFT_TO_THE_MODEL = {
    "a card in lower case": _with(("deals", 0, "starter"), "5h"),
    "a ten written 10": _with(("deals", 0, "hands", "Alice", 0), "10S"),
    "a suit symbol": _with(("deals", 0, "hands", "Alice", 0), "5\u2660"),
    "go in capitals": _with(("deals", 0, "play", 4), ["Bob", "GO"]),
    "null for an optional field": _with(("site",), None),
    "null for a deal's field": _with(("deals", 0, "heels"), None),
}
NORMALISED_BY_BOTH = {  # the log, a field, and the field as both paths keep it
    "a name in NFD": ({"format": "cribstats/game/1", "players": ["Alice", "Zoe\u0308"],
                       "result": {"winner": "Zoe\u0308"}}, "players", ["Alice", "Zo\u00eb"]),
    "a name with spaces round it": (_with(("players",), [" Alice ", "Bob"]), "players", ["Alice", "Bob"]),
    "text in NFD": (_with(("site",), "Cafe\u0301"), "site", "Caf\u00e9"),
}


@pytest.mark.parametrize(("data", "field", "kept"), NORMALISED_BY_BOTH.values(), ids=list(NORMALISED_BY_BOTH))
def test_names_and_text_are_put_in_nfc_by_both_paths(data: dict[str, Any], field: str, kept: Any) -> None:
    fast = convert_game(copy.deepcopy(data))
    assert fast is not None
    assert getattr(fast, field) == kept
    assert assert_same_as_model(data)[0] == "accepted"


def test_a_spelling_the_fast_path_leaves_is_not_settled_by_it() -> None:
    assert convert_game(_with(("deals", 0, "starter"), "5h")) is None
    assert decode_game_json(orjson.dumps(_with(("deals", 0, "play", 4), ["Bob", "Go"]))) is None
    assert decode_game_json(orjson.dumps(_with(("deals", 0, "heels"), None))) is None


def test_the_structs_mirror_the_models_field_for_field() -> None:
    """A field added to a model and not to its Struct (or the other way) fails here."""
    pairs = {
        GameStruct: GameLog, DealStruct: Deal, ResultStruct: Result, MugginsStruct: MugginsCall, BidStruct: Bid,
    }
    for struct, model in pairs.items():
        info = msgspec.structs.fields(struct)
        assert [f.name for f in info] == list(model.model_fields)
        assert [f.encode_name for f in info] == [f.alias or name for name, f in model.model_fields.items()]
        assert [f.required for f in info] == [f.is_required() for f in model.model_fields.values()]


# --- generated logs, good and broken -----------------------------------------------------------------------------

SEATS = {"six-card": 2, "five-card": 2, "seven-card": 2, "three-player": 3, "four-player": 4}
NAME_POOL = ["Alice", "Bob", "Carol", "Dan", "Zoe\u0308", " Eve", "Mary Ann"]
SPELLINGS = [*CANONICAL_CARDS[:8], "5h", "10D", "t\u2660"]
ODD = [None, -1, 0, 1, 1.5, True, "x", "", [], {}, [None], "2026-02-30", "3 Nov", "Ann\u200b", "x" * 201, "crib",
       "go", "GO", "1H", "Carol", "cribstats/game/2", {"by": "Alice"}, ["Alice", "5H", 1, 2], 2**63, 10**23, 2.0]


def card(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(CANONICAL_CARDS)) if draw(st.integers(0, 7)) else draw(st.sampled_from(SPELLINGS))


@st.composite
def good_deals(draw: st.DrawFn, players: list[str], bidding: bool) -> dict[str, Any]:
    def cards(most: int) -> list[str]:
        return [card(draw) for _ in range(draw(st.integers(0, most)))]

    deal: dict[str, Any] = {"dealer": draw(st.sampled_from(players)), "hands": {p: cards(6) for p in players},
                            "discards": {p: cards(2) for p in players}, "starter": card(draw)}
    play: list[list[Any]] = []
    for _ in range(draw(st.integers(0, 8))):
        who = draw(st.sampled_from(players))
        if draw(st.integers(0, 5)) == 0:
            play.append([who, draw(st.sampled_from(["go", "go", "Go"]))])
        elif draw(st.booleans()):
            play.append([who, card(draw), draw(st.integers(0, 6))])
        else:
            play.append([who, card(draw)])
    optional: dict[str, Any] = {
        "crib_card": card(draw), "heels": draw(st.sampled_from([0, 2])), "play": play,
        "pegged": {p: draw(st.integers(0, 9)) for p in players},
        "show": {p: draw(st.integers(0, 20)) for p in [*players, "crib"]},
        "scores": {p: draw(st.integers(-5 if bidding else 0, 121)) for p in players},
    }
    if bidding:
        optional["bid"] = {"player": draw(st.sampled_from(players)), "points": draw(st.integers(1, 4))}
    for name, value in optional.items():
        if draw(st.integers(0, 2)) == 0:
            deal[name] = value if draw(st.integers(0, 15)) else None
    if draw(st.integers(0, 3)) == 0:
        calls = [{"by": players[0], "from": players[1], "phase": "hand", "points": 2}]
        events = list(range(len(deal.get("play") or ())))
        if any(len(e) == 3 for e in deal.get("play") or ()):  # by card: a call corrects a card's claim
            events = [i for i in events if deal["play"][i][0] == players[0] and deal["play"][i][1].lower() != "go"]
        if events:
            calls.append({"by": players[1], "from": players[0], "phase": "play", "points": 1,
                          "event": draw(st.sampled_from(events))})
        deal["muggins"] = calls
    return deal


@st.composite
def good_logs(draw: st.DrawFn) -> dict[str, Any]:
    """Logs the contract accepts, in every shape it allows (spellings, names to put in NFC, nulls)."""
    variant = draw(st.sampled_from(list(SEATS)))
    players = draw(st.permutations(NAME_POOL))[:SEATS[variant]]
    bidding = variant == "six-card" and draw(st.booleans())
    log: dict[str, Any] = {"format": "cribstats/game/1", "players": players}
    optional: dict[str, Any] = {
        "id": "g-1", "event": "Club night", "date": "2026-11-03", "site": "Caf\u0065\u0301", "round": "2",
        "match": "final", "variant": variant, "target": draw(st.integers(1, 121)), "muggins": draw(st.booleans()),
        "giveaway": draw(st.booleans()), "bidding": bidding,
        "deals": draw(st.lists(good_deals([p.strip() for p in players], bidding), max_size=3)),
        "result": {"winner": players[0], "scores": {p.strip(): draw(st.integers(0, 121)) for p in players}},
    }
    for name, value in optional.items():
        if draw(st.booleans()) or (name == "variant" and variant != "six-card") or (name == "bidding" and bidding):
            log[name] = value if draw(st.integers(0, 15)) or name in ("variant", "bidding") else None
    if "match" in log and log["match"] is not None and draw(st.booleans()):
        log["match_game"] = draw(st.integers(1, 3))
    return log


def _break(draw: st.DrawFn, log: Any) -> None:
    """One change at a place drawn anywhere in the log: an odd value, a field dropped or one added."""
    target = log
    while True:
        children = list(target) if isinstance(target, dict) else list(range(len(target)))
        if not children:
            break
        key = draw(st.sampled_from(children))
        child = target[key]
        if not isinstance(child, dict | list) or not child or draw(st.integers(0, 2)) == 0:
            break
        target = child
    if isinstance(target, dict) and draw(st.integers(0, 3)) == 0:
        target[draw(st.sampled_from(["cut", "margin", "from", "event", "dealer", "Carol"]))] = draw(
            st.sampled_from(ODD))
    elif isinstance(target, dict) and target and draw(st.integers(0, 3)) == 0:
        del target[draw(st.sampled_from(list(target)))]
    elif target:
        target[draw(st.sampled_from(list(target) if isinstance(target, dict) else range(len(target))))] = draw(
            st.sampled_from(ODD))


@st.composite
def game_logs(draw: st.DrawFn) -> Any:
    """A good log, or one with a few changes that may break it."""
    log = draw(good_logs())
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2]))):
        _break(draw, log)
    return log


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_generated_logs_get_the_same_verdict_from_both_paths(log: Any) -> None:
    assert_same_as_model(log)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(good_logs())
def test_generated_good_logs_are_accepted_alike(log: Any) -> None:
    assert assert_same_as_model(log)[0] == "accepted"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLE_LINES), st.data())
def test_sample_logs_shuffled_and_respelt_get_the_same_verdict(line: bytes, data: st.DataObject) -> None:
    log = orjson.loads(line)
    keys = data.draw(st.permutations(list(log)))
    log = {key: log[key] for key in keys}
    for deal in log.get("deals") or ():
        if data.draw(st.booleans()):
            deal["starter"] = deal["starter"].lower()
        if data.draw(st.integers(0, 4)) == 0 and deal.get("play"):
            deal["play"][0] = data.draw(st.sampled_from(ODD))
    assert assert_same_as_model(log)[0] in ("accepted", "refused")


# --- JSON text the two decoders might read differently -----------------------------------------------------------

GAME_TEXT = b'{"format":"cribstats/game/1","players":["Alice","Bob"]%s}'
DEAL_TEXT = (b',"deals":[{"dealer":"Alice","hands":{"Alice":["5H"],"Bob":["6H"]},"discards":{"Alice":[],"Bob":[]},'
             b'"starter":"7H","play":[["Bob","6H",%s]],"scores":{"Alice":%s,"Bob":0}}]')
TEXTS = {
    "a target beyond 64 bits": GAME_TEXT % b',"target":100000000000000000000000',
    "a target of 2**64": GAME_TEXT % b',"target":18446744073709551616',
    "a target of 2**64 - 1": GAME_TEXT % b',"target":18446744073709551615',
    "a target written 1e2": GAME_TEXT % b',"target":1e2',
    "a target written 121.0": GAME_TEXT % b',"target":121.0',
    "points beyond 64 bits": GAME_TEXT % (DEAL_TEXT % (b"99999999999999999999999", b"3")),
    "a score below -2**63": GAME_TEXT % (DEAL_TEXT % (b"1", b"-9223372036854775809")),
    "a score of -2**63 in a bidding game":
        GAME_TEXT % (b',"bidding":true' + DEAL_TEXT % (b"1", b"-9223372036854775808")),
    "points of 2**63": GAME_TEXT % (DEAL_TEXT % (b"9223372036854775808", b"3")),
    "points of -0": GAME_TEXT % (DEAL_TEXT % (b"-0", b"3")),
    "a field given twice": GAME_TEXT % b',"players":["Carol","Dan"]',
    "a lone surrogate in an id": GAME_TEXT % b',"id":"x\\ud800"',
    "a surrogate pair in an id": GAME_TEXT % b',"id":"x\\ud83c\\udccf"',
    "an escaped NUL in a site": GAME_TEXT % b',"site":"a\\u0000b"',
    "a byte that is not UTF-8": GAME_TEXT % b',"site":"caf\xe9"',
    "a byte order mark": b"\xef\xbb\xbf" + GAME_TEXT % b"",
    "NaN": GAME_TEXT % b',"target":NaN',
    "a trailing comma": GAME_TEXT % b',',
    "text after the game": GAME_TEXT % b"" + b" {}",
    "an escaped slash and quote": GAME_TEXT % b',"event":"a\\/b \\"c\\""',
}


@pytest.mark.parametrize("text", list(TEXTS.values()), ids=list(TEXTS))
def test_json_text_gets_the_models_verdict(text: bytes) -> None:
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        with pytest.raises(orjson.JSONDecodeError):
            validate_game_json(text)
        assert decode_game_json(text) is None
        return
    expected = verdict(validate_game_model, data)
    assert verdict(validate_game_json, text) == expected
    fast = decode_game_json(text)
    if fast is not None:
        assert verdict(lambda _: fast, None) == expected


# --- the fast path's bulk checks: the play's columns, the names of every deal, the boards' lowest score ----------

def _two_deals(change: Any) -> dict[str, Any]:
    """The spec's game with a second deal (Bob's), ``change`` applied to that deal."""
    log = spec_game()
    second = copy.deepcopy(log["deals"][0])
    second["dealer"] = "Bob"
    log["deals"].append(second)
    change(second)
    return log


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(deal: dict[str, Any]) -> None:
        target = deal
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


BULK_REFUSALS = [  # (what, the change to the second deal, the place the refusal names: written out by hand)
    ("a number for a player in the play", _set(("play", 0), [5, "JH"]), "deals[1].play[0]"),
    ("no player in the play", _set(("play", 0), [None, "go"]), "deals[1].play[0]"),
    ("a stranger in the play", _set(("play", 0), ["Carol", "JH"]), "deals[1].play[0]"),
    ("a go with points", _set(("play", 4), ["Bob", "go", 0]), "deals[1].play[4]"),
    ("a second go with points, the first without", _set(("play", 6), ["Bob", "go", 1]), "deals[1].play[6]"),
    ("a go with points as its last event", lambda deal: deal["play"].append(["Alice", "go", 0]),
     "deals[1].play[9]"),
    ("points below 0", _set(("play", 1), ["Alice", "5S", -1]), "deals[1].play[1]"),
    ("points as text", _set(("play", 1), ["Alice", "5S", "2"]), "deals[1].play[1]"),
    ("four values", _set(("play", 1), ["Alice", "5S", 2, 1]), "deals[1].play[1]"),
    ("one value", _set(("play", 1), ["Alice"]), "deals[1].play[1]"),
    ("no hand for Bob", lambda deal: deal["hands"].pop("Bob"), "deals[1].hands"),
    ("a stranger's hand", _set(("hands", "Carol"), ["AS"]), "deals[1].hands"),
    ("no discards for Alice", lambda deal: deal["discards"].pop("Alice"), "deals[1].discards"),
    ("a stranger dealing", _set(("dealer",), "Carol"), "deals[1].dealer"),
    ("a board below 0", _set(("scores", "Bob"), -2), "deals[1].scores.Bob"),
]


@pytest.mark.parametrize(("change", "place"), [case[1:] for case in BULK_REFUSALS],
                         ids=[case[0] for case in BULK_REFUSALS])
def test_a_break_in_a_later_deal_is_refused_at_its_place_by_both_paths(change: Any, place: str) -> None:
    log = _two_deals(change)
    expected = assert_same_as_model(log)
    assert expected[0] == "refused"
    assert expected[1] == place or expected[1].startswith(f"{place}[")
    assert decode_game_json(orjson.dumps(log)) is None


def test_a_result_below_0_is_refused_outside_a_bidding_game_and_kept_in_one() -> None:
    log = spec_game()
    log["result"]["scores"]["Bob"] = -4
    assert assert_same_as_model(log)[:2] == ("refused", "result.scores.Bob")
    log["bidding"] = True
    assert assert_same_as_model(log)[0] == "accepted"
    game = decode_game_json(orjson.dumps(log))
    assert game is not None and game.result is not None and game.result.scores == {"Alice": 121, "Bob": -4}


def test_a_clean_game_of_two_deals_is_read_by_the_fast_path_as_the_model_reads_it() -> None:
    log = _two_deals(lambda deal: deal.pop("play"))
    assert assert_same_as_model(log)[0] == "accepted"
    game = decode_game_json(orjson.dumps(log))
    assert game is not None and game.deals is not None
    assert [deal.play for deal in game.deals] == [[tuple(e) for e in spec_game()["deals"][0]["play"]], None]
    assert [deal.model_fields_set for deal in game.deals][1] == {
        "dealer", "hands", "discards", "starter", "heels", "show", "muggins", "scores"}


@settings(max_examples=400, deadline=None)
@given(st.text(min_size=1, max_size=30), st.sampled_from(["players", "event", "site", "round", "id", "match"]))
def test_any_text_is_written_alike_from_the_structs_and_from_the_model(text: str, field: str) -> None:
    """The Structs' writer and the model's escape text alike (quotes, backslashes, control characters, U+2028,
    astral characters): the canonical text and the hash do not depend on how the game was read."""
    data: dict[str, Any] = {"format": "cribstats/game/1", "players": ["Ann", "Bob"]}
    if field == "players":
        data["players"] = [text, "Bob"]
    else:
        data[field] = text
    assert_same_as_model(data)
