"""The name and text rule: what a player's name and a log's free text may be, in one place for every reader.

* A player's name is trimmed, then put in Unicode NFC, so that "Zoë" typed either way is one name. It is refused
  when empty, longer than :data:`MAX_NAME` characters, or holding a character of a forbidden category.
* Free text (``event``, ``site``, ``round``, a game's or a match's ``id``) is put in NFC and refused for the same
  characters and beyond its length limit (:data:`TEXT_LIMITS`).
* Forbidden (:data:`FORBIDDEN_CATEGORIES`): control characters (a tab and a newline among them), format
  characters (zero-width spaces and joiners, bidirectional controls), surrogates, private use, unassigned code
  points, and the line and paragraph separators.
* A whole game log is at most :data:`MAX_GAME_BYTES` of JSON text.

Names that differ only in case or spacing are one player: :func:`name_key` is the key the store knows them by.
A game may not name one player twice that way (:func:`one_player_twice`). Events are compared with case
ignored: :func:`event_key` is what an event filter, or a scorecard's event, is compared by.
The store keeps the whole name; only tables and charts shorten a long one for display.

>>> normalise_name("  Zoe\\u0308 ") == "Zo\\u00eb"
True
>>> normalise_name("Ann\\u200b")
Traceback (most recent call last):
...
cribstats.names.TextError: a player's name may not hold U+200B (a format character such as a zero-width space)
>>> name_key("  Mary   ANN ") == name_key("mary ann")
True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

#: the longest player's name, in characters after NFC
MAX_NAME = 64
MAX_EVENT = 200
MAX_SITE = 200
MAX_ROUND = 40
MAX_ID = 200
#: the longest a free-text field may be, in characters after NFC, by field
TEXT_LIMITS: dict[str, int] = {"event": MAX_EVENT, "site": MAX_SITE, "round": MAX_ROUND, "id": MAX_ID}
#: the most JSON text one game log may take (1 MiB), in bytes of UTF-8
MAX_GAME_BYTES = 1 << 20

#: Unicode general categories no name or free text may hold
FORBIDDEN_CATEGORIES: dict[str, str] = {
    "Cc": "a control character",
    "Cf": "a format character such as a zero-width space",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


class TextError(ValueError):
    """A name or free text that breaks the rule; the message says what, the caller says where."""


#: text read back from a store, which may be older than the rule: taken as it was stored (see :func:`as_stored`)
_STORED: ContextVar[bool] = ContextVar("stored_text", default=False)


@contextmanager
def as_stored() -> Iterator[None]:
    """Within the block, a name or free text that breaks the rule's characters or lengths is taken as it is (still
    trimmed and in NFC): a stored log, which a store written before the rule may hold, is read back as it was
    stored, and every view escapes what it shows of it (:func:`cribstats.safetext.visible`).

    >>> with as_stored():
    ...     normalise_name("Ann\u200b") == "Ann\u200b"
    True
    """
    token = _STORED.set(True)
    try:
        yield
    finally:
        _STORED.reset(token)


def forbidden_character(text: str) -> str | None:
    """The first forbidden character of ``text``, described (``'U+0009 (a control character)'``), or None.

    >>> forbidden_character("Ann\\tBob"), forbidden_character("Zoë")
    ('U+0009 (a control character)', None)
    """
    if text.isascii() and text.isprintable():
        return None
    for char in text:
        kind = FORBIDDEN_CATEGORIES.get(unicodedata.category(char))
        if kind is not None:
            return f"U+{ord(char):04X} ({kind})"
    return None


def escape_char(char: str) -> str:
    """One character written as a Python-style escape: ``\\x1b``, ``\\u200b``, ``\\U000e0fff``."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def quoted(text: str) -> str:
    r"""User text (a name, an event, an id, a path) for a message: between single quotes and as typed, with only
    the characters of :data:`FORBIDDEN_CATEGORIES` (hidden or controlling ones) written as escapes. A backslash
    or a quote is itself, as it is not in ``repr``.

    >>> print(quoted("C:\\games\\g1"), quoted("Ann\\tX"), quoted("Bob's"), quoted('Ann "A"'))
    'C:\games\g1' 'Ann\tX' 'Bob's' 'Ann "A"'
    >>> print(quoted("Ann\tX"), quoted("Zoë\u200b"))
    'Ann\x09X' 'Zoë\u200b'
    """
    if not (text.isascii() and text.isprintable()):
        text = "".join(escape_char(c) if unicodedata.category(c) in FORBIDDEN_CATEGORIES else c for c in text)
    return f"'{text}'"


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def normalise_name(name: str) -> str:
    """A player's name as cribstats keeps it: trimmed, NFC.

    :raises TextError: for an empty name, one over :data:`MAX_NAME` characters, or a forbidden character.
    """
    if name.isascii() and name.isprintable() and 0 < len(name) <= MAX_NAME and name == name.strip():
        return name
    normal = _nfc(name.strip())
    if not normal:
        raise TextError("a player's name must not be empty")
    if _STORED.get():
        return normal
    bad = forbidden_character(normal)
    if bad is not None:
        raise TextError(f"a player's name may not hold {bad}")
    if len(normal) > MAX_NAME:
        raise TextError(f"a player's name is at most {MAX_NAME} characters, not {len(normal)}")
    return normal


