"""The canonical form of a game log and its identity: the fields it was given, cards canonical, fields in the
spec's order, a field given as ``null`` left out as the absent field it means (:func:`dump_game`); the sha256 of
that form with sorted keys (:func:`content_hash`); the text and the hash together, as the store keeps them
(:func:`canonical_json`). The key findings and the store name a game by, its id or the start of that hash, is
:func:`~cribstats.gamelog.contract.game_key`.

These read the models' fields directly (a new field of the model is written with no change here) and give what
``model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=True)`` gives, in a fraction of its
time; tests hold them equal, byte for byte. A game read as the fast decoder's Structs is written from them by
msgspec, no model built: the Structs have the models' fields in their order under the same names (a test holds
them so), leave out a field that is absent, and hold the values the model would be built from, so the text is the
same, byte for byte (a test holds that too); :func:`dump_game` builds the model.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import msgspec
import orjson
from pydantic import BaseModel

from cribstats.gamelog.fast import AnyGame, GameStruct, game_model
from cribstats.gamelog.model import Bid, Deal, GameLog, MugginsCall, Result


def _lists(hands: dict[str, list[str]]) -> dict[str, list[str]]:
    return {name: list(cards) for name, cards in hands.items()}


def _events(play: list[tuple[Any, ...]]) -> list[list[Any]]:
    return list(map(list, play))


def _models(items: list[BaseModel]) -> list[dict[str, Any]]:
    return [dump_model(item) for item in items]


def dump_model(model: BaseModel) -> dict[str, Any]:
    """One model of a game log as JSON-ready data: the fields it was given other than as ``null``, in the model's
    order, by alias."""
    given = model.__pydantic_fields_set__
    values = model.__dict__
    convert = _CONVERT[type(model)]
    out: dict[str, Any] = {}
    for name, key in _KEYS[type(model)]:
        if name in given and (value := values[name]) is not None:
            out[key] = convert[name](value) if name in convert else value
    return out


#: how a field's value is made JSON-ready (fresh containers, play events as arrays); others are written as they are
_CONVERT: dict[type[BaseModel], dict[str, Callable[[Any], Any]]] = {
    GameLog: {"players": list, "deals": _models, "result": dump_model},
    Deal: {"hands": _lists, "discards": _lists, "bid": dump_model, "play": _events, "pegged": dict, "show": dict,
           "muggins": _models, "scores": dict},
    Result: {"scores": dict},
    MugginsCall: {},
    Bid: {},
}
#: each model's fields in the spec's order, with the name they are written under
_KEYS: dict[type[BaseModel], tuple[tuple[str, str], ...]] = {
    cls: tuple((name, info.alias or name) for name, info in cls.model_fields.items()) for cls in _CONVERT
}


def dump_game(game: AnyGame) -> dict[str, Any]:
    """The log as JSON-ready data: only the fields it was given, cards canonical, fields in the spec's order."""
    return dump_model(game_model(game))


def _given(model: BaseModel) -> dict[str, Any]:
    """The fields a model was given other than as ``null``, by alias, in its order, holding the model's own values
    (not copies)."""
    given = model.__pydantic_fields_set__
    values = model.__dict__
    return {key: values[name] for name, key in _KEYS[type(model)] if name in given and values[name] is not None}


def _canonical_data(game: GameLog) -> dict[str, Any]:
    """:func:`dump_game` for writing at once as JSON: the same form, sharing the game's lists and play events."""
    out = _given(game)
    deals = out.get("deals")
    if deals:
        out["deals"] = written = []
        for deal in deals:
            data = _given(deal)
            if "bid" in data:
                data["bid"] = _given(data["bid"])
            if data.get("muggins"):
                data["muggins"] = list(map(_given, data["muggins"]))
            written.append(data)
    if "result" in out:
        out["result"] = _given(out["result"])
    return out


def canonical_json(game: AnyGame) -> tuple[bytes, str]:
    """The canonical JSON text of the game (fields in the spec's order, compact, UTF-8) and its
    :func:`content_hash`, as the store keeps them.

    >>> from cribstats.gamelog import validate_game
    >>> text, digest = canonical_json(validate_game({"players": ["A", "B"], "format": "cribstats/game/1"}))
    >>> text, digest == content_hash(validate_game({"format": "cribstats/game/1", "players": ["A", "B"]}))
    (b'{"format":"cribstats/game/1","players":["A","B"]}', True)
    """
    if isinstance(game, GameStruct):
        return _write_struct(game), hashlib.sha256(_write_struct_sorted(game)).hexdigest()
    data = _canonical_data(game_model(game))
    return orjson.dumps(data), hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


#: a checked game's Structs as canonical JSON text: fields in order, absent ones left out; and with sorted keys
_write_struct = msgspec.json.Encoder().encode
_write_struct_sorted = msgspec.json.Encoder(order="sorted").encode


def content_hash(game: AnyGame, dumped: dict[str, Any] | None = None) -> str:
    """sha256 (hex) of the canonical JSON of the game: :func:`dump_game` with sorted keys, compact, UTF-8.

    ``dumped`` is the game's :func:`dump_game`, when the caller has it already.

    Two logs that differ only in card spelling, key order or a field written ``null`` instead of left out have
    the same hash.

    >>> from cribstats.gamelog import validate_game
    >>> a = validate_game({"format": "cribstats/game/1", "players": ["A", "B"], "result": {"winner": "A"}})
    >>> b = validate_game({"result": {"winner": "A"}, "players": ["A", "B"], "format": "cribstats/game/1"})
    >>> content_hash(a) == content_hash(b), len(content_hash(a))
    (True, 64)
    """
    if dumped is None and isinstance(game, GameStruct):
        return hashlib.sha256(_write_struct_sorted(game)).hexdigest()
    data = _canonical_data(game_model(game)) if dumped is None else dumped
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()
