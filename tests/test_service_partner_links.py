"""The standings of four-player games, where partners stand as one side ("Bea & Cal"), link each partner's own
page, against a real `cribstats serve`: a side has no page, so a link to one would answer 404. The pages say that
a player's own row then counts only their games without a partner, and say nothing of it without partners."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urljoin

import orjson
from service_server import cli, import_simulated, live_server

from cribstats.report import PARTNERS_NOTE
from cribstats.simulate import simulate_games

PLAYERS = ["Ann & Co", "Bea", "Cal", "Dee"]  # a name with the partners' joining text in it


def _section(page: str, name: str) -> str:
    found = re.search(rf'<section id="{name}">(.*?)</section>', page, re.S)
    assert found, name
    return found.group(1)


def test_every_name_linked_from_the_standings_has_a_page(sqlite_url: str, tmp_path: Path) -> None:
    logs = tmp_path / "partners.jsonl"
    games = simulate_games(6, variant="four-player", players=PLAYERS, seed=4, start_date="2026-11-26")
    logs.write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    cli("import", str(logs), db=sqlite_url)
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        for url in ("/", "/standings"):
            table = _section(client.get(url).text, "standings")
            assert "&amp;" in table  # the partnerships are there, and the page says what a player's row counts
            assert PARTNERS_NOTE in html.unescape(table), url
            links = {html.unescape(h): html.unescape(t)
                     for h, t in re.findall(r'<a href="([^"]+)">([^<]+)</a>', table)}  # fmt: skip
            assert set(links.values()) == set(PLAYERS), url
            for href, name in links.items():
                answer = client.get(urljoin(site.url + url, href))
                assert answer.status_code == 200, href
                assert f"<h1>{html.escape(name, quote=False)}</h1>" in answer.text, href


def test_standings_without_partners_say_nothing_of_them(sqlite_url: str, tmp_path: Path) -> None:
    import_simulated(sqlite_url, tmp_path, ["Ann", "Bea"], seed=4)
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        for url in ("/", "/standings"):
            page = client.get(url).text
            table = _section(page, "standings")
            assert "Ann" in table and "Partners" not in table, url
            # the names stand flush left as text does, in the latest night's table as in the standings
            for section in ("latest-night", "standings") if url == "/" else ("standings",):
                cells = re.findall(r"<td([^>]*)><a href=\"/players/", _section(page, section))
                assert cells and set(cells) == {' class="word"'}, (url, section)
