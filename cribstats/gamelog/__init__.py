"""The game log (version 1, docs/game-log.md): the model, reading, the contract's checks and the canonical form.

Cards are kept in canonical spelling (``"TS"``); a model read and dumped back with :func:`dump_game` is the
same log, field for field. A log that breaks the contract is refused with :class:`GameLogError`, whose
``place`` is a JSON path (``deals[3].play[5]``); a log that merely breaks the rules of the game (a card played
twice, a wrong claim, a wrong number of cards) is accepted: the replay reports those as findings.

============= ================================================================================================
module        its job
============= ================================================================================================
``spelling``  the contract's words: the format, cards and their spellings, values described in messages
``contract``  what needs no schema library: the error and its place, the options, numbers, dates, the game key
``fields``    the model's field types (cards, dates, names, points, free text) and their JSON Schema
``model``     the pydantic models (``schemas/game-log-1.schema.json`` is generated from them)
``messages``  a pydantic validation error as a place and a sentence in the contract's words
``checks``    the rules a schema cannot say: the players' names, the game options
``fast``      msgspec decoding into checked Structs (the replay reads them; the models built where needed)
``validate``  :func:`validate_game`: the fast path, else the model
``canonical`` :func:`dump_game`, :func:`canonical_json`, :func:`content_hash`
============= ================================================================================================

The names of ``spelling`` and ``contract`` are loaded with the package; the others on first use, so that a
reader whose logs the fast path settles (the audit of a clean file) never loads pydantic or the models.

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

from typing import TYPE_CHECKING

from cribstats.gamelog.contract import (
    HIGHEST_NUMBER,
    LOWEST_NUMBER,
    GameLogError,
    GameOptions,
    format_place,
    game_key,
    iso_date,
    join_place,
)
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
from cribstats.lazy import lazy_names

if TYPE_CHECKING:
    from cribstats.gamelog.canonical import canonical_json, content_hash, dump_game
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
    from cribstats.gamelog.messages import _explain
    from cribstats.gamelog.model import Bid, Deal, GameLog, MugginsCall, Result
    from cribstats.gamelog.validate import read_game, validate_game, validate_game_json, validate_game_model

_LAZY: dict[str, tuple[str, ...]] = {
    "cribstats.gamelog.canonical": ("canonical_json", "content_hash", "dump_game"),
    "cribstats.gamelog.checks": ("check_options", "check_players"),
    "cribstats.gamelog.fields": (
        "CardOrGo", "CardText", "EventText", "IsoDate", "PlayEvent", "PlayerName", "Points", "PositiveNumber",
        "RoundText", "Score", "SiteText", "Text",
    ),
    "cribstats.gamelog.messages": ("_explain",),
    "cribstats.gamelog.model": ("Bid", "Deal", "GameLog", "MugginsCall", "Result"),
    "cribstats.gamelog.validate": ("read_game", "validate_game", "validate_game_json", "validate_game_model"),
}
__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())

__all__ = [
    "CANONICAL_CARDS", "CARD_MESSAGE", "CARD_OR_GO_PATTERN", "CARD_PATTERN", "CARD_SPELLINGS", "CRIB", "FORMAT",
    "GO", "HIGHEST_NUMBER", "LOWEST_NUMBER", "MUGGINS_PHASES", "Bid", "CardOrGo", "CardText", "Deal",
    "EventText", "GameLog", "GameLogError", "GameOptions", "IsoDate", "MugginsCall", "PlayEvent", "PlayerName",
    "Points", "PositiveNumber", "Result", "RoundText", "Score", "SiteText", "Text", "_explain", "canonical_json",
    "card_message", "check_options", "check_players", "content_hash", "describe", "dump_game", "format_place",
    "game_key", "iso_date", "join_place", "read_game", "validate_game", "validate_game_json",
    "validate_game_model",
]
