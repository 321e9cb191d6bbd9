"""A page's parameter refused by its type is answered 400 in a sentence that names the field, in the page's
layout, against a real `cribstats serve`: `/games?offset=abc` showed pydantic's "query.offset: Input should be
a valid integer, unable to parse string as an integer" (422), and `/player` without a name "query.name: Field
required". The JSON API keeps 422 with the place (docs/decisions.md, "The service")."""

from __future__ import annotations

import html
import re
from pathlib import Path

from service_server import live_server

LONG = "x" * 1025  # over every page's text limit (1024 for a filter, 300 for a name or key)
# every page route with a typed parameter, a bad value, and the sentence it is answered with
CASES: list[tuple[str, str, str]] = [
    ("GET", "/games?offset=abc", "offset must be a whole number"),
    ("GET", "/games?offset=-1", "offset must be 0 or more"),
    ("GET", f"/games?player={LONG}", "player is too long: at most 1024 characters"),
    ("GET", f"/games?event={LONG}", "event is too long: at most 1024 characters"),
    ("GET", "/players?offset=1.5", "offset must be a whole number"),
    ("GET", "/players?offset=1000000001", "offset must be 1000000000 or less"),
    ("GET", "/audit?offset=1e3", "offset must be a whole number"),
    ("GET", "/player", "name is needed: the player's name"),
    ("GET", f"/player?name={LONG}", "name is too long: at most 300 characters"),
    ("GET", "/game", "key is needed: the game's key, store id or content hash prefix"),
    ("GET", f"/standings?event={LONG}", "event is too long: at most 1024 characters"),
    ("GET", f"/standings?variant={LONG}", "variant is too long: at most 1024 characters"),
    ("GET", "/charts/skunks.svg?since=xx", "since: 'xx' is not a date: write YYYY-MM-DD"),
    ("POST", "/session", "key is needed: a key made with cribstats keys add"),
]


def _problem(page: str) -> str:
    found = re.search(r'<section id="problem">\s*<p class="error">(.*?)</p>', page, re.S)
    assert found is not None, page
    return html.unescape(found.group(1))


def test_each_page_answers_a_bad_parameter_in_words(sqlite_url: str, tmp_path: Path) -> None:
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        for method, url, sentence in CASES:
            answer = client.request(method, url, data={"csrf_token": "x"} if method == "POST" else None)
            assert answer.status_code == 400, (url, answer.status_code)
            assert answer.headers["content-type"].startswith("text/html")
            assert '<nav aria-label="Site">' in answer.text  # the page layout
            assert _problem(answer.text) == sentence, url
            assert "query." not in answer.text and "Input should" not in answer.text
        both = client.get("/games", params={"offset": "abc", "player": LONG})
        assert _problem(both.text) == "player is too long: at most 1024 characters; offset must be a whole number"
        # the API answers as before: 422 problem details naming the place
        api = client.get("/api/v1/games", params={"offset": "abc"})
        assert api.status_code == 422 and api.headers["content-type"] == "application/problem+json"
        assert api.json()["errors"][0]["place"] == "query.offset"
