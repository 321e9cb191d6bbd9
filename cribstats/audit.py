"""The muggins audit: findings gathered over many replayed games, a summary of them, and their JSON lines.

:class:`AuditCollector` is a :class:`~cribstats.replay.ReplayVisitor`: pass it to ``replay(game, collector)``
for every game (or hand it each :class:`~cribstats.replay.GameOutcome` with :meth:`AuditCollector.add`), and
:meth:`AuditCollector.result` gives the :class:`AuditSummary`. :func:`finding_json_line` writes one finding as
the line of findings version 1 (docs/findings.md).

>>> from cribstats.findings import Finding
>>> f = Finding("g1", 3, 5, "missed", "play", "Alice", 0, 2, "Alice pegged 0 for 5S (fifteen for 2) but 2 was due")
>>> finding_json_line(f)[:60]
b'{"game":"g1","deal":3,"event":5,"kind":"missed","phase":"pla'
>>> collector = AuditCollector()
>>> collector.add_findings("g1", 4, [f]).key
'g1'
>>> summary = collector.result()
>>> summary.games, summary.deals, summary.findings_by_kind, summary.missed
(1, 4, {'missed': 1}, {'Alice': 2})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from cribstats.errors import CribstatsError
from cribstats.findings import FINDING_KINDS, OVERCLAIM_KINDS, Finding
from cribstats.match.audit import MatchCollector
from cribstats.names import one_player_twice, quoted
from cribstats.replay import GameOutcome, ReplayVisitor, replay


def finding_json_line(f: Finding) -> bytes:
    """One finding as a JSON object on one line (ending in a newline), keys in the order of the spec; a match
    finding adds ``match``."""
    data = {
        "game": f.game,
        "deal": f.deal,
        "event": f.event,
        "kind": f.kind,
        "phase": f.phase,
        "player": f.player,
        "claimed": f.claimed,
        "due": f.due,
        "message": f.message,
    }
    if f.match is not None:
        data["match"] = f.match
    return orjson.dumps(data) + b"\n"


@dataclass(slots=True)
class GameAudit:
    """The findings of one game, with where it came from when known."""

    key: str
    deals: int
    findings: list[Finding]
    source: str | None = None  # "file:place"


@dataclass(slots=True)
class AuditSummary:
    """What an audit of many games found, in totals."""

    games: int = 0
    deals: int = 0
    games_with_findings: int = 0
    findings_by_kind: dict[str, int] = field(default_factory=dict)  # only kinds found, in the spec's order
    missed: dict[str, int] = field(default_factory=dict)  # points claimed short of what was due, per claimant
    overclaimed: dict[str, int] = field(default_factory=dict)  # points claimed beyond what was due, per claimant
    refused: int = 0  # inputs (games or files) that could not be read
    errors: list[str] = field(default_factory=list)  # their messages, "file:place: message"
    matches: int = 0  # matches judged
    records_with_findings: int = 0  # matches, and games of scorecards, with findings

    @property
    def findings(self) -> int:
        return sum(self.findings_by_kind.values())

    @property
    def exit_status(self) -> int:
        """0 when no game has a finding, 1 when some do, 2 when an input could not be read (2 wins)."""
        if self.refused:
            return 2
        return 1 if self.games_with_findings or self.records_with_findings else 0


class AuditCollector(ReplayVisitor):
    """Gathers findings and the summary over many games: a replay visitor, or a consumer of outcomes.

    With ``keep=False`` only the totals are kept (the findings of a game are in the :class:`GameAudit` that
    :meth:`add` returns), so an audit of a million games runs in bounded memory.
    """

    def __init__(self, *, keep: bool = True) -> None:
        self.keep = keep
        self.games: list[GameAudit] = []
        self._summary = AuditSummary()
        self._by_kind: dict[str, int] = {}
        self.last: GameAudit | None = None
        self._source: str | None = None
        self.matches = MatchCollector()
        self._scorecards: dict[str, list[Finding]] = {}
        self._ids: dict[str, str] = {}  # each game id met, and where: an id names one game

    # --- visitor ------------------------------------------------------------------------------------------

    def begin_game(self, game: object, key: str) -> None:
        self.last = None

    def end_game(self, outcome: GameOutcome) -> None:
        self.add(outcome)

    def result(self) -> AuditSummary:
        """The totals so far."""
        s = self._summary
        s.findings_by_kind = {kind: self._by_kind[kind] for kind in FINDING_KINDS if kind in self._by_kind}
        return s

    # --- plain consumer -----------------------------------------------------------------------------------

    def set_source(self, source: str | None) -> None:
        """Name where the next game comes from (``file:place``); it is kept with that game's findings."""
        self._source = source

    def add(self, outcome: GameOutcome) -> GameAudit:
        """Count one replayed game."""
        return self.add_findings(outcome.key, len(outcome.deals), outcome.findings)

    def add_findings(self, key: str, deals: int, findings: Iterable[Finding]) -> GameAudit:
        """Count one game given by its key, number of deals and findings."""
        found = list(findings)
        s = self._summary
        s.games += 1
        s.deals += deals
        if found:
            s.games_with_findings += 1
        for f in found:
            self._by_kind[f.kind] = self._by_kind.get(f.kind, 0) + 1
            if f.player is None or f.claimed is None or f.due is None:
                continue
            if f.kind == "missed":
                s.missed[f.player] = s.missed.get(f.player, 0) + f.due - f.claimed
            elif f.kind in OVERCLAIM_KINDS:
                s.overclaimed[f.player] = s.overclaimed.get(f.player, 0) + f.claimed - f.due
        audit = GameAudit(key, deals, found, self._source)
        self._source = None
        self.last = audit
        if self.keep:
            self.games.append(audit)
        return audit

    def audit_sources(
        self, sources: Iterable[Any], *, on_error: Callable[[str], None] | None = None,
        on_note: Callable[[str], None] | None = None,
    ) -> Iterator[GameAudit]:
        """Replay each game read (a ``SourceGame``: anything with ``file``, ``place`` and ``game``) and yield
        its audit, named by where it was found. A game the replay cannot take, or one whose players name one
        player twice (:func:`~cribstats.names.one_player_twice`, as the import refuses it), is refused, and
        ``on_error`` is told ``file:place: message``. A game whose id an earlier game of the input has is audited,
        and ``on_note`` told so (the import stores one game an id: a copy is stored already, a game with other
        content is refused as a conflict)."""
        for source in sources:
            where = f"{source.file}:{source.place}" if source.place else str(source.file)
            try:
                twice = one_player_twice(source.game.players)
                if twice is not None:  # refused as the import refuses it: one player cannot sit twice
                    raise CribstatsError(twice)
                outcome = replay(source.game)
            except CribstatsError as error:
                message = f"{where}: {error}"
                self.refuse(message)
                if on_error is not None:
                    on_error(message)
                continue
            key = source.game.id
            if key is not None and on_note is not None:
                first = self._ids.setdefault(key, where)
                if first != where:
                    on_note(f"{where}: note: game {quoted(key)} is in this input already ({first}): the import "
                            "stores one game an id, and refuses a second with other content as a conflict")
            self.matches.game(source.game, outcome, where)
            self.set_source(where)
            yield self.add(outcome)

    def add_record(self, item: Any) -> None:
        """A reader's ``on_record`` hook: a match record (``SourceMatch``) or a scorecard finding
        (``SourceFinding``), judged or reported by :meth:`finish`; two scorecards that agree (``SourceAgreement``)
        are a game, nothing more to the audit."""
        where = f"{item.file}:{item.place}" if item.place else str(item.file)
        record, finding = getattr(item, "record", None), getattr(item, "finding", None)
        if record is not None:
            self.matches.record(record, str(item.file), item.place)
        elif finding is not None:
            self._scorecards.setdefault(where, []).append(finding)

    def finish(self, *, on_error: Callable[[str], None] | None = None) -> Iterator[GameAudit]:
        """After the games: the scorecards that disagree (one audit per game of cards, keyed ``scorecards``), then
        every match judged (keyed ``match ID``); a match that cannot be put together is refused, and
        ``on_error`` told why."""
        for place, found in self._scorecards.items():
            yield self._add_record_audit("scorecards", found, place)
        self._scorecards = {}
        for outcome, where in self.matches.judged():
            self._summary.matches += 1
            yield self._add_record_audit(f"match {outcome.match}", outcome.findings, where)
        for message in self.matches.errors:
            self.refuse(message)
            if on_error is not None:
                on_error(message)
        self.matches.errors = []

    def _add_record_audit(self, key: str, findings: list[Finding], where: str | None) -> GameAudit:
        if findings:
            self._summary.records_with_findings += 1
        for f in findings:
            self._by_kind[f.kind] = self._by_kind.get(f.kind, 0) + 1
        audit = GameAudit(key, 0, list(findings), where)
        if self.keep:
            self.games.append(audit)
        return audit

    def refuse(self, error: CribstatsError | str) -> None:
        """Count an input that could not be read."""
        self._summary.refused += 1
        self._summary.errors.append(str(error))

    @property
    def findings(self) -> list[Finding]:
        """Every finding kept, in game order."""
        return [f for game in self.games for f in game.findings]
