"""Matches in the store (SQLite file and PostgreSQL): records, games joined in either order, the result replayed
from the stored games, findings, refusals with their place, and re-imports that change nothing.

Every expected value is worked out by hand from the games written here (a 121 game: a loser under 91 is
skunked, under 61 double skunked, under 31 triple skunked).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa

from cribstats.store import tables as t
from cribstats.store.importer import import_paths
from cribstats.store.matches import load_match, load_matches


def game(gid: str, one: str, two: str, s1: int, s2: int, **extra: Any) -> dict[str, Any]:
    """A result-only game: ``one`` and ``two`` finish at ``s1`` and ``s2``."""
    winner = one if s1 > s2 else two
    return {"format": "cribstats/game/1", "id": gid, **extra, "players": [one, two],
            "result": {"winner": winner, "scores": {one: s1, two: s2}}}


def write(path: Path, *records: dict[str, Any]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def rows(engine: sa.Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the import history, ids included; the clock's columns left out."""
    out = {}
    with engine.connect() as conn:
        for table in t.TABLES + t.DERIVED_TABLES:
            if table.name == "import_run":
                continue
            cols = [c for c in table.c if c.name not in ("imported_at", "import_id")]
            query = sa.select(*cols).order_by(*table.primary_key.columns)
            out[table.name] = [tuple(r) for r in conn.execute(query)]
    return out


POINTS_MATCH = {
    "format": "cribstats/match/1", "id": "cup-final", "event": "Cup", "date": "2026-11-03", "round": "final",
    "players": ["Alice", "Bob"], "rules": "points-3",
    "games": ["g1", game("g2", "Bob", "Alice", 100, 121), "g3"],
    "result": {"winner": "Bob", "points": {"Alice": 2}},
}


def test_a_points_match_won_on_a_skunk_with_a_game_after_the_end(store: sa.Engine, tmp_path: Path) -> None:
    # g1: Alice 121, Bob 80 -> a skunk (80 < 91): 2 match points; g2: Bob 100 -> a plain win: 1 point.
    # Alice has 3 = first_to after game 2; g3 (Bob's win) was begun after the end and counts for no one.
    first = write(tmp_path / "a.jsonl", game("g1", "Alice", "Bob", 121, 80, match="cup-final"),
                  game("g3", "Alice", "Bob", 100, 121))
    import_paths([first], store)
    second = write(tmp_path / "b.jsonl", POINTS_MATCH)
    summary = import_paths([second], store)
    assert summary.refused == [] and summary.matches.imported == 1 and summary.imported == 1  # g2, inline
    with store.connect() as conn:
        match = load_match(conn, "cup-final")
    assert match is not None
    assert (match.points, match.winner, match.ended_after_game) == ((3, 0), ("Alice",), 2)
    assert [(g.number, g.game_key, g.winner_side, g.match_points, g.counted) for g in match.games] == [
        (1, "g1", 1, 2, True), (2, "g2", 1, 1, True), (3, "g3", 2, 0, False)]
    assert [(f.kind, f.game, f.player, f.claimed, f.due, f.match) for f in match.findings] == [
        ("match-after-end", "g3", None, None, None, "cup-final"),
        ("match-result", None, None, None, None, "cup-final"),  # the record gives Bob the match
        ("match-result", None, "Alice", 2, 3, "cup-final"),  # and Alice 2 points, not 3
    ]
    assert (match.event, str(match.date), match.round, match.recorded_winner) == ("Cup", "2026-11-03", "final",
                                                                                 "Bob")


def test_reimporting_a_match_changes_nothing(store: sa.Engine, tmp_path: Path) -> None:
    files = [write(tmp_path / "a.jsonl", game("g1", "Alice", "Bob", 121, 80, match="cup-final"),
                   game("g3", "Alice", "Bob", 100, 121)),
             write(tmp_path / "b.jsonl", POINTS_MATCH)]
    import_paths(files, store)
    before = rows(store)
    assert len(before["match"]) == 1 and len(before["match_game"]) == 3
    again = import_paths(files, store)
    assert (again.imported, again.present, again.matches.imported, again.matches.present) == (0, 3, 0, 1)
    assert rows(store) == before


def test_a_game_that_carries_the_match_id_joins_a_stored_record(store: sa.Engine, tmp_path: Path) -> None:
    # best of three: Alice wins game 1, Bob game 2 (stored later, by its own match id); 1-1, unfinished
    record = {"format": "cribstats/match/1", "id": "m", "players": ["Alice", "Bob"],
              "games": [game("m1", "Alice", "Bob", 121, 95)]}
    import_paths([write(tmp_path / "a.jsonl", record)], store)
    with store.connect() as conn:
        match = load_match(conn, "m")
    assert match is not None and (match.points, match.winner_side) == ((1, 0), None)
    later = game("m2", "Bob", "Alice", 121, 119, match="m", match_game=2)
    import_paths([write(tmp_path / "b.jsonl", later)], store)
    with store.connect() as conn:
        match = load_match(conn, "m")
    assert match is not None
    assert (match.points, match.winner_side, [g.game_key for g in match.games]) == ((1, 1), None, ["m1", "m2"])


