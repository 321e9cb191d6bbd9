"""A deal's play as one value (``deal.play``, migration 0009): what it holds, and a store at 0008 migrated with its
``play_event`` rows moved over, on a real SQLite file and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from databases import copy_rows, migrate, new_pg_database
from stored_play import play_events

from cribstats.cards import format_card
from cribstats.gamelog import validate_game
from cribstats.replay import replay
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine, upgrade
from cribstats.store.importer import import_paths

COPIED = ("player", "event", "import_run", "game", "game_player", "deal", "deal_player")  # what play_event needs
def write_jsonl(path: Path, logs: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(log) + b"\n" for log in logs))
    return path


def replayed_events(conn: sa.Connection) -> list[tuple[Any, ...]]:
    """The ``play_event`` rows the store held before 0009, worked out afresh by replaying each stored log:
    ``(deal_id, seq, player_id, card, count, due, claimed, after_end)``."""
    deal_ids = {(g, n): d for d, g, n in conn.execute(sa.text("SELECT id, game_id, number FROM deal"))}
    seats = {(g, s): p for g, s, p in conn.execute(sa.text("SELECT game_id, seat, player_id FROM game_player"))}
    out = []
    for game_id, log in conn.execute(sa.text("SELECT id, log FROM game ORDER BY id")):
        game = validate_game(orjson.loads(log))
        seat_of = {name: seat for seat, name in enumerate(game.players)}
        for deal in replay(game).deals:
            deal_id = deal_ids[(game_id, deal.number)]
            for e in deal.plays:
                card = None if e.card is None else format_card(e.card)
                player = seats[(game_id, seat_of[e.player])]
                out.append((deal_id, e.index, player, card, e.count, e.due, e.claimed, int(e.after_end)))
    return sorted(out)


@pytest.fixture
def imported(db_url: str, tmp_path: Path, sample_logs_dir: Path) -> Iterator[sa.Engine]:
    """A store at the newest revision, of simulated games with mistakes (goes, claims, muggins) and the samples."""
    engine = make_engine(db_url)
    logs = [s.log for s in simulate_games(30, seed=9, mistake_rate=0.1, muggins=True)]
    logs += [s.log for s in simulate_games(10, variant="four-player", seed=4, mistake_rate=0.1)]
    summary = import_paths([write_jsonl(tmp_path / "games.jsonl", logs), sample_logs_dir / "variants"], engine)
    assert summary.imported > 40
    yield engine
    engine.dispose()


def test_the_value_holds_every_event_of_the_play(imported: sa.Engine) -> None:
    with imported.connect() as conn:
        assert play_events(conn) == replayed_events(conn)
        values = [orjson.loads(v) for (v,) in conn.execute(sa.text("SELECT play FROM deal"))]
    events = [e for value in values for e in value]
    assert all(len(e) == 6 for e in events)
    assert any(e[1] is None for e in events)  # goes
    assert any(e[4] is None for e in events) and any(e[4] is not None for e in events)  # claimed or not


def test_a_deal_worked_by_hand(store: sa.Engine, tmp_path: Path) -> None:
    """The example deal of the game log spec: Bob (seat 1) leads JH, Alice 5S for fifteen two, ..., Bob says go."""
    from test_store_import import ONE_DEAL

    import_paths([write_jsonl(tmp_path / "one.jsonl", [ONE_DEAL])], store)
    with store.connect() as conn:
        (play,) = conn.execute(sa.text("SELECT play FROM deal")).one()
    events = orjson.loads(play)
    assert [e[:4] for e in events] == [
        [1, "JH", 10, 0], [0, "5S", 15, 2], [1, "7C", 22, 0], [0, "6H", 28, 3], [1, None, 28, 0],
        [0, "2S", 30, 1], [1, "6D", 6, 0], [0, "4S", 10, 0], [1, "4H", 14, 3],
    ]  # fmt: skip
    assert all(e[5] == 0 for e in events)


@pytest.fixture
def second_url(db_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A second empty database of the same kind as ``db_url`` (PostgreSQL: on the same server, dropped after)."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'at-0008.db'}"
        return
    with new_pg_database(request.getfixturevalue("pg_server")) as url:
        yield url


def test_a_store_at_0008_is_migrated_with_its_play_events(imported: sa.Engine, second_url: str) -> None:
    """A store at 0008 holding ``play_event`` rows (the importer's rows of before, made here by replaying the
    logs) is upgraded: each deal's value is what the importer now writes, and ``play_event`` is gone."""
    old = make_engine(second_url)
    upgrade(old, "0008")
    with imported.connect() as conn:
        copies = {name: [tuple(r) for r in conn.execute(sa.text(f'SELECT * FROM "{name}"'))] for name in COPIED}
        columns = {name: list(conn.execute(sa.text(f'SELECT * FROM "{name}"')).keys()) for name in COPIED}
        expected_plays = {d: p for d, p in conn.execute(sa.text("SELECT id, play FROM deal"))}
        events = replayed_events(conn)
    copy_rows(old, copies, columns)  # deal.play (0009) and the later migrations' columns left out
    with old.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO play_event (deal_id, seq, player_id, card, count, due, claimed, after_end) "
                "VALUES (:d, :s, :p, :card, :count, :due, :claimed, :after)"
            ),
            [dict(zip(("d", "s", "p", "card", "count", "due", "claimed", "after"), (*e[:7], bool(e[7])),
                      strict=True)) for e in events],
        )  # fmt: skip
    assert events
    upgrade(old)
    with old.connect() as conn:
        assert "play_event" not in sa.inspect(conn).get_table_names()
        migrated = {d: p for d, p in conn.execute(sa.text("SELECT id, play FROM deal"))}
        assert migrated == expected_plays
        assert play_events(conn) == events
    migrate(old, "downgrade", "0008")  # and back: the rows again, as they were
    with old.connect() as conn:
        back = conn.execute(sa.text(
            "SELECT deal_id, seq, player_id, card, count, due, claimed, after_end FROM play_event"
        )).all()  # fmt: skip
        assert "play" not in {c["name"] for c in sa.inspect(conn).get_columns("deal")}
    assert sorted((*r[:7], int(r[7])) for r in back) == events
    old.dispose()
