"""Every chart of the report and of a player's page has a text equivalent (WCAG 1.1.1): an alt that says in a
sentence what it shows (not its caption again), and its figures as a table in a ``<details>`` right after it,
which hold the values the chart draws. The values are worked out here again, from the stored games replayed one by
one (not from the statistics' totals), where that is simple: the skunk rate per month, the hand totals.

A small store of the sample logs (a club night, a night of mistakes, part of a season over three months) and two
games of a player named like a script, whose name is text wherever it is shown."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import orjson
import pytest
from service_server import LiveServer, live_server

from cribstats.replay import replay
from cribstats.report import build_report
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths
from cribstats.store.queries import find_game, list_games

SCRIPT_NAME = "<script>alert(1)</script>"
SUMMARY = "Figures of this chart"
REPORT_CHARTS = ("chart-ratings", "chart-skunks", "chart-skunks-trend", "chart-averages", "chart-hands",
                 "chart-accuracy", "chart-discards")  # fmt: skip


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, sample_logs_dir: Path) -> str:
    folder = tmp_path_factory.mktemp("figures")
    season = (sample_logs_dir / "nights" / "grass-roots-season.jsonl").read_bytes().splitlines()
    (folder / "season.jsonl").write_bytes(b"\n".join(season[::12]) + b"\n")  # 36 games, January to March
    hostile = simulate_games(2, players=[SCRIPT_NAME, "Zed"], seed=4, mistake_rate=0.1, start_date="2026-04-07")
    (folder / "hostile.jsonl").write_bytes(b"".join(orjson.dumps(game.log) + b"\n" for game in hostile))
    url = f"sqlite:///{folder / 'club.db'}"
    engine = make_engine(url)
    logs = [sample_logs_dir / "club-night.jsonl", sample_logs_dir / "mistakes" / "six-card.jsonl",
            folder / "season.jsonl", folder / "hostile.jsonl"]  # fmt: skip
    assert import_paths(logs, engine).imported == 40 + 25 + 36 + 2
    engine.dispose()
    return url


@pytest.fixture(scope="module")
def report(store: str) -> str:
    engine = make_engine(store)
    try:
        return build_report(engine)
    finally:
        engine.dispose()


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def _table(markup: str) -> tuple[list[str], list[list[str]]]:
    """A table's headings and rows of cells, as text."""
    rows = [[_text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", markup, re.S)]  # fmt: skip
    return rows[0], rows[1:]


def charts(page: str) -> dict[str, dict[str, object]]:
    """Each chart of a page (by its figure's id, or its image's address): its image's alt as written in the page,
    its caption, and the figures right after it (the details' summary, headings and rows)."""
    found = {}
    pattern = r'<figure(?: id="([^"]*)")?>(.*?)</figure>\s*(?:<details class="figures">(.*?)</details>)?'
    for name, figure, details in re.findall(pattern, page, re.S):
        alt = re.search(r'<img [^>]*alt="([^"]*)"', figure)
        src = re.search(r'<img src="([^"]*)"', figure)
        caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S)
        assert alt is not None and src is not None and caption is not None, figure
        summary = re.search(r"<summary>(.*?)</summary>", details or "", re.S)
        head, rows = _table(details) if "<table" in (details or "") else ([], [])
        found[name or html.unescape(src.group(1))] = {
            "alt": alt.group(1), "caption": _text(caption.group(1)),
            "summary": summary and _text(summary.group(1)), "head": head, "rows": rows, "details": details,
        }  # fmt: skip
    return found


def _replayed(store: str) -> list[tuple[object, object]]:
    """Every stored game's listing and its replay, one by one."""
    engine = make_engine(store)
    try:
        with engine.connect() as conn:
            games = []
            for listing in list_games(conn):
                stored = find_game(conn, listing.key)
                assert stored is not None
                games.append((listing, replay(stored.game(), key=stored.key)))
            return games
    finally:
        engine.dispose()


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _alt_is_its_own(chart: dict[str, object]) -> None:
    """The image's alt says what the chart shows, in words of its own: not its caption (nor its caption's title
    or text), and its figures follow it."""
    alt, caption = html.unescape(str(chart["alt"])), str(chart["caption"])
    assert alt.strip() and len(alt) > 40, alt
    title, _, said = caption.partition(". ")
    assert not any(_words(part) in _words(alt) for part in (caption, title, said) if part), (alt, caption)
    assert chart["summary"] == SUMMARY


def test_every_report_chart_says_what_it_shows_and_gives_its_figures(report: str) -> None:
    found = charts(report)
    assert sorted(found) == sorted(REPORT_CHARTS)
    for name, chart in found.items():
        _alt_is_its_own(chart)
        assert chart["rows"], name  # the sample logs give every chart something to draw
        assert all(len(row) == len(chart["head"]) for row in chart["rows"]), name  # type: ignore[arg-type]


def test_the_skunk_rate_per_month_is_that_of_the_stored_games(report: str, store: str) -> None:
    months: dict[str, Counter[str]] = {}
    for listing, outcome in _replayed(store):
        if listing.date is None or not outcome.winners:  # type: ignore[attr-defined]
            continue  # only finished, dated games count
        month = months.setdefault(listing.date.strftime("%b %Y"), Counter())  # type: ignore[attr-defined]
        month.update(games=1, skunked=outcome.skunk_level >= 1, double=outcome.skunk_level >= 2)  # type: ignore[attr-defined]
    chart = charts(report)["chart-skunks-trend"]
    assert chart["head"] == ["Month", "Finished games", "Skunked (any level)", "Double skunk or worse"]
    expected = [[month, str(n["games"]), f"{n['skunked'] / n['games']:.1%}", f"{n['double'] / n['games']:.1%}"]
                for month, n in months.items()]  # fmt: skip
    assert chart["rows"] == expected
    assert [row[0] for row in expected] == ["Jan 2026", "Feb 2026", "Mar 2026", "Apr 2026", "Nov 2026"]


def test_the_hand_totals_are_the_stored_four_card_hands(report: str, store: str) -> None:
    hands: Counter[int] = Counter()
    for _, outcome in _replayed(store):
        for deal in outcome.deals:  # type: ignore[attr-defined]
            hands.update(show.due for show in deal.shows if show.phase == "hand" and len(show.cards) == 4)
    chart = charts(report)["chart-hands"]
    assert chart["head"] == ["Points", "Hands stored", "Share of hands stored", "Share of random hands"]
    rows = chart["rows"]
    assert {int(row[0]): int(row[1]) for row in rows if row[1] != "0"} == dict(hands)  # type: ignore[union-attr]
    assert [row[0] for row in rows] == [str(points) for points in range(30)]  # type: ignore[union-attr]
    total = sum(hands.values())
    assert [row[2] for row in rows if row[1] != "0"] == [  # type: ignore[union-attr]
        f"{hands[int(row[0])] / total:.2%}" for row in rows if row[1] != "0"]  # type: ignore[union-attr,index]
    assert f"the {total:,} four-card hands stored" in html.unescape(str(chart["alt"]))


def test_the_per_player_figures_are_the_players_cards(report: str) -> None:
    """The points per deal the chart draws are each player's card's, and the ratings' last row each player's
    rating in the ratings table."""
    cards = {}
    for name, body in re.findall(r'<article class="card player">\s*<h3>(.*?)</h3>(.*?)</article>', report, re.S):
        cells = re.findall(r'<th scope="row">(.*?)</th><td>(.*?)</td>', body)
        cards[html.unescape(name)] = {label: html.unescape(value) for label, value in cells}
    averages = charts(report)["chart-averages"]
    for row in averages["rows"]:  # type: ignore[union-attr]
        card = cards[row[0]]
        assert row[1:] == [card["Deals (completed)"], card["Pegging per deal, dealer"],
                           card["Pegging per deal, pone"], card["Hand per deal, dealer"],
                           card["Hand per deal, pone"], card["Crib per deal"]]  # fmt: skip
    ratings = charts(report)["chart-ratings"]
    section = report[report.index('<section id="ratings">'):]
    table = section[section.index("</details>"): section.index("</section>")]
    rated = {row[1]: row[2] for row in _table(table)[1]}
    players = ratings["head"][1:]  # type: ignore[index]
    assert players and [rated[p] for p in players] == ratings["rows"][-1][1:]  # type: ignore[index]


def test_names_are_text_in_the_figures(report: str) -> None:
    escaped = html.escape(SCRIPT_NAME, quote=False)
    assert SCRIPT_NAME not in report
    skunks = charts(report)["chart-skunks"]
    assert SCRIPT_NAME in [row[0] for row in skunks["rows"]]  # type: ignore[union-attr]
    assert escaped in str(skunks["details"])


@pytest.fixture(scope="module")
def site(store: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(store, tmp_path_factory.mktemp("figures-site")) as live:
        yield live


@pytest.mark.parametrize("player", ["Dave", SCRIPT_NAME])
def test_a_players_charts_say_what_they_show_and_give_their_figures(site: LiveServer, player: str) -> None:
    with site.client() as client:
        page = client.get(f"/players/{quote(player, safe='')}")
        stats = next(row for row in client.get("/api/v1/stats", params={"limit": 500}).json()["items"]
                     if row["player"] == player)  # fmt: skip
    assert page.status_code == 200
    assert SCRIPT_NAME not in page.text
    found = charts(page.text)
    assert [src.split("?")[0] for src in found] == ["/charts/averages.svg", "/charts/accuracy.svg",
                                                   "/charts/skunks.svg"]  # fmt: skip
    for chart in found.values():
        _alt_is_its_own(chart)
        assert html.escape(player) in str(chart["alt"])  # the player's name, escaped
        assert [row[0] for row in chart["rows"]] == [player]  # type: ignore[union-attr]
    averages, _, skunks = found.values()
    per_deal = ("pegging_per_deal_dealer", "pegging_per_deal_pone", "hand_per_deal_dealer", "hand_per_deal_pone",
                "crib_per_deal")  # fmt: skip
    assert averages["rows"][0][1:] == [str(stats["deals"]), *(f"{stats[c]:.2f}" for c in per_deal)]  # type: ignore[index]
    levels = ("skunks", "double_skunks", "triple_skunks")
    shares = [f"{stats[f'{level}_{side}'] / stats['games']:.1%}" for side in ("won", "lost") for level in levels]
    assert skunks["rows"][0][1:] == [str(stats["games"]), *shares]  # type: ignore[index]
