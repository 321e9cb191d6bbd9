"""The importer against a real SQLite file and a real PostgreSQL database: facts, identity, conflicts, refusals."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from stored_play import play_events

from cribstats.gamelog import content_hash, validate_game
from cribstats.replay import replay
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import Importer, canonical_log, import_paths, prepare_game
from cribstats.store.queries import table_counts

# One deal worked out by hand (the example of docs/game-log.md): Alice deals, Bob is pone, starter 5H.
# Bob's hand 6D JH 4H 7C + 5H: fifteens JH+5H, 6+4+5 = 4, run 4-5-6-7 = 4, nobs (JH, starter a heart) = 1: 9.
# Alice's hand 5S 4S 2S 6H + 5H: fifteens 5S+4+6, 5H+4+6 = 4, pair of fives = 2, runs 4-5-6 twice = 6: 12.
# The crib 8D 8C TS KC + 5H: fifteens TS+5H, KC+5H = 4, pair of eights = 2: 6.
# The play: JH 10, 5S 15 (Alice 2), 7C 22, 6H 28 (run 5-6-7: Alice 3), Bob go, 2S 30 (Alice go 1), then
# 6D 6, 4S 10, 4H 14 (pair 2 + last card 1: Bob 3). Alice pegs 6, Bob 3.
ONE_DEAL: dict[str, Any] = {
    "format": "cribstats/game/1",
    "id": "tuesday-r2-t4",
    "event": "Tuesday League",
    "date": "2026-11-03",
    "site": "Elks Lodge",
    "round": "2",
    "players": ["Alice", "Bob"],
    "deals": [
        {
            "dealer": "Alice",
            "hands": {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]},
            "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
            "starter": "5H",
            "play": [
                ["Bob", "JH"],
                ["Alice", "5S", 2],
                ["Bob", "7C"],
                ["Alice", "6H", 3],
                ["Bob", "go"],
                ["Alice", "2S", 1],
                ["Bob", "6D"],
                ["Alice", "4S"],
                ["Bob", "4H", 3],
            ],
            "show": {"Bob": 9, "Alice": 10, "crib": 6},
            "scores": {"Alice": 22, "Bob": 12},
        }
    ],
}


def write_jsonl(path: Path, logs: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(log) + b"\n" for log in logs))
    return path


def sim_logs(n: int, seed: int = 1, **options: Any) -> list[dict[str, Any]]:
    return [g.log for g in simulate_games(n, seed=seed, **options)]


def rows(engine: sa.Engine, sql: str, **params: Any) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(sa.text(sql), params))


def counts(engine: sa.Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return table_counts(conn)


@pytest.fixture
def engine(db_url: str):
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


def test_hand_worked_deal_is_stored_fact_by_fact(engine: sa.Engine, tmp_path: Path) -> None:
    summary = import_paths([write_jsonl(tmp_path / "night.jsonl", [ONE_DEAL])], engine)
    assert (summary.imported, summary.present, summary.refused_count, summary.deals) == (1, 0, 0, 1)

    facts = rows(
        engine,
        "SELECT p.name, dp.seat, dp.role, dp.dealt, dp.discards, dp.pegged_due, dp.pegged_claimed, dp.hand_due,"
        " dp.hand_claimed, dp.crib_due, dp.crib_claimed, dp.heels_due FROM deal_player dp"
        " JOIN player p ON p.id = dp.player_id ORDER BY dp.seat",
    )
    assert [tuple(r) for r in facts] == [
        ("Alice", 0, "dealer", "5S 4S 2S 8D 6H 8C", "8D 8C", 6, 6, 12, 10, 6, 6, 0),
        ("Bob", 1, "pone", "TS 6D JH 4H KC 7C", "TS KC", 3, 3, 9, 9, None, None, 0),
    ]
    with engine.connect() as conn:
        names = dict(conn.execute(sa.text("SELECT id, name FROM player")).all())
        plays = [(seq, names[pid], card, count, due) for _, seq, pid, card, count, due, _, _ in play_events(conn)]
    assert plays == [
        (0, "Bob", "JH", 10, 0),
        (1, "Alice", "5S", 15, 2),
        (2, "Bob", "7C", 22, 0),
        (3, "Alice", "6H", 28, 3),
        (4, "Bob", None, 28, 0),
        (5, "Alice", "2S", 30, 1),
        (6, "Bob", "6D", 6, 0),
        (7, "Alice", "4S", 10, 0),
        (8, "Bob", "4H", 14, 3),
    ]
    (deal,) = rows(
        engine, "SELECT d.number, p.name AS dealer, d.starter FROM deal d JOIN player p ON p.id = d.dealer_id"
    )
    assert tuple(deal) == (1, "Alice", "5H")
    missed = rows(
        engine,
        "SELECT f.deal_number, f.kind, f.phase, p.name, f.claimed, f.due FROM finding f"
        " JOIN player p ON p.id = f.player_id WHERE f.kind = 'missed'",
    )
    assert [tuple(r) for r in missed] == [(1, "missed", "hand", "Alice", 10, 12)]
    (game,) = rows(
        engine,
        "SELECT g.game_key, g.source_id, g.date, g.site, g.round, e.name AS event, g.variant,"
        " g.target, g.deal_count FROM game g JOIN event e ON e.id = g.event_id",
    )
    assert (game.game_key, game.source_id, str(game.date), game.site, game.round, game.event) == (
        "tuesday-r2-t4",
        "tuesday-r2-t4",
        "2026-11-03",
        "Elks Lodge",
        "2",
        "Tuesday League",
    )
    assert (game.variant, game.target, game.deal_count) == ("six-card", 121, 1)


def test_simulated_games_store_every_deal_play_and_expected_finding(engine: sa.Engine, tmp_path: Path) -> None:
    sims = list(simulate_games(12, seed=3, mistake_rate=0.08, muggins=True))
    logs = [s.log for s in sims]
    summary = import_paths([write_jsonl(tmp_path / "games.jsonl", logs)], engine)
    assert (summary.imported, summary.refused_count, summary.conflict_count) == (12, 0, 0)

    n_deals = sum(len(log["deals"]) for log in logs)
    n_plays = sum(len(d.get("play", [])) for log in logs for d in log["deals"])
    c = counts(engine)
    assert c["game"] == 12 and c["deal"] == n_deals and summary.deals == n_deals
    assert c["deal_player"] == 2 * n_deals
    with engine.connect() as conn:
        assert len(play_events(conn)) == n_plays
    assert c["game_player"] == 24

    # the store keeps exactly what the replay found, game by game (the replay's own tests judge the findings)
    expected = sorted(
        (
            (o.key, f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due)
            for o in (replay(validate_game(log)) for log in logs)
            for f in o.findings
        ),
        key=repr,
    )
    stored = rows(
        engine,
        "SELECT g.game_key, f.deal_number, f.event, f.kind, f.phase, p.name, f.claimed, f.due FROM finding f"
        " JOIN game g ON g.id = f.game_id LEFT JOIN player p ON p.id = f.player_id",
    )
    assert expected, "the simulator was asked for mistakes"
    assert sorted((tuple(r) for r in stored), key=repr) == expected
    assert summary.findings == len(expected)

    winners = rows(engine, "SELECT game_id, count(*) AS n FROM game_player WHERE won GROUP BY game_id")
    assert len(winners) == 12 and {w.n for w in winners} == {1}


def test_importing_twice_changes_nothing(engine: sa.Engine, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "games.jsonl", sim_logs(8, seed=5))
    first = import_paths([path], engine)
    before = counts(engine)
    second = import_paths([path], engine)
    after = counts(engine)
    assert (first.imported, first.present) == (8, 0)
    assert (second.imported, second.present, second.deals, second.findings) == (0, 8, 0, 0)
    assert {k: v for k, v in after.items() if k != "import_run"} == {
        k: v for k, v in before.items() if k != "import_run"
    }
    runs = rows(
        engine, "SELECT games_imported, games_present, finished_at IS NOT NULL AS done FROM import_run ORDER BY id"
    )
    assert [tuple(r) for r in runs] == [(8, 0, True), (0, 8, True)]


def test_the_same_game_twice_in_one_file_is_stored_once(engine: sa.Engine, tmp_path: Path) -> None:
    logs = sim_logs(3, seed=6)
    summary = import_paths([write_jsonl(tmp_path / "dup.jsonl", [logs[0], logs[1], logs[0], logs[2]])], engine)
    assert (summary.imported, summary.present) == (3, 1)
    assert counts(engine)["game"] == 3


def test_same_id_different_content_is_a_conflict_unless_replace(engine: sa.Engine, tmp_path: Path) -> None:
    original = copy.deepcopy(ONE_DEAL)
    changed = copy.deepcopy(ONE_DEAL)
    changed["deals"][0]["show"]["Alice"] = 12  # the hand claimed right this time
    changed["deals"][0]["scores"]["Alice"] = 24
    import_paths([write_jsonl(tmp_path / "first.jsonl", [original])], engine)
    before = counts(engine)

    path = write_jsonl(tmp_path / "second.jsonl", [sim_logs(1, seed=9)[0], changed])
    summary = import_paths([path], engine)
    assert (summary.imported, summary.conflict_count) == (1, 1)
    (conflict,) = summary.conflicts
    assert (conflict.file, conflict.place, conflict.game) == (str(path), "line 2", "tuesday-r2-t4")
    assert "already stored with different content" in conflict.reason
    (claim,) = rows(
        engine,
        "SELECT dp.hand_claimed FROM deal_player dp JOIN game g ON g.id = dp.game_id"
        " WHERE g.game_key = 'tuesday-r2-t4' AND dp.role = 'dealer'",
    )
    assert claim.hand_claimed == 10  # the stored game is untouched

    replaced = import_paths([path], engine, replace=True)
    assert (replaced.imported, replaced.replaced, replaced.present, replaced.conflict_count) == (1, 1, 1, 0)
    (claim,) = rows(
        engine,
        "SELECT dp.hand_claimed FROM deal_player dp JOIN game g ON g.id = dp.game_id"
        " WHERE g.game_key = 'tuesday-r2-t4' AND dp.role = 'dealer'",
    )
    assert claim.hand_claimed == 12
    after = counts(engine)
    one_sim_game = {k: after[k] - before[k] for k in ("game", "finding")}
    assert one_sim_game["game"] == 1  # the simulated game; the replaced game still counts once
    (n_findings,) = rows(
        engine,
        "SELECT count(*) AS n FROM finding f JOIN game g ON g.id = f.game_id WHERE g.game_key = 'tuesday-r2-t4'",
    )
    assert n_findings.n == 0  # the corrected log has nothing to find; the old findings went with the old game


def test_a_refused_game_beside_good_ones_in_one_file(engine: sa.Engine, tmp_path: Path) -> None:
    good = sim_logs(3, seed=11)
    bad = copy.deepcopy(good[1])
    bad["id"] = "broken"
    bad["deals"][2]["starter"] = "1H"
    path = tmp_path / "night.jsonl"
    path.write_bytes(
        orjson.dumps(good[0])
        + b"\n"
        + orjson.dumps(bad)
        + b"\n"
        + b"{not json\n"
        + orjson.dumps(good[1])
        + b"\n"
        + orjson.dumps(good[2])
        + b"\n"
    )
    summary = import_paths([path], engine)
    assert (summary.imported, summary.refused_count) == (3, 2)
    assert [r.file for r in summary.refused] == [str(path), str(path)]
    assert summary.refused[0].place.startswith("line 2") and "deals[2].starter" in summary.refused[0].place
    assert summary.refused[1].place.startswith("line 3")
    assert "1H" in summary.refused[0].reason
    keys = [r.game_key for r in rows(engine, "SELECT game_key FROM game ORDER BY game_key")]
    assert keys == sorted(g["id"] for g in good)
    (run,) = rows(engine, "SELECT games_imported, games_refused FROM import_run")
    assert tuple(run) == (3, 2)


def test_player_names_fold_case_and_spacing(engine: sa.Engine, tmp_path: Path) -> None:
    first = sim_logs(1, seed=21, players=["Mary Ann", "Bob"])[0]
    second = sim_logs(1, seed=22, players=["  mary   ANN ", "BOB"])[0]
    third = sim_logs(1, seed=23, players=["bob", "Carol"])[0]
    summary = import_paths([write_jsonl(tmp_path / "names.jsonl", [first, second, third])], engine)
    assert summary.imported == 3
    players = rows(engine, "SELECT name, name_key FROM player ORDER BY name_key")
    assert [tuple(p) for p in players] == [("Bob", "bob"), ("Carol", "carol"), ("Mary Ann", "mary ann")]
    per_player = rows(
        engine,
        "SELECT p.name, count(*) AS n FROM game_player gp JOIN player p ON p.id = gp.player_id"
        " GROUP BY p.name ORDER BY p.name",
    )
    assert [tuple(r) for r in per_player] == [("Bob", 3), ("Carol", 1), ("Mary Ann", 2)]


def test_two_players_whose_names_fold_together_are_refused(engine: sa.Engine, tmp_path: Path) -> None:
    log = sim_logs(1, seed=24, players=["Alice", "ALICE "])[0]
    path = write_jsonl(tmp_path / "twins.jsonl", [sim_logs(1, seed=25)[0], log])
    summary = import_paths([path], engine)
    assert (summary.imported, summary.refused_count) == (1, 1)
    assert summary.refused[0].place == "line 2"
    assert "differ only in case or spacing" in summary.refused[0].reason
    assert counts(engine)["game"] == 1


def test_a_game_the_database_refuses_is_refused_alone(engine: sa.Engine) -> None:
    logs = sim_logs(4, seed=31)
    prepared = [prepare_game(validate_game(log), "mem", f"[{i}]") for i, log in enumerate(logs)]
    broken = prepared[2]
    broken.deals.append(broken.deals[0])  # the same deal number twice: a unique constraint breaks
    with Importer(engine, batch_size=10) as importer:
        for p in prepared:
            importer.add_prepared(p)
    summary = importer.summary
    assert (summary.imported, summary.refused_count) == (3, 1)
    assert summary.refused[0].place == "[2]"
    assert "the database refused it" in summary.refused[0].reason
    keys = {r.game_key for r in rows(engine, "SELECT game_key FROM game")}
    assert keys == {logs[0]["id"], logs[1]["id"], logs[3]["id"]}
    orphans = rows(engine, "SELECT count(*) AS n FROM deal WHERE game_id NOT IN (SELECT id FROM game)")
    assert orphans[0].n == 0


def test_an_empty_database_is_set_up_by_the_importer(engine: sa.Engine, tmp_path: Path) -> None:
    with engine.connect() as conn:
        assert sa.inspect(conn).get_table_names() == []
    import_paths([write_jsonl(tmp_path / "one.jsonl", [ONE_DEAL])], engine)
    with engine.connect() as conn:
        assert {"game", "player", "deal_player", "alembic_version"} <= set(sa.inspect(conn).get_table_names())


def test_stored_log_and_hash_are_the_canonical_ones(engine: sa.Engine, tmp_path: Path) -> None:
    lower = copy.deepcopy(ONE_DEAL)
    lower["deals"][0]["starter"] = "5h"  # card spelling does not change the game
    import_paths([write_jsonl(tmp_path / "a.jsonl", [ONE_DEAL])], engine)
    summary = import_paths([write_jsonl(tmp_path / "b.jsonl", [lower])], engine)
    assert summary.present == 1
    (game,) = rows(engine, "SELECT content_hash, log FROM game")
    parsed = validate_game(ONE_DEAL)
    assert game.content_hash == content_hash(parsed)
    assert orjson.loads(game.log) == orjson.loads(canonical_log(parsed)[0])
    assert validate_game(orjson.loads(game.log)) == parsed


def test_clean_games_store_no_findings_and_the_recorded_result(engine: sa.Engine, tmp_path: Path) -> None:
    logs = sim_logs(6, seed=41, variant="three-player")
    summary = import_paths([write_jsonl(tmp_path / "three.jsonl", logs)], engine)
    assert (summary.imported, summary.findings) == (6, 0)
    assert counts(engine)["finding"] == 0
    n_deals = sum(len(log["deals"]) for log in logs)
    assert counts(engine)["deal_player"] == 3 * n_deals
    crib_cards = rows(engine, "SELECT count(*) AS n FROM deal WHERE crib_card IS NOT NULL")
    assert crib_cards[0].n == n_deals  # three-player deals a card from the deck to the crib


def test_the_result_as_the_table_recorded_it_seat_by_seat(engine: sa.Engine, tmp_path: Path) -> None:
    logs = sim_logs(10, seed=43)
    import_paths([write_jsonl(tmp_path / "clean.jsonl", logs)], engine)
    for log in logs:
        result = log["result"]
        got = rows(
            engine,
            "SELECT p.name, gp.final_score_claimed, gp.won, gp.won_due, gp.skunk_level, gp.recorded_score"
            " FROM game_player gp JOIN game g ON g.id = gp.game_id JOIN player p ON p.id = gp.player_id"
            " WHERE g.game_key = :k",
            k=log["id"],
        )
        assert len(got) == 2
        for name, score, won, won_due, skunk, recorded in got:
            assert recorded == score == result["scores"][name]
            assert bool(won) == bool(won_due) == (name == result["winner"])
            loser_level = 0 if name == result["winner"] else (score < 91) + (score < 61) + (score < 31)
            assert skunk == loser_level
        (game,) = rows(
            engine,
            "SELECT skunk_level, recorded_winner, ended_in_deal, deal_count FROM game WHERE game_key = :k",
            k=log["id"],
        )
        loser = min(result["scores"].values())
        assert game.skunk_level == (loser < 91) + (loser < 61) + (loser < 31)
        assert game.ended_in_deal == game.deal_count == len(log["deals"])


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_a_large_input_streams_in_bounded_memory(tmp_path: Path, workers: int) -> None:
    """Memory held while importing does not grow with the number of games: only one batch is kept (with worker
    processes, also a bounded number of games on their way back from them)."""
    import tracemalloc

    def peak_imported(n: int) -> int:
        path = tmp_path / f"fresh-{n}.jsonl"
        with path.open("wb") as out:
            for i in range(n):
                out.write(orjson.dumps({**ONE_DEAL, "id": f"fresh-{i}"}) + b"\n")
        engine = make_engine(f"sqlite:///{tmp_path / f'fresh-{n}.db'}")
        tracemalloc.start()
        summary = import_paths([path], engine, batch_size=100, workers=workers)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        engine.dispose()
        assert summary.imported == n
        return top

    peak_imported(300)  # one-time tables, imports and caches (scoring tables, compiled statements) out of the way
    small = peak_imported(600)
    assert peak_imported(2400) < 1.5 * small  # four times the games, not four times the memory


def every_row(engine: sa.Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, ids included, in id order; only the clock's columns left out."""
    from cribstats.store.tables import TABLES

    clock = {"imported_at", "started_at", "finished_at"}
    with engine.connect() as conn:
        return {
            table.name: [
                tuple(r)
                for r in conn.execute(
                    sa.select(*(c for c in table.c if c.name not in clock)).order_by(table.c.id)
                )
            ]
            for table in TABLES
        }


