"""Audit findings: the contract of spec findings version 1, one value per thing the audit found.

>>> Finding("g1", 3, 5, "missed", "play", "Alice", 0, 2, "5S made fifteen (2) but Alice pegged 0").to_dict()["kind"]
'missed'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal, get_args

FindingKind = Literal[
    "missed",
    "overclaim",
    "muggins-call",
    "illegal-card",
    "over-31",
    "false-go",
    "out-of-turn",
    "unplayed",
    "bad-deal",
    "bad-discard",
    "after-end",
    "board",
    "result",
]
Phase = Literal["deal", "play", "heels", "hand", "crib", "result"]
FINDING_KINDS: tuple[str, ...] = get_args(FindingKind)
PHASES: tuple[str, ...] = get_args(Phase)


@dataclass(slots=True)
class Finding:
    """One finding, with the fields of the contract in its order."""

    game: str
    deal: int | None
    event: int | None
    kind: FindingKind
    phase: Phase
    player: str | None
    claimed: int | None
    due: int | None
    message: str

    def to_dict(self) -> dict[str, object]:
        return asdict(self)
