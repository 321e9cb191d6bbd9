"""Fuzzing the printing with hypothesis: any player names and free text (event, site, round, id) are imported,
then every command that prints them runs over the store. No traceback; nothing that steers a terminal or styles
text reaches standard output; every name is stored exactly (trimmed, NFC) or the game is refused with its place.

The expectation is worked out here from the name rule as written (not by calling cribstats' own checks).
"""

from __future__ import annotations

import json
import tempfile
import unicodedata
from pathlib import Path

import orjson
import sqlalchemy as sa
from hostile_names import NFD_ZOE, OLDER, VALID, game_log, hidden_characters
from hypothesis import HealthCheck, given, settings
from hypothesis import event as event_label
from hypothesis import strategies as st
from typer.testing import CliRunner

from cribstats.cli.app import app

FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
LIMITS = {"event": 200, "site": 200, "round": 40, "id": 200}

# the joiners and a flag's tags, which the rule allows in their place only (tests/test_name_joiners.py draws them
# there and everywhere else): left out here, where every character of the forbidden categories is refused
IN_PLACE = "\u200c\u200d" + "".join(map(chr, range(0xE0001, 0xE0080)))
# every kind of character, unpaired surrogates aside
any_text = st.text(st.characters(codec="utf-8", exclude_characters=IN_PLACE), max_size=80)
# letters, marks, numbers, punctuation, symbols and spaces of every script (a name of spaces alone is refused)
visible_text = st.text(st.characters(categories=["L", "M", "N", "P", "S", "Zs"]), min_size=1, max_size=40)
fair_names = st.one_of(st.sampled_from([*VALID, NFD_ZOE, " Ann ", "麻雀"]), visible_text)
wild_names = st.one_of(st.sampled_from([*OLDER, "", "x" * 65, "\u00a0"]), any_text)
fair_text = st.one_of(st.sampled_from(["[bold]Club[/bold]", ":smile:", "=1+1", "Tuesday", "@x"]), visible_text)
wild_text = st.one_of(st.sampled_from(["\x1b[2J", "Hall\u202e", "r" * 41, "s" * 201, "\n"]), any_text)
FIELDS = ("first", "second", "event", "site", "round", "id")


def fold(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


@st.composite
def examples(draw: st.DrawFn) -> dict[str, str]:
    """Two names and the free text: fair ones, with at most one field drawn from anything at all."""
    chosen = {f: draw(fair_names if f in ("first", "second") else fair_text) for f in FIELDS}
    if fold(chosen["first"].strip()) == fold(chosen["second"].strip()):  # hypothesis likes to draw twins
        chosen["second"] = "Partner of " + chosen["first"].strip()[:40]
    wild = draw(st.sampled_from([None, None, None, *FIELDS]))
    if wild is not None:
        chosen[wild] = draw(wild_names if wild in ("first", "second") else wild_text)
    return chosen


def name_ok(name: str) -> bool:
    normal = unicodedata.normalize("NFC", name.strip())
    return 0 < len(normal) <= 64 and not any(unicodedata.category(c) in FORBIDDEN for c in normal)


def text_ok(text: str, field: str) -> bool:
    normal = unicodedata.normalize("NFC", text)
    if field == "id" and not normal:  # an id names the game: given, it is not empty (the contract's string)
        return False
    return len(normal) <= LIMITS[field] and not any(unicodedata.category(c) in FORBIDDEN for c in normal)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def assert_safe(text: str) -> None:
    assert hidden_characters(text) == [], ascii(text[:300])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=examples())
def test_any_names_and_text_print_safely(drawn: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory(prefix="fuzz-") as name:
        import_and_print(drawn, Path(name))


def import_and_print(drawn: dict[str, str], folder: Path) -> None:
    """One example: import the game, check what was stored or refused, then run every printing command."""
    url = f"sqlite:///{folder / 'fuzz.db'}"
    logs = folder / "game.jsonl"
    first, second = drawn["first"], drawn["second"]
    fields = {f: drawn[f] for f in ("event", "site", "round", "id")}
    logs.write_bytes(orjson.dumps(game_log(first, second, 1, **fields)) + b"\n")
    code, out, err = run("import", "--db", url, "-q", str(logs))
    assert_safe(out + err)
    acceptable = (
        name_ok(first) and name_ok(second) and fold(first.strip()) != fold(second.strip())
        and all(text_ok(text, field) for field, text in fields.items())
    )  # fmt: skip
    event_label("stored" if acceptable else "refused")
    if acceptable:
        assert code == 0, err
        engine = sa.create_engine(url)
        with engine.connect() as conn:
            stored = set(conn.execute(sa.text("SELECT name FROM player")).scalars())
        engine.dispose()
        assert stored == {unicodedata.normalize("NFC", n.strip()) for n in (first, second)}
    else:
        assert code == 2, (first, second, fields)
        refusal = [line for line in err.splitlines() if line.startswith(f"{logs}:")]
        assert refusal, err  # refused with the file and the place in it
    tables = (["stats"], ["standings"], ["games"], ["stats", "--format", "csv"], ["games", "--format", "json"])
    for command in tables:
        code, out, err = run(*command, "--db", url)
        assert code in (0, 1), err  # 1: nothing stored, so no store to read
        assert_safe(out + err)
    if not acceptable:
        return
    _, out, _ = run("games", "--db", url, "--format", "json")
    (game,) = json.loads(out)
    code, out, err = run("show", "--db", url, str(game["id"]))
    assert code == 0, err
    assert_safe(out)
    code, out, err = run("report", "--db", url, "--out", str(folder / "report.html"))
    assert code == 0 and out == "", err
    assert_safe((folder / "report.html").read_text(encoding="utf-8"))
    code, out, err = run("chart", "averages", "--db", url, "--out", str(folder / "averages.png"))
    assert (code, out, err) == (0, "", f"wrote {folder / 'averages.png'}\n")
