"""A player called `.` or `..`, and a game whose id is `..`, have pages a browser reaches from the links to them,
against a real `cribstats serve`. A browser takes a path segment `.` or `..` (or `%2e`, `.%2E`...) as a step in the
path, so `/players/..` would lead to the home page; such names are linked by a query instead."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import orjson
from service_server import cli, live_server

from cribstats.simulate import simulate_games

DOTS = {".", "..", "%2e", ".%2e", "%2e.", "%2e%2e"}


def _steps_a_browser_takes(href: str) -> bool:
    """Whether a browser (the WHATWG URL standard) would read a segment of the link's path as `.` or `..`."""
    return any(segment.lower() in DOTS for segment in urlsplit(href).path.split("/"))


def test_players_and_games_named_with_dots_are_reached_by_their_links(sqlite_url: str, tmp_path: Path) -> None:
    logs = tmp_path / "dots.jsonl"
    with open(logs, "wb") as handle:
        for game in simulate_games(2, players=["..", "."], seed=5, start_date="2026-11-26"):
            handle.write(orjson.dumps(dict(game.log, id=".." if not handle.tell() else "dot-2")) + b"\n")
    cli("import", str(logs), db=sqlite_url)
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        for listing, wanted in (("/players", {"..", "."}), ("/games", {"..", "dot-2"})):
            page = client.get(listing).text
            kind = "Game " if listing == "/games" else ""
            anchors = re.findall(r'<a href="([^"]+)">([^<]+)</a>', page)
            links = {html.unescape(h): html.unescape(t) for h, t in anchors}
            found = {text: href for href, text in links.items() if text in wanted}
            assert set(found) == wanted, listing
            for text, href in found.items():
                assert not _steps_a_browser_takes(href), href
                answer = client.get(urljoin(site.url + listing, href))
                assert answer.status_code == 200, href
                assert f"<h1>{html.escape(kind + text, quote=False)}</h1>" in answer.text, href
