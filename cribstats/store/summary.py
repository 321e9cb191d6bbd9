"""What an import did: games imported, present, conflicting and refused, each refusal with its place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from cribstats.store.match_import import MatchTally

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyGame

MAX_REPORTED = 10_000  # refusals and conflicts kept with their reasons; beyond that only counted


class SourceGame(Protocol):
    """A game as a reader yields it: the file, the place in it (``line 12``, ``[3]``), the game, and for a
    match record's whole game the game as the record writes it (or None)."""

    @property
    def file(self) -> str: ...
    @property
    def place(self) -> str | None: ...
    @property
    def game(self) -> AnyGame: ...
    @property
    def written(self) -> AnyGame | None: ...


@dataclass(slots=True, frozen=True)
class Refusal:
    """A game (or a whole input) that was not stored, with where it came from and why."""

    file: str
    place: str | None
    reason: str
    game: str | None = None  # the game key, when the game could be read

    def __str__(self) -> str:
        where = f"{self.file}:{self.place}" if self.place else self.file
        return f"{where}: {self.reason}"


@dataclass(slots=True)
class ImportSummary:
    """What an import did. ``refused`` and ``conflicts`` keep the first :data:`MAX_REPORTED` reasons each."""

    files: int = 0
    imported: int = 0
    present: int = 0  # already stored with the same content: nothing changed
    replaced: int = 0  # stored over a game with the same source id (``replace=True``); also counted as imported
    refused_count: int = 0
    conflict_count: int = 0
    findings: int = 0  # findings of the games imported
    deals: int = 0  # deals of the games imported
    refused: list[Refusal] = field(default_factory=list)
    conflicts: list[Refusal] = field(default_factory=list)
    matches: MatchTally = field(default_factory=MatchTally)  # match records and scorecard findings

    @property
    def games(self) -> int:
        """Every game or input met: imported, present, conflicting or refused."""
        return self.imported + self.present + self.conflict_count + self.refused_count

    @property
    def complete(self) -> bool:
        """True when every game was imported or already present."""
        return self.refused_count == 0 and self.conflict_count == 0

    def _refuse(self, refusal: Refusal) -> None:
        self.refused_count += 1
        if len(self.refused) < MAX_REPORTED:
            self.refused.append(refusal)

    def _conflict(self, refusal: Refusal) -> None:
        self.conflict_count += 1
        if len(self.conflicts) < MAX_REPORTED:
            self.conflicts.append(refusal)


ProgressHook = Callable[[ImportSummary, str], None]
