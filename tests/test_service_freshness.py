"""The service's cached figures are never older than a completed write: the store's version rises with every
write (in the write's own transaction), and a read right after a write, through any worker, shows it."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import pytest
import sqlalchemy as sa
from service_server import LiveServer, cli, live_server

from cribstats.store.db import make_engine, upgrade, writer
from cribstats.store.importer import import_file
from cribstats.store.version import read_store_version

ROOT = Path(__file__).resolve().parent.parent
NIGHT = ROOT / "sample_logs" / "club-night.jsonl"
SEASON = ROOT / "sample_logs" / "season-2026.jsonl"
PLAYOFFS = ROOT / "sample_logs" / "matches" / "playoffs-best-of-3.jsonl"


def _version(engine: sa.Engine) -> int:
    with engine.connect() as conn:
        return read_store_version(conn)


def test_every_write_raises_the_store_version(store: sa.Engine, tmp_path: Path) -> None:
    from cribstats.store.players import merge_players, rename_player
    from cribstats.store.removal import delete_games

    seen = [_version(store)]

    def raised() -> bool:
        seen.append(_version(store))
        return seen[-1] > seen[-2]

    import_file(NIGHT, store)
    assert raised()
    import_file(NIGHT, store)  # nothing new: the same version
    assert not raised()
    import_file(PLAYOFFS, store)  # match records
    assert raised()
    with store.connect() as raw:
        conn = writer(raw)
        with conn.begin():
            rename_player(conn, "Dave", "David")
        assert raised()
        with conn.begin():
            first = conn.execute(sa.text("SELECT id FROM game ORDER BY id LIMIT 1")).scalar_one()
            delete_games(conn, [first])
        assert raised()
        undone = conn.begin()
        rename_player(conn, "Frank", "Francis")
        undone.rollback()  # a write that did not complete raises nothing
        assert not raised()
    import_file(_newcomers(tmp_path), store)
    assert raised()
    with store.connect() as raw:
        conn = writer(raw)
        with conn.begin():
            merge_players(conn, NEWCOMERS[0], "Frank")
    assert raised()


def test_postgresql_raises_the_version_once_per_transaction(pg_url: str) -> None:
    engine = make_engine(pg_url)
    upgrade(engine)
    before = _version(engine)
    import_file(NIGHT, engine)  # one batch: one transaction
    assert _version(engine) == before + 1
    engine.dispose()


NEWCOMERS = ("Newcomer One", "Newcomer Two")


def _newcomers(folder: Path) -> Path:
    """A log of one simulated game between two players no other log names (one may be merged into anyone)."""
    from cribstats.simulate import simulate_games

    path = folder / "newcomers.jsonl"
    games = simulate_games(1, players=list(NEWCOMERS), seed=5, events=["Visitors"], start_date="2026-11-04")
    path.write_bytes(b"".join(orjson.dumps(g.log) + b"\n" for g in games))
    return path


def _page_players(live: LiveServer) -> list[str]:
    """The players of the standings page, in its order (the links of its table)."""
    with live.client() as client:
        page = client.get("/standings")
    assert page.status_code == 200
    links = re.findall(r'<td class="word"><a href="/players/[^"]*">([^<]*)</a></td>', page.text)
    return [html.unescape(name) for name in links]


def _player_page_figures(live: LiveServer, name: str) -> dict[str, str]:
    """The figures of a player's page: each labelled cell of its tables."""
    with live.client() as client:
        page = client.get(f"/players/{quote(name)}")
    assert page.status_code == 200
    cells = re.findall(r'<tr><th scope="row">([^<]*)</th><td>([^<]*)</td></tr>', page.text)
    return {html.unescape(label): html.unescape(value) for label, value in cells}


def _figures_of(row: dict[str, Any]) -> dict[str, str]:
    """What a player's page must show for the statistics row ``row``, formatted as the report formats it."""
    from cribstats.report import LABELS, PLAYER_GROUPS, format_value

    return {LABELS[c]: format_value(c, row[c]) for _, columns in PLAYER_GROUPS for c in columns}


def _same_as_the_commands(live: LiveServer, reads: int = 1) -> None:
    """The standings (API and page) and the statistics equal the commands', ``reads`` times over."""
    standings = orjson.loads(cli("standings", "--format", "json", db=live.db).stdout)
    stats = orjson.loads(cli("stats", "--format", "json", db=live.db).stdout)
    for _ in range(reads):
        with live.client() as client:  # a new connection each time: any worker may answer
            assert client.get("/api/v1/standings", params={"limit": 500}).json()["items"] == standings
            assert client.get("/api/v1/stats", params={"limit": 500}).json()["items"] == stats
        assert _page_players(live) == [row["player"] for row in standings]
        for row in stats[:2]:  # each player's page, cached per version like the rest
            assert _figures_of(row).items() <= _player_page_figures(live, row["player"]).items()


def _writes_show_at_once(live: LiveServer, folder: Path, reads: int) -> None:
    key = live.add_key("recorder")
    _same_as_the_commands(live, reads)  # the empty store's figures are cached now
    with live.client(key) as client:
        stored = client.post("/api/v1/logs", files=[("file", (NIGHT.name, NIGHT.read_bytes()))])
    assert stored.status_code == 200 and stored.json()["imported"] > 0
    _same_as_the_commands(live, reads)
    cli("import", str(SEASON), db=live.db)  # another process writes: the service follows at once
    _same_as_the_commands(live, reads)
    cli("players", "rename", "Dave", "David Q", db=live.db)
    assert "David Q" in _page_players(live) and "Dave" not in _page_players(live)
    _same_as_the_commands(live, reads)
    cli("import", str(_newcomers(folder)), db=live.db)
    _same_as_the_commands(live, reads)
    cli("players", "merge", NEWCOMERS[0], "Frank", "--yes", db=live.db)
    assert NEWCOMERS[0] not in _page_players(live)
    _same_as_the_commands(live, reads)
    games = orjson.loads(cli("games", "--format", "json", db=live.db).stdout)
    cli("delete", games[0]["game"], "--yes", db=live.db)
    _same_as_the_commands(live, reads)


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(db_url, tmp_path) as live:
        yield live


def test_a_read_right_after_a_write_shows_it(server: LiveServer, tmp_path: Path) -> None:
    _writes_show_at_once(server, tmp_path, reads=1)


@pytest.mark.postgres
def test_a_read_right_after_a_write_shows_it_in_every_worker(pg_url: str, tmp_path: Path) -> None:
    with live_server(pg_url, tmp_path, "--workers", "2") as live:
        _writes_show_at_once(live, tmp_path, reads=6)