def test_games_alone_make_a_match_best_of_three(store: sa.Engine, tmp_path: Path) -> None:
    # no record: the games carry the id; default rules (first to 2 games) -> Bob wins 2-1 after game 3
    games = [game("x1", "Alice", "Bob", 121, 40, match="x"), game("x2", "Bob", "Alice", 121, 100, match="x"),
             game("x3", "Alice", "Bob", 110, 121, match="x")]
    import_paths([write(tmp_path / "a.jsonl", *games)], store)
    with store.connect() as conn:
        [match] = load_matches(conn, player="alice")
    assert (match.source_id, match.has_record, match.points, match.winner, match.ended_after_game) == (
        "x", False, (1, 2), ("Bob",), 3)
    assert match.findings == []


def test_a_bad_match_record_is_refused_with_its_place_and_the_rest_imports(
    store: sa.Engine, tmp_path: Path
) -> None:
    unknown = {"format": "cribstats/match/1", "id": "u", "players": ["Alice", "Bob"], "games": ["g1", "nowhere"]}
    three = {"format": "cribstats/match/1", "id": "v", "players": ["Alice", "Bob", "Carol"]}
    other_sides = {"format": "cribstats/match/1", "id": "w", "players": ["Alice", "Carol"], "games": ["g1"]}
    path = write(tmp_path / "a.jsonl", game("g1", "Alice", "Bob", 121, 100), unknown, three, other_sides,
                 game("g2", "Alice", "Bob", 121, 100))
    summary = import_paths([path], store)
    assert summary.imported == 2
    assert sorted(str(r) for r in summary.refused) == sorted([
        f"{path}:line 2: games[1]: no game 'nowhere' in the input or in the store",
        f"{path}:line 3: players: a match has two sides: write two names, or two partnerships of two",
        f"{path}:line 4: games[0]: this game is between Alice and Bob, not Alice against Carol: every game of a "
        "match has its sides",
    ])
    with store.connect() as conn:
        assert load_matches(conn) == []
        assert conn.execute(sa.select(sa.func.count()).select_from(t.game_table)).scalar_one() == 2


def test_the_same_match_id_with_other_content_is_a_conflict(store: sa.Engine, tmp_path: Path) -> None:
    first = dict(POINTS_MATCH, games=[game("g2", "Bob", "Alice", 100, 121)])
    import_paths([write(tmp_path / "a.jsonl", first)], store)
    changed = dict(first, result={"winner": "Alice"})
    summary = import_paths([write(tmp_path / "b.jsonl", changed)], store)
    assert summary.matches.conflicting == 1
    with store.connect() as conn:
        match = load_match(conn, "cup-final")
    assert match is not None and match.recorded_winner == "Bob"
    replaced = import_paths([write(tmp_path / "c.jsonl", changed)], store, replace=True)
    assert replaced.matches.imported == 1
    with store.connect() as conn:
        match = load_match(conn, "cup-final")
    assert match is not None and match.recorded_winner == "Alice"


def test_scorecards_store_their_games_and_their_disagreements_once(store: sa.Engine, tmp_path: Path) -> None:
    from cribstats.store.matches import scorecard_findings

    sheet = tmp_path / "night.csv"
    sheet.write_text("date,event,round,player,opponent,game_points,spread\n"
                     "2026-11-03,Club,1,Alice,Bob,2,17\n2026-11-03,Club,1,Bob,Alice,0,-17\n"
                     "2026-11-03,Club,1,Carol,Dave,3,25\n2026-11-03,Club,1,Dave,Carol,0,-25\n", encoding="utf-8")
    summary = import_paths([sheet], store)
    assert (summary.imported, summary.matches.scorecard_findings) == (1, 1)
    before = rows(store)
    again = import_paths([sheet], store)
    assert (again.present, again.matches.scorecard_findings) == (1, 0)
    assert rows(store) == before
    with store.connect() as conn:
        found = scorecard_findings(conn, event="Club")
        assert scorecard_findings(conn, event="Elsewhere") == []
    assert [(f.kind, f.player, f.claimed, f.due, f.match) for f in found] == [("scorecard", "Carol", 3, 2, None)]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_sheet_of_disagreements_alone_is_a_file_read(store: sa.Engine, tmp_path: Path, workers: int) -> None:
    """A sheet whose only game has one card gives a finding and no game: the file was still read, and the import's
    history says so."""
    from cribstats.store.history import list_imports

    sheet = tmp_path / "night.csv"
    sheet.write_text("date,event,round,player,opponent,game_points,spread\n"
                     "2026-11-03,Club,1,Alice,Bob,2,17\n", encoding="utf-8")
    summary = import_paths([sheet], store, workers=workers)
    assert (summary.files, summary.imported, summary.matches.scorecard_findings) == (1, 0, 1)
    with store.connect() as conn:
        assert [run.file for run in list_imports(conn)] == [str(sheet)]


