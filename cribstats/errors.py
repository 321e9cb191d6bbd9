"""Error classes: input errors carry where they happened; rule breaks are findings, not errors."""

from __future__ import annotations


class CribstatsError(Exception):
    """Base class of every error cribstats raises on purpose."""


class CardError(CribstatsError, ValueError):
    """Text that is not a card, e.g. ``'1H'``."""


class VariantError(CribstatsError, ValueError):
    """An unknown variant name."""


class LogError(CribstatsError, ValueError):
    """A game log that cannot be read: names the file, the place in it and what is wrong.

    >>> str(LogError("club.jsonl", "line 3", "'1H' is not a card"))
    "club.jsonl:line 3: '1H' is not a card"
    """

    def __init__(self, file: str, place: str | None, message: str) -> None:
        self.file = file
        self.place = place
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.place}" if self.place else self.file
        return f"{where}: {self.message}"


class ConflictError(CribstatsError):
    """A game whose source id is already stored with different content."""
