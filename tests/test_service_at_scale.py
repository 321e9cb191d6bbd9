"""The service as a store grows, against a real server: the figure cache holds no more than its budget however many
distinct filters are asked for (and its answers are the commands'), the club's ratings are worked out once per
store version for every player's page, and the games pages are slices of the games in play order, also after an
upload changes the store. Nothing here is timed: what is counted is what is done."""

from __future__ import annotations

import html
import re
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import date as Date
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import httpx
import orjson
import pytest
from scale_server import counted_server
from service_server import LiveServer, cli, live_server

from cribstats.service.views import CACHE_BUDGET
from cribstats.simulate import simulate_games
from cribstats.store.queries import play_order

PLAYERS = [f"Player {n}" for n in range(1, 9)]
EVENTS = ["Open", "Tuesday League"]
ROUND_NAMES = ("semi-final", "Final", "Round 10", "round 9")
SMALL_BUDGET = 120_000  # bytes: a night's rating history fits, the whole club's (some 230 kB) does not


def _logs(n: int, seed: int, start: str, *, undated_every: int = 0, named_every: int = 0) -> bytes:
    """``n`` simulated games of the club (rounds 1 to 12 a night), some undated and some with named rounds: what
    the play order has to get right (undated last, round 10 after round 9, words after numbers)."""
    lines = []
    for i, game in enumerate(simulate_games(n, players=PLAYERS, seed=seed, events=EVENTS, start_date=start,
                                            games_per_night=48)):  # fmt: skip
        log = dict(game.log)
        if undated_every and i % undated_every == 3:
            log.pop("date", None)
        if named_every and i % named_every == 5:
            log["round"] = ROUND_NAMES[i % len(ROUND_NAMES)]
        lines.append(orjson.dumps(log))
    return b"\n".join(lines) + b"\n"


@pytest.fixture(scope="module")
def club_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A club's store of 260 games from two files, the second's games on the first's nights and rounds."""
    folder = tmp_path_factory.mktemp("scale")
    first, second = folder / "a.jsonl", folder / "b.jsonl"
    first.write_bytes(_logs(200, 11, "2026-01-06", undated_every=17, named_every=11))
    second.write_bytes(_logs(60, 12, "2026-01-06", undated_every=13))
    cli("import", str(first), str(second), db=f"sqlite:///{folder / 'club.db'}")
    return folder / "club.db"


@pytest.fixture
def db(club_store: Path, tmp_path: Path) -> str:
    """A copy of the club's store for one test."""
    shutil.copy(club_store, tmp_path / "club.db")
    return f"sqlite:///{tmp_path / 'club.db'}"


