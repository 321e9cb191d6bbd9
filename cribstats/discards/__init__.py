"""Discard analysis: what each way to lay cards away is worth, and what a chosen discard cost.

* :mod:`cribstats.discards.hands`: the exact average show of every keep over every starter the player cannot see;
* :mod:`cribstats.discards.table`: the crib table (expected crib points by the rank pair thrown, as dealer and as
  pone) shipped in ``cribstats/data/crib-table.json``; :mod:`cribstats.discards.build` computes it;
* :mod:`cribstats.discards.analysis`: every discard of one dealt hand, ranked, and the loss of the one chosen.

>>> from cribstats.cards import parse_cards
>>> from cribstats.discards import analyse
>>> best = analyse(parse_cards("5C 5D 5H JS 2C 9D"), "six-card", "dealer")[0]
>>> " ".join(best.keep_text), " ".join(best.throw_text)
('5C 5D 5H JS', '2C 9D')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cribstats.lazy import lazy_names

if TYPE_CHECKING:
    from cribstats.discards.analysis import Discard, DiscardChoice, analyse, judge_discard
    from cribstats.discards.hands import hand_values
    from cribstats.discards.table import CribTable, load_crib_table

_MODULES: dict[str, tuple[str, ...]] = {
    "cribstats.discards.analysis": ("Discard", "DiscardChoice", "analyse", "judge_discard"),
    "cribstats.discards.hands": ("hand_values",),
    "cribstats.discards.table": ("CribTable", "load_crib_table"),
}

__all__ = ["CribTable", "Discard", "DiscardChoice", "analyse", "hand_values", "judge_discard", "load_crib_table"]

__getattr__, __dir__ = lazy_names(__name__, _MODULES, globals())