def mixed_inputs(tmp_path: Path) -> list[Path]:
    """JSON Lines long enough to be cut into several chunks (a BOM, blank lines, a broken line and a game
    refused by the store among them, a game twice), a JSON array, a tally sheet, an empty file, a second file
    that meets games of the first."""
    data = Path(__file__).parent / "data" / "formats"
    logs = sim_logs(150, seed=71, mistake_rate=0.03)
    lines = [orjson.dumps(log) for log in logs]
    folded = {"format": "cribstats/game/1", "players": ["Al", " al"]}
    lines[59:59] = [b"{broken", b"", b"   ", orjson.dumps(folded)]
    lines.append(lines[3])
    first = tmp_path / "first.jsonl"
    first.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n\n")
    second = write_jsonl(tmp_path / "second.jsonl", [ONE_DEAL, logs[3], logs[120]])
    return [first, data / "games-array.json", data / "tally.csv", data / "blank.jsonl", second]


@pytest.mark.slow
def test_parallel_replay_gives_the_same_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cribstats.store.importer as importer
    import cribstats.store.pool as pool

    paths = mixed_inputs(tmp_path)
    monkeypatch.setattr(pool, "PARALLEL_CHUNK", 7)  # many chunks, the broken line inside one
    monkeypatch.setattr(importer, "AUTO_PARALLEL_AFTER", 40)  # auto: some chunks here, then the processes
    monkeypatch.setattr(importer, "default_workers", lambda: 2)
    results = {}
    for workers in (1, 2, None):
        engine = make_engine(f"sqlite:///{tmp_path / f'w{workers}.db'}")
        summary = import_paths(paths, engine, workers=workers, batch_size=40)
        results[workers] = (
            (summary.imported, summary.present, summary.deals, summary.findings),
            [str(r) for r in summary.refused],
            every_row(engine),
        )
        stored_runs = rows(engine, "SELECT * FROM import_run ORDER BY id")
        engine.dispose()
    assert results[1] == results[2] == results[None]
    (imported, present, _deals, _findings), refused, _stored = results[2]
    # 150 + 2 of the array + 4 tally rows + ONE_DEAL; present: logs[3] again in first, then in second, logs[120]
    assert (imported, present) == (157, 3)
    first = str(paths[0])
    assert refused == [
        f"{first}:line 60, column 2: not valid JSON: unexpected character, expected a string key",
        f"{first}:line 63: players 'Al' and 'al' differ only in case or spacing: they would be one player",
        f"{paths[1]}:[1].deals[0].muggins[0]: a play call needs 'event', the index of the play event whose claim"
        " it corrects",
        f"{paths[3]}: the file is empty",
    ]
    # file, games imported, present, conflicting, refused
    runs = [(r.file, r.games_imported, r.games_present, r.games_conflicting, r.games_refused) for r in stored_runs]
    assert runs == [
        (first, 150, 1, 0, 2),
        (str(paths[1]), 2, 0, 0, 1),
        (str(paths[2]), 4, 0, 0, 0),
        (str(paths[3]), 0, 0, 0, 1),
        (str(paths[4]), 1, 2, 0, 0),
    ]


