"""The API against a real ``cribstats serve`` process (SQLite, and PostgreSQL when CRIBSTATS_TEST_PG_URL is set):
uploads, reading back, the numbers beside ``cribstats stats`` and ``standings``, keys, limits and bad input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from service_server import LiveServer, cli, live_server

ROOT = Path(__file__).resolve().parent.parent
NIGHT = ROOT / "sample_logs" / "club-night.jsonl"
MISTAKES = ROOT / "sample_logs" / "mistakes" / "six-card.jsonl"
EXPECTED = ROOT / "sample_logs" / "mistakes" / "six-card.expected-findings.txt"
BAD_LINE = b'{"format": "cribstats/game/1", "players": ["Ann"]}\n'


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(db_url, tmp_path) as live:
        yield live


def _lines(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if line.strip()]


def _upload(live: LiveServer, key: str, *files: Path, **params: str):  # type: ignore[no-untyped-def]
    with live.client(key) as client:
        parts = [("file", (f.name, f.read_bytes(), "application/octet-stream")) for f in files]
        return client.post("/api/v1/logs", files=parts, params=params)


def _all(live: LiveServer, path: str, **params: object) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    with live.client() as client:
        while True:
            page = client.get(path, params={**params, "limit": 500, "offset": len(items)}).json()
            items += page["items"]
            if len(items) >= page["total"]:
                return items


def test_upload_stores_the_night_and_the_numbers_equal_the_commands(server: LiveServer) -> None:
    key = server.add_key("recorder")
    answer = _upload(server, key, NIGHT)
    assert answer.status_code == 200, answer.text
    summary = answer.json()
    games_in_file = len(_lines(NIGHT))
    assert (summary["imported"], summary["present"], summary["refused_count"]) == (games_in_file, 0, 0)
    assert [g["place"] for g in summary["games"]] == [f"line {n}" for n in range(1, games_in_file + 1)]
    assert {g["status"] for g in summary["games"]} == {"imported"}

    stats = orjson.loads(cli("stats", "--format", "json", db=server.db).stdout)
    assert _all(server, "/api/v1/stats") == stats
    standings = orjson.loads(cli("standings", "--format", "json", db=server.db).stdout)
    assert _all(server, "/api/v1/standings") == standings
    one = stats[0]["player"]
    mine = orjson.loads(cli("stats", "--player", one, "--format", "json", db=server.db).stdout)
    with server.client() as client:
        assert client.get(f"/api/v1/players/{one}").json()["stats"] == mine[0]
    games = orjson.loads(cli("games", "--format", "json", db=server.db).stdout)
    assert _all(server, "/api/v1/games") == games
    first = orjson.loads(_lines(NIGHT)[0])
    options = {"event": first["event"].upper(), "since": first["date"], "until": first["date"],
               "variant": "Six-Card"}
    flags = [x for k, v in options.items() for x in (f"--{k}", v)]
    assert _all(server, "/api/v1/stats", **options) == orjson.loads(
        cli("stats", *flags, "--format", "json", db=server.db).stdout)
    assert _all(server, "/api/v1/standings", date=first["date"]) == orjson.loads(
        cli("standings", "--date", first["date"], "--format", "json", db=server.db).stdout)
    assert _all(server, "/api/v1/games", player=one.lower()) == orjson.loads(
        cli("games", "--player", one.lower(), "--format", "json", db=server.db).stdout)

    again = _upload(server, key, NIGHT).json()  # the same upload twice changes nothing
    assert (again["imported"], again["present"]) == (0, games_in_file)
    assert {g["status"] for g in again["games"]} == {"present"}
    assert _all(server, "/api/v1/games") == games


def test_each_stored_game_comes_back_with_the_findings_the_simulator_expects(server: LiveServer) -> None:
    key = server.add_key("recorder")
    summary = _upload(server, key, MISTAKES).json()
    expected = [orjson.loads(line) for line in _lines(EXPECTED)]
    assert [f for g in summary["games"] for f in g["findings"]] == expected
    assert summary["findings"] == len(expected)
    by_game: dict[str, list[dict[str, object]]] = {}
    for finding in expected:
        by_game.setdefault(str(finding["game"]), []).append(finding)
    with server.client() as client:
        for game, findings in by_game.items():
            detail = client.get(f"/api/v1/games/{game}").json()
            assert detail["findings"] == findings
            for ref in (detail["id"], detail["content_hash"][:10]):  # by store id and by hash prefix, as `show`
                assert client.get(f"/api/v1/games/{ref}").json() == detail
        stored = _all(server, "/api/v1/findings")
        assert sorted(orjson.dumps({k: v for k, v in f.items() if k != "date"}) for f in stored) == sorted(
            orjson.dumps(f) for f in expected)
        kind = str(expected[0]["kind"])
        assert client.get("/api/v1/findings", params={"kind": kind}).json()["total"] == sum(
            f["kind"] == kind for f in expected)


def test_a_game_replayed_has_every_deal_with_its_play_and_show(server: LiveServer) -> None:
    key = server.add_key("recorder")
    _upload(server, key, NIGHT)
    first = orjson.loads(_lines(NIGHT)[0])
    with server.client() as client:
        detail = client.get(f"/api/v1/games/{first['id']}").json()
    assert detail["players"] == first["players"]
    assert len(detail["deals"]) == len(first["deals"])
    for logged, replayed in zip(first["deals"], detail["deals"], strict=True):
        assert replayed["starter"] == logged["starter"]
        assert [[e["player"], e["card"] or "go"] for e in replayed["play"]] == [e[:2] for e in logged["play"]]
        if "show" in logged and replayed["completed"]:
            shown = {s["player"] if s["phase"] == "hand" else "crib": s["claimed"] for s in replayed["show"]}
            assert shown == logged["show"]


def test_players_and_pages_of_lists(server: LiveServer) -> None:
    key = server.add_key("recorder")
    _upload(server, key, NIGHT)
    names = sorted({p for line in _lines(NIGHT) for p in orjson.loads(line)["players"]}, key=str.casefold)
    with server.client() as client:
        listed = client.get("/api/v1/players").json()
        assert [p["name"] for p in listed["items"]] == names
        counts = {n: sum(n in orjson.loads(line)["players"] for line in _lines(NIGHT)) for n in names}
        assert {p["name"]: p["games"] for p in listed["items"]} == counts
        page = client.get("/api/v1/games", params={"limit": 7, "offset": 35}).json()
        assert (page["total"], len(page["items"])) == (len(_lines(NIGHT)), len(_lines(NIGHT)) - 35)
        assert client.get("/api/v1/players/nobody-here").status_code == 404
        assert client.get("/api/v1/games/nope").headers["content-type"] == "application/problem+json"


def test_writing_needs_a_key_in_use(server: LiveServer) -> None:
    with server.client() as client:
        refused = client.post("/api/v1/logs", files=[("file", ("n.jsonl", NIGHT.read_bytes()))])
        assert refused.status_code == 401
        assert refused.headers["content-type"] == "application/problem+json"
        wrong = client.post("/api/v1/logs", files=[("file", ("n.jsonl", NIGHT.read_bytes()))],
                            headers={"Authorization": "Bearer crib_not-a-key"})  # fmt: skip
        assert wrong.status_code == 401
    key = server.add_key("recorder")
    cli("keys", "revoke", "recorder", db=server.db)
    assert _upload(server, key, NIGHT).status_code == 401
    with server.client() as client:
        assert client.get("/api/v1/games").json()["total"] == 0
    listing = cli("keys", "list", db=server.db).stdout
    assert "recorder\trecorder\t" in listing and key not in listing


def test_recorders_may_not_replace_admins_may(server: LiveServer, tmp_path: Path) -> None:
    recorder, admin = server.add_key("rec"), server.add_key("boss", "admin")
    first = orjson.loads(_lines(NIGHT)[0])
    changed = dict(first, date="2020-01-01")
    (tmp_path / "a.json").write_bytes(orjson.dumps(first))
    (tmp_path / "b.json").write_bytes(orjson.dumps(changed))
    assert _upload(server, recorder, tmp_path / "a.json").status_code == 200
    conflict = _upload(server, recorder, tmp_path / "b.json")
    assert conflict.status_code == 409
    assert conflict.json()["summary"]["conflict_count"] == 1
    # the way to replace it is the service's, not the command line's
    said = conflict.json()["errors"][0]["detail"]
    assert said == (f"game {first['id']!r} is already stored with different content (an admin key may replace "
                    "it: upload it again with replace=true)")  # fmt: skip
    assert conflict.json()["summary"]["conflicts"][0]["reason"] == said
    assert _upload(server, recorder, tmp_path / "b.json", replace="true").status_code == 403
    replaced = _upload(server, admin, tmp_path / "b.json", replace="true")
    assert replaced.status_code == 200 and replaced.json()["replaced"] == 1
    with server.client() as client:
        assert client.get(f"/api/v1/games/{first['id']}").json()["date"] == "2020-01-01"


def test_bad_logs_answer_400_with_their_places_and_store_nothing(server: LiveServer, tmp_path: Path) -> None:
    key = server.add_key("recorder")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(BAD_LINE + b"{not json\n")
    answer = _upload(server, key, bad)
    assert answer.status_code == 400
    assert answer.headers["content-type"] == "application/problem+json"
    body = answer.json()
    assert [(e["file"], e["place"]) for e in body["errors"]] == [("bad.jsonl", "line 1: players"),
                                                                ("bad.jsonl", "line 2, column 2")]  # fmt: skip
    assert body["summary"]["imported"] == 0
    with server.client(key) as client:
        raw = client.post("/api/v1/logs", content=BAD_LINE, headers={"content-type": "application/x-ndjson"})
        assert raw.status_code == 400 and raw.json()["errors"][0]["place"] == "line 1: players"
        odd = client.post("/api/v1/logs", content=b"<xml/>", headers={"content-type": "application/xml"})
        assert odd.status_code == 415
        assert client.get("/api/v1/games").json()["total"] == 0
        bad_filter = client.get("/api/v1/stats", params={"since": "2026-02-01", "until": "2026-01-01"})
        assert bad_filter.status_code == 422 and bad_filter.json()["errors"][0]["place"] == "query.since"
        assert client.get("/api/v1/stats", params={"variant": "nine-card"}).status_code == 422


def test_one_bad_game_does_not_stop_the_others(server: LiveServer, tmp_path: Path) -> None:
    key = server.add_key("recorder")
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(_lines(NIGHT)[0] + b"\n" + BAD_LINE)
    body = _upload(server, key, mixed).json()
    assert (body["summary"]["imported"], body["summary"]["refused_count"]) == (1, 1)
    assert body["errors"][0]["place"] == "line 2: players"


@pytest.mark.parametrize("chunked", [False, True], ids=["with-length", "chunked"])
def test_an_upload_over_the_limit_answers_413(tmp_path: Path, sqlite_url: str, chunked: bool) -> None:
    with live_server(sqlite_url, tmp_path, "--max-upload", "4000") as live:
        key = live.add_key("recorder")
        body = b"".join(_lines(NIGHT)[:3])
        assert len(body) > 4000
        with live.client(key) as client:
            content = iter([body[:2000], body[2000:]]) if chunked else body
            answer = client.post("/api/v1/logs", content=content, headers={"content-type": "application/x-ndjson"})
            assert answer.status_code == 413
            assert client.get("/api/v1/games").json()["total"] == 0
            small = client.post("/api/v1/logs", content=_lines(NIGHT)[0],
                                headers={"content-type": "application/x-ndjson"})  # fmt: skip
            assert small.status_code == 200 and small.json()["imported"] == 1


def test_a_private_service_wants_a_key_for_reading(tmp_path: Path, sqlite_url: str) -> None:
    with live_server(sqlite_url, tmp_path, "--private") as live:
        with live.client() as client:
            assert client.get("/api/v1/stats").status_code == 401
            assert client.get("/standings").status_code == 303
        key = live.add_key("reader")
        with live.client(key) as client:
            assert client.get("/api/v1/stats").json()["total"] == 0


def test_workers_need_postgresql(sqlite_url: str) -> None:
    done = cli("serve", "--workers", "2", db=sqlite_url, check=False)
    assert done.returncode == 2 and "needs PostgreSQL" in done.stderr


@pytest.mark.postgres
def test_several_workers_serve_one_postgresql_store(pg_url: str, tmp_path: Path) -> None:
    with live_server(pg_url, tmp_path, "--workers", "2") as live:
        key = live.add_key("recorder")
        assert _upload(live, key, NIGHT).json()["imported"] == len(_lines(NIGHT))
        stats = orjson.loads(cli("stats", "--format", "json", db=pg_url).stdout)
        for _ in range(6):  # several connections: whichever worker answers gives the same rows
            assert _all(live, "/api/v1/stats") == stats


def test_the_same_upload_at_once_twice_lists_each_game_once_as_imported(pg_url: str, tmp_path: Path) -> None:
    """Uploads of one file at the same time (two workers, one PostgreSQL store): each game is stored once, and
    each answer's list of games agrees with its own counts (a game the other upload stored is ``present``)."""
    from concurrent.futures import ThreadPoolExecutor

    season = tmp_path / "season.jsonl"
    season.write_bytes(b"\n".join(_lines(ROOT / "sample_logs" / "season-2026.jsonl")[:400]) + b"\n")
    with live_server(pg_url, tmp_path, "--workers", "2") as live:
        key = live.add_key("recorder")
        with ThreadPoolExecutor(4) as pool:
            answers = [a.json() for a in pool.map(lambda _: _upload(live, key, season), range(4))]
        games = len(_lines(season))
        assert sum(a["imported"] for a in answers) == games
        for answer in answers:
            assert answer["imported"] + answer["present"] == games
            statuses = [g["status"] for g in answer["games"]]
            counts = (answer["imported"], answer["present"])
            assert (statuses.count("imported"), statuses.count("present")) == counts
        imported = [g["game"] for a in answers for g in a["games"] if g["status"] == "imported"]
        assert sorted(imported) == sorted({g["game"] for g in answers[0]["games"]})
        assert len(_all(live, "/api/v1/games")) == games


