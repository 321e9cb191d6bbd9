"""The home page's latest night against a real `cribstats serve`: a night is an event on a date, so when two
events meet on the latest date the page shows one of them, the one the report shows (of the latest date's
events, the one named first), with the placings `cribstats night` gives it, never the two events' games mixed."""

from __future__ import annotations

import html
import re
from pathlib import Path

import orjson
from service_server import cli, live_server

# 25 November: the Club Night (Ann beats Bob by 21, Cat beats Dan by 41 on a skunk) and the Beginners' night
# (Eve beats Fay by 11) at the same club; the week before, a Club Night.
SHEET = """date,event,round,player1,player2,score1,score2
2026-11-18,Club Night,1,Ann,Cat,121,119
2026-11-25,Club Night,1,Ann,Bob,121,100
2026-11-25,Club Night,1,Cat,Dan,121,80
2026-11-25,Beginners,1,Eve,Fay,121,110
"""


def _text(page: str) -> str:
    inline = re.sub(r"</?bdi>", "", page)  # user text isolated within a line, not a cell of its own
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", inline)).split())


def _section(page: str, name: str) -> str:
    found = re.search(rf'<section id="{name}">(.*?)</section>', page, re.S)
    assert found is not None, name
    return _text(found.group(1))


def test_the_latest_night_is_one_event_on_the_latest_date(sqlite_url: str, tmp_path: Path) -> None:
    (tmp_path / "nights.csv").write_text(SHEET)
    cli("import", str(tmp_path / "nights.csv"), db=sqlite_url)
    placings = orjson.loads(cli("night", "--event", "Beginners", "--date", "2026-11-25", "--format", "json",
                                db=sqlite_url).stdout)  # fmt: skip
    assert [(r["player"], r["card"]) for r in placings] == [("Eve", "2/1 +11"), ("Fay", "0/0 -11")]
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        night = _section(client.get("/").text, "latest-night")
    assert night.startswith("The latest night: Beginners, 2026-11-25 ")
    assert "1 Eve 2/1 +11 1 1 0 2 11" in night and "2 Fay 0/0 -11 1 0 1 0 -11" in night
    for other in ("Ann", "Bob", "Cat", "Dan"):
        assert other not in night
