"""One club night whose sheets spell the event two ways (`Club Night`, `club night`, `CLUB NIGHT `) is one night:
the season counts it once for each player, with all of the night's games, and every table names it as the store
first spelled it (on SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.importer import import_paths

# Round 1 on the first sheet, round 2 on the second, typed otherwise. Ann beats Bob 121-100 (+21) and Cat 121-110
# (+11): 4 game points, +32, a Grand Slam. Cat beats Dan 121-80 (a skunk: 3, +41) and loses to Ann (-11): 3, +30.
# Bob loses to Ann (-21) and beats Dan 121-111 (+10): 2, -11. Dan: 0, -51.
FIRST = (
    "date,event,round,player1,player2,score1,score2\n"
    "2026-11-25,Club Night,1,Ann,Bob,121,100\n2026-11-25,Club Night,1,Cat,Dan,121,80\n"
)
SECOND = (
    "date,event,round,player1,player2,score1,score2\n"
    "2026-11-25,club night,2,Ann,Cat,121,110\n2026-11-25,CLUB NIGHT ,2,Bob,Dan,121,111\n"
)


def _json(*args: str) -> list[dict[str, object]]:
    done = CliRunner().invoke(app, [*args, "--format", "json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_a_night_spelt_two_ways_is_one_night(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    (tmp_path / "round1.csv").write_text(FIRST)
    (tmp_path / "round2.csv").write_text(SECOND)
    assert import_paths([tmp_path / "round1.csv", tmp_path / "round2.csv"], store).complete
    season = _json("season", "--db", db_url)
    assert [
        (r["player"], r["nights"], r["games"], r["game_points"], r["average"], r["spread"]) for r in season
    ] == [
        ("Ann", 1, 2, 4, 4.0, 32),
        ("Cat", 1, 2, 3, 3.0, 30),
        ("Bob", 1, 2, 2, 2.0, -11),
        ("Dan", 1, 2, 0, 0.0, -51),
    ]
    assert season == _json("season", "--db", db_url, "--event", "CLUB night")
    night = _json("night", "--db", db_url, "--event", "club night", "--date", "2026-11-25")
    assert [(r["player"], r["card"], r["grand_slam"]) for r in night] == [
        ("Ann", "4/2 +32", True),
        ("Cat", "3/1 +30", False),
        ("Bob", "2/1 -11", False),
        ("Dan", "0/0 -51", False),
    ]
    table = CliRunner().invoke(app, ["night", "--db", db_url, "--event", "CLUB NIGHT", "--date", "2026-11-25"])
    assert "Placings: Club Night, 2026-11-25" in table.stdout
