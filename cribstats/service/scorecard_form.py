"""The scorecard form: a night's cards typed in as the scorecard sheet's rows (one row per player per game,
the columns of :mod:`cribstats.formats.scorecard`), checked by the sheet's own reader.

The typed rows are written out as the sheet would be (a header, then one CSV line per row that has anything in
it) and read by :func:`~cribstats.formats.scorecard.read_scorecards`, so a row is refused, and two cards are
cross-checked, exactly as in a sheet; each message is put beside the row (or rows) its line names. A night's date
and event typed once above the rows stand for every row that leaves them empty. Storing goes through the same
import as an uploaded sheet, and only once every row reads: a form is stored whole or not at all.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cribstats.formats.scorecard import SCORECARD_COLUMNS, SCORECARD_OPTIONAL

FORM_COLUMNS: tuple[str, ...] = (*SCORECARD_COLUMNS[:3], "table", *SCORECARD_COLUMNS[3:],
                                 *(c for c in SCORECARD_OPTIONAL if c != "table"))  # fmt: skip
"""The inputs of a row, in the order of the sheet's columns (``table`` beside the round, as a sheet has it)."""
LABELS = {"date": "Date", "event": "Event", "round": "Round", "table": "Table", "player": "Player",
          "opponent": "Opponent", "game_points": "Game points", "spread": "Spread", "variant": "Variant",
          "target": "Target"}  # fmt: skip
NIGHT_FIELDS = ("date", "event")
START_ROWS = 8
MORE_ROWS = 8
MAX_ROWS = 400  # a club night's sheet is a few hundred rows
CELL_MAX = 200
FILE = "scorecard"
_LINES = re.compile(r"^lines? ([\d, ]+)(?:: (.*))?$")


@dataclass(slots=True)
class FormRow:
    """One row of the form: what was typed (kept as typed) and the messages the checks put beside it."""

    values: dict[str, str]
    messages: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    @property
    def blank(self) -> bool:
        return not any(v.strip() for v in self.values.values())


@dataclass(slots=True)
class ScorecardForm:
    """The form as sent: the night's date and event, and the rows."""

    night: dict[str, str]
    rows: list[FormRow]

    @classmethod
    def empty(cls, rows: int = START_ROWS) -> ScorecardForm:
        blank = [FormRow(dict.fromkeys(FORM_COLUMNS, "")) for _ in range(rows)]
        return cls(dict.fromkeys(NIGHT_FIELDS, ""), blank)

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> ScorecardForm:
        """The form from its fields (``night-date``, ``row-3-player``, ...; ``rows`` says how many rows)."""

        def cell(name: str) -> str:
            value = fields.get(name)
            return value[:CELL_MAX] if isinstance(value, str) else ""

        try:
            count = int(cell("rows"))
        except ValueError:
            count = START_ROWS
        count = max(1, min(count, MAX_ROWS))
        night = {name: cell(f"night-{name}") for name in NIGHT_FIELDS}
        rows = [FormRow({c: cell(f"row-{i}-{c}") for c in FORM_COLUMNS}) for i in range(count)]
        return cls(night, rows)

    def add_rows(self, n: int = MORE_ROWS) -> None:
        room = max(0, MAX_ROWS - len(self.rows))
        self.rows += [FormRow(dict.fromkeys(FORM_COLUMNS, "")) for _ in range(min(n, room))]

    @property
    def filled(self) -> list[FormRow]:
        return [row for row in self.rows if not row.blank]

    def sheet(self) -> tuple[str, dict[int, FormRow]]:
        """The rows as a scorecard sheet's text, and the row each line of it came from."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(FORM_COLUMNS)
        lines: dict[int, FormRow] = {}
        for row in self.filled:
            cells = dict(row.values)
            for name in NIGHT_FIELDS:
                if not cells[name].strip():
                    cells[name] = self.night[name]
            writer.writerow([cells[c] for c in FORM_COLUMNS])
            lines[len(lines) + 2] = row
        return out.getvalue(), lines

    def check(self) -> int:
        """Read the rows as the sheet's reader reads a sheet: messages beside each refused row, the cross-check
        findings beside both cards of their game. Returns the number of games the cards make."""
        from cribstats.errors import LogError
        from cribstats.formats.scorecard import read_scorecards
        from cribstats.formats.sources import SourceFinding

        for row in self.rows:
            row.messages.clear()
            row.findings.clear()
        text, lines = self.sheet()

        def rows_of(place: str | None) -> tuple[list[FormRow], str | None]:
            found = _LINES.match(place or "")
            if found is None:
                return [], None
            numbers = [int(n) for n in found.group(1).replace(",", " ").split()]
            return [lines[n] for n in numbers if n in lines], found.group(2)

        def on_error(error: LogError) -> None:
            rows, column = rows_of(error.place)
            for row in rows:
                label = LABELS.get(column or "", column)
                row.messages.append(f"{label}: {error.message}" if label else error.message)

        def on_record(item: Any) -> None:
            if isinstance(item, SourceFinding):
                for row in rows_of(item.place)[0]:
                    row.findings.append(item.finding.message)

        return sum(1 for _ in read_scorecards(text.splitlines(keepends=True), FILE, on_error=on_error,
                                              on_record=on_record))  # fmt: skip

    @property
    def refused(self) -> int:
        """How many rows cannot be read as they are."""
        return sum(1 for row in self.rows if row.messages)
