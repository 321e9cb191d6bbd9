"""The crib table: expected crib points by the rank pair thrown, as the dealer's own crib and as the pone's gift.

The table ships as ``cribstats/data/crib-table.json`` with its provenance; :mod:`cribstats.discards.build`
computes it and ``cribstats discard-table --build`` writes it. A pair of one rank has one row (``suited`` null);
two ranks have an off-suit row and a suited one (a crib flush needs the thrown cards of one suit).

>>> table = load_crib_table()
>>> from cribstats.cards import parse_cards
>>> five, jack = parse_cards("5H JS")
>>> table.value(five, jack, "dealer") < table.value(five, jack, "pone")  # the dealer's pone throws him rubbish
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from cribstats.cards import RANKS, Card
from cribstats.variants import find_variant

TABLE_FILE = Path(__file__).resolve().parent.parent / "data" / "crib-table.json"
PUBLISHED_FILE = TABLE_FILE.with_name("published-crib-tables.json")
FORMAT = "cribstats/crib-table/1"
ROLES = ("dealer", "pone")


def pair_name(low: int, high: int) -> str:
    """``'5J'`` for ranks 4 and 10 (the lower first).

    >>> pair_name(9, 12)
    'TK'
    """
    return RANKS[min(low, high)] + RANKS[max(low, high)]


@dataclass(frozen=True, slots=True)
class CribTable:
    """The table's rows, keyed by (lower rank, higher rank, suited or None), each a (dealer, pone) value."""

    rows: dict[tuple[int, int, bool | None], tuple[float, float]]
    provenance: dict[str, Any]
    flat: dict[str, list[float]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        flat = {role: [self.value(a, b, role) if a != b else 0.0 for a in range(52) for b in range(52)]
                for role in ROLES}  # fmt: skip
        object.__setattr__(self, "flat", flat)

    def value(self, first: Card, second: Card, role: str) -> float:
        """The expected crib the two thrown cards make, for the thrower as ``'dealer'`` or as ``'pone'``."""
        a, b = sorted((first >> 2, second >> 2))
        suited = None if a == b else (first & 3) == (second & 3)
        dealer, pone = self.rows[(a, b, suited)]
        return dealer if role == "dealer" else pone

    def by_cards(self, role: str) -> list[float]:
        """The value of every two cards thrown, indexed by ``first * 52 + second`` (either order), for one role:
        the fast path of the analysis of many deals."""
        return self.flat[role]

    def records(self) -> list[dict[str, Any]]:
        """The rows as ``{"pair": "5J", "suited": false, "dealer": 7.0, "pone": 7.7}``, in rank order."""
        return [
            {"pair": pair_name(a, b), "suited": suited, "dealer": dealer, "pone": pone}
            for (a, b, suited), (dealer, pone) in sorted(self.rows.items(), key=lambda kv: _order(kv[0]))
        ]

    def by_ranks(self, role: str) -> dict[str, float]:
        """One value per rank pair, whatever the suits (two ranks are suited one time in four), to set beside
        tables that do not split."""
        out: dict[str, float] = {}
        column = ROLES.index(role)
        for (a, b, suited), values in self.rows.items():
            share = 1.0 if suited is None else 0.25 if suited else 0.75
            out[pair_name(a, b)] = out.get(pair_name(a, b), 0.0) + share * values[column]
        return out


def _order(key: tuple[int, int, bool | None]) -> tuple[int, int, int]:
    a, b, suited = key
    return a, b, int(bool(suited))


def table_from_records(records: list[dict[str, Any]], provenance: dict[str, Any]) -> CribTable:
    """A table from its rows as the data file holds them."""
    rows: dict[tuple[int, int, bool | None], tuple[float, float]] = {}
    for row in records:
        a, b = (RANKS.index(ch) for ch in row["pair"])
        rows[(a, b, row["suited"])] = (float(row["dealer"]), float(row["pone"]))
    return CribTable(rows, provenance)


TABLE_VARIANTS = ("six-card", "five-card", "seven-card")
#: the cards each of them deals a player (the variants' own figure)
DEALT_BY_VARIANT: dict[str, int] = {name: find_variant(name).dealt for name in TABLE_VARIANTS}


@cache
def load_crib_table(variant: str = "six-card", path: Path = TABLE_FILE) -> CribTable:
    """The shipped crib table of a two-player variant (read once): the six-card one, or that built from hands of
    five or seven cards."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    about = {k: v for k, v in data.items() if k not in ("rows", "variants")}
    if variant == "six-card":
        return table_from_records(data["rows"], about | {"variant": variant})
    own = data["variants"][variant]
    about |= {k: v for k, v in own.items() if k != "rows"} | {"variant": variant}
    return table_from_records(own["rows"], about)


def load_published() -> dict[str, dict[str, Any]]:
    """The published tables copied for comparison: ``{"hessel": {"source": ..., "pairs": {"55": {"dealer": ...,
    "pone": ...}}}, "schell": ...}``."""
    tables: dict[str, dict[str, Any]] = json.loads(PUBLISHED_FILE.read_text(encoding="utf-8"))["tables"]
    return tables


def differences(table: CribTable, published: dict[str, dict[str, float]]) -> list[float]:
    """Absolute differences from a published table, over every rank pair and both roles (182 values)."""
    out = []
    for role in ROLES:
        ours = table.by_ranks(role)
        out += [abs(ours[pair] - values[role]) for pair, values in published.items()]
    return out


def write_table_file(document: dict[str, Any], path: str | Path) -> None:
    """Write the table's JSON whole or not at all.

    :raises WriteError: naming ``path`` when it cannot be written (the old file is left as it was).
    """
    from cribstats.atomicfile import write_atomic

    write_atomic(path, json.dumps(document, indent=1) + "\n")
