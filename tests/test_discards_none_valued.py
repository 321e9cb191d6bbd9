"""When no discard is valued, `cribstats discards` (and the report's discards section) say why, from what the store
holds: no discards stored (import some); discards stored without their values, by a store imported before
cribstats kept them (`cribstats analyse --store` values them); or only giveaway games' discards, which are never
valued (docs/decisions.md, "Discard analysis")."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app

LOGS = Path(__file__).resolve().parent.parent / "sample_logs"
VALUES = "hand_only, kept, thrown, hand_value, crib_value, expected, best_kept, best_thrown, best_expected, loss"
GIVEAWAY = "no valued discards: the discards stored are of giveaway games, whose discards are never valued"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def store(tmp_path: Path, *logs: Path) -> str:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    assert run("db", "upgrade", "--db", url)[0] == 0
    for log in logs:
        assert run("import", str(log), "--db", url)[0] == 0
    return url


def unvalue(url: str) -> int:
    """Empty the value columns, as a store imported before cribstats kept them; how many discards it holds."""
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        conn.execute(f"UPDATE deal_player SET ({VALUES}) = (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                     "NULL)")  # fmt: skip
        (n,) = conn.execute("SELECT count(*) FROM deal_player WHERE discards != ''").fetchone()
    return int(n)


def test_an_empty_store_says_how_to_fill_it(tmp_path: Path) -> None:
    code, _, err = run("discards", "--db", store(tmp_path), "--format", "csv")
    assert (code, err.strip()) == (0, "no discards stored yet: `cribstats import PATH` stores them")


def test_a_store_imported_before_values_were_kept_says_analyse_store(tmp_path: Path) -> None:
    url = store(tmp_path, LOGS / "club-night.jsonl")
    n = unvalue(url)
    code, _, err = run("discards", "--db", url, "--format", "csv")
    assert code == 0 and err.strip() == (f"no valued discards: {n} discards stored without a value (imported "
                                         "before cribstats kept them): `cribstats analyse --store` values them")
    assert run("analyse", "--store", "--db", url)[0] == 0
    code, out, err = run("discards", "--db", url, "--format", "csv")
    assert code == 0 and err == "" and len(out.splitlines()) > 1


def test_a_store_of_giveaway_games_says_they_are_never_valued(tmp_path: Path) -> None:
    url = store(tmp_path, LOGS / "options" / "giveaway.jsonl")
    code, _, err = run("discards", "--db", url, "--format", "csv")
    assert (code, err.strip()) == (0, GIVEAWAY)
    unvalue(url)  # its values were never there: nothing for `analyse --store` to do, and the same words
    assert run("discards", "--db", url, "--format", "csv")[2].strip() == GIVEAWAY


def test_giveaway_games_beside_unvalued_ones_point_to_analyse_store(tmp_path: Path) -> None:
    url = store(tmp_path, LOGS / "options" / "giveaway.jsonl", LOGS / "options" / "bidding.json")
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        (n,) = conn.execute(
            "SELECT count(*) FROM deal_player dp JOIN game g ON g.id = dp.game_id "
            "WHERE dp.discards != '' AND g.game_key != 'giveaway-2026-10-16'").fetchone()  # fmt: skip
    unvalue(url)
    err = run("discards", "--db", url)[2].strip()
    assert err.startswith(f"no valued discards: {n} discards stored without a value") and "analyse --store" in err


def test_a_filter_is_named(tmp_path: Path) -> None:
    url = store(tmp_path, LOGS / "options" / "giveaway.jsonl")
    err = run("discards", "--db", url, "--player", "Frank")[2].strip()
    assert err == ("no valued discards match the filters (player Frank): the discards stored are of giveaway "
                   "games, whose discards are never valued")
    err = run("discards", "--db", url, "--player", "Nobody")[2].strip()
    assert err == "no discards stored match the filters (player Nobody)"


def test_the_reports_section_says_the_same(tmp_path: Path) -> None:
    from cribstats.discard_report import discard_section

    url = store(tmp_path, LOGS / "options" / "giveaway.jsonl")
    engine = sa.create_engine(url)
    section = str(discard_section(engine))
    engine.dispose()
    assert "giveaway games, whose discards are never valued" in section


def test_the_reports_section_shows_the_command_as_code(tmp_path: Path) -> None:
    from cribstats.discard_report import discard_section

    url = store(tmp_path)
    engine = sa.create_engine(url)
    section = str(discard_section(engine))
    engine.dispose()
    assert "No discards stored yet: <code>cribstats import PATH</code> stores them." in section
    assert "`" not in section


def test_a_store_valued_in_part_says_what_its_figures_leave_out(tmp_path: Path) -> None:
    """Some discards stored without a value (one game's, as a store imported in part before values were kept):
    the figures are over the valued ones only, and ``discards`` and the report say how many are left out; once
    ``analyse --store`` values them, nothing is left out and nothing is said."""
    from cribstats.discard_report import discard_section

    url = store(tmp_path, LOGS / "club-night.jsonl")
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        (first,) = conn.execute("SELECT min(id) FROM game").fetchone()
        conn.execute(f"UPDATE deal_player SET ({VALUES}) = (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                     "NULL) WHERE game_id = ?", (first,))  # fmt: skip
        left_out, valued = conn.execute(
            "SELECT sum(expected IS NULL), sum(expected IS NOT NULL AND hand_only = 0) FROM deal_player "
            "WHERE discards != ''").fetchone()  # fmt: skip
    assert left_out > 0
    code, out, err = run("discards", "--db", url, "--format", "json")
    assert code == 0 and err.strip() == (
        f"{left_out} discards stored without a value (imported before cribstats kept them) are not counted in "
        "these figures: `cribstats analyse --store` values them")
    assert sum(row["deals"] for row in json.loads(out)) == valued
    engine = sa.create_engine(url)
    section = str(discard_section(engine))
    engine.dispose()
    assert (f'<p class="note">{left_out} discards stored without a value (imported before cribstats kept them) '
            "are not counted in these figures: <code>cribstats analyse --store</code> values them.</p>") in section
    assert run("analyse", "--store", "--db", url)[0] == 0
    code, out, err = run("discards", "--db", url, "--format", "json")
    assert code == 0 and err == ""
    engine = sa.create_engine(url)
    assert '<p class="note">' not in str(discard_section(engine))
    engine.dispose()