def test_a_scorecard_sheet_is_cross_checked_as_import_does(server: LiveServer, tmp_path: Path) -> None:
    sheet = ROOT / "sample_logs" / "nights" / "grass-roots-2026-11-05.csv"
    expected = [orjson.loads(line) for line in _lines(sheet.with_name(sheet.stem + ".expected-findings.txt"))]
    key = server.add_key("recorder")
    answer = _upload(server, key, sheet)
    assert answer.status_code == 200, answer.text
    summary = answer.json()
    assert [{k: v for k, v in c.items() if k not in ("file", "place")} for c in summary["checks"]] == expected
    assert {c["file"] for c in summary["checks"]} == {sheet.name}
    own = f"sqlite:///{tmp_path / 'cli.db'}"
    cli("import", str(sheet), db=own)
    assert _all(server, "/api/v1/stats") == orjson.loads(cli("stats", "--format", "json", db=own).stdout)


def test_matches_come_back_judged_from_their_games(server: LiveServer) -> None:
    key = server.add_key("recorder")
    playoffs = ROOT / "sample_logs" / "matches" / "playoffs-best-of-3.jsonl"
    records = [orjson.loads(line) for line in _lines(playoffs)]
    assert _upload(server, key, playoffs).json()["match_records"] == len(records)
    listed = _all(server, "/api/v1/matches")
    assert [m["match"] for m in listed] == [r["id"] for r in records]
    for record, match in zip(records, listed, strict=True):
        assert match["sides"] == [[p] for p in record["players"]]
        assert [g["game"] for g in match["games"]] == [g["id"] for g in record["games"]]
        assert match["winner"] == [record["result"]["winner"]]  # replayed from the games, as the record says
        assert dict(zip(record["players"], match["points"], strict=True)) == record["result"]["points"]
    with server.client() as client:
        assert client.get(f"/api/v1/matches/{records[0]['id']}").json() == listed[0]
        assert client.get("/api/v1/matches/no-such-match").status_code == 404
        carol = client.get("/api/v1/matches", params={"player": "carol"}).json()
    assert carol["total"] == sum("Carol" in r["players"] for r in records)


