"""Everything derived from the sample logs and from 10,000 simulated games with mistakes is what an earlier
release of cribstats derived: the simulated logs themselves, every replayed fact and finding, the audit's lines
and summary, every stored row, the statistics and the standings.

The reference, ``tests/data/equivalence.json``, was written by ``tests/equivalence.py`` run with the cribstats
from before the play engine (the release whose replay walked a clean deal's play and a broken one's on two
separate paths, and whose simulator had a play loop of its own); see that module for what is digested. Some
digests were written again since, for changes made on purpose: the standings (partners of four-player games
stand as one side), the player aliases (a new table, empty here), and the points over-claimed (the audit's
summary, the stored totals and the statistics), which count a muggins call's taking beyond the miss.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from equivalence import all_digests

REFERENCE = Path(__file__).resolve().parent / "data" / "equivalence.json"


def differences(expected: Any, got: Any, where: str = "") -> list[str]:
    """Where two digest trees differ, as paths such as ``simulated.store.play_event``."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(set(expected) | set(got)):
            out += differences(expected.get(key), got.get(key), f"{where}.{key}" if where else key)
        return out
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        pairs = enumerate(zip(expected, got, strict=True))
        return [d for i, (e, g) in pairs for d in differences(e, g, f"{where}[{i}]")]
    return [] if expected == got else [where]


def test_differences_names_what_differs() -> None:
    """The comparison itself can fail: a changed digest is named by its path."""
    assert differences({"a": {"b": [1, 2]}, "c": 3}, {"a": {"b": [1, 5]}, "c": 3}) == ["a.b[1]"]
    assert differences({"a": 1}, {"a": 1, "b": 2}) == ["b"]


@pytest.mark.slow
def test_findings_rows_and_statistics_are_as_before(tmp_path: Path) -> None:
    expected = json.loads(REFERENCE.read_text(encoding="utf-8"))
    got = json.loads(json.dumps(all_digests(tmp_path)))
    assert differences(expected, got) == []
