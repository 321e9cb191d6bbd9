"""The pages against a real ``cribstats serve`` process: each page answers, shows the numbers ``standings`` and
``stats`` give, escapes every name, and the upload and scorecard forms need a session and their CSRF token."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import orjson
import pytest
from service_server import LiveServer, cli, live_server

from cribstats.simulate import simulate_games

ROOT = Path(__file__).resolve().parent.parent
NIGHT = ROOT / "sample_logs" / "club-night.jsonl"
MISTAKES = ROOT / "sample_logs" / "mistakes" / "six-card.jsonl"
SCRIPT_NAME = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("pages")
    db = f"sqlite:///{folder / 'club.db'}"
    cli("import", str(NIGHT), str(MISTAKES), db=db)
    odd = folder / "odd.jsonl"
    with open(odd, "wb") as handle:
        for game in simulate_games(3, players=[SCRIPT_NAME, "Bob & Co"], seed=4, start_date="2027-01-05"):
            handle.write(orjson.dumps(game.log) + b"\n")
    cli("import", str(odd), db=db)
    with live_server(db, folder) as live:
        yield live


def _text(page: str) -> str:
    """The page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_every_page_answers_with_no_script_and_a_strict_policy(site: LiveServer) -> None:
    with site.client() as client:
        game = client.get("/api/v1/games", params={"limit": 1}).json()["items"][0]["game"]
        for path in ("/", "/standings", "/players", "/players/Alice", f"/games/{game}", "/games", "/audit",
                     "/standings?event=Elks+Lodge+Club+Night", "/session"):  # fmt: skip
            page = client.get(path)
            assert page.status_code == 200, path
            assert "<script" not in page.text.replace("&lt;script", ""), path
            assert "script-src" not in page.headers["content-security-policy"]
            assert "default-src 'none'" in page.headers["content-security-policy"]
        assert client.get("/players/nobody").status_code == 404
        assert client.get("/static/style.css").headers["content-type"].startswith("text/css")


def test_standings_page_shows_the_standings_command(site: LiveServer) -> None:
    rows = orjson.loads(cli("standings", "--format", "json", db=site.db).stdout)
    with site.client() as client:
        text = _text(client.get("/standings").text)
    for row in rows:
        cells = f"{row['rank']} {row['player']} {row['games']} {row['wins']} {row['losses']} {row['game_points']}"
        assert f"{cells} {row['spread']} {row['skunk_wins']} {row['skunk_losses']}" in text


def test_home_shows_the_latest_night(site: LiveServer) -> None:
    """The latest night is the latest date's games (here the odd names' games, logged with no event), placed as
    `cribstats night` places them, each with the card clubs write (`game points/wins spread`)."""
    last = orjson.loads(cli("games", "--format", "json", db=site.db).stdout)[-1]
    assert last["event"] is None
    night = last["date"]
    rows = orjson.loads(cli("standings", "--date", night, "--format", "json", db=site.db).stdout)
    with site.client() as client:
        text = _text(client.get("/").text)
    assert f"The latest night: {night} Place Player Card" in text
    top = rows[0]
    card = f"{top['game_points']}/{top['wins']} {top['spread']:+d}"
    assert f"1 {top['player']} {card} {top['games']} {top['wins']}" in text


def test_player_page_shows_the_players_stats_and_charts(site: LiveServer) -> None:
    row = orjson.loads(cli("stats", "--player", "alice", "--format", "json", db=site.db).stdout)[0]
    with site.client() as client:
        page = client.get("/players/alice")
        text = _text(page.text)
        assert f"Games {row['games']} Won {row['wins']} Lost {row['losses']}" in text
        assert f"Crib per deal {row['crib_per_deal']:.2f}" in text
        assert f"Win rate {row['win_rate']:.1%}" in text
        charts = re.findall(r'<img src="([^"]+)"', page.text)
        assert len(charts) == 3
        for src in charts:
            svg = client.get(html.unescape(src))
            assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
            assert svg.text.lstrip().startswith("<?xml") and "<svg" in svg.text


def test_game_page_is_the_show_command_with_findings_marked(site: LiveServer) -> None:
    with site.client() as client:
        game = client.get("/api/v1/findings", params={"limit": 1}).json()["items"][0]["game"]
        page = client.get(f"/games/{game}").text
    shown = cli("show", game, db=site.db).stdout.rstrip("\n")
    replay = re.search(r'<section id="replay">(.*?)</section>', page, re.S)
    assert replay is not None
    # a heading a deal (its first line), then its lines, a box each, findings marked, each piece of user text
    # isolated in a <bdi>: the lines are the command's, the blank ones between the deals given by the headings
    lines = re.findall(r'<h3 class="deal"[^>]*>(.*?)</h3>|<span class="(line[^"]*)">(.*?)</span>', replay.group(1))
    text = [html.unescape(re.sub(r"</?bdi>", "", heading or line)) for heading, _, line in lines]
    assert text == [line for line in shown.splitlines() if line]
    marked = [html.unescape(re.sub(r"</?bdi>", "", line)) for _, kind, line in lines if "finding" in kind.split()]
    assert marked == [line for line in shown.splitlines() if line.lstrip().startswith("! ")]


