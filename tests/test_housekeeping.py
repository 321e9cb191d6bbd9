"""``cribstats delete``, ``imports`` and ``players`` (rename, merge): each whole or not at all, and the store
afterwards the same as a store that never held what was taken out (checked against a second store built
without it)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.queries import table_counts


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "200"})


def imported(url: str, *paths: Path) -> None:
    result = run("import", "--db", url, "-q", *map(str, paths))
    assert result.exit_code == 0, result.output


def stats(url: str, *options: str) -> list[dict[str, Any]]:
    result = run("stats", "--db", url, "--format", "json", *options)
    assert result.exit_code == 0, result.output
    return sorted(orjson.loads(result.stdout), key=lambda r: r["player"])


def counts(url: str, *, without: tuple[str, ...] = ("import_run",)) -> dict[str, int]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            found = table_counts(conn)
            found["game_player_totals"] = conn.execute(sa.text("SELECT count(*) FROM game_player_totals")).scalar()
    finally:
        engine.dispose()
    return {k: v for k, v in found.items() if k not in without}


def sims(n: int, seed: int, players: list[str], **options: Any) -> list[dict[str, Any]]:
    return [g.log for g in simulate_games(n, seed=seed, players=players, **options)]


def second_url(tmp_path: Path) -> str:
    """Another empty store (an SQLite file), built the other way for comparison."""
    return f"sqlite:///{tmp_path / 'other.db'}"


# --- delete ------------------------------------------------------------------------------------------------------


def test_delete_leaves_the_store_as_if_the_game_was_never_imported(
    db_url: str, tmp_path: Path
) -> None:
    logs = sims(3, 61, ["Ann", "Bo", "Cy"], mistake_rate=0.05)
    imported(db_url, write_jsonl(tmp_path / "all.jsonl", logs))
    gone = logs[1]["id"]
    result = run("delete", "--db", db_url, gone, "--yes")
    assert result.exit_code == 0, result.output
    assert "deleted 1 game" in result.stderr
    other = second_url(tmp_path)
    imported(other, write_jsonl(tmp_path / "kept.jsonl", [logs[0], logs[2]]))
    assert counts(db_url) == counts(other)
    assert stats(db_url) == stats(other)
    listed = orjson.loads(run("games", "--db", db_url, "--format", "json").stdout)
    assert gone not in {g["game"] for g in listed}


def test_delete_asks_first_and_no_is_nothing_deleted(sqlite_url: str, tmp_path: Path) -> None:
    logs = sims(2, 62, ["Ann", "Bo"])
    imported(sqlite_url, write_jsonl(tmp_path / "n.jsonl", logs))
    before = counts(sqlite_url)
    refused = run("delete", "--db", sqlite_url, logs[0]["id"], input="n\n")
    assert refused.exit_code == 1
    assert "Delete 1 game" in refused.stderr and "nothing changed" in refused.stderr
    assert "with its deals and findings?" in refused.stderr  # one game: its deals, not their
    # a piped answer is not echoed: the question keeps its line, and the error has its own
    question, error = refused.stderr.splitlines()[-2:]
    assert question.rstrip().endswith("[y/N]:") and error.startswith("error: nothing changed")
    no_answer = run("delete", "--db", sqlite_url, logs[0]["id"], input="")
    assert no_answer.exit_code == 1
    assert counts(sqlite_url) == before
    agreed = run("delete", "--db", sqlite_url, logs[0]["id"], input="y\n")
    assert agreed.exit_code == 0
    assert counts(sqlite_url)["game"] == before["game"] - 1


def test_delete_with_an_unknown_game_deletes_nothing(sqlite_url: str, tmp_path: Path) -> None:
    logs = sims(2, 63, ["Ann", "Bo"])
    imported(sqlite_url, write_jsonl(tmp_path / "n.jsonl", logs))
    before = counts(sqlite_url)
    result = run("delete", "--db", sqlite_url, logs[0]["id"], "no-such-game", "--yes")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: no stored game 'no-such-game': `cribstats games` lists them"
    assert counts(sqlite_url) == before
    assert run("delete", "--db", sqlite_url, "--yes").exit_code == 2  # nothing named
    assert run("delete", "--db", sqlite_url, "--import", "99", "--yes").exit_code == 2


def test_delete_an_import_takes_every_game_it_stored(
    db_url: str, tmp_path: Path
) -> None:
    first = sims(3, 64, ["Ann", "Bo"])
    second = sims(2, 65, ["Cy", "Di"], events=["Open"])
    # the second file also holds a game of the first: already stored, so it is not the second import's
    imported(db_url, write_jsonl(tmp_path / "first.jsonl", first))
    imported(db_url, write_jsonl(tmp_path / "second.jsonl", [*second, first[0]]))
    listed = orjson.loads(run("imports", "--db", db_url, "--format", "json").stdout)
    assert [(r["run"], r["imported"], r["stored"], r["present"], r["status"]) for r in listed] == [
        (1, 3, 3, 0, "finished"), (2, 2, 2, 1, "finished")]
    result = run("delete", "--db", db_url, "--import", "2", "--yes")
    assert result.exit_code == 0, result.output
    # Cy and Di and the event Open were only in the deleted games
    assert "2 players and 1 event that no stored game names any more" in result.stderr
    other = second_url(tmp_path)
    imported(other, write_jsonl(tmp_path / "first-again.jsonl", first))
    assert counts(db_url, without=("import_run",)) == counts(other)
    assert stats(db_url) == stats(other)
    after = orjson.loads(run("imports", "--db", db_url, "--format", "json").stdout)
    assert [(r["run"], r["imported"], r["stored"]) for r in after] == [(1, 3, 3), (2, 2, 0)]


def test_imports_as_csv_and_table(sqlite_url: str, tmp_path: Path) -> None:
    imported(sqlite_url, write_jsonl(tmp_path / "night.jsonl", sims(2, 66, ["Ann", "Bo"])))
    csv = run("imports", "--db", sqlite_url, "--format", "csv")
    header, row = csv.stdout.splitlines()
    assert header == "run,file,started_at,finished_at,status,imported,stored,present,conflicting,refused,findings"
    assert row.split(",")[1] == str(tmp_path / "night.jsonl")
    assert row.split(",")[4:] == ["finished", "2", "2", "0", "0", "0", "0"]
    table = run("imports", "--db", sqlite_url)
    assert table.exit_code == 0 and table.stdout.startswith("1 import")
    assert "finished" in table.stdout


# --- players -----------------------------------------------------------------------------------------------------


def renamed(logs: list[dict[str, Any]], old: str, new: str) -> list[dict[str, Any]]:
    """The logs with one player's name written otherwise, everywhere (a second way to get a merged store)."""
    text = orjson.dumps(logs).decode().replace(f'"{old}"', f'"{new}"')
    return orjson.loads(text)  # type: ignore[no-any-return]


