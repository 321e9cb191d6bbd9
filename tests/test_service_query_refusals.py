"""The API's query parameters refused as the document says, against a real ``cribstats serve``: a check of the
service's own (an unknown variant, ``since`` after ``until``, ``date`` with a range) answers 422 with the place
``query.NAME`` as a parameter refused by its type does (a malformed date, an unknown finding kind); the pages keep
their 400 in words. The document lists every body type the upload takes (``text/plain`` too) and the 503 every
call may answer when the store cannot be read."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest
from service_server import LiveServer, live_server

from cribstats.service.uploads import RAW_TYPES
from cribstats.simulate import simulate_games


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("refusals")
    with live_server(f"sqlite:///{folder / 'club.db'}", folder) as live:
        yield live


@pytest.mark.parametrize(
    ("path", "params", "place"),
    [
        ("/api/v1/stats", {"variant": "bogus"}, "query.variant"),
        ("/api/v1/standings", {"variant": "bogus"}, "query.variant"),
        ("/api/v1/discards", {"variant": "nine-card"}, "query.variant"),
        ("/api/v1/findings", {"kind": "bogus"}, "query.kind"),
        ("/api/v1/findings", {"since": "2026-02-02", "until": "2026-02-01"}, "query.since"),
        ("/api/v1/games", {"since": "2026-02-02", "until": "2026-02-01"}, "query.since"),
        ("/api/v1/findings", {"since": "bogus"}, "query.since"),
        ("/api/v1/standings", {"date": "2026-02-01", "since": "2026-01-01"}, "query.date"),
        ("/api/v1/standings", {"date": "2026-02-01", "until": "2026-03-01"}, "query.date"),
    ],
)
def test_a_refused_query_parameter_is_422_with_its_place(site: LiveServer, path: str, params: dict[str, str],
                                                         place: str) -> None:  # fmt: skip
    with site.client() as client:
        answer = client.get(path, params=params)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["errors"][0]["place"] == place and problem["detail"].startswith(place + ": ")


def test_the_pages_keep_their_400_in_words(site: LiveServer) -> None:
    with site.client() as client:
        for params in ({"variant": "bogus"}, {"since": "2026-02-02", "until": "2026-02-01"}):
            page = client.get("/standings", params=params)
            assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")


def test_the_document_lists_every_upload_type_and_the_store_unavailable(site: LiveServer) -> None:
    with site.client() as client:
        document = client.get("/api/v1/openapi.json").json()
    upload = document["paths"]["/api/v1/logs"]["post"]
    assert set(upload["requestBody"]["content"]) == {"multipart/form-data", *RAW_TYPES}
    assert "text/plain" in upload["requestBody"]["content"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert "503" in operation["responses"], (method, path)
            assert "422" in operation["responses"], (method, path)
            assert list(operation["responses"]["503"]["content"]) == ["application/problem+json"]
    key = site.add_key("plain")
    game = next(iter(simulate_games(1, players=["Ann", "Bob"], seed=11, start_date="2026-11-26"))).log
    with site.client(key) as client:
        plain = client.post("/api/v1/logs", content=orjson.dumps(game), headers={"content-type": "text/plain"})
    assert plain.status_code == 200 and plain.json()["imported"] == 1

