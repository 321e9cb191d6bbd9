"""When two records of a game's result alone are one game, however they spell it: two tables of a night each
send the game they played, one writing ``GRASS ROOTS`` and the players the other way round, the other ``Grass
Roots`` with the default variant written out. The store keeps one game of one record (the same log is "already
stored"); records alike but for such spelling are one game too.

:func:`result_identity` is the identity: the log as written, but for the event and the players by their keys
(case, spacing and Unicode form apart), the players in either order, the round without the spaces around it (a
round written as a number by its number: ``01`` is round 1), and the variant and target as they are played (the
default written out or not). A game with deals, or with an id of its own, is named by that and matched by
nothing else; so is an undated record (nothing says two such were one sitting).
"""

from __future__ import annotations

from typing import Any

import orjson

from cribstats.names import event_key, name_key
from cribstats.variants import DEFAULT_VARIANT, find_variant

#: the fields the identity reads in its own way; every other field of the log counts as written
_READ_APART = ("players", "result", "event", "round", "variant", "target")


def result_identity(log: dict[str, Any]) -> str | None:
    """The identity of a record of a game's result alone (a log as JSON data); None for a game with deals, an id
    or no date.

    >>> one = {"format": "cribstats/game/1", "date": "2026-05-12", "event": "Grass Roots", "round": "1",
    ...        "players": ["Ann", "Kim"], "result": {"winner": "Ann", "scores": {"Ann": 121, "Kim": 99}}}
    >>> two = {**one, "players": ["KIM", "ann"], "event": "GRASS ROOTS ", "variant": "six-card", "round": " 1",
    ...        "result": {"winner": "ann", "scores": {"KIM": 99, "ann": 121}}}
    >>> result_identity(one) == result_identity(two) != result_identity({**one, "round": "2"})
    True
    >>> result_identity({**one, "id": "g7"}) is None and result_identity({**one, "date": None}) is None
    True
    """
    if log.get("deals") or log.get("id") is not None or log.get("date") is None:
        return None
    variant = find_variant(log["variant"]) if log.get("variant") else DEFAULT_VARIANT
    result = log.get("result") or {}
    rest = {field: value for field, value in log.items() if field not in _READ_APART}
    winner = result.get("winner")
    identity = [
        rest,
        event_key(log["event"]) if log.get("event") else None,
        _round(log.get("round")),
        variant.name,
        log.get("target") or variant.target,
        sorted(map(name_key, log.get("players", []))),
        None if winner is None else name_key(winner),
        sorted((name_key(name), score) for name, score in (result.get("scores") or {}).items()),
        {field: value for field, value in result.items() if field not in ("winner", "scores")},
    ]
    return orjson.dumps(identity, option=orjson.OPT_SORT_KEYS).decode()


def _round(text: str | None) -> str | None:
    """A round as the identity reads it.

    >>> _round(" 01 "), _round("1"), _round("Final "), _round(""), _round(None)
    ('1', '1', 'Final', None, None)
    """
    round_ = (text or "").strip()
    if round_.isascii() and round_.isdecimal():
        return str(int(round_))
    return round_ or None
