"""The club report: every section, the charts embedded, all text escaped, nothing loaded from elsewhere."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.report import build_report, format_value, write_report
from cribstats.simulate import simulate_games
from cribstats.stats.frames import StatsFilter
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

SCRIPT_NAME = "<script>alert(1)</script>"
PLAYERS = [SCRIPT_NAME, "Bob & Co", "Carol"]
SECTIONS = ["summary", "standings", "night", "season", "matches", "head-to-head", "ratings", "players", "charts",
            "audit", "discards"]  # fmt: skip


def build_store(folder: Path) -> str:
    """A small store: 9 six-card games among a player named like a script tag, 'Bob & Co' and Carol."""
    logs = folder / "night.jsonl"
    with open(logs, "wb") as handle:
        for game in simulate_games(9, players=PLAYERS, seed=21, mistake_rate=0.05, events=["Club <Night>"],
                                   start_date="2026-02-03", games_per_night=3):  # fmt: skip
            handle.write(orjson.dumps(game.log) + b"\n")
    url = f"sqlite:///{folder / 'club.db'}"
    engine = make_engine(url)
    assert import_paths([logs], engine).imported == 9
    return url


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    return build_store(tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def html(store: str) -> str:
    return build_report(make_engine(store), title="Club & <Friends>")


class Tags(HTMLParser):
    """Collects start tags with their attributes, and the text of each h3."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.h3: list[str] = []
        self._in_h3 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_h3 = tag == "h3"

    def handle_endtag(self, tag: str) -> None:
        self._in_h3 = False if tag == "h3" else self._in_h3

    def handle_data(self, data: str) -> None:
        if self._in_h3:
            self.h3.append(data)


def parse(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


def test_every_section_is_there(html: str) -> None:
    ids = [attrs.get("id") for tag, attrs in parse(html).tags if tag == "section"]
    assert ids == SECTIONS
    assert html.count("<figure") == 7  # the club's charts and the discard chart
    charts = ("chart-ratings", "chart-skunks", "chart-skunks-trend", "chart-averages", "chart-hands",
              "chart-accuracy", "chart-discards")  # fmt: skip
    for chart in charts:
        assert f'id="{chart}"' in html


def test_players_get_a_table_each_and_names_are_text(html: str) -> None:
    tags = parse(html)
    # the parser decodes entities: the names come back exactly as the players wrote them
    assert sorted(n for n in tags.h3 if n in PLAYERS) == sorted(PLAYERS)
    assert sum(1 for tag, attrs in tags.tags if tag == "article") == 3
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Bob &amp; Co" in html
    assert SCRIPT_NAME not in html
    assert "<Friends>" not in html and "Club &amp; &lt;Friends&gt;" in html
    # one script element only: the page's own loaded marker
    assert [tag for tag, _ in tags.tags].count("script") == 1


def test_self_contained(html: str) -> None:
    tags = parse(html)
    images = [attrs["src"] for tag, attrs in tags.tags if tag == "img"]
    assert len(images) == 7  # the club's charts and the discard chart
    assert all(src and src.startswith("data:image/png;base64,iVBORw0KGgo") for src in images)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert not [attrs for tag, attrs in tags.tags if tag == "link"]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "overflow-x: auto" in html  # wide tables scroll on a phone


def test_audit_lists_worst_findings(html: str) -> None:
    audit = html[html.index('id="audit"'):]
    assert "Findings by kind" in audit and "The worst findings" in audit
    assert "<td>missed</td>" in audit or "<td>overclaim</td>" in audit


def test_filtered_report_and_cli(store: str, tmp_path: Path) -> None:
    out = tmp_path / "carol.html"
    write_report(make_engine(store), out, StatsFilter(player="carol"))
    tags = parse(out.read_text())
    assert [n for n in tags.h3 if n in PLAYERS] == ["Carol"]
    assert "Player Carol" in out.read_text()  # the player as stored, though typed "carol"
    result = CliRunner().invoke(app, ["report", "--db", store, "--out", str(tmp_path / "r.html"), "--event",
                                      "club <night>"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stderr
    assert parse((tmp_path / "r.html").read_text()).h3.count("Carol") == 1


def test_format_value() -> None:
    assert format_value("win_rate", 2 / 3) == "66.7%"
    assert format_value("hand_per_deal_pone", 7.125) == "7.12"
    assert format_value("pegging_per_deal_pone", None) == "–"
    assert format_value("games", 12) == "12"


MIXED_CASE = ["Ann McDonald", "de Vries", "Øyvind Ådland"]


@pytest.fixture(scope="module")
def mixed_case_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Six games among players whose names are not in plain title case, at an event with an apostrophe."""
    folder = tmp_path_factory.mktemp("names")
    logs = folder / "night.jsonl"
    with open(logs, "wb") as handle:
        for game in simulate_games(6, players=MIXED_CASE, seed=8, events=["St Mary's Tuesday"],
                                   start_date="2026-12-08", games_per_night=3):  # fmt: skip
            handle.write(orjson.dumps(game.log) + b"\n")
    url = f"sqlite:///{folder / 'names.db'}"
    assert import_paths([logs], make_engine(url)).imported == 6
    return url


def _scope(page: str) -> str:
    """The text of the line under the title that says which games the report covers."""
    import html as html_module

    found = re.search(r'<p class="scope">(.*?) &middot; generated', page)
    assert found, "no scope line"
    return html_module.unescape(found.group(1))


@pytest.mark.parametrize(("player", "event", "scope"), [
    ("Ann McDonald", "St Mary's Tuesday", "Player Ann McDonald, event St Mary's Tuesday"),
    ("de Vries", None, "Player de Vries"),
    ("Øyvind Ådland", None, "Player Øyvind Ådland"),
    (None, "St Mary's Tuesday", "Event St Mary's Tuesday"),
    (None, None, "All games"),
])  # fmt: skip
def test_the_scope_line_keeps_names_as_typed(mixed_case_store: str, tmp_path: Path, player: str | None,
                                             event: str | None, scope: str) -> None:  # fmt: skip
    out = tmp_path / "r.html"
    args = ["report", "--db", mixed_case_store, "--out", str(out)]
    args += ["--player", player] if player else []
    args += ["--event", event] if event else []
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert _scope(out.read_text(encoding="utf-8")) == scope


def test_source_date_epoch_makes_the_same_store_give_the_same_file(store: str, tmp_path: Path) -> None:
    # 1796515200 seconds after 1970-01-01 00:00 UTC: 20,793 days of 86,400 seconds, 2026-12-06 00:00 UTC
    runs = []
    for name in ("one.html", "two.html"):
        out = tmp_path / name
        result = CliRunner().invoke(app, ["report", "--db", store, "--out", str(out)],
                                    env={"SOURCE_DATE_EPOCH": "1796515200"})  # fmt: skip
        assert result.exit_code == 0, result.output
        runs.append(out.read_bytes())
    assert runs[0] == runs[1]
    assert b"generated 2026-12-06 00:00 UTC" in runs[0]
    bad = CliRunner().invoke(app, ["report", "--db", store, "--out", str(tmp_path / "bad.html")],
                             env={"SOURCE_DATE_EPOCH": "yesterday"})  # fmt: skip
    assert bad.exit_code == 1 and "SOURCE_DATE_EPOCH must be a whole number" in bad.output
    assert not (tmp_path / "bad.html").exists()
