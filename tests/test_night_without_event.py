"""A night of games recorded with no event is a night as any other: `season` counts it and the report may show it
as the latest night, so `night --date D` (no `--event`) and the API's `nights?date=D` give its placings."""

from __future__ import annotations

import json
from pathlib import Path

from service_server import cli, live_server
from typer.testing import CliRunner

from cribstats.cli.app import app

# by hand: with no event, Ann beats Bob twice (121-100, then 121-58: a double skunk, 3 game points): Ann 2 games,
# 2 won, 5 game points, +21 +63 = +84; Bob 0 won, -84. The night of "Named" is Ann against Cy alone.
SHEET = """date,event,round,player1,player2,score1,score2
2026-06-02,,1,Ann,Bob,121,100
2026-06-02,,2,Ann,Bob,121,58
2026-06-02,Named,1,Cy,Ann,121,90
"""
EXPECTED = [("Ann", 2, 2, 5, 84), ("Bob", 2, 0, 0, -84)]


def _placings(rows: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(r["player"], r["games"], r["wins"], r["game_points"], r["spread"]) for r in rows]


def test_the_night_of_no_event(tmp_path: Path) -> None:
    sheet = tmp_path / "night.csv"
    sheet.write_text(SHEET)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    cli("import", str(sheet), db=db)
    shown = CliRunner().invoke(app, ["night", "--date", "2026-06-02", "--db", db, "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert _placings(json.loads(shown.stdout)) == EXPECTED
    named = CliRunner().invoke(app, ["night", "--date", "2026-06-02", "--event", "named", "--db", db, "--format",
                                     "json"])  # fmt: skip
    # Cy 121-90: 90 is under 91, a skunk, 3 game points
    assert _placings(json.loads(named.stdout)) == [("Cy", 1, 1, 3, 31), ("Ann", 1, 0, 0, -31)]
    with live_server(db, tmp_path) as live, live.client() as client:
        for params in ({"date": "2026-06-02"}, {"date": "2026-06-02", "event": ""}):
            page = client.get("/api/v1/nights", params=params)
            assert page.status_code == 200, page.text
            assert _placings(page.json()["items"]) == EXPECTED