def test_a_scorecard_sheet_after_other_files_is_one_run_with_workers_as_without(tmp_path: Path) -> None:
    """A folder of a game file then a scorecard sheet: the sheet's records come in the order read, after the games
    before it, so the import's history and summary are the same with worker processes as with one process (one run
    a file, the sheet's games in its own run)."""
    from cribstats.store.db import make_engine, upgrade
    from cribstats.store.history import list_imports

    folder = tmp_path / "night"
    folder.mkdir()
    write(folder / "a.jsonl", *(game(f"a{i}", "Ann", "Bo", 121, 90 + i) for i in range(6)))
    (folder / "b.csv").write_text(
        "date,event,round,player,opponent,game_points,spread\n"
        "2026-11-03,Club,1,Alice,Bob,2,17\n2026-11-03,Club,1,Bob,Alice,0,-17\n"  # agree: one game
        "2026-11-03,Club,1,Carol,Dave,3,25\n2026-11-03,Club,1,Dave,Carol,0,-25\n",  # disagree: a finding
        encoding="utf-8")
    history = {}
    for workers in (1, 2):
        engine = make_engine(f"sqlite:///{tmp_path / f'j{workers}.db'}")
        upgrade(engine)
        summary = import_paths([folder], engine, workers=workers)
        with engine.connect() as conn:
            runs = [(Path(run.file).name, run.imported) for run in list_imports(conn)]
        history[workers] = (summary.files, summary.imported, summary.matches.scorecard_findings, runs)
        engine.dispose()
    # two files, 6 + 1 games, one disagreement; a run for each file, in the order read
    assert history[1] == (2, 7, 1, [("a.jsonl", 6), ("b.csv", 1)])
    assert history[2] == history[1]


def test_parallel_import_stores_the_same_matches(store: sa.Engine, tmp_path: Path) -> None:
    lines = [game(f"p{i}", "Alice", "Bob", 121, 100 - i, match=f"m{i // 3}") for i in range(60)]
    path = write(tmp_path / "many.jsonl", *lines, dict(POINTS_MATCH, games=["p0", "p1", "p2"], id="m0"))
    summary = import_paths([path], store, workers=2, batch_size=20)
    assert summary.refused == [] and summary.matches.imported == 1
    with store.connect() as conn:
        matches = load_matches(conn)
    assert len(matches) == 20
    # m0 under points-3: p0 121-100 (1 point), p1 121-99 (1), p2 121-98 (1): Alice has 3 after game 3
    m0 = next(m for m in matches if m.source_id == "m0")
    assert (m0.points, m0.ended_after_game, m0.has_record) == ((3, 0), 3, True)
    # the others are best of three from their games alone: Alice wins games 1 and 2, game 3 is after the end
    m1 = next(m for m in matches if m.source_id == "m1")
    assert (m1.points, m1.ended_after_game, [g.counted for g in m1.games]) == ((2, 0), 2, [True, True, False])


def test_names_fold_and_unlisted_games_come_after_the_listed(store: sa.Engine, tmp_path: Path) -> None:
    # "alice " in the record is Alice of the games (trimmed by the name rule); the game carrying the id but not
    # listed becomes game 3
    import_paths([write(tmp_path / "a.jsonl", game("u1", "Alice", "Bob", 121, 100, match="n"))], store)
    record = {"format": "cribstats/match/1", "id": "n", "players": ["alice ", "BOB"], "rules": "best-of-5",
              "games": ["v1", "v2"]}
    summary = import_paths([write(tmp_path / "b.jsonl", game("v1", "Bob", "Alice", 121, 90),
                                  game("v2", "Bob", "Alice", 121, 90), record)], store)
    assert summary.refused == []
    with store.connect() as conn:
        match = load_match(conn, "n")
    assert match is not None
    numbered = [(g.number, g.game_key, g.winner_side) for g in match.games]
    assert numbered == [(1, "v1", 2), (2, "v2", 2), (3, "u1", 1)]
    assert (match.points, match.winner_side, match.sides) == ((1, 2), None, (("alice",), ("BOB",)))


