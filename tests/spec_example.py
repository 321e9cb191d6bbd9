"""The example deal of the game-log contract (docs/game-log.md): Alice deals, Bob leads JH; the play, show and
board as the contract writes them. Tests take it whole or with changes (``example_deal(play=[...])``)."""

from __future__ import annotations

import copy
from typing import Any


def example_deal(**changes: Any) -> dict[str, Any]:
    """The example deal, each given field replaced (a copy: the caller may change it further)."""
    deal: dict[str, Any] = {
        "dealer": "Alice",
        "hands": {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]},
        "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
        "starter": "5H",
        "play": [
            ["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"],
            ["Alice", "2S", 1], ["Bob", "6D"], ["Alice", "4S"], ["Bob", "4H", 3],
        ],
        "show": {"Bob": 9, "Alice": 12, "crib": 6},
        "scores": {"Alice": 24, "Bob": 12},
    }
    deal.update(copy.deepcopy(changes))
    return deal
