"""Reading a game log: the fast path first (:mod:`cribstats.gamelog.fast`), the pydantic model for whatever it
leaves (every refusal among them), then the contract's checks. The model is loaded when a log first needs it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from cribstats.gamelog.checks import check_options, check_players
from cribstats.gamelog.fast import convert_game_struct, decode_game_json, game_model

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyGame
    from cribstats.gamelog.model import GameLog


def validate_game(data: object) -> GameLog:
    """Check a decoded JSON value against the contract and return the model.

    :raises GameLogError: naming the first place that breaks it.
    """
    return game_model(read_game(data))


def read_game(data: object) -> AnyGame:
    """:func:`validate_game` as a reader hands a game on: the fast path's checked Structs where it settles the
    game (no model built), else the model.

    :raises GameLogError: naming the first place that breaks the contract.
    """
    struct = convert_game_struct(data)
    return struct if struct is not None else validate_game_model(data)


def validate_game_json(text: bytes | str) -> GameLog:
    """:func:`validate_game` on JSON text (one game).

    :raises GameLogError: for a contract break; ``orjson.JSONDecodeError`` for text that is not JSON.
    """
    game = decode_game_json(text)
    return game if game is not None else validate_game_model(orjson.loads(text))


def validate_game_model(data: object) -> GameLog:
    """:func:`validate_game` by the pydantic model alone: the reference the fast path is held to.

    :raises GameLogError: naming the first place that breaks the contract.
    """
    from pydantic import ValidationError  # the model and its messages load when a log first needs them

    from cribstats.gamelog.messages import _explain
    from cribstats.gamelog.model import GameLog

    try:
        game = GameLog.model_validate(data)
    except ValidationError as err:
        raise _explain(err, data) from None
    check_players(game)
    check_options(game)
    return game
