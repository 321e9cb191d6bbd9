"""A store written before the name rule, served: its games, players and the JSON of both answer, with every
hidden character escaped (a game whose log held such a name answered 500, and the API wrote U+202E raw where the
command line writes ``\\u202e``)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from hostile_names import OLDER, build_store
from service_server import LiveServer, live_server

RTL = "R\u202eTL"


@pytest.fixture(scope="module")
def older_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("older")
    url, _ = build_store(folder)
    with live_server(url, folder) as live:
        yield live


def test_a_game_of_older_names_answers_with_them_escaped(older_store: LiveServer) -> None:
    client = older_store.client()
    games = client.get("/api/v1/games", params={"limit": 200}).json()["items"]
    older = [g for g in games if any(p in OLDER for p in g["players"])]
    assert older  # the store holds games of the older names
    for game in older:
        answer = client.get(f"/api/v1/games/{quote(game['game'])}")
        assert answer.status_code == 200, answer.text
        page = client.get(f"/games/{quote(game['game'])}")
        assert page.status_code == 200, page.text[:300]
        for name in game["players"]:
            if name in OLDER and len(name) < 100:
                assert OLDER[name] in page.text  # as a table shows it: the hidden characters escaped
                assert name not in page.text


def test_json_writes_hidden_characters_as_escapes(older_store: LiveServer) -> None:
    client = older_store.client()
    for path in ("/api/v1/players", "/api/v1/games", "/api/v1/stats"):
        raw = client.get(path, params={"limit": 200}).content
        assert "\u202e".encode() not in raw and b"\x1b" not in raw, path
        assert b"\\u202e" in raw, path  # the name is there, escaped: it decodes as it was stored
    names = [p["name"] for p in client.get("/api/v1/players", params={"limit": 200}).json()["items"]]
    assert RTL in names


def test_every_player_page_the_players_page_links_to_answers(older_store: LiveServer) -> None:
    """The players page linked an older name to ``/players/R%E2%80%AETL``, which answered 400."""
    import re
    from html import unescape

    client = older_store.client()
    listing = client.get("/players")
    assert listing.status_code == 200
    links = sorted({unescape(href) for href in re.findall(r'href="(/players?[/?][^"]+)"', listing.text)})
    assert any(quote(RTL) in link for link in links), links
    for link in links:
        page = client.get(link)
        assert page.status_code == 200, (link, page.text[:300])
        for chart in re.findall(r'src="(/charts/[^"]+)"', page.text):
            assert client.get(unescape(chart)).status_code == 200, chart