def test_merge_moves_every_statistic_and_keeps_the_alias(
    db_url: str, tmp_path: Path
) -> None:
    bob = sims(3, 67, ["Bob", "Ann"], mistake_rate=0.05)
    robert = sims(2, 68, ["Robert", "Cy"], mistake_rate=0.05)
    imported(db_url, write_jsonl(tmp_path / "a.jsonl", bob + robert))
    assert run("players", "merge", "--db", db_url, "robert", "Bob", input="n\n").exit_code == 1
    result = run("players", "merge", "--db", db_url, "robert", "Bob", "--yes")
    assert result.exit_code == 0, result.output
    assert "merged 'Robert' into 'Bob': 2 games moved" in result.stderr
    other = second_url(tmp_path)
    imported(other, write_jsonl(tmp_path / "b.jsonl", bob + renamed(robert, "Robert", "Bob")))
    assert stats(db_url) == stats(other)
    assert counts(db_url, without=("import_run", "player_alias")) == counts(
        other, without=("import_run", "player_alias"))
    # the old spelling finds the merged player, and a later import of it is stored on him
    assert stats(db_url, "--player", "ROBERT") == stats(other, "--player", "Bob")
    later = sims(1, 69, ["Robert", "Di"])
    imported(db_url, write_jsonl(tmp_path / "later.jsonl", later))
    imported(other, write_jsonl(tmp_path / "later-b.jsonl", renamed(later, "Robert", "Bob")))
    assert stats(db_url) == stats(other)
    players = orjson.loads(run("players", "--db", db_url, "--format", "json").stdout)
    assert {p["name"]: (p["games"], p["aliases"]) for p in players}["Bob"] == (6, ["Robert"])