def test_audit_lists_games_with_findings_worst_first(site: LiveServer) -> None:
    findings = [orjson.loads(line) for line in (MISTAKES.with_name("six-card.expected-findings.txt"))
                .read_bytes().splitlines() if line.strip()]  # fmt: skip
    gaps: dict[str, int] = {}
    for f in findings:
        gaps[f["game"]] = gaps.get(f["game"], 0) + abs((f["due"] or 0) - (f["claimed"] or 0))
    with site.client() as client:
        text = _text(client.get("/audit").text)
    worst = max(gaps.values())
    first = text.split("Findings ", 1)[1]
    assert first.split()[2] == str(worst)


def test_a_name_written_like_a_script_is_shown_as_text(site: LiveServer) -> None:
    with site.client() as client:
        for path in ("/", "/players", f"/players/{quote(SCRIPT_NAME, safe='')}", "/games"):
            page = client.get(path).text
            assert SCRIPT_NAME not in page, path
            assert html.escape(SCRIPT_NAME, quote=False) in page, path
            assert "Bob &amp; Co" in page, path
        assert client.get("/api/v1/players/" + quote(SCRIPT_NAME, safe="")).json()["name"] == SCRIPT_NAME


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page) or re.search(r"csrf_token=([^\"&]+)", page)
    assert found is not None
    return html.unescape(found.group(1))


def test_upload_page_needs_a_session_and_its_token(site: LiveServer, tmp_path: Path) -> None:
    key = site.add_key("page-recorder")
    with httpx.Client(base_url=site.url, timeout=120) as browser:
        assert browser.get("/upload").headers["location"] == "/session?next=/upload"
        form = browser.get("/session?next=/upload")
        assert browser.post("/session", data={"key": key, "next": "/upload"}).status_code == 403  # no token
        wrong = browser.post("/session", data={"key": "crib_nope", "csrf_token": _token(form.text)})
        assert wrong.status_code == 401
        signed = browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/upload"})
        assert signed.status_code == 303 and signed.headers["location"] == "/upload"
        page = browser.get("/upload")
        assert page.status_code == 200 and "Signed in as page-recorder" in page.text
        log = tmp_path / "late.jsonl"
        game = next(iter(simulate_games(1, players=["Zed", "Yan"], seed=9, start_date="2027-02-02"))).log
        log.write_bytes(orjson.dumps(game) + b"\n")
        files = [("file", ("late.jsonl", log.read_bytes()))]
        assert browser.post("/upload", files=files).status_code == 403  # no token
        done = browser.post(f"/upload?csrf_token={_token(page.text)}", files=files)
        assert done.status_code == 200 and "Imported 1" in _text(done.text)
        cli("keys", "revoke", "page-recorder", db=site.db)
        assert browser.get("/upload").status_code == 303  # the session ends with its key
    with site.client() as client:
        assert client.get("/api/v1/players/Zed").status_code == 200


def test_scorecard_page_checks_each_row(site: LiveServer) -> None:
    key = site.add_key("cards")
    with httpx.Client(base_url=site.url, timeout=120) as browser:
        form = browser.get("/session?next=/scorecard")
        browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/scorecard"})
        page = browser.get("/scorecard")
        assert page.status_code == 200
        sheet = ("date,event,round,player1,player2,score1,score2\n"
                 "2027-03-02,Card Night,1,Uma,Vic,121,97\n"
                 "2027-03-02,Card Night,2,Uma,Vic,100,100\n")  # fmt: skip
        done = browser.post("/scorecard", data={"sheet": sheet, "csrf_token": _token(page.text)})
        assert done.status_code == 400
        text = _text(done.text)
        assert "Imported 1" in text and "scorecard:line 3" in text
        assert browser.post("/scorecard", data={"sheet": sheet}).status_code == 403
        signed_in = browser.get("/session")
        assert "Signed in as cards" in signed_in.text
        out = browser.post("/session/end", data={"csrf_token": _token(signed_in.text)})
        assert out.status_code == 303 and browser.get("/scorecard").status_code == 303
    rows = orjson.loads(cli("standings", "--event", "Card Night", "--format", "json", db=site.db).stdout)
    assert [(r["player"], r["wins"], r["spread"]) for r in rows] == [("Uma", 1, 24), ("Vic", 0, -24)]