@pytest.mark.postgres
def test_a_claim_too_large_for_the_database_refuses_only_that_game(pg_url: str, tmp_path: Path) -> None:
    huge = copy.deepcopy(ONE_DEAL)
    huge["id"] = "huge"
    huge["deals"][0]["show"]["Bob"] = 10**12  # a valid log, but PostgreSQL's INTEGER does not hold it
    good = sim_logs(2, seed=81)
    engine = make_engine(pg_url)
    summary = import_paths([write_jsonl(tmp_path / "huge.jsonl", [good[0], huge, good[1]])], engine)
    assert (summary.imported, summary.refused_count) == (2, 1)
    assert summary.refused[0].place == "line 2"
    assert summary.refused[0].reason.startswith("the database refused it: ")
    assert sorted(r.game_key for r in rows(engine, "SELECT game_key FROM game")) == sorted(g["id"] for g in good)
    engine.dispose()


def test_an_import_interrupted_mid_write_keeps_whole_batches(engine: sa.Engine, tmp_path: Path) -> None:
    """Ctrl-C while a batch is being written: the interrupt itself comes out (nothing else is raised in its
    place), the batches written before it stay, and running the import again completes it."""
    logs = sim_logs(9, seed=91)
    path = write_jsonl(tmp_path / "nine.jsonl", logs)
    bulk_writes = []

    def interrupt_the_second_batch(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        if 'INSERT INTO "deal_player"' in statement or "nextval" in statement:  # PostgreSQL: deal ids
            bulk_writes.append(statement)
            if len(bulk_writes) == 2:
                raise KeyboardInterrupt

    sa.event.listen(engine, "before_cursor_execute", interrupt_the_second_batch)
    with pytest.raises(KeyboardInterrupt):
        import_paths([path], engine, batch_size=4)
    sa.event.remove(engine, "before_cursor_execute", interrupt_the_second_batch)
    assert counts(engine)["game"] == 4  # the first batch, whole
    summary = import_paths([path], engine, batch_size=4)
    assert (summary.present, summary.imported) == (4, 5)
    assert counts(engine)["deal"] == sum(len(log["deals"]) for log in logs)


def test_rows_travel_from_a_worker_as_plain_tuples() -> None:
    """A prepared game pickles with its rows as plain tuples (nothing to construct in the writing process), and
    comes back equal, row for row, in the column order of the bulk inserts."""
    import pickle

    from cribstats.store.rows import DealRow

    prepared = prepare_game(validate_game(ONE_DEAL), "night.jsonl", "line 1")
    back = pickle.loads(pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == prepared
    assert type(prepared.deals[0]) is DealRow and type(back.deals[0]) is tuple
    assert all(type(row) is tuple for _, _, row in back.deal_players)
    assert back.deals[0][-1] == prepared.deals[0].play
    assert len(orjson.loads(prepared.deals[0].play)) == len(ONE_DEAL["deals"][0]["play"])


@pytest.mark.parametrize("workers", [1, 2])
def test_the_import_puts_the_garbage_collector_back(tmp_path: Path, workers: int) -> None:
    """The collector does not run of itself during an import, with workers or without (it collects after each
    batch); its settings are put back after."""
    import gc

    before = gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()
    during: list[bool] = []
    engine = make_engine(f"sqlite:///{tmp_path / 'gc.db'}")
    logs = [dict(ONE_DEAL, id=f"gc-{n}") for n in range(3)]
    summary = import_paths([write_jsonl(tmp_path / "three.jsonl", logs)], engine, workers=workers, batch_size=1,
                           on_progress=lambda *_: during.append(gc.isenabled()))  # fmt: skip
    engine.dispose()
    assert summary.imported == 3
    assert during[0] is False  # the first batch's, written while the games are imported
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == before


def test_an_import_into_sqlite_keeps_a_larger_page_cache_while_it_writes(tmp_path: Path) -> None:
    """SQLite's page cache is 32 MiB on the import's connection while it writes (the indexes of the tables it
    fills stay in memory through a batch), and the default again once the import is done."""
    from cribstats.store.batches import IMPORT_CACHE_KIB, SQLITE_DEFAULT_CACHE_KIB

    engine = make_engine(f"sqlite:///{tmp_path / 'cache.db'}")
    seen: list[int] = []

    def cache_size(conn: sa.Connection, cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith('INSERT INTO "deal_player"'):
            seen.append(conn.connection.driver_connection.execute("PRAGMA cache_size").fetchone()[0])

    sa.event.listen(engine, "before_cursor_execute", cache_size)
    import_paths([write_jsonl(tmp_path / "one.jsonl", [ONE_DEAL])], engine)
    with engine.connect() as conn:
        after = conn.exec_driver_sql("PRAGMA cache_size").scalar()
    engine.dispose()
    assert seen == [-IMPORT_CACHE_KIB] and after == -SQLITE_DEFAULT_CACHE_KIB == -2000


def test_discards_queued_are_valued_when_the_queue_is_filled() -> None:
    """Games prepared with a discard queue keep their discards unvalued until it is filled (before a batch is
    written), then hold the very rows a game prepared alone holds."""
    from cribstats.store.rows import NOT_VALUED, VALUE_FIELDS, DiscardQueue

    games = [validate_game(log) for log in sim_logs(3, seed=5)] + [validate_game(ONE_DEAL)]
    queue = DiscardQueue()
    queued = [prepare_game(g, "mem", f"[{i}]", queue) for i, g in enumerate(games)]
    alone = [prepare_game(g, "mem", f"[{i}]") for i, g in enumerate(games)]
    assert len(queue) == sum(2 * len(g.deals) for g in games)  # two players, one discard each a deal
    values_at = len(VALUE_FIELDS)
    assert all(tuple(r[-values_at:]) == NOT_VALUED for g in queued for _, _, r in g.deal_players)
    queue.fill()
    assert len(queue) == 0
    assert [g.deal_players for g in queued] == [g.deal_players for g in alone]
    # the worked deal's dealer threw 8D 8C and kept 2S 4S 5S 6H; the crib is his: its value is added
    dealer = alone[-1].deal_players[0][2]
    assert (dealer.role, dealer.kept, dealer.thrown) == ("dealer", "2S 4S 5S 6H", "8C 8D")
    assert dealer.expected == dealer.hand_value + dealer.crib_value