def _upload(site: LiveServer, logs: bytes) -> None:
    with site.client(site.add_key("scale")) as writer:
        answer = writer.post("/api/v1/logs", content=logs, headers={"content-type": "application/x-ndjson"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["imported"] > 0


# --- the games in play order, read from the store itself -------------------------------------------------------


class Played(NamedTuple):
    id: int
    game_key: str
    date: Date | None
    round: str | None
    source_file: str | None
    source_place: str | None
    event: str | None
    players: frozenset[str]


def _stored(db: str) -> list[Played]:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        seats: dict[int, set[str]] = {}
        for game_id, name in conn.execute("SELECT gp.game_id, p.name FROM game_player gp JOIN player p "
                                          "ON p.id = gp.player_id"):  # fmt: skip
            seats.setdefault(game_id, set()).add(name)
        rows = conn.execute("SELECT g.id, g.game_key, g.date, g.round, g.source_file, g.source_place, e.name "
                            "FROM game g LEFT JOIN event e ON e.id = g.event_id").fetchall()  # fmt: skip
    return [Played(r[0], r[1], Date.fromisoformat(r[2]) if r[2] else None, r[3], r[4], r[5], r[6],
                   frozenset(seats.get(r[0], ()))) for r in rows]  # fmt: skip


def _expected(games: list[Played], *, player: str | None = None, event: str | None = None,
              since: Date | None = None, until: Date | None = None,
              newest_first: bool = False) -> list[str]:  # fmt: skip
    """The keys of the games the filters cover as the games list gave them when it sorted every game: by
    ``play_order``; newest first, that turned round with the undated games still last."""
    chosen = [g for g in games
              if (player is None or player in g.players) and (event is None or g.event == event)
              and (since is None or (g.date is not None and g.date >= since))
              and (until is None or (g.date is not None and g.date <= until))]  # fmt: skip
    ordered = sorted(chosen, key=play_order, reverse=newest_first)
    if newest_first:
        ordered = [g for g in ordered if g.date is not None] + [g for g in ordered if g.date is None]
    return [g.game_key for g in ordered]


# the filters as the API is given them (any case), and as the store spells them
FILTERS: list[tuple[dict[str, str], dict[str, Any]]] = [
    ({}, {}),
    ({"player": "PLAYER 3"}, {"player": "Player 3"}),
    ({"event": "open"}, {"event": "Open"}),
    ({"since": "2026-01-07", "until": "2026-01-13"}, {"since": Date(2026, 1, 7), "until": Date(2026, 1, 13)}),
    ({"player": "player 5", "event": "Tuesday League"}, {"player": "Player 5", "event": "Tuesday League"}),
    ({"player": "Nobody"}, {"player": "Nobody"}),
]


def _check_api_pages(client: httpx.Client, games: list[Played]) -> None:
    for params, stored in FILTERS:
        expected = _expected(games, **stored)
        total = len(expected)
        for limit in (1, 13, 50, 500):
            for offset in sorted({*range(0, total + 40, 37), max(total - 1, 0), total, total + 5}):
                page = client.get("/api/v1/games", params={**params, "limit": limit, "offset": offset}).json()
                assert page["total"] == total, (params, limit, offset)
                assert [g["game"] for g in page["items"]] == expected[offset : offset + limit], (params, offset)


def _page_keys(text: str) -> list[str]:
    return [html.unescape(k) for k in re.findall(r'<tr><td><a href="[^"]*">([^<]*)</a></td>', text)]


def _check_html_pages(client: httpx.Client, games: list[Played]) -> None:
    for params, stored in FILTERS:
        if "since" in params:  # the page's filters are the player and the event
            continue
        expected = _expected(games, newest_first=True, **stored)
        for offset in range(0, len(expected) + 1, 50):
            page = client.get("/games", params={**params, "offset": offset})
            assert page.status_code == 200
            assert _page_keys(page.text) == expected[offset : offset + 50], (params, offset)


def test_games_pages_are_slices_of_the_games_in_play_order(db: str, tmp_path: Path) -> None:
    games = _stored(db)
    assert sum(g.date is None for g in games) > 10 and any(g.round in ROUND_NAMES for g in games)
    with live_server(db, tmp_path) as site, site.client() as client:
        _check_api_pages(client, games)
        _check_html_pages(client, games)
        whole = orjson.loads(cli("games", "--format", "json", db=db).stdout)  # the command: the same rows
        assert [g["game"] for g in whole] == _expected(games)
        for offset in (0, 49, 200, len(whole) - 3):
            items = client.get("/api/v1/games", params={"offset": offset, "limit": 60}).json()["items"]
            assert items == whole[offset : offset + 60]
        # an upload puts games among the stored ones (the first nights again, some undated): every page follows
        _upload(site, _logs(90, 13, "2026-01-06", undated_every=7, named_every=9))
        grown = _stored(db)
        assert len(grown) == len(games) + 90
        _check_api_pages(client, grown)
        _check_html_pages(client, grown)
    assert [g["game"] for g in orjson.loads(cli("games", "--format", "json", db=db).stdout)] == _expected(grown)
    listed = orjson.loads(cli("games", "--player", "player 3", "--since", "2026-01-07", "--limit", "7", "--format",
                              "json", db=db).stdout)  # fmt: skip
    assert [g["game"] for g in listed] == _expected(grown, player="Player 3", since=Date(2026, 1, 7))[:7]


# --- the figure cache's budget ----------------------------------------------------------------------------------


@pytest.fixture
def small_cache(db: str, tmp_path: Path) -> Iterator[LiveServer]:
    with counted_server(db, tmp_path, SMALL_BUDGET) as site:
        yield site


def _counts(client: httpx.Client) -> dict[str, int]:
    return client.get("/_test/counts").json()  # type: ignore[no-any-return]


def _history(client: httpx.Client, **params: str) -> dict[str, Any]:
    answer = client.get("/api/v1/ratings", params={"history": "true", "limit": 500, **params})
    assert answer.status_code == 200
    return answer.json()  # type: ignore[no-any-return]


def test_the_figure_cache_holds_no_more_than_its_budget(small_cache: LiveServer) -> None:
    nights = {g.date for g in _stored(small_cache.db) if g.date is not None}
    days = sorted(nights | {d - timedelta(days=1) for d in nights})  # the nights, and the days before them
    spans = [(str(a), str(b)) for i, a in enumerate(days) for b in days[i + 1 : i + 6]]  # distinct filters
    assert len(spans) > 20
    first: dict[tuple[str, str], dict[str, Any]] = {}
    kept = []
    with small_cache.client() as client:
        for since, until in spans:  # every one a distinct filter: each a cached figure, until the budget is spent
            first[since, until] = _history(client, since=since, until=until)
            client.get("/api/v1/stats", params={"since": since, "until": until})
            client.get("/api/v1/head-to-head", params={"since": since, "until": until})
            counts = _counts(client)
            assert counts["held"] <= counts["budget"] == SMALL_BUDGET
            kept.append(counts["entries"])
        assert max(kept) >= 3 and min(kept[-5:]) >= 1  # it keeps figures, and lets the oldest go
        for since, until in reversed(spans):  # kept or not, the same answers
            assert _history(client, since=since, until=until) == first[since, until]
            assert _counts(client)["held"] <= SMALL_BUDGET
        for since, until in spans[:: max(1, len(spans) // 3)]:  # and the command's, which keeps nothing
            rows = orjson.loads(cli("rating", "--history", "--since", since, "--until", until, "--format", "json",
                                    db=small_cache.db).stdout)  # fmt: skip
            assert (first[since, until]["total"], first[since, until]["items"]) == (len(rows), rows[:500])
        # the whole club's history is larger than the budget: served, whole, and not kept
        before = _counts(client)
        whole = _history(client)
        after = _counts(client)
        assert (after["held"], after["entries"]) == (before["held"], before["entries"])
        rows = orjson.loads(cli("rating", "--history", "--format", "json", db=small_cache.db).stdout)
        assert whole["total"] == len(rows) > 500 and whole["items"] == rows[:500]
        assert _history(client, offset=str(len(rows) - 10))["items"] == rows[-10:]
        assert _counts(client)["rate_games"] == after["rate_games"] + 1  # not kept: worked out again


def test_the_default_budget_keeps_a_clubs_pages(db: str, tmp_path: Path) -> None:
    with counted_server(db, tmp_path, CACHE_BUDGET) as site, site.client() as client:
        paths = ["/", "/standings", "/players", "/games", "/api/v1/stats", "/api/v1/ratings"]
        paths += [f"/players/{quote(name)}" for name in PLAYERS]
        for path in paths:
            assert client.get(path).status_code == 200
        counts = _counts(client)
        for path in paths:  # every one kept: asking again computes nothing
            client.get(path)
        assert _counts(client) == counts
        assert counts["held"] <= counts["budget"] == CACHE_BUDGET


# --- the club's ratings, once per store version -----------------------------------------------------------------


def test_the_clubs_ratings_are_worked_out_once_for_every_players_page(db: str, tmp_path: Path) -> None:
    with counted_server(db, tmp_path, CACHE_BUDGET) as site, site.client() as client:
        key = site.add_key("scale")
        names = [p["name"] for p in client.get("/api/v1/players", params={"limit": 500}).json()["items"]]
        assert sorted(names) == sorted(PLAYERS)
        start = _counts(client)  # the service rated an empty store as it started, for its schemas

        def rated() -> tuple[int, int]:
            now = _counts(client)
            return now["rate_games"] - start["rate_games"], now["rating_runs"] - start["rating_runs"]

        def every_page() -> dict[str, Any]:
            found = {}
            for name in names:
                assert client.get(f"/players/{quote(name)}").status_code == 200
                found[name] = client.get(f"/api/v1/players/{quote(name)}").json()["stats"]
            found["ratings"] = client.get("/api/v1/ratings", params={"limit": 500}).json()["items"]
            found["stats"] = client.get("/api/v1/stats", params={"limit": 500}).json()["items"]
            return found

        shown = every_page()
        assert rated() == (1, 1)
        _same_as_the_commands(shown, names, db)
        with site.client(key) as writer:
            logs = _logs(40, 14, "2026-02-03", undated_every=9)
            answer = writer.post("/api/v1/logs", content=logs, headers={"content-type": "application/x-ndjson"})
            assert answer.status_code == 200 and answer.json()["imported"] == 40
        shown = every_page()  # a new store version: once more, and once only
        assert rated() == (2, 2)
        _same_as_the_commands(shown, names, db)
        for name in names:  # another filter: the club's ratings over its games, once for everyone
            client.get("/api/v1/stats", params={"player": name, "since": "2026-01-07"})
        assert rated() == (3, 3)


def _same_as_the_commands(shown: dict[str, Any], names: list[str], db: str) -> None:
    """Every player's figures as the commands give them, each in a process of its own (nothing shared)."""
    assert shown["ratings"] == orjson.loads(cli("rating", "--format", "json", db=db).stdout)
    rows = orjson.loads(cli("stats", "--format", "json", db=db).stdout)
    assert shown["stats"] == rows
    by_name = {r["player"]: r for r in rows}
    for name in names:
        assert shown[name] == by_name[name], name
    for name in names[:2]:
        assert [shown[name]] == orjson.loads(cli("stats", "--player", name, "--format", "json", db=db).stdout)
