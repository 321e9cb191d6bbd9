"""``import --replace`` takes out the players and events that nothing stored names any more, as ``delete`` does,
by the one definition of both (:func:`cribstats.store.removal.remove_unused`): the old spelling of a corrected
name goes, and so does an event whose only games now name another. A player with an alias (a rename or merge),
or on a stored match's side, stays: for both commands. Real SQLite files and PostgreSQL databases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def game(key: str, one: str, two: str, event: str | None = None, match: str | None = None) -> dict[str, Any]:
    """A result-only game: ``one`` beat ``two`` 121 to 100."""
    log: dict[str, Any] = {"format": "cribstats/game/1", "id": key, "players": [one, two],
                           "result": {"winner": one, "scores": {one: 121, two: 100}}}
    if event is not None:
        log["event"] = event
    if match is not None:
        log["match"] = match
    return log


def imported(url: str, path: Path, *options: str) -> None:
    result = run("import", "-q", "--db", url, *options, str(path))
    assert result.exit_code == 0, result.output


def players(url: str) -> dict[str, tuple[int, str]]:
    """Name -> (games, aliases joined by ", "), from what ``cribstats players`` lists (aliases a JSON list)."""
    result = run("players", "--db", url, "--format", "json")
    assert result.exit_code == 0, result.output
    return {p["name"]: (p["games"], ", ".join(p["aliases"])) for p in orjson.loads(result.stdout)}


def events(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [r[0] for r in conn.exec_driver_sql("SELECT name FROM event ORDER BY name")]
    finally:
        engine.dispose()


def test_a_replace_takes_out_the_spelling_and_the_event_nobody_names_any_more(db_url: str, tmp_path: Path) -> None:
    # the night as first typed: Bbo for Bobby, and g1's event misspelt; Di keeps a game of her own
    imported(db_url, write_jsonl(tmp_path / "typed.jsonl", [
        game("g1", "Cy", "Bbo", "Trail Night"), game("g2", "Cy", "Di", "Trial Night")]))
    assert players(db_url) == {"Bbo": (1, ""), "Cy": (2, ""), "Di": (1, "")}
    imported(db_url, write_jsonl(tmp_path / "fixed.jsonl", [game("g1", "Cy", "Bobby", "Trial Night")]),
             "--replace")
    # Bbo sat only in g1, and "Trail Night" named only g1: both went with the game they were in
    assert players(db_url) == {"Bobby": (1, ""), "Cy": (2, ""), "Di": (1, "")}
    assert events(db_url) == ["Trial Night"]
    # the typo is gone from the club's list, so Bobby may take that spelling
    assert run("players", "rename", "Bobby", "Bbo", "--db", db_url).exit_code == 0


def test_a_replace_keeps_a_player_who_still_plays_and_one_with_an_alias(db_url: str, tmp_path: Path) -> None:
    imported(db_url, write_jsonl(tmp_path / "typed.jsonl", [
        game("g1", "Cy", "Bbo"), game("g2", "Bbo", "Di"), game("g3", "Ed", "Fay")]))
    # Ed was renamed Eddie (the spelling Ed an alias): the user's word, which a replace does not undo
    assert run("players", "rename", "Ed", "Eddie", "--db", db_url).exit_code == 0
    imported(db_url, write_jsonl(tmp_path / "fixed.jsonl", [game("g1", "Cy", "Bobby"), game("g3", "Gus", "Fay")]),
             "--replace")
    assert players(db_url) == {"Bbo": (1, ""), "Bobby": (1, ""), "Cy": (1, ""), "Di": (1, ""),
                               "Eddie": (0, "Ed"), "Fay": (1, ""), "Gus": (1, "")}
    # a later game of the old spelling is still stored on the renamed player
    imported(db_url, write_jsonl(tmp_path / "later.jsonl", [game("g4", "Ed", "Fay")]))
    assert players(db_url)["Eddie"] == (1, "Ed")


def test_a_player_removed_mid_import_is_made_again_for_a_later_batch(db_url: str, tmp_path: Path) -> None:
    """One game a batch: g1 seats Bbo, its correction (same id) takes him out, and g2, later in the same import,
    seats him again: he is looked up afresh (the writer forgets the id it took out), not refused."""
    path = write_jsonl(tmp_path / "night.jsonl", [
        game("g1", "Cy", "Bbo", "Trail Night"), game("g1", "Cy", "Bobby", "Trial Night"),
        game("g2", "Bbo", "Cy", "Trail Night")])
    engine = make_engine(db_url)
    try:
        summary = import_paths([path], engine, replace=True, batch_size=1)
    finally:
        engine.dispose()
    assert (summary.imported, summary.replaced, summary.refused_count, summary.conflict_count) == (3, 1, 0, 0)
    assert players(db_url) == {"Bbo": (1, ""), "Bobby": (1, ""), "Cy": (2, "")}
    assert events(db_url) == ["Trail Night", "Trial Night"]


def test_players_of_a_stored_match_stay_when_their_games_go(db_url: str, tmp_path: Path) -> None:
    """A match keeps its sides: deleting (or replacing) every game of one of its players keeps that player.
    Before, ``delete`` tried to take him out and the database refused it (exit 1, nothing deleted)."""
    record = {"format": "cribstats/match/1", "id": "final", "players": ["Ann", "Bo"], "games": ["f1"]}
    imported(db_url, write_jsonl(tmp_path / "club.jsonl", [
        game("f1", "Ann", "Bo", "Cup", "final"), record, game("g2", "Ann", "Cy", "Cup")]))
    deleted = run("delete", "--db", db_url, "f1", "--yes")
    assert deleted.exit_code == 0, deleted.output
    assert players(db_url) == {"Ann": (1, ""), "Bo": (0, ""), "Cy": (1, "")}
    assert events(db_url) == ["Cup"]
    # a replace leaves him too: Bo is still on the match's side
    imported(db_url, write_jsonl(tmp_path / "again.jsonl", [game("f1", "Ann", "Bo", "Cup", "final")]))
    imported(db_url, write_jsonl(tmp_path / "fixed.jsonl", [game("f1", "Ann", "Dot", "Cup")]), "--replace")
    assert players(db_url) == {"Ann": (2, ""), "Bo": (0, ""), "Cy": (1, ""), "Dot": (1, "")}


def test_delete_and_replace_share_one_clean_up(db_url: str, tmp_path: Path) -> None:
    """The store a replace leaves is the store a delete of the old game and an import of the new one leave."""
    typed = write_jsonl(tmp_path / "typed.jsonl", [game("g1", "Cy", "Bbo", "Trail Night"),
                                                  game("g2", "Cy", "Di", "Trial Night")])
    fixed = write_jsonl(tmp_path / "fixed.jsonl", [game("g1", "Cy", "Bobby", "Trial Night")])
    imported(db_url, typed)
    imported(db_url, fixed, "--replace")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    imported(other, typed)
    assert run("delete", "--db", other, "g1", "--yes").exit_code == 0
    imported(other, fixed)
    assert players(db_url) == players(other)
    assert events(db_url) == events(other)
