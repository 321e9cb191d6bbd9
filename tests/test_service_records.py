"""What the records say against themselves, on the service and in the report: a club night's scorecards that
disagree (on the home page under the latest night, on the audit page, at ``/api/v1/scorecards``, in the report's
latest night) and a match's findings (on the audit page). A running ``cribstats serve`` on a real SQLite file;
the expected text comes from the sheet written here and from the match sample's expected findings."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from service_server import cli, live_server

ROOT = Path(__file__).resolve().parent.parent
MATCH_LOG = ROOT / "sample_logs" / "matches" / "points-to-7.jsonl"
MATCH_FINDINGS = ROOT / "sample_logs" / "matches" / "points-to-7.expected-findings.txt"

HEAD = "date,event,round,player,opponent,game_points,spread\n"
AGREE = "2026-12-01,Club <Night>,1,Ann,Bob,2,+18\n2026-12-01,Club <Night>,1,Bob,Ann,0,-18\n"
# Ann's card says she won by 12; Cat's says Cat lost by 10: the cards disagree
WRONG = HEAD + AGREE + "2026-12-01,Club <Night>,2,Ann,Cat,2,+12\n2026-12-01,Club <Night>,2,Cat,Ann,0,-10\n"
FIXED = WRONG.replace("Cat,Ann,0,-10", "Cat,Ann,0,-12")


def _page_text(page: str) -> str:
    return html.unescape(" ".join(re.sub(r"</?bdi>", "", page).split()))  # user text isolated within a line


@pytest.fixture
def store(tmp_path: Path) -> tuple[str, Path]:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    sheet = tmp_path / "cards.csv"
    sheet.write_text(WRONG)
    cli("import", str(sheet), db=db, check=False)  # exit 1: a finding stored
    cli("import", str(MATCH_LOG), db=db, check=False)
    return db, sheet


def test_the_pages_show_the_scorecards_that_disagree_and_the_match_findings(store: tuple[str, Path],
                                                                            tmp_path: Path) -> None:
    db, _ = store
    expected_match = [json.loads(line) for line in MATCH_FINDINGS.read_text().splitlines() if line.strip()]
    with live_server(db, tmp_path) as server, server.client() as client:
        home = _page_text(client.get("/").text)
        audit_page = client.get("/audit").text
        audit = _page_text(audit_page)
        cards = client.get("/api/v1/scorecards").json()
        bogus = client.get("/api/v1/findings", params={"kind": "bogus"})
    # the sheet's night (2026-12-01) is the latest: the match was played on 2026-11-28
    assert "Scorecards that disagree" in audit and "Match findings" in audit
    assert "+12" in audit and "-10" in audit and "Club <Night>" in audit and "<Night>" not in audit_page
    for finding in expected_match:
        assert finding["match"] in audit and finding["message"] in audit and finding["kind"] in audit
    assert cards["total"] == 1
    (item,) = cards["items"]
    assert (item["date"], item["event"], item["round"]) == ("2026-12-01", "Club <Night>", "2")
    assert "Ann" in item["message"] and "Cat" in item["message"] and "+12" in item["message"]
    assert "The latest night: Club <Night>, 2026-12-01" in home
    assert "Scorecards that disagree" in home and "+12" in home and "-10" in home
    assert bogus.status_code == 422 and "kind" in bogus.text


def test_a_corrected_card_leaves_the_pages_and_the_report(store: tuple[str, Path], tmp_path: Path) -> None:
    db, sheet = store
    report = tmp_path / "report.html"
    cli("report", "--out", str(report), db=db)
    text = _page_text(report.read_text())
    assert "Club <Night>, 2026-12-01" in text and "Scorecards that disagree" in text and "-10" in text
    sheet.write_text(FIXED)
    cli("import", str(sheet), db=db)
    cli("report", "--out", str(report), db=db)
    assert "Scorecards that disagree" not in report.read_text()
    with live_server(db, tmp_path) as server, server.client() as client:
        audit = _page_text(client.get("/audit").text)
        home = _page_text(client.get("/").text)
        cards = client.get("/api/v1/scorecards").json()
    assert "Scorecards that disagree" not in audit and "Scorecards that disagree" not in home
    assert cards == {"total": 0, "limit": 50, "offset": 0, "items": []}
    assert "Match findings" in audit  # the match's findings are the match's, whatever the night's cards say
