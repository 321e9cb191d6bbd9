"""Joiners and flag tags in names (docs/game-log.md, "Names and free text"): a zero-width joiner (U+200D) or
non-joiner (U+200C) between two visible characters, as in an emoji family (👨‍👩‍👧), a profession (👩‍⚕️), the
rainbow flag (🏳️‍🌈) or a Persian word (می‌خواهم), and the tags of a flag's emoji tag sequence (🏴 U+1F3F4,
tags U+E0020 to U+E007E, U+E007F: Scotland's flag) are allowed in a name and in free text; anywhere else they
are refused, and every other format character still is. The player key leaves the joiners out (👨‍👩‍👧 and 👨👩👧
are one player) and keeps the tags (Scotland and England are two names). Names are stored and printed as typed.

Every expectation is worked out by hand: the messages, the keys, the widths (a family two columns, drawn as one
picture), the table lines. The end-to-end test imports simulated games under these names into an SQLite file with
``cribstats import`` in a new process, as a user would, and reads them back from ``games``, ``players`` and
``standings``."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import orjson
import pytest
import regex
from hostile_names import game_log
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.cli.terminal import name_cell
from cribstats.gamelog import GameLogError, validate_game
from cribstats.names import (
    TextError,
    check_text,
    escape_char,
    forbidden_character,
    name_key,
    normalise_name,
    one_player_twice,
    quoted,
)
from cribstats.safetext import display_width, graphemes, json_visible, shorten, visible

ZWJ, ZWNJ = "\u200d", "\u200c"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man, ZWJ, woman, ZWJ, girl: one picture
FAMILY_APART = "\U0001f468\U0001f469\U0001f467"  # the same three, not joined: three pictures
HEALTH_WORKER = "\U0001f469\u200d\u2695\ufe0f"  # woman, ZWJ, staff of Aesculapius, emoji presentation
RAINBOW = "\U0001f3f3\ufe0f\u200d\U0001f308"  # white flag, emoji presentation, ZWJ, rainbow
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # می‌خواهم: "I want", ZWNJ after the ی
PERSIAN_APART = "\u0645\u06cc\u062e\u0648\u0627\u0647\u0645"  # میخواهم
HINDI = "\u0915\u094d\u200c\u0937"  # क्‌ष: ka, virama, ZWNJ (the virama shown, no conjunct), ssa
SINHALA = "\u0dc1\u0dca\u200d\u0dbb\u0dd3"  # ශ්‍රී: sha, virama, ZWJ (the rakaaraansaya), ra, ii
KANNADA = "\u0ca8\u0cbf\u0ca8\u0ccd\u200c\u0cb9\u0cc6\u0cb8\u0cb0\u0cc1"  # ನಿನ್‌ಹೆಸರು: ZWNJ after a virama
FLAG, CANCEL = "\U0001f3f4", "\U000e007f"


def tags(letters: str) -> str:
    """The tag characters spelling ``letters`` (U+E0000 plus each letter's code)."""
    return "".join(chr(0xE0000 + ord(c)) for c in letters)


SCOTLAND = FLAG + tags("gbsct") + CANCEL  # 🏴󠁧󠁢󠁳󠁣󠁴󠁿
ENGLAND = FLAG + tags("gbeng") + CANCEL  # 🏴󠁧󠁢󠁥󠁮󠁧󠁿

ALLOWED = {
    "emoji family": FAMILY,
    "family with skin tones": "\U0001f468\U0001f3fd\u200d\U0001f469\U0001f3fd\u200d\U0001f467\U0001f3fd",
    "health worker": HEALTH_WORKER,
    "rainbow flag": RAINBOW,
    "Persian word": PERSIAN,
    "Hindi, a ZWNJ after a virama": HINDI,
    "Sinhala, a ZWJ after a virama": SINHALA,
    "Kannada, a ZWNJ after a virama": KANNADA,
    "a joiner between two letters": "Ann\u200dLee",
    "a non-joiner between a digit and a letter": "7\u200cX",
    "Scotland's flag": SCOTLAND,
    "England's flag": ENGLAND,
    "a flag after a name": f"Ann {SCOTLAND}",
    "a family after a name, a flag after it": f"Ann {FAMILY}{SCOTLAND}",
    "a joiner before a flag": f"A{ZWJ}{SCOTLAND}",
}

JOINER = "U+200D (a zero-width joiner, allowed only between two visible characters)"
NON_JOINER = "U+200C (a zero-width non-joiner, allowed only between two visible characters)"


def tag_message(code: int) -> str:
    where = "allowed only in a flag's tag sequence: after U+1F3F4, ended by U+E007F"
    return f"U+{code:04X} (a tag character, {where})"


FORMAT = "(a format character such as a zero-width space)"
REFUSED = {  # name -> what the refusal says it holds, by hand
    "a joiner at the start": (f"{ZWJ}Ann", JOINER),
    "a joiner at the end": (f"Ann{ZWJ}", JOINER),
    "a joiner at the end, before a trimmed space": (f"Ann{ZWJ} ", JOINER),
    "a joiner alone": (ZWJ, JOINER),
    "a joiner doubled": (f"\U0001f468{ZWJ}{ZWJ}\U0001f469", JOINER),
    "a joiner after a space": (f"Ann {ZWJ}Lee", JOINER),
    "a joiner before a space": (f"Ann{ZWJ} Lee", JOINER),
    "a non-joiner beside a no-break space": (f"Ann\u00a0{ZWNJ}Lee", NON_JOINER),
    "a non-joiner at the start": (f"{ZWNJ}{PERSIAN_APART}", NON_JOINER),
    "a non-joiner at the end": (f"{PERSIAN_APART}{ZWNJ}", NON_JOINER),
    "a joiner and a non-joiner side by side": (f"A{ZWJ}{ZWNJ}B", JOINER),
    "a joiner before a bidi override": (f"Ann{ZWJ}\u202eLee", JOINER),
    "a joiner after a zero-width space": (f"Ann\u200b{ZWJ}Lee", f"U+200B {FORMAT}"),
    "a joiner after a flag's cancel tag": (f"{SCOTLAND}{ZWJ}\U0001f469", JOINER),
    "tags after a letter": (f"Ann{tags('gbsct')}{CANCEL}", tag_message(0xE0067)),
    "tags after a flag, not ended": (f"{FLAG}{tags('gbsct')}", tag_message(0xE0067)),
    "tags after a flag, ended late": (f"{FLAG}{tags('gb')}x{tags('sct')}{CANCEL}", tag_message(0xE0067)),
    "a cancel tag alone after a flag": (f"{FLAG}{CANCEL}", tag_message(0xE007F)),
    "a cancel tag alone": (f"Ann{CANCEL}", tag_message(0xE007F)),
    "the language tag after a flag": (f"{FLAG}\U000e0001{tags('gbsct')}{CANCEL}", tag_message(0xE0001)),
    "tags after the white flag": (f"\U0001f3f3{tags('gbsct')}{CANCEL}", tag_message(0xE0067)),
    "tags after a flag and a space": (f"{FLAG} {tags('gbsct')}{CANCEL}", tag_message(0xE0067)),
    "a second run of tags after a whole flag": (f"{SCOTLAND}{tags('x')}{CANCEL}", tag_message(0xE0078)),
}
OTHER_FORMAT = {  # every other format character, between two letters: refused as before
    "zero-width space": "\u200b", "word joiner": "\u2060", "byte order mark": "\ufeff", "soft hyphen": "\u00ad",
    "left-to-right embedding": "\u202a", "right-to-left embedding": "\u202b",
    "pop directional formatting": "\u202c",
    "left-to-right override": "\u202d", "right-to-left override": "\u202e", "left-to-right isolate": "\u2066",
    "right-to-left isolate": "\u2067", "first strong isolate": "\u2068", "pop directional isolate": "\u2069",
    "left-to-right mark": "\u200e", "right-to-left mark": "\u200f", "Arabic letter mark": "\u061c",
    "Mongolian vowel separator": "\u180e", "invisible times": "\u2062",
}  # fmt: skip


# --- the rule ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(ALLOWED.values()), ids=list(ALLOWED))
def test_an_allowed_joiner_or_flag_is_kept_as_typed(name: str) -> None:
    assert unicodedata.normalize("NFC", name) == name
    assert normalise_name(name) == name
    assert normalise_name(f"  {name} ") == name
    assert forbidden_character(name) is None
    for field in ("event", "site", "round", "id"):
        assert check_text(name, field) == name


@pytest.mark.parametrize(("name", "held"), list(REFUSED.values()), ids=list(REFUSED))
def test_a_joiner_or_tag_out_of_place_is_refused_saying_why(name: str, held: str) -> None:
    with pytest.raises(TextError) as caught:
        normalise_name(name)
    assert str(caught.value) == f"a player's name may not hold {held}"
    with pytest.raises(TextError) as caught:
        check_text(name, "event")
    assert str(caught.value) == f"an event may not hold {held}"


@pytest.mark.parametrize("char", list(OTHER_FORMAT.values()), ids=list(OTHER_FORMAT))
def test_every_other_format_character_is_still_refused(char: str) -> None:
    assert unicodedata.category(char) == "Cf"
    for name in (f"Ann{char}Lee", f"\U0001f468{char}\U0001f469"):
        with pytest.raises(TextError) as caught:
            normalise_name(name)
        assert str(caught.value) == f"a player's name may not hold U+{ord(char):04X} {FORMAT}"


def test_a_refusal_names_its_place() -> None:
    def refusal(data: dict[str, object]) -> str:
        with pytest.raises(GameLogError) as caught:
            validate_game(data)
        return str(caught.value)

    def game(players: list[str], **fields: str) -> dict[str, object]:
        return {"format": "cribstats/game/1", "players": players, **fields,
                "result": {"winner": players[0], "scores": {players[0]: 121, players[1]: 90}}}  # fmt: skip

    assert validate_game(game([FAMILY, PERSIAN], event=f"Club {RAINBOW}", site=SCOTLAND)).players == [FAMILY,
                                                                                                      PERSIAN]
    assert refusal(game(["Bob", f"{ZWJ}Ann"])) == f"players[1]: a player's name may not hold {JOINER}"
    assert refusal(game(["Bob", "Ann"], site=f"Hall{ZWNJ}")) == f"site: a site may not hold {NON_JOINER}"


def test_the_key_leaves_joiners_out_and_keeps_the_flags_tags() -> None:
    assert name_key(FAMILY) == name_key(FAMILY_APART) == FAMILY_APART
    assert name_key(PERSIAN) == name_key(PERSIAN_APART) == PERSIAN_APART
    assert name_key(HINDI) == "\u0915\u094d\u0937" and name_key(SINHALA) == "\u0dc1\u0dca\u0dbb\u0dd3"
    assert name_key("Ann\u200dLee") == name_key("ANNLEE") == "annlee"
    assert name_key(f" Ann  {FAMILY} ") == name_key(f"ann {FAMILY_APART}") == f"ann {FAMILY_APART}"
    assert name_key(SCOTLAND) == SCOTLAND and name_key(ENGLAND) == ENGLAND
    assert name_key(SCOTLAND) != name_key(ENGLAND) != name_key(FLAG)
    assert one_player_twice([SCOTLAND, ENGLAND]) is None
    assert one_player_twice([PERSIAN, PERSIAN_APART]) == (
        f"players '{PERSIAN}' and '{PERSIAN_APART}' differ only in case, spacing or joiners: they would be one "
        "player")
    assert one_player_twice(["Alice", "ALICE"]) == (
        "players 'Alice' and 'ALICE' differ only in case or spacing: they would be one player")


# The rule as written, with the regex module's lookarounds over the whole text (not cribstats' code): take out
# the tags of each flag's tag sequence and each joiner with a visible character on each side (neither whitespace
# nor a character of the forbidden categories); what is left holds no character of those categories.
IN_PLACE = regex.compile(r"(?<=\U0001f3f4)[\U000e0020-\U000e007e]+\U000e007f"
                         r"|(?<=[^\s\p{C}])[\u200c\u200d](?=[^\s\p{C}])")
FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# letters, an emoji, a combining mark, spaces, the joiners, the flag, tags (the cancel tag among them), other
# format and control characters: text in which joiners and tags fall everywhere
PIECES = ["a", "Z", "\u06cc", "\U0001f468", "\u0301", " ", "\u00a0", ZWJ, ZWNJ, FLAG, "\U000e0067", CANCEL,
          "\U000e0001", "\u200b", "\u202e", "\t"]  # fmt: skip


def rule_allows(text: str) -> bool:
    return not any(unicodedata.category(c) in FORBIDDEN for c in IN_PLACE.sub("", text))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_any_joiners_and_tags_are_allowed_or_refused_as_the_rule_says(text: str) -> None:
    expected = unicodedata.normalize("NFC", text.strip())
    if expected and rule_allows(expected):
        assert normalise_name(text) == expected
        assert quoted(expected) == f"'{expected}'" and visible(expected) == expected
    elif expected:
        with pytest.raises(TextError):
            normalise_name(text)
        assert quoted(expected) != f"'{expected}'"
    if rule_allows(unicodedata.normalize("NFC", text)):
        assert check_text(text, "event") == unicodedata.normalize("NFC", text)
    else:
        with pytest.raises(TextError):
            check_text(text, "event")
    # the escapes: each refused character as escape_char writes it, everything else as typed; one way for a
    # message (quoted), a terminal (visible) and JSON text (json_visible, whose values decode the same)
    assert quoted(text) == f"'{visible(text)}'" and visible(quoted(text)) == quoted(text)
    assert json.loads(json_visible(json.dumps([text], ensure_ascii=False))) == [text]
    # what is left as typed is allowed where it stands (each escape read as a visible character)
    assert rule_allows(regex.sub(r"\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\U[0-9a-f]{8}", "X", visible(text)))


# --- showing and measuring --------------------------------------------------------------------------------------


def test_messages_show_allowed_joiners_as_typed_and_escape_the_rest() -> None:
    for name in ALLOWED.values():
        assert quoted(name) == f"'{name}'" and visible(name) == name
    assert quoted(f"{ZWJ}Ann") == r"'\u200dAnn'"
    assert quoted(f"Ann{ZWNJ} Lee") == r"'Ann\u200c Lee'"
    assert quoted(f"{FAMILY}{ZWJ}") == f"'{FAMILY}" + r"\u200d'"  # the family's joiners stay, the last is escaped
    assert quoted(f"A{ZWJ}{ZWJ}B") == r"'A\u200d\u200dB'"
    assert quoted(f"Ann{tags('gb')}{CANCEL}") == r"'Ann\U000e0067\U000e0062\U000e007f'"
    assert quoted(f"{FLAG}{tags('gb')}") == f"'{FLAG}" + r"\U000e0067\U000e0062'"
    assert quoted(f"Ann\u200b{ZWJ}Lee") == r"'Ann\u200b\u200dLee'"
    assert escape_char(ZWJ) == r"\u200d" and escape_char(CANCEL) == r"\U000e007f"
    for text in (*ALLOWED.values(), *(name for name, _ in REFUSED.values())):
        assert quoted(text) == f"'{visible(text)}'" and visible(quoted(text)) == quoted(text)


def test_json_text_keeps_allowed_joiners_and_escapes_the_rest() -> None:
    rows = [{"player": FAMILY, "event": f"{ZWJ}Club", "site": SCOTLAND, "round": f'"{ZWNJ}"\n{ZWJ}x'}]
    text = json_visible(json.dumps(rows, ensure_ascii=False))
    assert json.loads(text) == rows
    assert text == (f'[{{"player": "{FAMILY}", "event": "\\u200dClub", "site": "{SCOTLAND}", '
                    f'"round": "\\"{ZWNJ}\\"\\n\\u200dx"}}]')  # a quote is a visible neighbour, a newline is not


def test_a_joined_emoji_is_one_character_two_columns_wide() -> None:
    assert graphemes(FAMILY) == [FAMILY] and graphemes(SCOTLAND) == [SCOTLAND]
    assert graphemes(f"{FAMILY}{RAINBOW}x") == [FAMILY, RAINBOW, "x"]
    widths = {FAMILY: 2, FAMILY_APART: 6, HEALTH_WORKER: 2, RAINBOW: 2, SCOTLAND: 2, PERSIAN: 7, "❤️": 2,
              f"Ann {FAMILY}": 6}  # fmt: skip
    for name, width in widths.items():
        assert display_width(name) == width == cell_len(name), name  # as rich counts the cells of a table
    twelve = FAMILY * 12 + " x"  # 62 characters, 26 columns: cut to 11 families (22) and an ellipsis
    assert normalise_name(twelve) == twelve
    assert shorten(twelve, 24) == FAMILY * 11 + "…"
    assert name_cell(twelve).plain == FAMILY * 11 + "…"
    assert shorten(FAMILY * 3, 4) == FAMILY + "…"  # never a man alone, or a man and his joiner
    assert shorten(SCOTLAND * 3, 4) == SCOTLAND + "…"
    assert shorten(f"{PERSIAN} {PERSIAN}", 10) == f"{PERSIAN} \u0645…"  # 7, a space, a letter: 9 and "…"


# --- end to end -------------------------------------------------------------------------------------------------


def cribstats(*args: str, db: str) -> tuple[int, bytes, str]:
    """A ``cribstats`` command in a new process, as a user would run it: exit code, the bytes of standard output,
    standard error."""
    done = subprocess.run([sys.executable, "-m", "cribstats.cli", *args, "--db", db], capture_output=True,
                          timeout=300)  # fmt: skip
    return done.returncode, done.stdout, done.stderr.decode("utf-8")


def rows(*args: str, db: str) -> list[dict[str, object]]:
    code, out, err = cribstats(*args, "--format", "json", db=db)
    assert code == 0, err
    return orjson.loads(out)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Three imports into one SQLite file: the family plays the Persian word; the family, spelt without its
    joiners, plays Ann; Scotland plays England. Whole simulated games, so the names are in every deal too."""
    folder = tmp_path_factory.mktemp("joiners")
    db = f"sqlite:///{folder / 'club.db'}"
    imports = {
        "one.jsonl": game_log(FAMILY, PERSIAN, 1, id="g1", round="1"),
        "two.jsonl": game_log(FAMILY_APART, "Ann", 2, id="g2", round="2"),
        "three.jsonl": game_log(SCOTLAND, ENGLAND, 3, id="g3", round="3"),
    }
    for file, log in imports.items():
        (folder / file).write_bytes(orjson.dumps(log) + b"\n")
        code, _, err = cribstats("import", str(folder / file), db=db)
        assert code == 0, err
    return db


def test_names_come_back_byte_exact_and_one_player_however_joined(club: str) -> None:
    games = {str(g["game"]): g["players"] for g in rows("games", db=club)}
    assert {g: sorted(players) for g, players in games.items()} == {  # type: ignore[call-overload]
        "g1": sorted([FAMILY, PERSIAN]), "g2": sorted(["Ann", FAMILY]), "g3": sorted([SCOTLAND, ENGLAND])}
    players = {p["name"]: p for p in rows("players", db=club)}
    assert set(players) == {FAMILY, PERSIAN, "Ann", SCOTLAND, ENGLAND}  # the family as first stored
    assert players[FAMILY]["games"] == 2 and players[FAMILY]["aliases"] == []
    assert {p["player"]: p["games"] for p in rows("standings", db=club)} == {
        FAMILY: 2, PERSIAN: 1, "Ann": 1, SCOTLAND: 1, ENGLAND: 1}
    code, out, err = cribstats("games", "--format", "json", db=club)
    assert code == 0, err
    for name in (FAMILY, PERSIAN, SCOTLAND, ENGLAND):
        assert f'"{name}"'.encode() in out  # the UTF-8 as typed, no \u escape
    assert b"\\u200" not in out and b"\\udb40" not in out
    # a filter typed with or without the joiners finds the family's games
    for typed in (FAMILY, FAMILY_APART):
        assert sorted(g["game"] for g in rows("games", "--player", typed, db=club)) == ["g1", "g2"]  # type: ignore[type-var]
    code, out, err = cribstats("players", "--format", "csv", db=club)
    assert code == 0 and f"{PERSIAN},1,[]".encode() in out, (err, out)


def test_the_standings_table_lines_up_around_a_family(club: str) -> None:
    """rich lays out the table: the family takes two columns, as a terminal draws it, so every line of the table
    is as wide as the others (counted by hand: a family or a flag two, a joiner none, everything else here one)."""
    result = CliRunner().invoke(app, ["standings", "--db", club], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output

    def columns(line: str) -> int:
        return sum(2 if g in (FAMILY, SCOTLAND, ENGLAND) else 0 if g == ZWNJ else 1 for g in graphemes(line))

    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["rank", "player"])
    table = [line for line in lines[start:] if line.strip()]
    assert len(table) == 2 + 5, table  # the header, the rule, a row for each player
    for name in (FAMILY, PERSIAN, SCOTLAND, ENGLAND):
        assert sum(line.split()[1:2] == [name] for line in table) == 1, name
    assert not [line for line in table if "\\u" in line or "\\U" in line]
    assert {columns(line) for line in table} == {columns(table[0])}, table  # padded alike: every line as wide


def test_a_name_with_a_joiner_out_of_place_is_refused_and_the_rest_imported(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    log = tmp_path / "night.jsonl"
    log.write_bytes(orjson.dumps(game_log(FAMILY, "Bob", 4, id="ok")) + b"\n"
                    + orjson.dumps(game_log(f"{FAMILY}{ZWJ}", "Cy", 5, id="bad")) + b"\n"
                    + orjson.dumps(twice := game_log(FAMILY, FAMILY_APART, 6, id="twice")) + b"\n")
    code, _, err = cribstats("import", str(log), db=db)
    assert code != 0
    assert f"{log}:line 2: players[" in err and f"]: a player's name may not hold {JOINER}" in err, err
    first, second = twice["players"]  # in the log's seat order
    assert f"{log}:line 3: players '{first}' and '{second}' differ only in case, spacing or joiners" in err, err
    assert {p["name"] for p in rows("players", db=db)} == {FAMILY, "Bob"}
