"""Right-to-left names on the pages and in the report, against a real ``cribstats serve``: each piece of user text
(a player's name, an event) put inline beside other text is isolated in a ``<bdi>`` of its own, so that the
Unicode bidi algorithm does not pull the card, count or date beside an Arabic or Hebrew name into the name's
order (``محمد العلي   5S  count 13`` shown as ``5  محمد العليS  count 13``). The game page's replay is the
``cribstats show`` text with each name in it isolated and escaped: a name that is markup, or that holds the
control characters the marking uses (a store written before the name rule may hold them), is text, shown as its
escapes, in a ``<bdi>`` of its own."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote

import orjson
import pytest
import sqlalchemy as sa
from hostile_names import game_log
from markupsafe import escape
from service_server import LiveServer, cli, live_server

from cribstats.names import name_key
from cribstats.report import build_report
from cribstats.safetext import visible
from cribstats.store.db import make_engine

ARABIC, HEBREW = "محمد العلي", "דוד כהן"
EVENT, NIGHT = "خميس", "2026-06-04"
MARKUP = "</bdi><b>x</b>"  # closes the isolation, then markup
QUOTES = "Tom \"T\" & 'J'"
# names only a store written before the name rule holds: the control characters the game page (\x0e, \x0f) and
# the text view (\x02, \x03) mark names with while a line is built
OLDER = {"OlderA": "A\x0eB\x0fC", "OlderB": "D\x02E\x03F"}
GAMES = {  # key -> the game's players and its free text
    "khamis-1": ([ARABIC, HEBREW], {"event": EVENT, "date": NIGHT, "round": "الثالث", "site": "قاعة الشباب"}),
    "hostile-1": ([MARKUP, QUOTES], {"event": "Night & <Day>", "date": "2026-05-01", "round": "R-two",
                                     "site": "Hall <9>"}),
    "hostile-2": (list(OLDER), {"event": "Night & <Day>", "date": "2026-05-01", "round": "R-three"}),
}  # fmt: skip
PIECES = sorted({visible(OLDER.get(p, p)) for players, _ in GAMES.values() for p in players} | set(GAMES)
                | {v for _, fields in GAMES.values() for k, v in fields.items() if k != "date"}, key=len,
                reverse=True)  # fmt: skip
"""Every piece of user text the replays hold as ``cribstats show`` prints it, the longest first: no piece is in
the rest of the text, so each time one stands in a line is one piece of user text."""


@dataclass(slots=True)
class Site:
    server: LiveServer
    pages: dict[str, str]  # by game key, the game page
    home: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("bidi")
    db = f"sqlite:///{folder / 'club.db'}"
    logs = [game_log(*players, seed, mistakes=0.15, id=key, **fields)
            for seed, (key, (players, fields)) in enumerate(GAMES.items(), 3)]  # fmt: skip
    (folder / "games.jsonl").write_bytes(b"".join(orjson.dumps(log) + b"\n" for log in logs))
    cli("import", str(folder / "games.jsonl"), db=db, check=False)  # exit 1: findings stored
    engine = make_engine(db)
    with engine.begin() as conn:  # the older names, as a store written before the name rule holds them
        for stand_in, name in OLDER.items():
            conn.execute(sa.text("UPDATE player SET name = :name, name_key = :key WHERE name = :old"),
                         {"name": name, "key": name_key(name), "old": stand_in})  # fmt: skip
            conn.execute(sa.text("UPDATE game SET log = replace(log, :old, :new)"),
                         {"old": orjson.dumps(stand_in).decode(), "new": orjson.dumps(name).decode()})  # fmt: skip
    engine.dispose()
    with live_server(db, folder) as server, server.client() as client:
        pages = {key: client.get(f"/games/{quote(key, safe='')}").text for key in GAMES}
        yield Site(server, pages, client.get("/").text)


def _replay(page: str) -> str:
    """The game page's replay, a line each in order: the heading of each deal and the lines of its blocks (a
    finding's in a ``<span class="finding">``), as HTML; the blank lines between the blocks are the headings."""
    found = re.search(r'<section id="replay">(.*?)</section>', page, re.S)
    assert found is not None
    lines = re.findall(r'<h3 class="deal"[^>]*>(.*?)</h3>|<span class="(line[^"]*)">(.*?)</span>', found.group(1))
    return "\n".join(heading or (f'<span class="finding">{line}</span>' if "finding" in kind.split() else line)
                     for heading, kind, line in lines)  # fmt: skip


