"""The one place user text is made safe to show (cribstats.safetext), CSV and JSON cells, atomic file writes,
chart fonts, and the help and messages that name exit codes and options."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import unicodedata
import warnings
from pathlib import Path

import orjson
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from cribstats.atomicfile import WriteError, atomic_output, write_atomic
from cribstats.cli.app import app
from cribstats.exports import format_frame
from cribstats.safetext import display_width, json_visible, shorten, visible

HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
ESCAPE = re.compile(r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})|\\U([0-9a-f]{8})")
# the joiners and a flag's tags, which the rule allows in their place only (tests/test_name_joiners.py draws them
# there and everywhere else): left out here, where every character of the forbidden categories is refused
IN_PLACE = "\u200c\u200d" + "".join(map(chr, range(0xE0001, 0xE0080)))
anything = st.text(st.characters(codec="utf-8", exclude_characters=IN_PLACE), max_size=60)


def unescape(text: str) -> str:
    return ESCAPE.sub(lambda m: chr(int(next(g for g in m.groups() if g), 16)), text)


# --- visible text -------------------------------------------------------------------------------------------


@given(anything.filter(lambda t: "\\" not in t))
def test_visible_hides_nothing_and_can_be_read_back(text: str) -> None:
    shown = visible(text)
    assert not [c for c in shown if unicodedata.category(c) in HIDDEN]
    assert unescape(shown) == text
    if not any(unicodedata.category(c) in HIDDEN for c in text):
        assert shown == text  # text a person can see is left exactly as it is


def test_visible_by_hand() -> None:
    assert visible("\x1b]0;title\x07Ann") == "\\x1b]0;title\\x07Ann"
    assert visible("R\u202eTL\u2028") == "R\\u202eTL\\u2028"
    assert visible("[/bold] :smile: Zoë 麻雀") == "[/bold] :smile: Zoë 麻雀"


def test_shorten_by_hand() -> None:
    assert shorten("Bartholomew Fitzwilliam-Smythe", 24) == "Bartholomew Fitzwilliam…"
    assert shorten("麻雀太郎麻雀太郎", 10) == "麻雀太郎…"  # wide characters take two columns: 8 + 1
    assert shorten("Zoë", 3) == "Zoë" and shorten("Zoe\u0308y", 3) == "Zo…"
    assert display_width("麻雀") == 4 and display_width("Zoe\u0308") == 3


@given(st.text(st.characters(categories=["L", "M", "N", "P", "S", "Zs"]), max_size=80),
       st.integers(min_value=2, max_value=40))  # fmt: skip
def test_shorten_fits_the_width_and_keeps_the_start(text: str, width: int) -> None:
    short = shorten(text, width)
    assert display_width(short) <= width
    if short != text:
        assert short.endswith("…") and text.startswith(short[:-1].rstrip())


# --- CSV and JSON cells -------------------------------------------------------------------------------------


@given(st.lists(anything, min_size=1, max_size=5))
def test_csv_never_starts_a_formula_and_json_keeps_every_value(names: list[str]) -> None:
    frame = pl.DataFrame({"player": names, "spread": [-3] * len(names)})
    rows = list(csv.DictReader(io.StringIO(format_frame(frame, "csv"))))
    for row, name in zip(rows, names, strict=True):
        assert not row["player"].startswith(("=", "+", "-", "@", "\t", "\r"))
        assert row["player"] in (visible(name), "'" + visible(name))
        assert row["spread"] == "-3"  # a number is never changed
    text = format_frame(frame, "json")
    assert [r["player"] for r in json.loads(text)] == names
    assert not [c for c in text if unicodedata.category(c) in HIDDEN]


@given(st.recursive(anything, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(anything, inner,
                                                                                           max_size=3)))
def test_json_visible_decodes_to_the_same_values(value: object) -> None:
    text = json_visible(orjson.dumps(value).decode())
    assert json.loads(text) == value
    assert not [c for c in text if unicodedata.category(c) in HIDDEN]


# --- files written whole or not at all ------------------------------------------------------------------------


def test_a_failure_midway_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("the old report")
    with pytest.raises(RuntimeError), atomic_output(target) as out:
        out.write(b"half a new rep")
        raise RuntimeError("killed")
    assert target.read_text() == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_the_old_file_mode_is_kept_and_a_new_one_follows_the_umask(tmp_path: Path) -> None:
    old = tmp_path / "old.csv"
    old.write_text("x")
    os.chmod(old, 0o640)
    write_atomic(old, "y")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_text() == "y"
    mask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.csv", "z")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o644  # as open() would make it


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "stats.csv"
    with pytest.raises(WriteError, match=re.escape(f"{target}: cannot write: No such file or directory")):
        write_atomic(target, "x")


def test_a_link_is_followed_and_the_file_it_points_to_replaced(tmp_path: Path) -> None:
    """The link was replaced by a file, and the club's published file, which it points to, kept the old report."""
    (tmp_path / "web").mkdir()
    published = tmp_path / "web" / "report.html"
    published.write_text("the old report")
    link, dangling = tmp_path / "report.html", tmp_path / "new.html"
    link.symlink_to(published)
    dangling.symlink_to(tmp_path / "web" / "new.html")  # a link to a file not there yet
    write_atomic(link, "the new report")
    write_atomic(dangling, "a new page")
    assert link.is_symlink() and dangling.is_symlink()
    assert published.read_text() == "the new report"
    assert (tmp_path / "web" / "new.html").read_text() == "a new page"