def check_text(text: str, field: str, limit: int | None = None) -> str:
    """Free text (``field`` is ``event``, ``site``, ``round``, ``id``, ...) in NFC.

    ``limit`` defaults to the field's in :data:`TEXT_LIMITS`.

    :raises TextError: for a forbidden character or text longer than the limit.

    >>> check_text("Tuesday League", "event")
    'Tuesday League'
    >>> check_text("x" * 41, "round")
    Traceback (most recent call last):
    ...
    cribstats.names.TextError: a round is at most 40 characters, not 41
    """
    normal = _nfc(text)
    if _STORED.get():
        return normal
    bad = forbidden_character(normal)
    if bad is not None:
        raise TextError(f"{_article(field)} {field} may not hold {bad}")
    most = TEXT_LIMITS[field] if limit is None else limit
    if len(normal) > most:
        raise TextError(f"{_article(field)} {field} is at most {most} characters, not {len(normal)}")
    return normal


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def check_game_size(size: int) -> None:
    """Refuse a game log of more than :data:`MAX_GAME_BYTES` bytes of JSON text.

    >>> check_game_size(2_000_000)
    Traceback (most recent call last):
    ...
    cribstats.names.TextError: the game is 2000000 bytes of JSON; a game log is at most 1048576 bytes (1 MiB)
    """
    if size > MAX_GAME_BYTES:
        raise TextError(game_size_message(size))


def game_size_message(size: int) -> str:
    """What is wrong with a game log of ``size`` bytes, over :data:`MAX_GAME_BYTES`."""
    return f"the game is {size} bytes of JSON; a game log is at most {MAX_GAME_BYTES} bytes (1 MiB)"


def name_or_same(name: str) -> str:
    """A name used in a log beside its players, normalised as theirs are; left alone when the rule refuses it
    (the log's own checks then say it is not a player).

    >>> name_or_same(" Zoe\u0308") == "Zo\u00eb", name_or_same("x" * 65) == "x" * 65
    (True, True)
    """
    try:
        return normalise_name(name)
    except TextError:
        return name


class NameClash(TextError):
    """Two keys of one mapping that are one name once normalised; ``field`` names the mapping."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def normalise_keys(names: dict[str, Any], field: str = "") -> dict[str, Any]:
    """A mapping keyed by names (hands, show, scores), its keys normalised by :func:`name_or_same`.

    :raises NameClash: when two keys are one name once normalised (``"Bob"`` and ``"Bob "``): which of the two
        the log meant cannot be known.

    >>> normalise_keys({"Bob": 9, " Bob": 2}, "show")
    Traceback (most recent call last):
    cribstats.names.NameClash: 'Bob' and ' Bob' are one name, 'Bob': give it once
    """
    normal = {name_or_same(name): value for name, value in names.items()}
    if len(normal) != len(names):
        seen: dict[str, str] = {}
        for name in names:
            normal_name = name_or_same(name)
            first = seen.setdefault(normal_name, name)
            if first != name:
                raise NameClash(field, f"{quoted(first)} and {quoted(name)} are one name, {quoted(normal_name)}: "
                                "give it once")
    return normal


def normalise_deal_names(deal: Any) -> None:
    """Every name a deal of a game log uses, normalised in place (for a log whose deals spell the players' names
    in another Unicode form, or with spaces around them)."""
    deal.dealer = name_or_same(deal.dealer)
    deal.hands = normalise_keys(deal.hands, "hands")
    deal.discards = normalise_keys(deal.discards, "discards")
    if deal.play:
        deal.play = [(name_or_same(e[0]), *e[1:]) for e in deal.play]
    for field in ("pegged", "show", "scores"):
        value = getattr(deal, field)
        if value:
            setattr(deal, field, normalise_keys(value, field))
    for call in deal.muggins or ():
        call.by, call.from_ = name_or_same(call.by), name_or_same(call.from_)
    if getattr(deal, "bid", None) is not None:
        deal.bid.player = name_or_same(deal.bid.player)


def name_key(name: str) -> str:
    """The key that makes two spellings of a name one player: NFC, case folded, inner whitespace collapsed.

    >>> name_key(" Bob  Smith "), name_key("ZOË") == name_key("zoe\\u0308")
    ('bob smith', True)
    """
    key = " ".join(name.split()).casefold()
    return key if key.isascii() else unicodedata.normalize("NFC", unicodedata.normalize("NFC", key).casefold())


def one_player_twice(players: list[str]) -> str | None:
    """What is wrong with a game whose players name one player twice, spelled apart only in case or spacing (their
    :func:`name_key` is the same): the store would make them one player. None when every player is another.

    >>> one_player_twice(["Alice", "ALICE"])
    "players 'Alice' and 'ALICE' differ only in case or spacing: they would be one player"
    >>> one_player_twice(["Mary Ann", "Bob"]) is None
    True
    """
    seen: dict[str, str] = {}
    for name in players:
        trimmed = name.strip()
        key = name_key(trimmed)
        if key in seen:
            return (f"players {quoted(seen[key])} and {quoted(trimmed)} differ only in case or spacing: they "
                    "would be one player")
        seen[key] = trimmed
    return None


def stored_event(event: str | None) -> str | None:
    """An event's name as the store keeps it: trimmed; None for none or blank.

    >>> stored_event("  Autumn Cup "), stored_event("   ")
    ('Autumn Cup', None)
    """
    trimmed = event.strip() if event else ""
    return trimmed or None


def event_key(event: str) -> str:
    """What an event is compared by (a filter's ``--event``, the event of a scorecard): trimmed, NFC (as stored
    events are), lower case; the store keeps each event's key beside its name (``event.name_key``).

    >>> event_key(" Soire\u0301e CAFE\u0301 ") == event_key("soir\u00e9e caf\u00e9") == "soir\u00e9e caf\u00e9"
    True
    """
    return _nfc(event.strip()).lower()
