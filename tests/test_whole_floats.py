"""A whole number written with a fraction or an exponent (``121.0``, ``1.21e2``) is that number.

The published schemas say ``integer``, which JSON Schema takes to be any number with no fraction, 121.0 among
them; the readers refused it ("expected a whole number, found the number 121.0"), so a log a schema validator
passed was refused at import. Now both agree: the log is read as if written with the integer, its canonical
text and content hash are the integer's, and a number with a fraction is still refused by both.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import orjson
import pytest
from spec_example import example_deal

from cribstats.gamelog import GameLogError, canonical_json, validate_game_json
from cribstats.match.model import validate_match

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "schemas" / "game-log-1.schema.json").read_text())
MATCH_SCHEMA = json.loads((ROOT / "schemas" / "match-1.schema.json").read_text())


def game() -> dict[str, object]:
    return {"format": "cribstats/game/1", "id": "g", "match": "m", "match_game": 1, "target": 121,
            "players": ["Alice", "Bob"], "deals": [example_deal()]}


def written_with_floats(text: bytes) -> bytes:
    """The log's text with some whole numbers written as ``N.0`` and one as an exponent."""
    return (text.replace(b'"target":121', b'"target":1.21e2').replace(b'"match_game":1', b'"match_game":1.0')
            .replace(b'"Bob":9', b'"Bob":9.0').replace(b'["Alice","5S",2]', b'["Alice","5S",2.0]')
            .replace(b'"Alice":24', b'"Alice":24.0'))


def test_a_whole_float_is_read_as_its_integer_by_the_schema_and_the_reader() -> None:
    text = orjson.dumps(game())
    floats = written_with_floats(text)
    assert floats.count(b".0") == 4 and b"1.21e2" in floats
    jsonschema.validate(json.loads(floats), SCHEMA)  # the published schema takes it
    as_read = validate_game_json(floats)
    assert (as_read.target, as_read.match_game, as_read.deals[0].show["Bob"]) == (121, 1, 9)
    assert as_read.deals[0].play[1] == ("Alice", "5S", 2)
    assert type(as_read.target) is int and type(as_read.deals[0].scores["Alice"]) is int
    assert canonical_json(as_read) == canonical_json(validate_game_json(text))  # one game, one hash


@pytest.mark.parametrize("place", ["target", "show", "play"])
def test_a_number_with_a_fraction_is_refused_by_both(place: str) -> None:
    log = copy.deepcopy(game())
    deal = log["deals"][0]  # type: ignore[index]
    if place == "target":
        log["target"] = 121.5
        where = "target"
    elif place == "show":
        deal["show"]["Bob"] = 9.5
        where = "deals[0].show.Bob"
    else:
        deal["play"][1] = ["Alice", "5S", 2.5]
        where = "deals[0].play[1]"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, SCHEMA)
    with pytest.raises(GameLogError) as refused:
        validate_game_json(orjson.dumps(log))
    assert str(refused.value).startswith(where), str(refused.value)


def test_a_match_record_takes_whole_floats_as_well() -> None:
    record = {"format": "cribstats/match/1", "id": "m", "players": ["Alice", "Bob"],
              "rules": {"first_to": 2.0, "count": "games", "points": [1.0, 2, 3]},
              "result": {"winner": "Alice", "points": {"Alice": 2.0, "Bob": 0}}}
    jsonschema.validate(record, MATCH_SCHEMA)
    read = validate_match(record)
    assert (read.rules.first_to, read.rules.points, read.result.points) == (2, [1, 2, 3], {"Alice": 2, "Bob": 0})
