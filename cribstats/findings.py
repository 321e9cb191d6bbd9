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


# --- messages: one sentence a player can act on; the replay and the simulator word findings alike ---------------

PHASE_WORDS = {"play": "pegging", "heels": "his heels", "hand": "hand", "crib": "crib"}


def play_detail(fifteen: int, thirty_one: int, pairs: int, run: int, go: int, last: int) -> str:
    """What a card earned in the play, in words: ``'fifteen 2, run of 3 3'``; ``'nothing'`` when it earned 0.

    >>> play_detail(2, 0, 0, 3, 0, 0)
    'fifteen 2, run of 3 3'
    """
    parts = []
    if fifteen:
        parts.append(f"fifteen {fifteen}")
    if thirty_one:
        parts.append(f"thirty-one {thirty_one}")
    if pairs:
        parts.append({2: "pair 2", 6: "pair royal 6", 12: "double pair royal 12"}[pairs])
    if run:
        parts.append(f"run of {run} {run}")
    if go:
        parts.append(f"go {go}")
    if last:
        parts.append(f"last card {last}")
    return ", ".join(parts) or "nothing"


def claim_message(player: str, phase: str, claimed: int, due: int, what: str) -> str:
    """For ``missed`` and ``overclaim``: ``what`` names the thing counted (``'5S'``, ``'the hand 5H 5C 5S JD'``).

    >>> claim_message("Alice", "play", 0, 2, "5S (fifteen 2)")
    'Alice pegged 0 for 5S (fifteen 2) but 2 was due: 2 missed'
    """
    verb = "pegged" if phase == "play" else "claimed"
    gap = f"{due - claimed} missed" if claimed < due else f"{claimed - due} too many"
    return f"{player} {verb} {claimed} for {what} but {due} was due: {gap}"