def test_two_imports_of_one_match_at_once_store_it_once(store: sa.Engine, db_url: str, tmp_path: Path) -> None:
    import threading

    from cribstats.store.db import make_engine

    games = [game(f"c{i}", "Alice", "Bob", 121, 100, match="same") for i in range(1, 4)]
    files = [write(tmp_path / f"{n}.jsonl", *games, dict(POINTS_MATCH, id="same", games=["c1", "c2", "c3"]))
             for n in ("one", "two")]
    engines = [make_engine(db_url) for _ in files]
    errors: list[BaseException] = []

    def run(path: Path, engine: sa.Engine) -> None:
        try:
            import_paths([path], engine)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=run, args=pair) for pair in zip(files, engines, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for engine in engines:
        engine.dispose()
    assert errors == []
    with store.connect() as conn:
        [match] = load_matches(conn)
    # points-3, three plain wins for Alice: 3 points after game 3
    assert (match.source_id, match.points, match.ended_after_game, len(match.games)) == ("same", (3, 0), 3, 3)


def test_a_game_of_another_variant_that_carries_the_match_id_is_refused_its_place(
    store: sa.Engine, tmp_path: Path
) -> None:
    # match.md: games of one match with different variants are an input error; the game is still a game.
    # y1 (six-card, Alice 121-100) makes match y; y2 is five-card (to 61): refused its place, stored as a game.
    path = write(tmp_path / "a.jsonl", game("y1", "Alice", "Bob", 121, 100, match="y"),
                 game("y2", "Alice", "Bob", 61, 40, match="y", variant="five-card"))
    summary = import_paths([path], store)
    assert summary.imported == 2
    assert [str(r) for r in summary.refused] == [
        f"{path}:line 2: this game is five-card, but the match's games before it are six-card: a match is played "
        "in one variant",
    ]
    with store.connect() as conn:
        match = load_match(conn, "y")
    assert match is not None
    assert ([g.game_key for g in match.games], match.points, match.winner) == (["y1"], (1, 0), None)


def test_a_match_record_refused_for_a_game_of_another_variant_is_refused_once(
    store: sa.Engine, tmp_path: Path
) -> None:
    # the record lists an inline five-card game after a six-card one: one refusal, at the game's place in it
    record = {"format": "cribstats/match/1", "id": "z", "players": ["Alice", "Bob"],
              "games": [game("z1", "Alice", "Bob", 121, 100), game("z2", "Alice", "Bob", 61, 40,
                                                                  variant="five-card")]}
    path = write(tmp_path / "a.jsonl", record)
    summary = import_paths([path], store)
    assert [str(r) for r in summary.refused] == [
        f"{path}:line 1: games[1]: this game is five-card, but the match's games before it are six-card: a match "
        "is played in one variant",
    ]
    with store.connect() as conn:
        match = load_match(conn, "z")
    # the record is refused; its games carry its id, so the match is known from them, without the five-card game
    assert match is not None and [g.game_key for g in match.games] == ["z1"]


def test_a_partnership_game_with_other_partners_is_refused_naming_who_played_with_whom(
    store: sa.Engine, tmp_path: Path
) -> None:
    def four(gid: str, seats: list[str]) -> dict[str, Any]:
        return {"format": "cribstats/game/1", "id": gid, "match": "pm", "variant": "four-player", "players": seats,
                "result": {"winner": "N"}}

    path = write(tmp_path / "a.jsonl", four("q1", ["N", "E", "S", "W"]), four("q2", ["N", "S", "E", "W"]))
    summary = import_paths([path], store)
    assert [str(r) for r in summary.refused] == [
        f"{path}:line 2: this game is between N and E against S and W, not N and S against E and W: every game of "
        "a match has its sides",
    ]


def test_the_import_summary_counts_the_findings_of_the_matches_it_judged(db_url: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cribstats.cli.app import app

    # the match of the test above: a game after the end, the record's winner (Bob) and Alice's points (2, not 3)
    files = [str(write(tmp_path / "a.jsonl", game("g1", "Alice", "Bob", 121, 80, match="cup-final"),
                       game("g3", "Alice", "Bob", 100, 121))),
             str(write(tmp_path / "b.jsonl", POINTS_MATCH))]

    def summary() -> dict[str, str]:
        result = CliRunner().invoke(app, ["import", "-q", "--db", db_url, *files], env={"COLUMNS": "100"})
        assert result.exit_code == 0, result.output
        cells = [[c.strip() for c in line.split("│")[1:-1]] for line in result.stdout.splitlines() if "│" in line]
        return {c[0]: c[1] for c in cells if len(c) == 2}

    first = summary()
    assert (first["match records stored"], first["match findings"]) == ("1", "3")
    assert summary()["match findings"] == "0"  # read again: nothing judged anew