def test_players_who_met_cannot_be_merged(sqlite_url: str, tmp_path: Path) -> None:
    imported(sqlite_url, write_jsonl(tmp_path / "a.jsonl", sims(1, 70, ["Bob", "Ann"])))
    before = counts(sqlite_url)
    result = run("players", "merge", "--db", sqlite_url, "Ann", "Bob", "--yes")
    assert result.exit_code == 2
    assert "'Ann' and 'Bob' both played in game" in result.stderr
    assert counts(sqlite_url) == before
    assert run("players", "merge", "--db", sqlite_url, "Nobody", "Bob", "--yes").exit_code == 2


def test_players_of_one_stored_match_cannot_be_merged_even_when_its_games_are_gone(db_url: str) -> None:
    playoffs = Path(__file__).resolve().parent.parent / "sample_logs" / "matches" / "playoffs-best-of-3.jsonl"
    imported(db_url, playoffs)
    for game in orjson.loads(run("games", "--db", db_url, "--player", "Carol", "--format", "json").stdout):
        if {"Alice", "Carol"} == set(game["players"]):  # the match Alice v Carol keeps no game of its own
            assert run("delete", "--db", db_url, game["game"], "--yes").exit_code == 0
    before = counts(db_url)
    result = run("players", "merge", "--db", db_url, "Alice", "Carol", "--yes")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.strip() == ("error: 'Alice' and 'Carol' both play in match 'match-s707-0001': they are "
                                     "two players, and cannot be merged")
    assert counts(db_url) == before


def test_rename_changes_the_name_everywhere_and_keeps_the_old_spelling(sqlite_url: str, tmp_path: Path) -> None:
    logs = sims(2, 71, ["Bbo", "Ann"])
    imported(sqlite_url, write_jsonl(tmp_path / "a.jsonl", logs))
    before = stats(sqlite_url)
    result = run("players", "rename", "--db", sqlite_url, "bbo", "Bob")
    assert result.exit_code == 0, result.output
    after = stats(sqlite_url)
    expected = copy.deepcopy(before)
    for row in expected:
        if row["player"] == "Bbo":
            row["player"] = "Bob"
    assert after == sorted(expected, key=lambda r: r["player"])
    games = orjson.loads(run("games", "--db", sqlite_url, "--format", "json").stdout)
    assert all("Bob" in g["players"] for g in games)
    # a sheet that still says Bbo is stored on Bob
    imported(sqlite_url, write_jsonl(tmp_path / "b.jsonl", sims(1, 72, ["Bbo", "Cy"])))
    rows = {p["name"]: p for p in orjson.loads(run("players", "--db", sqlite_url, "--format", "json").stdout)}
    assert "Bbo" not in rows and rows["Bob"]["games"] == 3 and rows["Bob"]["aliases"] == ["Bbo"]


def test_rename_refuses_a_taken_or_invalid_name(sqlite_url: str, tmp_path: Path) -> None:
    imported(sqlite_url, write_jsonl(tmp_path / "a.jsonl", sims(1, 73, ["Bob", "Ann"])))
    taken = run("players", "rename", "--db", sqlite_url, "Bob", " ann ")
    assert taken.exit_code == 2 and "cribstats players merge" in taken.stderr
    invalid = run("players", "rename", "--db", sqlite_url, "Bob", "Bob\u200b")
    assert invalid.exit_code == 2 and "U+200B" in invalid.stderr
    unknown = run("players", "rename", "--db", sqlite_url, "Zed", "Zee")
    assert unknown.exit_code == 2 and "no stored player 'Zed'" in unknown.stderr
    names = [p["name"] for p in orjson.loads(run("players", "--db", sqlite_url, "--format", "json").stdout)]
    assert names == ["Ann", "Bob"]


