"""Writing game logs back out: canonical JSON, as the contract spells it.

Canonical means: cards upper case with ``T`` (``"TS"``), ``"go"`` in lower case, only the fields the log had,
fields in the order of the spec (docs/game-log.md), names in the order the log gave them, and compact JSON in
UTF-8. Reading a log and writing it back gives the same log.

>>> from cribstats.gamelog import validate_game
>>> game = validate_game({"players": ["Ann", "Bo"], "format": "cribstats/game/1", "deals": [{"dealer": "Ann",
...     "hands": {"Ann": ["10s"], "Bo": ["j♥"]}, "discards": {"Ann": [], "Bo": []}, "starter": "5h"}]})
>>> write_game_json(game).decode()
'{"format":"cribstats/game/1","players":["Ann","Bo"],"deals":[{"dealer":"Ann","hands":{"Ann":["TS"],"Bo":["JH"]},\
"discards":{"Ann":[],"Bo":[]},"starter":"5H"}]}'
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import BinaryIO, TextIO

import orjson

from cribstats.gamelog import dump_game
from cribstats.gamelog.fast import AnyGame
from cribstats.match.model import MatchRecord, dump_match


def write_game_json(game: AnyGame, *, indent: bool = False) -> bytes:
    """One game as canonical JSON (``indent`` for a file people read: two spaces a level)."""
    return orjson.dumps(dump_game(game), option=orjson.OPT_INDENT_2 if indent else 0)


def write_games_jsonl(games: Iterable[AnyGame], handle: BinaryIO | TextIO) -> int:
    """Write games as JSON Lines, one canonical game per line, to a binary or text handle; return how many."""
    text = isinstance(handle, io.TextIOBase)
    count = 0
    for game in games:
        line = orjson.dumps(dump_game(game)) + b"\n"
        handle.write(line.decode() if text else line)  # type: ignore[arg-type]
        count += 1
    return count


def write_match_json(record: MatchRecord, *, indent: bool = False) -> bytes:
    """One match record as canonical JSON: the rules in object form, its whole games canonical (docs/match.md)."""
    return orjson.dumps(dump_match(record), option=orjson.OPT_INDENT_2 if indent else 0)