def _untagged(line: str) -> str:
    return html.unescape(re.sub(r"</?(?:span|bdi)\b[^>]*>", "", line))


def _isolated(line: str) -> list[str]:
    return [html.unescape(piece) for piece in re.findall(r"<bdi>(.*?)</bdi>", line)]


def _pieces(line: str) -> list[str]:
    return re.findall("|".join(re.escape(p) for p in PIECES), line)


@pytest.mark.parametrize("key", list(GAMES))
def test_the_replay_is_the_show_text_with_each_piece_of_user_text_isolated(site: Site, key: str) -> None:
    shown = cli("show", key, db=site.server.db).stdout.removesuffix("\n")
    lines = _replay(site.pages[key]).split("\n")
    # findings (marked) name players in their messages: those names are isolated too
    assert [line for line in lines if line.startswith('<span class="finding">') and "<bdi>" in line]
    # the text with the tags removed is the terminal's, and each name, event, round, site and key in it (and
    # nothing else) stands in a <bdi> of its own, in order
    said = [line for line in shown.split("\n") if line]  # the blank lines between the deals: the headings
    assert [(_untagged(line), _isolated(line)) for line in lines] == [(line, _pieces(line)) for line in said]


@pytest.mark.parametrize("key", list(GAMES))
def test_every_name_in_the_replay_is_escaped_in_a_bdi_of_its_own(site: Site, key: str) -> None:
    shown = cli("show", key, db=site.server.db).stdout
    replay = _replay(site.pages[key])
    outside = re.sub(r"<bdi>.*?</bdi>", "", replay)
    counts = {}
    for player in GAMES[key][0]:
        seen = str(escape(visible(OLDER.get(player, player))))
        counts[player] = (replay.count(f"<bdi>{seen}</bdi>"), outside.count(seen))
    assert counts == {player: (shown.count(visible(OLDER.get(player, player))), 0) for player in GAMES[key][0]}
    # one level of isolation, each closed: no name opens or closes one
    tags = re.findall(r"</?bdi>", replay)
    assert len(tags) >= 2 and tags == ["<bdi>", "</bdi>"] * (len(tags) // 2)


def test_a_hostile_name_is_escaped_text_in_its_isolation(site: Site) -> None:
    markup, marked = _replay(site.pages["hostile-1"]), _replay(site.pages["hostile-2"])
    page = site.pages["hostile-1"] + site.pages["hostile-2"]
    # the markup is nowhere as markup, no control character reaches the page, and the name is text, isolated
    raw = (MARKUP in page, "<b>x" in page, any(c in page for c in "\x02\x03\x0e\x0f"))
    assert (*raw, "<bdi>&lt;/bdi&gt;&lt;b&gt;x&lt;/b&gt;</bdi>  " in markup) == (False, False, False, True)
    assert "<bdi>Tom &#34;T&#34; &amp; &#39;J&#39;</bdi>" in markup
    assert "<bdi>Night &amp; &lt;Day&gt;</bdi>" in markup
    assert "<bdi>A\\x0eB\\x0fC</bdi>" in marked and "<bdi>D\\x02E\\x03F</bdi>" in marked


def test_the_game_pages_summary_isolates_each_name(site: Site) -> None:
    summary = re.search(r'<section id="summary">(.*?)</section>', site.pages["khamis-1"], re.S)
    assert summary is not None
    linked = re.findall(r"<a href=\"[^\"]+\">(.*?)</a>", summary.group(1))
    assert sorted(linked) == sorted([f"<bdi>{ARABIC}</bdi>", f"<bdi>{HEBREW}</bdi>"])
    assert f"<dd><bdi>{EVENT}</bdi></dd>" in summary.group(1)


def test_the_home_heading_isolates_the_latest_nights_event_from_its_date(site: Site) -> None:
    assert f"<h2>The latest night: <bdi>{EVENT}</bdi>, {NIGHT}</h2>" in site.home


def test_the_reports_night_caption_isolates_the_event_from_its_date(site: Site) -> None:
    engine = make_engine(site.server.db)
    try:
        report = build_report(engine)
    finally:
        engine.dispose()
    night = report[report.index('<section id="night">') :]
    assert f'<p class="scope"><bdi>{EVENT}</bdi>, {NIGHT}. Placed by game' in night
