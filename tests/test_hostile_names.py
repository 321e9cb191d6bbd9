"""Every command that prints a name, over one store holding every hostile name: markup, emoji codes, formulas,
control and hidden characters, CJK, long names. Names print literally (never as markup, never as emoji, never
steering the terminal), are shortened in tables, neutralised in CSV, and kept exactly in JSON and Parquet."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import orjson
import polars as pl
import pytest
from hostile_names import (
    EVENT,
    NFD_ZOE,
    OLDER,
    OLDER_SITE,
    SHORTENED,
    VALID,
    build_store,
    game_log,
    hidden_characters,
)
from typer.testing import CliRunner

from cribstats.cli.app import app

ALL_NAMES = [*VALID, *OLDER]
FORMULAS = ('=HYPERLINK("http://evil.example","x")', "@SUM(A1:A9)", "+44 Cy", "-Dee")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, list[dict[str, object]]]:
    folder = tmp_path_factory.mktemp("hostile")
    url, logs = build_store(folder)
    return url, folder, logs


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def shown(name: str) -> str:
    """What a terminal table shows for ``name`` (worked out by hand in hostile_names)."""
    if name in OLDER:
        return OLDER[name]
    return SHORTENED.get(name, name)


def assert_safe(text: str) -> None:
    assert hidden_characters(text) == [], text
    assert "\x1b" not in text


@pytest.mark.parametrize("command", [["stats"], ["standings"], ["games"]])
def test_tables_print_every_name_literally(hostile, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    url, _, _ = hostile
    code, out, err = run(*command, "--db", url)
    assert code == 0, err
    assert_safe(out)
    flat = " ".join(out.split())  # a cell may wrap between words
    for name in ALL_NAMES:
        assert " ".join(shown(name).split()) in flat, name
    assert "😄" not in out  # no emoji code is turned into one
    if command == ["games"]:
        assert EVENT in flat  # the event's markup and emoji code print as written


@pytest.mark.parametrize("command", [["stats"], ["standings"], ["games"]])
def test_csv_neutralises_formulas_and_escapes_hidden_characters(hostile, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    url, _, _ = hostile
    code, out, _ = run(*command, "--db", url, "--format", "csv")
    assert code == 0
    assert_safe(out)
    rows = list(csv.DictReader(io.StringIO(out)))
    column = "players" if command == ["games"] else "player"
    cells = {row[column] for row in rows}
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    if column == "player":
        for name in FORMULAS:
            assert "'" + name in cells, name  # a leading apostrophe: the spreadsheet shows text
        assert "\\x1b[31mRed" in cells and "Ann\\u200b" in cells and "Z" * 312 in cells  # whole, never shortened


@pytest.mark.parametrize("command", [["stats"], ["standings"]])
def test_json_and_parquet_keep_every_name_exactly(hostile, command: list[str], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, _, _ = hostile
    code, out, _ = run(*command, "--db", url, "--format", "json")
    assert code == 0
    assert_safe(out)  # hidden characters travel as \u escapes
    names = {row["player"] for row in json.loads(out)}
    assert set(ALL_NAMES) <= names
    parquet = tmp_path / "s.parquet"
    code, _, _ = run(*command, "--db", url, "--format", "parquet", "--out", str(parquet))
    assert code == 0
    assert set(ALL_NAMES) <= set(pl.read_parquet(parquet)["player"].to_list())


def test_games_json_keeps_names_and_free_text_exactly(hostile) -> None:  # type: ignore[no-untyped-def]
    url, _, _ = hostile
    code, out, _ = run("games", "--db", url, "--format", "json")
    assert code == 0
    assert_safe(out)
    games = json.loads(out)
    assert {p for g in games for p in g["players"]} >= set(ALL_NAMES)
    assert {g["event"] for g in games} == {EVENT, "Club"}


def test_show_prints_names_literally(hostile) -> None:  # type: ignore[no-untyped-def]
    """Every game of valid names is shown with its names as written; a game of an older store that breaks the
    name rule is shown with its hidden characters escaped, never printed raw (it was refused: the stored log was
    read back under the rule it was stored before)."""
    url, _, _ = hostile
    _, out, _ = run("games", "--db", url, "--format", "json")
    shown_text = ""
    for game in json.loads(out):
        code, text, err = run("show", "--db", url, str(game["id"]))
        assert_safe(text + err)
        older = any(p in OLDER for p in game["players"])
        assert (code, err) == (0, "")
        shown_text += text
        if older:
            assert "Hall\\x1b[2J" in text and OLDER_SITE not in text
            assert all(OLDER[p] in text for p in game["players"] if p in OLDER and len(p) < 100), text[:300]
    for name in VALID:
        assert name in shown_text, name  # whole: show does not shorten


def test_report_escapes_every_name(hostile, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, _, _ = hostile
    out = tmp_path / "report.html"
    code, _, err = run("report", "--db", url, "--out", str(out))
    assert (code, err) == (0, f"wrote {out}\n")
    html = out.read_text(encoding="utf-8")
    assert_safe(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    assert "\\x1b]0;title\\x07Ann" in html and "Ann\\u200b" in html
    assert "[link=http://evil.example]x[/link]" in html  # markup is text in a page, too


@pytest.mark.parametrize("kind", ["skunks", "skunks-trend", "averages", "hands", "accuracy"])
def test_charts_draw_every_name_without_warnings(hostile, kind: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, _, _ = hostile
    for suffix in ("png", "svg"):
        out = tmp_path / f"{kind}.{suffix}"
        code, stdout, err = run("chart", kind, "--db", url, "--out", str(out))
        assert (code, stdout, err) == (0, "", f"wrote {out}\n")  # no font or layout warning
    svg = (tmp_path / f"{kind}.svg").read_text(encoding="utf-8")
    assert_safe(svg)


def test_audit_prints_emoji_codes_and_markup_as_written(tmp_path: Path) -> None:
    folder = tmp_path / "x:smile:y"
    folder.mkdir()
    good = folder / "night.jsonl"
    players = ["[/bold]", "Ann :smile: Lee", "[bold red]x[/bold red]", "麻雀太郎"]
    logs = [game_log(players[i % 4], players[(i + 1) % 4], i, mistakes=0.2, id=f"g{i}") for i in range(8)]
    good.write_bytes(b"".join(orjson.dumps(log) + b"\n" for log in logs))
    bad = folder / "wrongtype-date.json"
    bad.write_text('{"format": "cribstats/game/1", "date": 3, "players": ["[/bold]", "Bob"], "deals": []}')
    code, out, err = run("audit", str(folder))
    assert code == 2  # the bad file could not be read; the rest was audited
    assert_safe(out + err)
    assert "😄" not in out + err and "📅" not in out + err
    assert f"{bad}:date: expected a string, found the number 3" in " ".join(err.split())  # :date: stays text
    for name in players:
        assert name in out, name  # in the findings' tables and the points table, as written


def test_the_nfd_spelling_is_stored_as_written_or_as_nfc(hostile) -> None:  # type: ignore[no-untyped-def]
    """Before the name rule both spellings are stored; under it, NFD Zoë is Zoë. Either way the table prints it."""
    url, _, _ = hostile
    _, out, _ = run("stats", "--db", url, "--format", "json")
    names = [row["player"] for row in json.loads(out)]
    assert "Zoë" in names and (NFD_ZOE in names or names.count("Zoë") == 1)


def test_the_players_list_prints_every_name_whole_and_visible(hostile) -> None:  # type: ignore[no-untyped-def]
    """The list a secretary renames and merges from: names whole (to be typed back), hidden characters escaped."""
    url, _, _ = hostile
    code, out, err = run("players", "--db", url)
    assert code == 0, err
    assert_safe(out)
    flat = " ".join(out.split())
    for name in VALID:
        assert " ".join(name.split()) in flat, name
    for name, escaped in OLDER.items():
        if len(name) < 300:  # the 312-character name folds over several lines of its cell
            assert escaped in flat, name
    code, out, _ = run("players", "--db", url, "--format", "csv")
    assert code == 0
    assert_safe(out)
    assert not any(line.startswith(("=", "+", "-", "@")) for line in out.splitlines())


@pytest.mark.parametrize("command", [["stats"], ["standings"], ["games"]])
def test_filters_that_repeat_user_text_print_it_literally(hostile, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Titles and messages repeat the filter as typed: markup and hidden characters in it stay text."""
    url, _, _ = hostile
    code, out, err = run(*command, "--db", url, "--event", EVENT)
    assert code == 0, err
    assert_safe(out + err)
    assert EVENT in " ".join(out.split())
    who = ["--player", "Ann\x1b[2J"] if command != ["standings"] else ["--event", "Ann\x1b[2J"]
    code, out, err = run(*command, "--db", url, *who)
    assert code == 0, err
    assert_safe(out + err)
    if command != ["games"]:  # its title and message repeat the filter
        assert "Ann\\x1b[2J" in out + err
