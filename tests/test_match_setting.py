"""A match record's event, date, site and round are its whole games' (SQLite file and PostgreSQL).

A game written inside a record's ``games`` that gives none of its own is played at the record's event, on its
date, at its site, in its round; a game that gives its own keeps it; a game the record lists by id keeps what it
says. The store keeps that on the game's row, not in its log, so the game's content hash is the one an earlier
import stored and reading the same file again stores nothing new and refuses nothing.

Every expected value is worked out by hand from the sample's README or the games written here.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from test_cli_store import run
from test_match_store import game, rows, write

from cribstats.store import tables as t
from cribstats.store.importer import import_paths
from cribstats.store.matches import load_match
from cribstats.store.queries import find_game

CUP = Path(__file__).resolve().parent.parent / "sample_logs" / "matches" / "points-to-7.jsonl"
CUP_KEYS = ["cup-2026-final-g1", "cup-2026-final-g2", "cup-2026-final-g3", "cup-2026-final-g4"]


def cli_json(db_url: str, *args: str) -> Any:
    result = run(*args, "--db", db_url, "--format", "json")
    assert result.exit_code == 0, result.output
    return orjson.loads(result.stdout)


def settings(engine: sa.Engine) -> dict[str, tuple[str | None, str | None, str | None, str | None]]:
    """Each stored game's (event, date, site, round), by key, read from its row."""
    g, e = t.game_table, t.event_table
    query = sa.select(g.c.game_key, e.c.name, g.c.date, g.c.site, g.c.round).outerjoin(e, g.c.event_id == e.c.id)
    with engine.connect() as conn:
        return {r.game_key: (r.name, None if r.date is None else r.date.isoformat(), r.site, r.round)
                for r in conn.execute(query)}


def forget_settings(engine: sa.Engine) -> None:
    """Rows as a store kept them before a match record's games took its event and date: none of their own."""
    with engine.begin() as conn:
        conn.execute(sa.update(t.game_table).values(event_id=None, date=None, site=None, round=None))


def test_the_cup_final_games_count_under_the_autumn_cup_on_its_date(store: sa.Engine, db_url: str) -> None:
    # The record: Autumn Cup, 2026-11-28, Elks Lodge, round final; its four result-only games say none of these.
    # Alice: lost g1 100-121, won g2 121-80 (a skunk), won g3 121-27 (a triple skunk), lost g4 110-121:
    # 2 wins, 2 losses, spread -21 + 41 + 94 - 11 = 103; match points: Alice 2 + 3 = 5, the match hers after
    # game 3; Bob 1 for game 1 (game 4 was played after the end).
    summary = import_paths([CUP], store)
    assert summary.refused == [] and summary.conflicts == [] and summary.imported == 4
    assert settings(store) == {key: ("Autumn Cup", "2026-11-28", "Elks Lodge", "final") for key in CUP_KEYS}
    listed = cli_json(db_url, "games", "--event", "autumn cup")
    assert [(g["game"], g["date"], g["event"], g["round"]) for g in listed] == [
        (key, "2026-11-28", "Autumn Cup", "final") for key in CUP_KEYS]
    on_the_day = cli_json(db_url, "games", "--since", "2026-11-28", "--until", "2026-11-28")
    assert sorted(g["game"] for g in on_the_day) == CUP_KEYS
    assert cli_json(db_url, "games", "--until", "2026-11-27") == []
    stats = {r["player"]: r for r in cli_json(db_url, "stats", "--event", "Autumn Cup")}
    assert {p: (r["games"], r["wins"], r["losses"], r["spread"], r["skunks_won"], r["triple_skunks_won"],
                r["matches_won"], r["match_points"]) for p, r in stats.items()} == {
        "Alice": (4, 2, 2, 103, 1, 1, 1, 5), "Bob": (4, 2, 2, -103, 0, 0, 0, 1)}
    dated = {r["player"]: r["games"] for r in cli_json(db_url, "stats", "--since", "2026-11-28",
                                                          "--until", "2026-11-28")}
    assert dated == {"Alice": 4, "Bob": 4}


