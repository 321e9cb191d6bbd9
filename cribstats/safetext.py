"""User text (names, events, sites, ids, messages) made safe to show: every character that could steer a terminal
or hide itself is shown as an escape, and long names are shortened for tables and charts.

This is the one place that decides how user text looks on a screen. The store always keeps the text whole.

>>> visible("Ann\\x1b[31m")
'Ann\\\\x1b[31m'
>>> visible("Zoe\\u200bX")
'Zoe\\\\u200bX'
>>> shorten("Bartholomew Fitzwilliam-Smythe", 12)
'Bartholomew…'
>>> display_width("麻雀"), display_width("Ann")
(4, 3)

A joiner between two visible characters (an emoji family, a Persian word) and a flag's tag sequence are allowed in
names (:func:`cribstats.names.refused_characters`): they are shown as typed, and only a joiner or tag out of
place is escaped.

>>> family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
>>> visible(family) == family
True
>>> print(visible("\u200dAnn"))
\\u200dAnn
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable

from cribstats.names import FORBIDDEN_CATEGORIES, escape_char, refused_characters

# Control, format (zero-width, bidi), surrogate, private use, unassigned, line and paragraph separators: the
# categories the name rule refuses (cribstats.names), and that a store written before the rule may still hold. Of
# them, a joiner between two visible characters and a flag's tags are allowed, and shown as they are.
HIDDEN_CATEGORIES = frozenset(FORBIDDEN_CATEGORIES)
ELLIPSIS = "…"
TABLE_NAME_WIDTH = 24  # terminal columns a name takes at most in a table
CHART_NAME_WIDTH = 20  # a tick label under a bar


# Characters worth a look: anything but printable ASCII (JSON text may also hold its own line breaks).
_SUSPECT = re.compile(r"[^\x20-\x7e]")
_JSON_SUSPECT = re.compile(r"[^\x20-\x7e\n]")
# The hidden characters the rule may allow, by their place: joiners and tags. Text without one is escaped by
# category alone; text with one by the rule's positions (refused_characters).
_IN_PLACE = re.compile("[\u200c\u200d\U000e0001-\U000e007f]")
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def _shown(match: re.Match[str]) -> str:
    char = match.group()
    return escape_char(char) if unicodedata.category(char) in HIDDEN_CATEGORIES else char


def visible(text: str) -> str:
    """``text`` with every hidden or controlling character written as a Python-style escape (``\\x1b``,
    ``\\u200b``), so that what reaches a terminal is exactly the characters a person can see; a joiner between
    two visible characters, or a flag's tags, is left as it is, as the name rule allows it."""
    if text.isascii() or _IN_PLACE.search(text) is None:
        return _SUSPECT.sub(_shown, text)
    refused = {i for i, _ in refused_characters(text)}
    return _SUSPECT.sub(lambda m: escape_char(m.group()) if m.start() in refused else m.group(), text)


def page_value(value: object) -> object:
    """A value a page shows (jinja's ``finalize``): text with a hidden or controlling character gets it as a
    visible escape; markup the page marked safe (its own script, a rendered section) is left as it is.

    >>> page_value("Ann\\u200b"), page_value(3)
    ('Ann\\\\u200b', 3)
    """
    if isinstance(value, str) and not hasattr(value, "__html__"):
        return visible(value)
    return value


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if unicodedata.category(char) not in HIDDEN_CATEGORIES:
        return char
    return _json_code(char)


def _json_code(char: str) -> str:
    code = ord(char)
    if code >= 0x10000:  # a surrogate pair, as JSON writes a character beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_visible(text: str) -> str:
    """JSON text with every hidden or controlling character inside its strings written as a ``\\u`` escape: the
    values decode exactly as they were, and nothing reaches a terminal that could steer it. A joiner between two
    visible characters of a string's value, or a flag's tags, is left as it is (:func:`visible`).

    >>> json_visible('["Ann\u200b"]')
    '["Ann\\\\u200b"]'
    >>> json_visible('["\u200dA\u200dB"]') == '["\\\\u200dA\u200dB"]'
    True
    """
    if _IN_PLACE.search(text) is None:
        return _JSON_SUSPECT.sub(_json_escape, text)
    return _JSON_STRING.sub(_json_string, text)


def _json_string(match: re.Match[str]) -> str:
    """One string of JSON text made visible; one holding a joiner or a tag written again from its value, with the
    characters the rule refuses in it escaped (a joiner's neighbours are those of the value, not of the text)."""
    token = match.group()
    if _IN_PLACE.search(token) is None:
        return _JSON_SUSPECT.sub(_json_escape, token)
    value = json.loads(token)
    refused = {i for i, _ in refused_characters(value)}
    out = []
    for i, char in enumerate(value):
        if char in '"\\' or char < " ":
            out.append(json.dumps(char)[1:-1])
        else:
            out.append(_json_code(char) if i in refused else char)
    return '"' + "".join(out) + '"'