def test_the_club_views_equal_the_commands(server: LiveServer) -> None:
    key = server.add_key("club-views")
    playoffs = ROOT / "sample_logs" / "matches" / "playoffs-best-of-3.jsonl"
    assert _upload(server, key, NIGHT, playoffs).status_code == 200  # matches give head-to-head its match columns
    first = orjson.loads(_lines(NIGHT)[0])

    def command(*args: str) -> list[dict[str, object]]:
        return orjson.loads(cli(*args, "--format", "json", db=server.db).stdout)  # type: ignore[no-any-return]

    night = command("night", "--event", first["event"], "--date", first["date"])
    assert night and _all(server, "/api/v1/nights", event=first["event"].upper(), date=first["date"]) == night
    season = command("season")
    assert season and _all(server, "/api/v1/seasons") == season
    assert _all(server, "/api/v1/seasons", since=first["date"], until=first["date"]) == command(
        "season", "--since", first["date"], "--until", first["date"])
    one = night[0]["player"]
    assert isinstance(one, str)
    pairs = command("head-to-head")
    assert pairs and _all(server, "/api/v1/head-to-head") == pairs
    mine = command("head-to-head", one)
    assert mine and _all(server, "/api/v1/head-to-head", player=one.lower()) == mine
    ratings = command("rating")
    assert ratings and _all(server, "/api/v1/ratings") == ratings
    assert _all(server, "/api/v1/ratings", player=one) == command("rating", one)
    discards = command("discards")
    assert discards and _all(server, "/api/v1/discards") == discards
    assert _all(server, "/api/v1/discards", player=one.upper()) == command("discards", "--player", one)
    assert any(row["loss_per_deal_dealer"] for row in discards)

    with server.client() as client:
        page = client.get("/api/v1/head-to-head", params={"limit": 2, "offset": 1}).json()
        assert (page["total"], page["limit"], page["offset"], page["items"]) == (len(pairs), 2, 1, pairs[1:3])
        assert client.get("/api/v1/nights", params={"event": "Nowhere", "date": first["date"]}).json()[
            "items"] == []  # fmt: skip
        for path, params, status, place in (
            ("/api/v1/nights", {"event": "x"}, 422, "query.date"),  # no event is the night of no event
            ("/api/v1/nights", {"event": "x", "date": "2026-13-01"}, 422, "query.date"),
            ("/api/v1/seasons", {"since": "2026-12-01", "until": "2026-01-01"}, 422, "query.since"),
            ("/api/v1/ratings", {"player": "A\x00"}, 400, "player"),
            ("/api/v1/discards", {"variant": "nine-card"}, 422, "query.variant"),
            ("/api/v1/head-to-head", {"limit": 0}, 422, "query.limit"),
        ):
            answer = client.get(path, params=params)
            assert answer.status_code == status, (path, answer.text)
            assert answer.headers["content-type"] == "application/problem+json"
            assert answer.json()["errors"][0]["place"] == place, path
