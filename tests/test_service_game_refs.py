"""The service's game lookups take a reference as ``show`` does: a store number that also begins another game's
content hash names neither, and is answered 409 with the message naming both (it was a 500), by the API and the
pages alike; the key still names its game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from service_server import LiveServer, live_server
from test_store_game_refs import game, run
from test_store_import import write_jsonl

from cribstats.store.db import make_engine


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, dict[str, int]]]:
    folder = tmp_path_factory.mktemp("refs")
    url = f"sqlite:///{folder / 'club.db'}"
    path = write_jsonl(folder / "night.jsonl", [game("k1", "Ann", "Bo"), game("k2", "Cy", "Di")])
    assert run("import", "-q", "--db", url, str(path)).exit_code == 0
    engine = make_engine(url)
    with engine.begin() as conn:  # k2's hash begins with k1's store number, written in six digits
        ids = {r.game_key: r.id for r in conn.execute(sa.text("SELECT game_key, id FROM game"))}
        conn.execute(sa.text("UPDATE game SET content_hash = :h WHERE game_key = 'k2'"),
                     {"h": f"{ids['k1']:06d}" + "b" * 58})
    engine.dispose()
    with live_server(url, folder) as live:
        yield live, ids


def test_a_reference_that_names_two_games_is_a_409_naming_both(served: tuple[LiveServer, dict[str, int]]) -> None:
    live, ids = served
    ref = f"{ids['k1']:06d}"
    client = live.client()
    answer = client.get(f"/api/v1/games/{ref}")
    assert answer.status_code == 409, answer.text
    detail = answer.json()["detail"]
    assert f"game number {ids['k1']} is 'k1'" in detail and "'k2'" in detail
    page = client.get(f"/games/{ref}")
    assert page.status_code == 409 and "k1" in page.text and "k2" in page.text
    assert "Traceback" not in live.log.read_text()


def test_the_key_and_an_unambiguous_number_name_their_game(served: tuple[LiveServer, dict[str, int]]) -> None:
    live, ids = served
    client = live.client()
    assert client.get("/api/v1/games/k2").json()["game"] == "k2"
    assert client.get(f"/api/v1/games/{ids['k2']}").json()["game"] == "k2"
    assert client.get("/api/v1/games/nothing-like-it").status_code == 404