def test_the_stored_log_is_the_game_as_written_with_the_match_id(store: sa.Engine) -> None:
    # the identity an earlier import gave game 2: its own fields and the match id and number the record gives
    import_paths([CUP], store)
    given = {"format": "cribstats/game/1", "id": "cup-2026-final-g2", "match": "cup-2026-final", "match_game": 2,
             "players": ["Alice", "Bob"], "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 80}}}
    digest = hashlib.sha256(orjson.dumps(given, option=orjson.OPT_SORT_KEYS)).hexdigest()
    with store.connect() as conn:
        stored = find_game(conn, "cup-2026-final-g2")
    assert stored is not None
    assert stored.content_hash == digest and orjson.loads(stored.log) == given
    shown = stored.game()  # `cribstats show` and the service's game read the row's setting with the log
    setting = (shown.event, shown.date, shown.site, shown.round)
    assert setting == ("Autumn Cup", "2026-11-28", "Elks Lodge", "final")


def test_show_heads_a_cup_game_with_the_event_and_date(store: sa.Engine, db_url: str) -> None:
    import_paths([CUP], store)
    result = run("show", "cup-2026-final-g3", "--db", db_url)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == ("Game cup-2026-final-g3: six-card, to 121, Alice v Bob "
                                             "(Autumn Cup, round final, Elks Lodge, 2026-11-28)")


def test_ratings_take_the_cup_games_on_their_date(store: sa.Engine, db_url: str, tmp_path: Path) -> None:
    # a game of 2026-12-01 read first: the cup games of 2026-11-28 are rated before it, not after as undated
    later = write(tmp_path / "later.jsonl", game("later", "Alice", "Bob", 121, 95, date="2026-12-01"))
    import_paths([later, CUP], store)
    history = cli_json(db_url, "rating", "Alice", "--history")
    assert [r["date"] for r in history] == ["2026-11-28"] * 4 + ["2026-12-01"]


RECORD = {
    "format": "cribstats/match/1", "id": "open-final", "event": "Spring Open", "date": "2026-04-12",
    "site": "Legion Hall", "round": "final", "players": ["Alice", "Bob"], "rules": "best-of-3",
    "games": [
        game("f1", "Alice", "Bob", 121, 100),  # says nothing of its own: takes all four
        game("f2", "Bob", "Alice", 121, 110, event="Spring Open Day 2", date="2026-04-13"),  # keeps these two
        "f3",  # listed by id, given elsewhere in the input: a game of its own, keeps what it says (nothing)
        {"format": "cribstats/game/1", "players": ["Alice", "Bob"],  # no id: known by its content hash
         "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 60}}},
    ],
}


def test_a_game_that_gives_its_own_keeps_it_and_a_listed_game_takes_nothing(
    store: sa.Engine, tmp_path: Path
) -> None:
    path = write(tmp_path / "open.jsonl", game("f3", "Alice", "Bob", 121, 90), RECORD)
    summary = import_paths([path], store)
    assert summary.refused == [] and summary.conflicts == [] and summary.imported == 4
    found = settings(store)
    (unnamed,) = set(found) - {"f1", "f2", "f3"}
    assert found == {
        "f1": ("Spring Open", "2026-04-12", "Legion Hall", "final"),
        "f2": ("Spring Open Day 2", "2026-04-13", "Legion Hall", "final"),
        "f3": (None, None, None, None),
        unnamed: ("Spring Open", "2026-04-12", "Legion Hall", "final"),
    }
    with store.connect() as conn:
        match = load_match(conn, "open-final")
    assert match is not None  # f1 and f2 give Alice and Bob a game each, f3 gives Alice the match
    assert [(g.number, g.game_key, g.counted) for g in match.games] == [
        (1, "f1", True), (2, "f2", True), (3, "f3", True), (4, unnamed, False)]


@pytest.mark.parametrize("workers", [1, 2])
def test_reading_the_file_again_stores_nothing_and_refuses_nothing(
    store: sa.Engine, tmp_path: Path, workers: int
) -> None:
    path = write(tmp_path / "open.jsonl", game("f3", "Alice", "Bob", 121, 90), RECORD)
    import_paths([path], store, workers=workers)
    before = rows(store)
    again = import_paths([path], store, workers=workers)
    assert (again.imported, again.present, again.conflicts, again.refused) == (0, 4, [], [])
    assert (again.matches.imported, again.matches.present, again.matches.refused) == (0, 1, 0)
    assert rows(store) == before


def test_a_store_that_kept_the_games_without_the_setting_takes_it_on_reading_again(
    store: sa.Engine, db_url: str
) -> None:
    # a store filled before a record's games took its event and date: the same games, rows without them
    import_paths([CUP], store)
    forget_settings(store)
    assert cli_json(db_url, "games", "--event", "Autumn Cup") == []
    again = import_paths([CUP], store)
    assert (again.imported, again.present, again.conflicts, again.refused) == (0, 4, [], [])
    assert again.matches.present == 1 and again.matches.conflicting == 0
    assert settings(store) == {key: ("Autumn Cup", "2026-11-28", "Elks Lodge", "final") for key in CUP_KEYS}


def test_a_record_refused_gives_its_games_nothing(store: sa.Engine, tmp_path: Path) -> None:
    # "nowhere" is neither in the input nor stored: the record is refused, its whole game is stored as a game alone
    record = {**RECORD, "games": [game("f1", "Alice", "Bob", 121, 100), "nowhere"]}
    summary = import_paths([write(tmp_path / "bad.jsonl", record)], store)
    assert [r.reason for r in summary.refused] == ["no game 'nowhere' in the input or in the store"]
    assert settings(store) == {"f1": (None, None, None, None)}


def test_the_audit_and_the_import_agree_on_the_match(store: sa.Engine, tmp_path: Path) -> None:
    # f1 Alice, f2 Bob, f3 Alice: 2-1 after game 3, the match Alice's; the unnamed game 4 is after the end
    path = write(tmp_path / "open.jsonl", game("f3", "Alice", "Bob", 121, 90), RECORD)
    audit = run("audit", "--json", str(path))
    assert audit.exit_code == 1
    audited = [orjson.loads(line) for line in audit.stdout.splitlines()]
    import_paths([path], store)
    with store.connect() as conn:
        match = load_match(conn, "open-final")
    assert match is not None
    unnamed = match.games[3].game_key
    assert [(f["kind"], f["game"], f["match"]) for f in audited] == [("match-after-end", unnamed, "open-final")]
    assert [(f.kind, f.game, f.match) for f in match.findings] == [("match-after-end", unnamed, "open-final")]
    assert (match.points, match.winner) == ((2, 1), ("Alice",))
