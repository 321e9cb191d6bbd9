"""The name and text rule: one module, applied by every reader (JSON, tally, cribbage-zero) and the store."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribstats.errors import LogError
from cribstats.formats.cribzero import read_cribzero
from cribstats.formats.jsonlog import read_json_document, read_json_lines
from cribstats.formats.tally import read_tally
from cribstats.gamelog import GameLogError, validate_game
from cribstats.names import (
    FORBIDDEN_CATEGORIES,
    MAX_GAME_BYTES,
    MAX_NAME,
    TEXT_LIMITS,
    TextError,
    check_text,
    name_key,
    normalise_name,
)
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

ZOE_NFC = "Zo\u00eb"
ZOE_NFD = "Zoe\u0308"
HOSTILE = {
    "zero-width space": "Ann\u200b",
    "tab": "Ann\tBob",
    "newline": "Ann\nBob",
    "escape": "\x1b[31mRed",
    "osc title": "\x1b]0;title\x07",
    "right-to-left override": "\u202eevil",
    "line separator": "Ann\u2028Bob",
    "paragraph separator": "Ann\u2029Bob",
    "private use": "Ann\ue000",
    "unassigned": "Ann\U000e0fff",
    "too long": "x" * 312,
}


def result_game(players: list[str], **fields: Any) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "players": players, **fields,
            "result": {"winner": players[0], "scores": {players[0]: 121, players[1]: 90}}}


def refusal(data: Any) -> str:
    with pytest.raises(GameLogError) as caught:
        validate_game(data)
    return str(caught.value)


# --- the rule itself ---------------------------------------------------------------------------------------------


def test_nfc_and_nfd_spellings_are_one_name() -> None:
    assert ZOE_NFC != ZOE_NFD
    assert normalise_name(ZOE_NFD) == ZOE_NFC
    assert name_key(ZOE_NFD) == name_key(ZOE_NFC.upper()) == name_key(" zoë ")


@pytest.mark.parametrize("name", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_names_are_refused(name: str) -> None:
    with pytest.raises(TextError):
        normalise_name(name)


def test_a_name_is_trimmed_and_at_most_64_characters() -> None:
    assert normalise_name("  Ann  ") == "Ann"
    assert normalise_name("x" * MAX_NAME) == "x" * 64
    with pytest.raises(TextError, match="at most 64 characters, not 65"):
        normalise_name("x" * 65)
    with pytest.raises(TextError, match="must not be empty"):
        normalise_name(" \u00a0 ")


def test_the_limit_counts_characters_after_nfc() -> None:
    # 64 letters with a combining mark each: 128 code points as typed, 64 characters in NFC
    typed = "e\u0301" * 64
    assert len(typed) == 128
    assert normalise_name(typed) == "\u00e9" * 64


def forbidden(char: str) -> bool:
    return unicodedata.category(char) in FORBIDDEN_CATEGORIES


FLAG_TAGS = re.compile("\U0001f3f4([\U000e0020-\U000e007e]+\U000e007f)")


def breaks_rule(text: str) -> bool:
    """Whether ``text`` holds a character the rule refuses, worked out from the rule as written: one of the
    forbidden categories, but for a joiner (U+200C, U+200D) with a visible character on each side (neither
    whitespace nor of those categories) and the tags of a flag's tag sequence (U+1F3F4, tags U+E0020 to U+E007E,
    U+E007F)."""
    in_flags = {i for m in FLAG_TAGS.finditer(text) for i in range(m.start(1), m.end(1))}

    def seen(char: str) -> bool:
        return not char.isspace() and not forbidden(char)

    for i, char in enumerate(text):
        if not forbidden(char) or i in in_flags:
            continue
        if char in "\u200c\u200d" and 0 < i < len(text) - 1 and seen(text[i - 1]) and seen(text[i + 1]):
            continue
        return True
    return False


# any character, and often a joiner, the flag or a tag, so that they fall everywhere in a drawn name
with_joiners = st.characters(codec="utf-8") | st.sampled_from(
    ["\u200c", "\u200d", "\U0001f3f4", "\U000e0067", "\U000e007f"])


def test_the_rule_as_written_by_hand() -> None:
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert not breaks_rule("\U0001f468\u200d\U0001f469") and not breaks_rule(f"Ann {scotland}")
    assert breaks_rule("\u200dAnn") and breaks_rule("A \u200cB") and breaks_rule(f"{scotland}\u200dx")
    assert breaks_rule("Ann\U000e0067\U000e007f") and breaks_rule("A\u200bB")


@settings(max_examples=300, deadline=None)
@given(st.text(with_joiners, min_size=1, max_size=80))
def test_every_name_is_kept_in_nfc_or_refused(name: str) -> None:
    expected = unicodedata.normalize("NFC", name.strip())
    good = bool(expected) and len(expected) <= 64 and not breaks_rule(expected)
    if good:
        assert normalise_name(name) == expected
    else:
        with pytest.raises(TextError):
            normalise_name(name)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(TEXT_LIMITS)), st.text(with_joiners, max_size=260))
def test_free_text_is_kept_in_nfc_or_refused(field: str, text: str) -> None:
    expected = unicodedata.normalize("NFC", text)
    good = len(expected) <= TEXT_LIMITS[field] and not breaks_rule(expected)
    if good:
        assert check_text(text, field) == expected
    else:
        with pytest.raises(TextError):
            check_text(text, field)


# --- the JSON model ----------------------------------------------------------------------------------------------


def test_a_hostile_player_is_refused_at_its_place() -> None:
    assert refusal(result_game(["Bob", "Ann\u200b"])) == (
        "players[1]: a player's name may not hold U+200B (a format character such as a zero-width space)")
    assert refusal(result_game(["Ann\tBob", "Cy"])) == (
        "players[0]: a player's name may not hold U+0009 (a control character)")
    assert refusal(result_game(["x" * 312, "Cy"])) == (
        "players[0]: a player's name is at most 64 characters, not 312")


def test_a_name_typed_in_nfd_throughout_is_stored_in_nfc() -> None:
    hands = {ZOE_NFD: ["5H", "5C", "5S", "JD", "AS", "2S"], "Bob": ["3H", "3C", "3S", "4D", "AH", "2H"]}
    deal = {"dealer": ZOE_NFD, "hands": hands, "discards": {ZOE_NFD: ["AS", "2S"], "Bob": ["AH", "2H"]},
            "starter": "5D", "play": [[ZOE_NFD, "5H", 0], ["Bob", "3H"]],
            "muggins": [{"by": "Bob", "from": ZOE_NFD, "phase": "hand", "points": 2}]}
    # the players in NFC, the deal in NFD: one spelling, so one player
    game = validate_game({"format": "cribstats/game/1", "players": [ZOE_NFC, "Bob"], "deals": [deal]})
    d = game.deals[0]  # type: ignore[index]
    assert game.players == [ZOE_NFC, "Bob"]
    assert d.dealer == ZOE_NFC and set(d.hands) == {ZOE_NFC, "Bob"}
    assert d.play[0][0] == ZOE_NFC  # type: ignore[index]
    assert d.muggins[0].from_ == ZOE_NFC  # type: ignore[index]


def clashing_deal(field: str, keys: tuple[str, str]) -> dict[str, Any]:
    """A deal of Zoë and Bob whose ``field`` names Zoë twice, under ``keys`` (Bob's claim under neither)."""
    deal: dict[str, Any] = {
        "dealer": ZOE_NFC, "hands": {ZOE_NFC: ["5H", "5C", "5S", "JD", "AS", "2S"],
                                     "Bob": ["3H", "3C", "3S", "4D", "AH", "2H"]},
        "discards": {ZOE_NFC: ["AS", "2S"], "Bob": ["AH", "2H"]}, "starter": "5D"}
    first, second = deal.get(field, {}).get(ZOE_NFC, 12), {"hands": ["5H"], "discards": ["JD"]}.get(field, 29)
    deal[field] = {keys[0]: first, "Bob": deal.get(field, {}).get("Bob", 0), keys[1]: second}
    return deal


@pytest.mark.parametrize("field", ["hands", "discards", "show", "pegged", "scores"])
@pytest.mark.parametrize("keys", [(ZOE_NFC, ZOE_NFD), (ZOE_NFC, f" {ZOE_NFC}"), (f"{ZOE_NFC} ", ZOE_NFD)])
def test_two_keys_that_are_one_player_are_refused_at_their_place(field: str, keys: tuple[str, str]) -> None:
    """Two spellings of one name as two keys of one mapping (Zoë's show claimed 12 and 29) leave no way to tell
    which the table meant: the log is refused there, not read with the later one."""
    game = {"format": "cribstats/game/1", "players": [ZOE_NFC, "Bob"], "deals": [clashing_deal(field, keys)]}
    message = refusal(game)
    assert message.startswith(f"deals[0].{field}: ")
    assert repr(keys[0]) in message and repr(keys[1]) in message


def test_two_final_scores_for_one_player_are_refused(tmp_path: Path) -> None:
    one = {"format": "cribstats/game/1", "id": "one", "players": ["Ann", "Bob"],
           "result": {"winner": "Ann", "scores": {"Ann": 121, "Bob": 80}}}
    two = {**one, "id": "two", "result": {"winner": "Ann", "scores": {"Ann": 121, "Bob": 80, " Bob": 95}}}
    log = tmp_path / "night.jsonl"
    log.write_bytes(orjson.dumps(one) + b"\n" + orjson.dumps(two) + b"\n")
    engine = make_engine(f"sqlite:///{tmp_path / 'club.db'}")
    summary = import_paths([log], engine, workers=1)
    assert summary.imported == 1 and summary.refused_count == 1
    assert "line 2: result.scores: 'Bob' and ' Bob' are one name" in str(summary.refused[0])
    with engine.connect() as conn:
        assert [r[0] for r in conn.exec_driver_sql("SELECT source_id FROM game")] == ["one"]


@pytest.mark.parametrize(("field", "limit"), sorted(TEXT_LIMITS.items()))
def test_free_text_fields_have_limits(field: str, limit: int) -> None:
    assert validate_game(result_game(["A", "B"], **{field: "x" * limit})).model_dump()[field] == "x" * limit
    article = "an" if field[0] in "aeiou" else "a"
    assert refusal(result_game(["A", "B"], **{field: "x" * (limit + 1)})) == (
        f"{field}: {article} {field} is at most {limit} characters, not {limit + 1}")


def test_free_text_may_hold_no_control_character() -> None:
    assert refusal(result_game(["A", "B"], event="Night\x1b[31m")) == (
        "event: an event may not hold U+001B (a control character)")
    assert validate_game(result_game(["A", "B"], site="Cafe\u0301")).site == "Caf\u00e9"


def test_a_fifty_megabyte_site_is_refused() -> None:
    assert refusal(result_game(["A", "B"], site="s" * 50_000_000)).startswith("site: a site is at most 200")


def test_a_game_over_one_mebibyte_of_json_is_refused_with_its_place() -> None:
    small = orjson.dumps(result_game(["A", "B"]))
    # padding the JSON text with spaces keeps it one valid game: only its size is wrong
    big = small[:-1] + b" " * MAX_GAME_BYTES + b"}"
    errors: list[LogError] = []
    games = list(read_json_lines(io.BytesIO(small + b"\n" + big + b"\n"), "night.jsonl", on_error=errors.append))
    assert len(games) == 1
    assert [str(e) for e in errors] == [f"night.jsonl:line 2: the game is {len(big) + 1} bytes of JSON; "
                                        "a game log is at most 1048576 bytes (1 MiB)"]
    errors.clear()
    assert list(read_json_document(big, "one.json", on_error=errors.append)) == []
    assert str(errors[0]).startswith(f"one.json: the game is {len(big)} bytes")
    array = b"[" + small + b"," + orjson.dumps(result_game(["A", "B"], event="e" * 199) | {"deals": [
        {"dealer": "A", "hands": {"A": [], "B": []}, "discards": {"A": [], "B": []}, "starter": "5H"}] * 20_000})
    errors.clear()
    kept = list(read_json_document(array + b"]", "two.json", on_error=errors.append))
    assert [g.place for g in kept] == ["[0]"]
    assert str(errors[0]).startswith("two.json:[1]: the game is ")


# --- tally sheets and cribbage-zero records ---------------------------------------------------------------------


def test_a_tally_sheet_applies_the_name_rule_in_its_cell() -> None:
    sheet = ["date,event,round,player1,player2,score1,score2",
             f"2026-11-03,League,1,{ZOE_NFD},Bob,121,88",
             "2026-11-03,League,2,Ann\u200b,Bob,121,88",
             "2026-11-03,League\x1b[31m,3,Ann,Bob,121,88"]
    errors: list[LogError] = []
    games = list(read_tally(sheet, "club.csv", on_error=errors.append))
    assert [g.game.players for g in games] == [[ZOE_NFC, "Bob"]]
    assert [str(e) for e in errors] == [
        "club.csv:line 3: player1: a player's name may not hold U+200B (a format character such as a zero-width "
        "space)",
        "club.csv:line 4: event: an event may not hold U+001B (a control character)"]


def test_a_cribzero_record_applies_the_name_rule_to_its_tags() -> None:
    record = ['[FirstDealer "{first}"]', '[FirstPone "Bob"]', '[Site "{site}"]', "1. H1 5H 5C 5S JD AS 2S",
              "H2 3H 3C 3S 4D AH 2H D1 AS 2S D2 AH 2H C 5D"]
    good = "\n".join(record).format(first=ZOE_NFD, site="Club")
    bad_name = "\n".join(record).format(first="Ann\u200b", site="Club")
    bad_site = "\n".join(record).format(first="Ann", site="s" * 201)
    errors: list[LogError] = []
    games = list(read_cribzero((good + "\n\n" + bad_name + "\n\n" + bad_site).splitlines(), "x.pgn",
                               on_error=errors.append))
    assert [g.game.players for g in games] == [[ZOE_NFC, "Bob"]]
    assert [str(e) for e in errors] == [
        "x.pgn:line 7: [FirstDealer]: a player's name may not hold U+200B (a format character such as a "
        "zero-width space)",
        "x.pgn:line 13: [Site]: a site is at most 200 characters, not 201"]


# --- the store ---------------------------------------------------------------------------------------------------


def test_nfd_and_nfc_spellings_import_as_one_player(tmp_path: Path) -> None:
    log = tmp_path / "night.jsonl"
    log.write_bytes(orjson.dumps(result_game([ZOE_NFC, "Bob"])) + b"\n"
                    + orjson.dumps(result_game([ZOE_NFD, "Cy"])) + b"\n"
                    + orjson.dumps(result_game(["Ann\u200b", "Cy"])) + b"\n")
    engine = make_engine(f"sqlite:///{tmp_path / 'club.db'}")
    summary = import_paths([log], engine, workers=1)
    assert summary.imported == 2 and summary.refused_count == 1
    assert "line 3: players[0]" in str(summary.refused[0])
    with engine.connect() as conn:
        names = sorted(r[0] for r in conn.exec_driver_sql("SELECT name FROM player"))
    assert names == ["Bob", "Cy", ZOE_NFC]


@settings(max_examples=25, deadline=None)
@given(st.text(with_joiners, min_size=1, max_size=70), st.text(with_joiners, max_size=220))
def test_an_imported_name_is_stored_in_nfc_or_refused_with_its_place(name: str, site: str) -> None:
    import tempfile

    expected = unicodedata.normalize("NFC", name.strip())
    good_name = bool(expected) and len(expected) <= 64 and not breaks_rule(expected)
    normal_site = unicodedata.normalize("NFC", site)
    good_site = len(normal_site) <= 200 and not breaks_rule(normal_site)
    if good_name and name_key(expected) == name_key("Bob"):
        return  # the same player twice: refused for that reason, tested elsewhere
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "night.jsonl"
        log.write_bytes(orjson.dumps(result_game([name, "Bob"], site=site)) + b"\n")
        engine = make_engine(f"sqlite:///{Path(folder) / 'club.db'}")
        summary = import_paths([log], engine, workers=1)
        with engine.connect() as conn:
            names = {r[0] for r in conn.exec_driver_sql("SELECT name FROM player")}
            sites = [r[0] for r in conn.exec_driver_sql("SELECT site FROM game")]
        engine.dispose()
    if good_name and good_site:
        assert summary.imported == 1 and names == {expected, "Bob"}
        assert sites == [unicodedata.normalize("NFC", site)]
    else:
        assert summary.imported == 0 and summary.refused_count == 1
        place = "site" if not good_site else "players[0]"  # the fields are checked before the players
        assert str(summary.refused[0]).startswith(f"{log}:line 1: {place}: ")


# --- the filters -------------------------------------------------------------------------------------------------

CAFE_NFC = "Soir\u00e9e Caf\u00e9"
CAFE_NFD = unicodedata.normalize("NFD", CAFE_NFC)


def test_an_event_filter_typed_in_nfd_finds_the_events_stored_in_nfc(db_url: str, tmp_path: Path) -> None:
    # Four games whose event a Mac wrote decomposed (NFD): the store keeps it in NFC, and an --event typed either
    # way (or in capitals) finds all four, in every command that takes one and in the service's nights.
    from service_server import cli, live_server

    assert CAFE_NFD != CAFE_NFC
    log = tmp_path / "cafe.jsonl"
    pairings = [("Ann", "Bob"), ("Cy", "Di"), ("Ann", "Cy"), ("Bob", "Di")]
    log.write_bytes(b"".join(orjson.dumps(result_game(list(pair), event=CAFE_NFD, date="2026-12-05",
                                                       round=str(1 + i // 2))) + b"\n"
                             for i, pair in enumerate(pairings)))  # fmt: skip
    assert cli("import", str(log), db=db_url).returncode == 0

    def rows(*args: str) -> list[dict[str, Any]]:
        found = cli(*args, "--format", "json", db=db_url)
        return orjson.loads(found.stdout)  # type: ignore[no-any-return]

    for event in (CAFE_NFD, CAFE_NFC, CAFE_NFD.upper()):
        games = rows("games", "--event", event)
        assert len(games) == 4 and {g["event"] for g in games} == {CAFE_NFC}, event
        night = rows("night", "--event", event, "--date", "2026-12-05")
        assert [r["player"] for r in night] == ["Ann", "Bob", "Cy", "Di"], event  # Bob and Cy level: by name
        assert sum(r["games"] for r in rows("standings", "--event", event)) == 8, event
        assert sum(r["nights"] for r in rows("season", "--event", event)) == 4, event
        assert sum(r["games"] for r in rows("stats", "--event", event)) == 8, event
        final = rows("bracket", "--event", event, "--entrants", "8")  # two qualifiers: the top two
        assert [(r["side1"], r["side2"]) for r in final] == [("Ann", "Bob")], event
    with live_server(db_url, tmp_path) as live, live.client() as client:
        for event in (CAFE_NFD, CAFE_NFC):
            answer = client.get("/api/v1/nights", params={"event": event, "date": "2026-12-05"})
            assert answer.status_code == 200, answer.text
            assert [r["player"] for r in answer.json()["items"]] == ["Ann", "Bob", "Cy", "Di"], event


CAPITALS = "ÉTÉ ÖPPEN КЛУБ"  # capitals beyond ASCII: SQL's lower() leaves them as they are on SQLite


def test_an_event_stored_in_capitals_beyond_ascii_is_found_in_lower_case(db_url: str, tmp_path: Path) -> None:
    # The store keeps the event as first spelt, in capitals; a filter in lower case, or as stored, finds its
    # games in every command that takes one, and again after the store is taken back to 0012 (before events kept
    # their key) and upgraded.
    from databases import migrate
    from service_server import cli

    from cribstats.store.db import make_engine

    lower = "été öppen клуб"
    assert CAPITALS.lower() == lower and CAPITALS.encode("ascii", "ignore").lower() != lower.encode()
    log = tmp_path / "summer.jsonl"
    pairings = [("Ann", "Bob"), ("Cy", "Di")]
    log.write_bytes(b"".join(orjson.dumps(result_game(list(pair), event=CAPITALS, date="2026-07-04")) + b"\n"
                             for pair in pairings))  # fmt: skip
    assert cli("import", str(log), db=db_url).returncode == 0

    def rows(*args: str) -> list[dict[str, Any]]:
        found = cli(*args, "--format", "json", db=db_url)
        assert found.returncode == 0, found.stderr
        return orjson.loads(found.stdout)  # type: ignore[no-any-return]

    def found_everywhere() -> None:
        for event in (lower, CAPITALS, f"  {lower.title()} "):
            games = rows("games", "--event", event)
            assert len(games) == 2 and {g["event"] for g in games} == {CAPITALS}, event
            night = rows("night", "--event", event, "--date", "2026-07-04")
            assert [r["player"] for r in night] == ["Ann", "Cy", "Bob", "Di"], event  # the winners first
            assert sum(r["games"] for r in rows("standings", "--event", event)) == 4, event
            assert sum(r["nights"] for r in rows("season", "--event", event)) == 4, event
            assert sum(r["games"] for r in rows("stats", "--event", event)) == 4, event
        assert rows("games", "--event", "été") == []  # a part of the name is not the event

    found_everywhere()
    engine = make_engine(db_url)
    try:
        migrate(engine, "downgrade", "0012")
        migrate(engine, "upgrade", "head")
    finally:
        engine.dispose()
    found_everywhere()


def test_the_player_key_folds_case_as_unicode_does(tmp_path: Path) -> None:
    """Full case folding (docs/decisions.md, "The player key folds case as Unicode does"): Weiß, WEISS and Weiss
    are one player, stored under the first spelling given; Greek final and medial sigma are one letter."""
    from cribstats.names import name_key

    assert name_key("Weiß") == name_key("WEISS") == name_key("weiss") == "weiss"
    assert name_key("ΟΔΥΣΣΕΥΣ") == name_key("Οδυσσευς") == name_key("οδυσσευσ")
    games = [{"format": "cribstats/game/1", "id": f"g{i}", "players": [name, "Bob"],
              "result": {"winner": "Bob", "scores": {name: 100, "Bob": 121}}}
             for i, name in enumerate(["Weiß", "Weiss", "WEISS"])]  # fmt: skip
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"".join(orjson.dumps(g) + b"\n" for g in games))
    engine = make_engine(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        import sqlalchemy as sa

        from cribstats.store.db import upgrade

        upgrade(engine)
        assert import_paths([path], engine).imported == 3
        with engine.connect() as conn:
            names = conn.execute(sa.text("SELECT name FROM player ORDER BY name")).scalars().all()
        assert names == ["Bob", "Weiß"]
    finally:
        engine.dispose()