def test_housekeeping_commands_have_help_with_examples() -> None:
    for command in (["delete"], ["imports"], ["players"], ["players", "rename"], ["players", "merge"]):
        result = run(*command, "--help")
        assert result.exit_code == 0 and "Example" in result.stdout, command


def _result_game(key: str, one: str, two: str, match: str | None = None) -> dict[str, Any]:
    game: dict[str, Any] = {"format": "cribstats/game/1", "id": key, "players": [one, two],
                            "result": {"winner": one, "scores": {one: 121, two: 100}}}
    if match is not None:
        game["match"] = match
    return game


def test_rename_and_merge_follow_into_the_sides_of_stored_matches(tmp_path: Path) -> None:
    """A match keeps its sides' names as written; a rename or a merge of one of its players shows in them."""
    from cribstats.store.matches import load_match

    url = f"sqlite:///{tmp_path / 'club.db'}"
    record = {"format": "cribstats/match/1", "id": "final", "players": ["Ann", "Bobby"], "games": ["g1"]}
    logs = tmp_path / "club.jsonl"
    write_jsonl(logs, [_result_game("g1", "Ann", "Bobby", "final"), _result_game("g2", "Bob", "Cy"), record])
    imported(url, logs)
    assert run("players", "rename", "Ann", "Anne", "--db", url).exit_code == 0
    assert run("players", "merge", "Bobby", "Bob", "--db", url, "--yes").exit_code == 0
    with make_engine(url).connect() as conn:
        match = load_match(conn, "final")
    assert match is not None and match.sides == (("Anne",), ("Bob",))


def test_a_game_seating_a_player_and_a_spelling_merged_into_them_is_refused_in_a_sentence(
    sqlite_url: str, tmp_path: Path
) -> None:
    from cribstats.formats import read_paths
    from cribstats.store.players import alias_ids, refuse_seated_twice
    from cribstats.store.rows import prepare_game

    earlier = sims(1, 80, ["Robert", "Ann"]) + sims(1, 81, ["Bob", "Ann"])
    imported(sqlite_url, write_jsonl(tmp_path / "a.jsonl", earlier))
    assert run("players", "merge", "--db", sqlite_url, "Robert", "Bob", "--yes").exit_code == 0
    later = write_jsonl(tmp_path / "later.jsonl", [dict(g, id="later-1") for g in sims(1, 82, ["Bob", "Robert"])]
                        + [dict(g, id="later-2") for g in sims(1, 83, ["Ann", "Robert"])])  # fmt: skip
    prepared = [prepare_game(s.game, s.file, s.place) for s in read_paths([str(later)])]
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:  # the ids the importer gives each name: a player's own, or an alias's
        ids = {k: v for k, v in conn.execute(sa.text("SELECT name_key, id FROM player"))}
        ids |= alias_ids(conn, [k for g in prepared for k in g.names])
    engine.dispose()
    refused: list[Any] = []
    kept = refuse_seated_twice([(g, False) for g in prepared], ids, refused)
    assert [g.key for g, _ in kept] == ["later-2"]  # Ann v Robert (now Bob) is a game like any other
    assert [(g.key, why) for g, why in refused] == [
        ("later-1", "'Bob' and 'Robert' are one stored player (one spelling was merged into the other): a player "
                    "sits once in a game")]  # fmt: skip


