"""Who dealt first, kept with each player's game totals (``game_player_totals.first_dealer``, migration 0012):
the import fills it, a store at 0011 is migrated with it filled from the stored deals, and back, on a real SQLite
file and on PostgreSQL. The expected first dealers are read from the logs themselves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
import sqlalchemy as sa
from databases import migrate

from cribstats.formats import read_paths
from cribstats.gamelog import game_key
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths
from cribstats.store.tables import name_key


def first_dealers_of_logs(paths: list[Path]) -> dict[str, str | None]:
    """Per game key (its id, else its content hash): the name key of the dealer of its first deal, None for a game
    without deals."""
    out: dict[str, str | None] = {}
    for source in read_paths([str(p) for p in paths]):
        game = source.game
        out[game_key(game)] = name_key(game.deals[0].dealer) if game.deals else None
    return out


def stored_first_dealers(conn: sa.Connection) -> dict[str, set[str]]:
    """Per stored game key: the name keys of the players whose totals say they dealt first."""
    rows = conn.execute(sa.text(
        "SELECT g.game_key, p.name_key, t.first_dealer FROM game_player_totals t "
        "JOIN game g ON g.id = t.game_id JOIN player p ON p.id = t.player_id"
    ))  # fmt: skip
    out: dict[str, set[str]] = {}
    for game, player, first in rows:
        assert first in (0, 1)
        out.setdefault(game, set())
        if first:
            out[game].add(player)
    return out


@pytest.fixture
def logs(tmp_path: Path, sample_logs_dir: Path) -> list[Path]:
    games = [s.log for s in simulate_games(12, seed=8, mistake_rate=0.1)]
    games += [s.log for s in simulate_games(4, variant="four-player", seed=9)]
    simulated = tmp_path / "games.jsonl"
    simulated.write_bytes(b"".join(orjson.dumps(log) + b"\n" for log in games))
    return [simulated, sample_logs_dir / "variants", sample_logs_dir / "tally"]


@pytest.fixture
def imported(db_url: str, logs: list[Path]) -> Iterator[sa.Engine]:
    engine = make_engine(db_url)
    assert import_paths(logs, engine).imported > 16
    yield engine
    engine.dispose()


def _expected(logs: list[Path], stored: dict[str, set[str]]) -> dict[str, set[str]]:
    dealers = first_dealers_of_logs(logs)
    assert set(stored) <= set(dealers)
    return {game: ({dealers[game]} if dealers[game] else set()) for game in stored}


def test_the_import_marks_the_dealer_of_the_first_deal(imported: sa.Engine, logs: list[Path]) -> None:
    with imported.connect() as conn:
        stored = stored_first_dealers(conn)
    assert stored == _expected(logs, stored)
    assert any(not first for first in stored.values())  # the tally sheet's results: no first dealer known
    assert sum(len(first) for first in stored.values()) > 16


def test_a_store_at_0011_is_migrated_with_the_first_dealers_and_back(
    imported: sa.Engine, logs: list[Path]
) -> None:
    with imported.connect() as conn:
        before = stored_first_dealers(conn)
    migrate(imported, "downgrade", "0011")
    with imported.connect() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("game_player_totals")}
    assert "first_dealer" not in columns and "won" in columns
    migrate(imported, "upgrade", "0012")
    with imported.connect() as conn:
        after = stored_first_dealers(conn)
    assert after == before == _expected(logs, after)
