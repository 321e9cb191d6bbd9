"""Titles and captions name a filtered player as the store spells him, however he was typed: in another case,
another Unicode form, or as an alias a ``players rename`` or ``merge`` left (docs/decisions.md: the caption
"names the player as stored (found by any spelling or alias)"). A name the store does not hold is shown as typed,
so that the user sees what was asked for. Real commands on a real SQLite store."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import orjson
import pytest
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app

STORED = "Zoë"
RENAMED_AWAY = "Zoé"  # imported so, then renamed to Zoë: an alias
MERGED_AWAY = "Zoe Brown"  # a player of her own, then merged into Zoë: an alias
#: the aliases typed in another case and, for the accented one, the other Unicode form (NFD)
TYPED = (unicodedata.normalize("NFD", RENAMED_AWAY.upper()), MERGED_AWAY.lower())
NOT_STORED = "Nobody Ëlse"


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def game(key: str, one: str, two: str, day: str, match: str | None = None) -> dict[str, Any]:
    """A result-only game that ``one`` won 121 to 100."""
    log: dict[str, Any] = {"format": "cribstats/game/1", "id": key, "event": "Club Night", "date": day,
                           "players": [one, two], "result": {"winner": one, "scores": {one: 121, two: 100}}}
    if match is not None:
        log["match"] = match
    return log


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store whose Zoë was imported as Zoé (renamed since) and as Zoe Brown (merged into her since)."""
    folder = tmp_path_factory.mktemp("club")
    url = f"sqlite:///{folder / 'club.db'}"
    logs = [game("g1", RENAMED_AWAY, "Bob", "2026-03-03"), game("g2", "Bob", RENAMED_AWAY, "2026-03-03"),
            game("g3", MERGED_AWAY, "Cy", "2026-03-10"),
            game("m1", RENAMED_AWAY, "Cy", "2026-03-17", match="final"),
            game("m2", "Cy", RENAMED_AWAY, "2026-03-17", match="final"),
            game("m3", RENAMED_AWAY, "Cy", "2026-03-17", match="final")]
    for args in (("import", "-q", str(write_jsonl(folder / "night.jsonl", logs))),
                 ("players", "rename", RENAMED_AWAY, STORED), ("players", "merge", MERGED_AWAY, STORED, "--yes")):
        result = run(*args, "--db", url)
        assert result.exit_code == 0, result.output
    players = {p["name"]: p for p in orjson.loads(run("players", "--db", url, "--format", "json").stdout)}
    assert set(players) == {STORED, "Bob", "Cy"}
    assert RENAMED_AWAY in players[STORED]["aliases"] and MERGED_AWAY in players[STORED]["aliases"]
    return url


def title(*args: str) -> str:
    """The first line a command prints: its table's title."""
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[0].strip()


@pytest.mark.parametrize("typed", TYPED)
def test_the_games_title_names_the_player_as_stored(club: str, typed: str) -> None:
    assert title("games", "--db", club, "--player", typed) == f"6 games (player {STORED})"


@pytest.mark.parametrize("typed", TYPED)
def test_the_report_header_names_the_player_as_stored(club: str, typed: str, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = run("report", "--db", club, "--player", typed, "--out", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert f'<p class="scope">Player {STORED} &middot;' in page
    assert typed not in page  # not in the header, nor in any caption


@pytest.mark.parametrize("typed", TYPED)
def test_a_chart_title_names_the_player_as_stored(club: str, typed: str, tmp_path: Path) -> None:
    out = tmp_path / "skunks.svg"
    result = run("chart", "skunks", "--db", club, "--player", typed, "--out", str(out))
    assert result.exit_code == 0, result.output
    drawing = out.read_text(encoding="utf-8")  # matplotlib keeps each text as a comment beside its outline
    assert f"Player {STORED}" in drawing and typed not in drawing


@pytest.mark.parametrize("typed", TYPED)
def test_the_stats_title_names_the_player_as_stored(club: str, typed: str) -> None:
    assert title("stats", "--db", club, "--player", typed) == f"Results (player {STORED})"


@pytest.mark.parametrize("typed", TYPED)
def test_the_head_to_head_title_names_the_player_as_stored(club: str, typed: str) -> None:
    assert title("head-to-head", typed, "--db", club) == f"Head to head (player {STORED})"


@pytest.mark.parametrize("typed", TYPED)
def test_the_matches_title_names_the_player_as_stored(club: str, typed: str) -> None:
    assert title("matches", "--db", club, "--player", typed) == f"Matches (player {STORED})"


def test_a_player_the_store_does_not_hold_is_named_as_typed(club: str, tmp_path: Path) -> None:
    assert title("games", "--db", club, "--player", NOT_STORED) == f"0 games (player {NOT_STORED})"
    out = tmp_path / "report.html"
    assert run("report", "--db", club, "--player", NOT_STORED, "--out", str(out)).exit_code == 0
    assert f'<p class="scope">Player {NOT_STORED} &middot;' in out.read_text(encoding="utf-8")
