"""The name and text rule: what a player's name and a log's free text may be, in one place for every reader.

* A player's name is trimmed, then put in Unicode NFC, so that "Zoë" typed either way is one name. It is refused
  when empty, longer than :data:`MAX_NAME` characters, or holding a character of a forbidden category.
* Free text (``event``, ``site``, ``round``, a game's or a match's ``id``) is put in NFC and refused for the same
  characters and beyond its length limit (:data:`TEXT_LIMITS`).
* Forbidden (:data:`FORBIDDEN_CATEGORIES`): control characters (a tab and a newline among them), format
  characters (zero-width spaces, bidirectional controls), surrogates, private use, unassigned code points, and
  the line and paragraph separators. Three kinds of format character are allowed in their place
  (:func:`refused_characters`): a zero-width joiner or non-joiner (U+200D, U+200C) between two visible
  characters, as in an emoji family or a Persian word, and the tag characters of a flag's emoji tag sequence
  (U+1F3F4, tags U+E0020 to U+E007E, U+E007F: Scotland's flag).
* A whole game log is at most :data:`MAX_GAME_BYTES` of JSON text.

Names that differ only in case, spacing or joiners are one player: :func:`name_key` is the key the store knows them
by.
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


ZWNJ, ZWJ = "\u200c", "\u200d"
#: the joiners a name may hold between two visible characters, each with what a refusal calls it
JOINERS: dict[str, str] = {
    ZWJ: "a zero-width joiner, allowed only between two visible characters",
    ZWNJ: "a zero-width non-joiner, allowed only between two visible characters",
}
BLACK_FLAG, CANCEL_TAG = "\U0001f3f4", "\U000e007f"
TAG_KIND = "a tag character, allowed only in a flag's tag sequence: after U+1F3F4, ended by U+E007F"
_TAG_SPEC = range(0xE0020, 0xE007F)  # the tags a flag's sequence spells its region with, U+E0020 to U+E007E
_UNJOINED = {ord(ZWNJ): None, ord(ZWJ): None}


def _shown_beside(char: str) -> bool:
    """A joiner's neighbour that lets it stay: neither whitespace nor a character of the forbidden categories."""
    return not char.isspace() and unicodedata.category(char) not in FORBIDDEN_CATEGORIES


def _tag_sequence_end(text: str, at: int) -> int:
    """Where the flag's tag sequence whose first tag is ``text[at]`` ends (past its cancel tag); 0 for none."""
    if at == 0 or text[at - 1] != BLACK_FLAG:
        return 0
    end = at
    while end < len(text) and ord(text[end]) in _TAG_SPEC:
        end += 1
    return end + 1 if end > at and text[end:end + 1] == CANCEL_TAG else 0


def refused_characters(text: str) -> Iterator[tuple[int, str]]:
    """Each character of ``text`` the rule refuses, in order: its index and what it is.

    A character of :data:`FORBIDDEN_CATEGORIES` is refused, except a joiner (:data:`JOINERS`) with a visible
    character on each side (not whitespace, not itself hidden) and the tags of a flag's emoji tag sequence
    (U+1F3F4, one or more tags U+E0020 to U+E007E, the cancel tag U+E007F).

    >>> [i for i, _ in refused_characters("\u200dA\u200dB\u200d \u200cC")]
    [0, 4, 6]
    >>> [i for i, _ in refused_characters("\U0001f3f4\U000e0067\U000e007f x\U000e0067\U000e007f")]
    [5, 6]
    """
    past = 0  # the end of the last flag's tag sequence: its tags are allowed
    for i, char in enumerate(text):
        kind = FORBIDDEN_CATEGORIES.get(unicodedata.category(char))
        if kind is None or i < past:
            continue
        if char in JOINERS:
            if 0 < i < len(text) - 1 and _shown_beside(text[i - 1]) and _shown_beside(text[i + 1]):
                continue
            kind = JOINERS[char]
        elif 0xE0001 <= ord(char) <= 0xE007F:
            past = _tag_sequence_end(text, i)
            if past:
                continue
            kind = TAG_KIND
        yield i, kind


def forbidden_character(text: str) -> str | None:
    """The first character of ``text`` the rule refuses (:func:`refused_characters`), described
    (``'U+0009 (a control character)'``), or None.

    >>> forbidden_character("Ann\\tBob"), forbidden_character("Zoë")
    ('U+0009 (a control character)', None)
    >>> forbidden_character("\u200dAnn")
    'U+200D (a zero-width joiner, allowed only between two visible characters)'
    """
    if text.isascii() and text.isprintable():
        return None
    for char in text:  # most text holds no hidden character at all: only one that does is looked at by place
        if unicodedata.category(char) in FORBIDDEN_CATEGORIES:
            break
    else:
        return None
    for i, kind in refused_characters(text):
        return f"U+{ord(text[i]):04X} ({kind})"
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
    the characters the rule refuses (:func:`refused_characters`: hidden or controlling ones) written as escapes;
    a joiner between two visible characters, or a flag's tags, as typed. A backslash or a quote is itself, as it
    is not in ``repr``.

    >>> print(quoted("C:\\games\\g1"), quoted("Ann\\tX"), quoted("Bob's"), quoted('Ann "A"'))
    'C:\games\g1' 'Ann\tX' 'Bob's' 'Ann "A"'
    >>> print(quoted("Ann\tX"), quoted("Zoë\u200b"))
    'Ann\x09X' 'Zoë\u200b'
    """
    if not (text.isascii() and text.isprintable()):
        refused = {i for i, _ in refused_characters(text)}
        if refused:
            text = "".join(escape_char(c) if i in refused else c for i, c in enumerate(text))
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
    """The key that makes two spellings of a name one player: NFC, case folded, inner whitespace collapsed, the
    joiners (:data:`JOINERS`) left out (a flag's tags are kept: Scotland and England are two names).

    >>> name_key(" Bob  Smith "), name_key("ZOË") == name_key("zoe\\u0308")
    ('bob smith', True)
    >>> name_key("\U0001f468\u200d\U0001f469\u200d\U0001f467") == name_key("\U0001f468\U0001f469\U0001f467")
    True
    """
    if ZWJ in name or ZWNJ in name:
        name = name.translate(_UNJOINED)
    key = " ".join(name.split()).casefold()
    return key if key.isascii() else unicodedata.normalize("NFC", unicodedata.normalize("NFC", key).casefold())


def one_player_twice(players: list[str]) -> str | None:
    """What is wrong with a game whose players name one player twice, spelled apart only in case, spacing or
    joiners (their :func:`name_key` is the same): the store would make them one player. None when every player is
    another.

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
            return f"players {quoted(seen[key])} and {quoted(trimmed)} {apart_only(seen[key], trimmed)}"
        seen[key] = trimmed
    return None


def apart_only(one: str, other: str) -> str:
    """How two spellings of one player's name (the same :func:`name_key`) differ, and what follows from it.

    >>> apart_only("Ann", "ANN")
    'differ only in case or spacing: they would be one player'
    >>> apart_only("👨\u200d👩", "👨👩")
    'differ only in case, spacing or joiners: they would be one player'
    """
    apart = "case, spacing or joiners" if set(one + other) & JOINERS.keys() else "case or spacing"
    return f"differ only in {apart}: they would be one player"


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