def test_the_import_refuses_a_game_seating_a_player_and_their_merged_spelling(db_url: str, tmp_path: Path) -> None:
    """After Robert is merged into Bob, a game of Bob against Robert is refused in a sentence with its file and
    place, the batch's other game is stored, and a replacement seating them both leaves the game it would replace.
    """
    earlier = [dict(g, id="r1") for g in sims(1, 80, ["Robert", "Ann"])]
    earlier += [dict(g, id="b1") for g in sims(1, 81, ["Bob", "Ann"])]
    imported(db_url, write_jsonl(tmp_path / "a.jsonl", earlier))
    assert run("players", "merge", "--db", db_url, "Robert", "Bob", "--yes").exit_code == 0
    later_file = tmp_path / "later.jsonl"
    write_jsonl(later_file, [dict(g, id="later-1") for g in sims(1, 82, ["Bob", "Robert"])]
                + [dict(g, id="later-2") for g in sims(1, 83, ["Ann", "Robert"])])  # fmt: skip
    result = run("import", "--db", db_url, "-q", str(later_file))
    assert result.exit_code == 2, result.output
    assert "later.jsonl" in result.output and "line 1" in result.output
    assert "'Bob' and 'Robert' are one stored player" in result.output
    assert "Traceback" not in result.output and "the database refused" not in result.output
    assert counts(db_url)["game"] == 3  # r1, b1 and later-2

    replacement = write_jsonl(tmp_path / "b1.jsonl", [dict(g, id="b1") for g in sims(1, 84, ["Bob", "Robert"])])
    result = run("import", "--db", db_url, "-q", "--replace", str(replacement))
    assert result.exit_code == 2 and "are one stored player" in result.output, result.output
    engine = make_engine(db_url)
    with engine.connect() as conn:
        query = sa.text(
            "SELECT p.name FROM game g JOIN game_player gp ON gp.game_id = g.id"
            " JOIN player p ON p.id = gp.player_id WHERE g.source_id = 'b1' ORDER BY p.name"
        )
        names = conn.execute(query).scalars().all()
    engine.dispose()
    assert names == ["Ann", "Bob"]  # the stored b1, untouched


def test_rename_refuses_crib_as_the_readers_do(sqlite_url: str, tmp_path: Path) -> None:
    # A game log's show names the crib "crib", so no player may be called that: import refuses such a game, and
    # a rename to it (in any spacing) is refused with the same message. "Crib" is a name, in a log and here.
    imported(sqlite_url, write_jsonl(tmp_path / "a.jsonl", sims(1, 74, ["Bob", "Ann"])))
    why = "'crib' cannot be a player's name: show uses it for the crib"
    for name in ("crib", " crib "):
        refused = run("players", "rename", "--db", sqlite_url, "Ann", name)
        assert refused.exit_code == 2, refused.output
        assert refused.stderr == f"error: {why}\n"
    log = write_jsonl(tmp_path / "crib.jsonl", [{"format": "cribstats/game/1", "players": ["Bob", "crib"],
                                                 "result": {"winner": "Bob", "scores": {"Bob": 121, "crib": 90}}}])
    refused = run("import", "--db", sqlite_url, "-q", str(log))
    assert refused.exit_code == 2 and why in refused.stderr
    names = [p["name"] for p in orjson.loads(run("players", "--db", sqlite_url, "--format", "json").stdout)]
    assert names == ["Ann", "Bob"]
    assert run("players", "rename", "--db", sqlite_url, "Ann", "Crib").exit_code == 0
    merged = run("players", "merge", "--db", sqlite_url, "Bob", "crib", "--yes")  # "crib" names the stored Crib
    assert merged.exit_code == 2 and "both played in game" in merged.stderr


def test_each_command_s_exit_status_names_only_what_it_can_do() -> None:
    """Only the commands that ask first (delete, merge) speak of a change not confirmed; the listings take no game
    or player; rename names the refusals test_rename_refuses_a_taken_or_invalid_name meets."""
    helps = {" ".join(c): " ".join(run(*c, "--help").stdout.split()) for c in (
        ["delete"], ["players", "merge"], ["imports"], ["players"], ["players", "rename"])}
    asks = {c for c, text in helps.items() if "not confirmed" in text}
    assert asks == {"delete", "players merge"}
    for listing in ("imports", "players"):
        assert "Exit status: 0 on success; 2 for options that do not fit" in helps[listing]
    rename = helps["players rename"]
    assert "a player that is not stored, or a new spelling the name rule refuses or another" in rename
