"""The game log (spec game-log version 1): the model, reading, the contract's checks and the canonical form.

Cards are kept in canonical spelling (``"TS"``); a model read and dumped back with :func:`dump_game` is the
same log, field for field. A log that breaks the contract is refused with :class:`GameLogError`, whose
``place`` is a JSON path (``deals[3].play[5]``); a log that merely breaks the rules of the game (a card played
twice, a wrong claim, a wrong number of cards) is accepted: the replay reports those as findings.

============= ================================================================================================
module        its job
============= ================================================================================================
``spelling``  the contract's words: the format, cards and their spellings, values described in messages
``fields``    the model's field types (cards, dates, names, points, free text) and their JSON Schema
``model``     the pydantic models (``schemas/game-log-1.schema.json`` is generated from them), the error
``messages``  a pydantic validation error as a place and a sentence in the contract's words
``checks``    the rules a schema cannot say: the players' names, the game options
``fast``      msgspec decoding into checked Structs (the replay reads them; the models built where needed)
``validate``  :func:`validate_game`: the fast path, else the model
``canonical`` :func:`dump_game`, :func:`canonical_json`, :func:`content_hash`, :func:`game_key`
============= ================================================================================================

>>> game = validate_game({"format": "cribstats/game/1", "players": ["Alice", "Bob"],
...                       "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 88}}})
>>> game.variant_rules.target, game.deals
(121, None)
>>> validate_game({"format": "cribstats/game/1", "players": ["Alice", "Bob"],
...                "deals": [{"dealer": "Alice", "hands": {"Alice": [], "Bob": []}, "discards": {"Alice": [],
...                           "Bob": []}, "starter": "1H"}]})
Traceback (most recent call last):
...
cribstats.gamelog.GameLogError: deals[0].starter: '1H' is not a card: ranks are A 2-9 T J Q K, suits C D H S
"""

from __future__ import annotations

from cribstats.gamelog.canonical import canonical_json, content_hash, dump_game, game_key
from cribstats.gamelog.checks import check_options, check_players
from cribstats.gamelog.fields import (
    CardOrGo,
    CardText,
    EventText,
    IsoDate,
    PlayerName,
    PlayEvent,
    Points,
    PositiveNumber,
    RoundText,
    Score,
    SiteText,
    Text,
)
from cribstats.gamelog.messages import _explain, format_place, join_place
from cribstats.gamelog.model import Bid, Deal, GameLog, GameLogError, MugginsCall, Result
from cribstats.gamelog.spelling import (
    CANONICAL_CARDS,
    CARD_MESSAGE,
    CARD_OR_GO_PATTERN,
    CARD_PATTERN,
    CARD_SPELLINGS,
    CRIB,
    FORMAT,
    GO,
    MUGGINS_PHASES,
    card_message,
    describe,
)
from cribstats.gamelog.validate import validate_game, validate_game_json, validate_game_model

__all__ = [
    "CANONICAL_CARDS", "CARD_MESSAGE", "CARD_OR_GO_PATTERN", "CARD_PATTERN", "CARD_SPELLINGS", "CRIB", "FORMAT",
    "GO", "MUGGINS_PHASES", "Bid", "CardOrGo", "CardText", "Deal", "EventText", "GameLog", "GameLogError",
    "IsoDate", "MugginsCall", "PlayEvent", "PlayerName", "Points", "PositiveNumber", "Result", "RoundText",
    "Score", "SiteText", "Text", "_explain", "canonical_json", "card_message", "check_options", "check_players",
    "content_hash", "describe", "dump_game", "format_place", "game_key", "join_place", "validate_game",
    "validate_game_json", "validate_game_model",
]
