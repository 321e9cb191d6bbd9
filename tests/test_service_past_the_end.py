"""A listing's page past its end (a link kept while rows were deleted) says so and links the last page, against a
real `cribstats serve`; it does not say the store has no players, no games or no findings."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urljoin

import orjson
from service_server import cli, live_server

from cribstats.simulate import simulate_games

EMPTY = {"/players": "No players stored yet.", "/games": "No games.",
         "/audit": "No findings: every claim matched the points due."}  # fmt: skip


def test_a_page_past_the_end_links_the_last_page(sqlite_url: str, tmp_path: Path) -> None:
    logs = tmp_path / "games.jsonl"
    games = list(simulate_games(3, players=["Ann", "Bob"], seed=8, mistake_rate=0.1, start_date="2026-11-26"))
    logs.write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in games))
    cli("import", str(logs), db=sqlite_url)
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        for listing, empty in EMPTY.items():
            first = client.get(listing).text
            assert empty not in first, listing  # the store has some: two players, three games, findings
            page = client.get(listing, params={"offset": 500})
            assert page.status_code == 200
            assert empty not in page.text, listing
            last = re.search(r'<a href="([^"]+)">last page</a>', page.text)
            assert last, listing
            again = client.get(urljoin(site.url + listing, html.unescape(last.group(1))))
            assert again.status_code == 200 and empty not in again.text
            assert re.search(r"1–\d+ of \d+", again.text), listing
