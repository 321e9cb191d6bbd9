"""A private service sends a reader to sign in and then back to the very address asked for, against a real
`cribstats serve --private`: its query (a player by `?name=`, the standings' filters) and a name's `%2F` kept."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urljoin

from service_server import import_simulated, live_server

PLAYERS = ["a/b", "%2F"]


def test_signing_in_returns_to_the_address_asked_for(sqlite_url: str, tmp_path: Path) -> None:
    import_simulated(sqlite_url, tmp_path, PLAYERS, seed=3, events=["Grass Roots"])
    with live_server(sqlite_url, tmp_path, "--private") as site:
        key = site.add_key("reader")
        wanted = {"/player?name=a%2Fb": "<h1>a/b</h1>", "/players/%252F": "<h1>%2F</h1>",
                  "/standings?event=Grass+Roots": "(event Grass Roots)"}  # fmt: skip
        for address, shown in wanted.items():
            with site.client() as browser:
                asked = browser.get(address)
                assert asked.status_code == 303, address
                form = browser.get(asked.headers["location"])
                token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
                back = re.search(r'name="next" value="([^"]*)"', form.text)
                assert token and back, address
                signed = browser.post("/session", data={"key": key, "csrf_token": token.group(1),
                                                        "next": html.unescape(back.group(1))})  # fmt: skip
                assert signed.status_code == 303
                assert signed.headers["location"] == address
                page = browser.get(urljoin(site.url, signed.headers["location"]))
                assert page.status_code == 200, address
                assert shown in page.text, address
