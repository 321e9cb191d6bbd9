"""Schemathesis against the live OpenAPI document of a real ``cribstats serve``: no answer is a server error and
every answer matches the schema the document gives it (uploads sent with a recorder's key)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from service_server import LiveServer, cli, live_server

ROOT = Path(__file__).resolve().parent.parent
KEYS: dict[str, str] = {}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("schema")
    db = f"sqlite:///{folder / 'club.db'}"
    cli("import", str(ROOT / "sample_logs" / "mistakes" / "six-card.jsonl"),
        str(ROOT / "sample_logs" / "matches"), db=db)
    with live_server(db, folder) as server:
        KEYS["recorder"] = server.add_key("schemathesis")
        yield server


def test_every_answer_matches_the_document(live: LiveServer) -> None:
    api = schemathesis.openapi.from_url(live.url + "/api/v1/openapi.json")
    checked = []
    for result in api.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def answers_as_documented(case: schemathesis.Case) -> None:
            # A body the schema allows (any bytes) is still refused when it is not a game log: that 400, with the
            # places, is the answer wanted, so "schema-valid data is accepted" is not checked.
            case.call_and_validate(headers={"Authorization": f"Bearer {KEYS['recorder']}"},
                                   excluded_checks=[positive_data_acceptance])

        answers_as_documented()
        checked.append(operation.label)
    assert len(checked) == 15


def test_the_document_types_each_endpoint(live: LiveServer) -> None:
    import httpx

    document = httpx.get(live.url + "/api/v1/openapi.json").json()
    paths = set(document["paths"])
    assert paths == {"/api/v1/logs", "/api/v1/games", "/api/v1/games/{game}", "/api/v1/players",
                     "/api/v1/players/{name}", "/api/v1/stats", "/api/v1/standings", "/api/v1/findings",
                     "/api/v1/matches", "/api/v1/matches/{match}", "/api/v1/nights", "/api/v1/seasons",
                     "/api/v1/head-to-head", "/api/v1/ratings", "/api/v1/discards"}
    for path in document["paths"].values():
        for operation in path.values():
            for status, answer in operation["responses"].items():
                assert answer.get("content"), (status, operation["summary"])
                if status.startswith("4"):
                    assert list(answer["content"]) == ["application/problem+json"]
    assert httpx.get(live.url + "/api/docs").status_code == 200