SHEET = ROOT / "sample_logs" / "nights" / "grass-roots-2026-11-05.csv"


def test_scorecard_page_cross_checks_the_two_cards_of_each_game(site: LiveServer, tmp_path: Path) -> None:
    expected = [orjson.loads(line) for line in SHEET.with_name(SHEET.stem + ".expected-findings.txt")
                .read_bytes().splitlines() if line.strip()]  # fmt: skip
    key = site.add_key("night-cards")
    with httpx.Client(base_url=site.url, timeout=120) as browser:
        form = browser.get("/session?next=/scorecard")
        browser.post("/session", data={"key": key, "csrf_token": _token(form.text), "next": "/scorecard"})
        page = browser.get("/scorecard")
        done = browser.post("/scorecard", data={"sheet": SHEET.read_text(), "csrf_token": _token(page.text)})
    assert done.status_code == 200
    checks = re.search(r'<ul class="error" id="checks">(.*?)</ul>', done.text, re.S)
    assert checks is not None
    listed = [html.unescape(m) for m in re.findall(r"<li>(.*?)</li>", checks.group(1))]
    assert len(listed) == len(expected)
    for line, finding in zip(listed, expected, strict=True):  # the rows it is about, then the finding
        assert line.startswith("scorecard:line") and line.endswith(f": {finding['message']}")
    own = f"sqlite:///{tmp_path / 'cli.db'}"  # the same sheet imported by the command
    cli("import", str(SHEET), db=own)
    night = ["--date", "2026-11-05", "--format", "json"]
    assert orjson.loads(cli("standings", *night, db=site.db).stdout) == orjson.loads(
        cli("standings", *night, db=own).stdout)


def test_player_page_shows_the_players_discard_quality(site: LiveServer) -> None:
    row = orjson.loads(cli("discards", "--player", "alice", "--format", "json", db=site.db).stdout)[0]
    with site.client() as client:
        page = client.get("/players/alice").text
        worst = client.get("/api/v1/discards", params={"player": "alice"}).json()["items"][0]
    section = re.search(r'<section id="discards">(.*?)</section>', page, re.S)
    assert section is not None
    text = _text(section.group(1))
    assert f"Deals valued {row['deals']}" in text
    assert f"Loss per deal, dealer {row['loss_per_deal_dealer']:.2f}" in text
    assert f"Loss per deal, pone {row['loss_per_deal_pone']:.2f}" in text
    assert f"Best discards {row['best_share']:.1%}" in text
    assert f"Points lost per game {row['loss_per_game']:.2f}" in text
    assert worst == row
    costliest = (f"{row['worst_loss']:.2f} {row['worst_game']} {row['worst_deal']} {row['worst_role']} "
                 f"{row['worst_dealt']} {row['worst_chosen']} {row['worst_best']}")  # fmt: skip
    assert f"The costliest discards Loss Game Deal As Dealt Thrown Best throw {costliest}" in text
    table = section.group(1)[section.group(1).index("<table", section.group(1).index("costliest")):]
    words = ["", ' class="word"', "", ' class="word"', ' class="word"', ' class="word"', ' class="word"']
    assert re.findall(r"<th scope=\"col\"([^>]*)>", table) == words  # loss, game, deal, as, the cards
    assert re.findall(r"<td([^>]*)>", re.findall(r"<tr>(<td.*?)</tr>", table)[0]) == words


def test_game_page_shows_each_deals_discard_with_its_loss_and_the_best(site: LiveServer) -> None:
    row = orjson.loads(cli("discards", "--player", "alice", "--format", "json", db=site.db).stdout)[0]
    game = row["worst_game"]
    shown = cli("show", game, db=site.db).stdout
    judged = [line.strip() for line in shown.splitlines() if "  discard " in line]
    deals = [line for line in shown.splitlines() if line.startswith("Deal ")]
    assert judged and len(judged) >= len(deals)
    with site.client() as client:
        text = _text(client.get(f"/games/{quote(game, safe='')}").text)
    for line in judged:
        assert " ".join(line.split()) in text
    loses = f"loses {row['worst_loss']:.2f} to "
    assert any(loses in line for line in judged)
    assert any(line.endswith("a best discard") for line in judged)


def test_a_name_written_like_a_script_is_text_in_the_discard_figures(site: LiveServer) -> None:
    with site.client() as client:
        page = client.get(f"/players/{quote(SCRIPT_NAME, safe='')}").text
        rows = client.get("/api/v1/discards", params={"player": SCRIPT_NAME}).json()["items"]
    assert rows and rows[0]["player"] == SCRIPT_NAME
    section = re.search(r'<section id="discards">(.*?)</section>', page, re.S)
    assert section is not None and "Deals valued" in section.group(1)
    assert SCRIPT_NAME not in page