def test_sigterm_midway_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    """Ctrl-C removed the temporary file; SIGTERM (``kill``, ``timeout``) left it behind, hidden, a whole
    simulated log at a time."""
    import subprocess
    import sys
    import time

    target = tmp_path / "games.jsonl"
    target.write_text("OLD")
    writer = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\n"
        "from cribstats.atomicfile import atomic_output\n"
        "with atomic_output(sys.argv[1]) as out:\n"
        "    out.write(b'half')\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(60)\n"
    ), str(target)], stdout=subprocess.PIPE)
    assert writer.stdout is not None and writer.stdout.readline() == b"writing\n"
    time.sleep(0.1)
    writer.terminate()
    assert writer.wait(timeout=30) == -15  # ended by the signal, as without the handler
    assert target.read_text() == "OLD"
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]


# --- chart fonts ---------------------------------------------------------------------------------------------


def test_charts_find_a_font_for_cjk_names() -> None:
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    from cribstats.chart_text import LAST_RESORT, font_families

    families = [f for f in font_families() if f != LAST_RESORT]
    files = {f.fname for f in font_manager.fontManager.ttflist if f.name in families}
    covering = [path for path in files if all(FT2Font(path).get_char_index(ord(c)) for c in "麻雀김민준")]
    if len(families) == 1:
        pytest.skip("no CJK font on this machine (Debian's fonts-noto-cjk provides one; .ci/run installs it)")
    assert covering, families


def test_a_cjk_name_draws_without_a_warning(capfd: pytest.CaptureFixture[str]) -> None:
    from cribstats.charts import averages_chart, figure_bytes
    from cribstats.stats.measures import STATS_COLUMNS

    data: dict[str, list[object]] = {c: [1, 2] for c in STATS_COLUMNS}
    data["player"] = ["麻雀太郎", "Q" * 64]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert figure_bytes(averages_chart(pl.DataFrame(data)), "png").startswith(b"\x89PNG")
    assert caught == []
    assert capfd.readouterr().err == ""


def test_dollar_signs_in_a_name_are_text_not_mathtext() -> None:
    from cribstats.charts import averages_chart, figure_bytes
    from cribstats.stats.measures import STATS_COLUMNS

    data: dict[str, list[object]] = {c: [1, 2] for c in STATS_COLUMNS}
    data["player"] = ["$$$ Bill $$$", "$\\frac{1}{0}$"]  # a parse error, and a fraction, were they TeX
    fig = averages_chart(pl.DataFrame(data))
    assert figure_bytes(fig, "svg").startswith(b"<?xml")
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == data["player"]


def test_a_long_name_is_shortened_under_its_bar() -> None:
    from cribstats.chart_text import chart_label

    assert chart_label("Q" * 64) == "Q" * 19 + "…"
    assert chart_label("Ann\x1b[31m") == "Ann\\x1b[31m"


# --- help and messages ---------------------------------------------------------------------------------------


def words(text: str) -> str:
    return " ".join(text.split())


def test_help_names_the_exit_status_each_command_gives() -> None:
    runner = CliRunner()
    show = words(runner.invoke(app, ["show", "--help"]).stdout)
    assert "2 when no stored game is named so" in show and "1 when the database cannot be used" in show
    for command in (["games"], ["db", "upgrade"]):
        text = words(runner.invoke(app, [*command, "--help"]).stdout)
        assert "Exit status" in text and "game is not stored" not in text, command
    assert "--out" in words(runner.invoke(app, ["games", "--help"]).stdout)


def test_no_help_shows_a_python_name_for_a_type() -> None:
    """``simulate --help`` showed ``--out -o <lambda>``: the name of the function that reads the value."""
    import typer.main

    from cribstats.cli.app import COMMANDS

    root = typer.main.get_command(app)
    helps = []
    for name in COMMANDS:
        subs = getattr(root.commands[name], "commands", None)  # type: ignore[attr-defined]
        for args in ([[name, sub] for sub in subs] if subs else [[name]]):
            helps.append(CliRunner().invoke(app, [*args, "--help"], terminal_width=200).stdout)
    types = {t for text in helps for t in re.findall(r"<([^<>\s]+)>", text)}
    # a type is a word (int, str, path) or the choices (table|csv|json|parquet), never a function's name
    assert "lambda" not in types and {"int", "str", "path"} <= types
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*(\|[a-z]+(-[a-z]+)*)*", t) for t in types), types


def test_a_bad_date_is_named_by_its_own_option(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    result = CliRunner().invoke(app, ["standings", "--db", db, "--date", "2026-13-01"])
    assert (result.exit_code, result.stderr) == (2, "error: --date '2026-13-01' is not a date of the calendar\n")


def test_an_unknown_game_exits_as_the_help_says(tmp_path: Path) -> None:
    from cribstats.store.db import make_engine, upgrade

    url = f"sqlite:///{tmp_path / 'x.db'}"
    upgrade(make_engine(url))
    result = CliRunner().invoke(app, ["show", "--db", url, "no-such-game"])
    assert result.exit_code == 2
