"""The parts of the game log contract that need no schema library: the error a break is refused with and the
place it names, the game options a log's fields give, the range of its numbers, its dates, and the key a game
goes by.

Both decoders share them (the pydantic model and the fast path's Structs), and a reader that meets only logs
the fast path settles (the audit of a clean file) loads nothing more: pydantic and the models are loaded when a
log first needs them.

>>> format_place(("deals", 0, "hands", "Mary Ann", 2))
'deals[0].hands["Mary Ann"][2]'
>>> str(GameLogError("deals[3].starter", "'1H' is not a card"))
"deals[3].starter: '1H' is not a card"
"""

from __future__ import annotations

import re
from datetime import date as Date
from typing import TYPE_CHECKING

import orjson

from cribstats.errors import CribstatsError
from cribstats.names import quoted
from cribstats.variants import DEFAULT_VARIANT, Variant, find_variant

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyGame

#: the whole numbers a log may hold: a signed 64-bit integer, what the store's columns and the canonical JSON
#: text can hold (a number beyond it is refused at its place, never stored or hashed)
LOWEST_NUMBER, HIGHEST_NUMBER = -(2**63), 2**63 - 1


class GameLogError(CribstatsError, ValueError):
    """A log that breaks the contract; ``place`` is a JSON path such as ``deals[3].play[5]`` ('' for the game)."""

    def __init__(self, place: str, message: str) -> None:
        self.place = place
        self.message = message
        super().__init__(f"{place}: {message}" if place else message)


GameLogError.__module__ = "cribstats.gamelog"  # where it is imported from, as tracebacks name it


class GameOptions:
    """The rules a game is played under, as its fields give them (a field left out is the variant's or the
    contract's default): shared by the model and the fast decoder's Struct, so that each is said once."""

    __slots__ = ()

    if TYPE_CHECKING:
        variant: str | None
        target: int | None
        muggins: bool | None
        giveaway: bool | None
        bidding: bool | None

    @property
    def variant_rules(self) -> Variant:
        return find_variant(self.variant) if self.variant else DEFAULT_VARIANT

    @property
    def target_score(self) -> int:
        return self.target if self.target is not None else self.variant_rules.target

    @property
    def muggins_rule(self) -> bool:
        return bool(self.muggins)

    @property
    def giveaway_rule(self) -> bool:
        return bool(self.giveaway)

    @property
    def bidding_rule(self) -> bool:
        return bool(self.bidding)


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits: \d takes any script's


def iso_date(text: str) -> str:
    """A date as the contract writes it (``YYYY-MM-DD``, a day of the calendar).

    :raises ValueError: saying which of the two it is not.
    """
    if not _DATE.fullmatch(text):
        raise ValueError(f"{quoted(text)} is not a date: write YYYY-MM-DD")
    try:
        Date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{quoted(text)} is not a date of the calendar") from None
    return text


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def format_place(loc: tuple[int | str, ...]) -> str:
    """A JSON path a person can follow: ``('deals', 3, 'play', 5)`` -> ``'deals[3].play[5]'``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _NAME.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += "[" + orjson.dumps(part).decode() + "]"
    return out


def join_place(prefix: str, place: str) -> str:
    """``'[3]'`` and ``'deals[0]'`` -> ``'[3].deals[0]'``; either may be empty."""
    if not prefix or not place:
        return prefix or place
    return prefix + place if place.startswith("[") else f"{prefix}.{place}"


def game_key(game: AnyGame, digest: str | None = None) -> str:
    """How findings and the store name a game: its ``id``, or the first 16 hex digits of its content hash
    (:func:`~cribstats.gamelog.canonical.content_hash`; ``digest``, when the caller has it already).

    >>> from cribstats.gamelog import validate_game
    >>> game_key(validate_game({"format": "cribstats/game/1", "id": "r2-t4", "players": ["A", "B"]}))
    'r2-t4'
    """
    if game.id is not None:
        return game.id
    if digest is None:
        from cribstats.gamelog.canonical import content_hash  # the canonical form needs the model

        digest = content_hash(game)
    return digest[:16]