# What takes no column of its own, joining the character before it: combining marks, variation selectors, emoji
# skin-tone modifiers and emoji tag characters.
_JOINING_CATEGORIES = frozenset({"Mn", "Mc", "Me"})
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_TAGS = range(0xE0020, 0xE0080)


def _joins(char: str) -> bool:
    code = ord(char)
    return (unicodedata.category(char) in _JOINING_CATEGORIES or code in _SKIN_TONES or code in _TAGS
            or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF)  # fmt: skip


def graphemes(text: str) -> list[str]:
    """``text`` as the characters a person sees (Unicode's extended grapheme clusters, by the ``regex`` module): a
    base with its combining marks, variation selectors and skin-tone modifiers, an emoji sequence joined by
    zero-width joiners, a flag's two regional indicators.

    >>> graphemes("Zoe\\u0308 👍🏽🇸🇪") == ["Z", "o", "e\\u0308", " ", "👍🏽", "🇸🇪"]
    True
    """
    import regex  # loaded only when a name is cut

    return list(regex.findall(r"\X", text))


def _char_width(char: str) -> int:
    if _joins(char) or unicodedata.category(char) == "Cf":
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _cluster_width(cluster: str) -> int:
    """Columns one grapheme takes that holds a zero-width joiner or an emoji presentation selector (U+FE0F): a
    picture joined on by a joiner takes none of its own (the sequence is drawn as one), and the selector makes a
    one-column symbol before it two (``❤️``)."""
    width = last = 0
    joined = False
    for char in cluster:
        if joined:  # in one grapheme, a joiner is followed only by a picture it joins to the one before
            joined = False
        elif char == "\u200d":
            joined = True
        elif char == "\ufe0f":
            if last == 1:
                width += 1
            last = 0
        elif w := _char_width(char):
            width, last = width + w, w
    return width


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide (CJK) characters two; combining marks, variation selectors and an
    emoji's skin-tone modifier none (they join the character before them); a flag two, one for each letter; an
    emoji sequence joined by zero-width joiners (``👨\u200d👩\u200d👧``) two, as one picture, and a symbol with
    the emoji presentation selector two. The command line measures with rich's own count
    (:func:`cribstats.cli.terminal.name_cell`), which agrees (but for a joiner between two letters, rare in a
    name, after which rich counts the letter as joined to the one before).

    >>> display_width("\U0001f468\u200d\U0001f469\u200d\U0001f467")
    2
    >>> display_width("\U0001f468\U0001f469\U0001f467")
    6
    """
    if text.isascii():
        return len(text)
    if "\u200d" not in text and "\ufe0f" not in text:
        return sum(_char_width(c) for c in text)
    return sum(_cluster_width(c) for c in graphemes(text))


def shorten(text: str, width: int = TABLE_NAME_WIDTH, measure: Callable[[str], int] = display_width) -> str:
    """``text`` cut to at most ``width`` columns (as ``measure`` counts them), ending in an ellipsis when cut;
    shorter text as it is. The cut falls between the characters a person sees (:func:`graphemes`): never
    between an emoji and its skin tone, a letter and its accent, or the two letters of a flag."""
    if measure(text) <= width:
        return text
    kept: list[str] = []
    used = 0
    for cluster in graphemes(text):
        w = measure(cluster)
        if used + w > width - 1:
            break
        kept.append(cluster)
        used += w
    while kept and measure("".join(kept)) > width - 1:  # should a count of the whole differ from its parts'
        kept.pop()
    return "".join(kept).rstrip() + ELLIPSIS


def safe_name(text: str, width: int = TABLE_NAME_WIDTH, measure: Callable[[str], int] = display_width) -> str:
    """A name for a table cell or a chart label: made visible, then shortened (to ``width`` columns as ``measure``
    counts them)."""
    return shorten(visible(text), width, measure)


def storable_path(path: str) -> str:
    """A file's path as text a database can hold: bytes of the name that are not UTF-8 (which Python keeps as lone
    surrogates) written as escapes such as ``\\xe9``; any other path is itself.

    >>> storable_path("club/caf\\udce9.jsonl"), storable_path("club/Zoë.jsonl")
    ('club/caf\\\\xe9.jsonl', 'club/Zoë.jsonl')
    """
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:  # a surrogate no byte of a name gives
            return path.encode("utf-8", "backslashreplace").decode("utf-8")
    return path
