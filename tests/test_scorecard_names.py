"""A scorecard's names, event, round and date follow the rules of a game log's, card by card: a lone card (whose
game is a finding, not a log) or a pair that disagrees stored a player whose name the logs refuse (a zero-width
space in it). Now such a card is refused at its line and column, and nothing of it is stored."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app

HEADER = "date,event,round,player,opponent,game_points,spread\n"


def imported(tmp_path: Path, rows: str) -> tuple[int, str, list[str]]:
    (tmp_path / "cards.csv").write_text(HEADER + rows, encoding="utf-8")
    db = tmp_path / "club.db"
    done = CliRunner().invoke(app, ["import", str(tmp_path / "cards.csv"), "--db", f"sqlite:///{db}"])
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        names = sorted(conn.execute(sa.text("SELECT name FROM player")).scalars())
    engine.dispose()
    return done.exit_code, done.stderr, names


def test_a_lone_card_naming_a_player_the_logs_refuse_is_refused_at_its_column(tmp_path: Path) -> None:
    code, err, names = imported(tmp_path, "2026-01-05,Club,1,Bob,Ann\u200b,0,-10\n2026-01-05,Club,2,Cy,Di,2,10\n")
    assert code == 2
    assert "cards.csv:line 2: opponent: a player's name may not hold U+200B" in err
    assert names == ["Di"]  # line 3's lone card is a finding on Di, whose card is missing; line 2 stored nothing


def test_a_card_whose_date_is_no_date_is_refused(tmp_path: Path) -> None:
    code, err, names = imported(tmp_path, "2026-13-05,Club,1,Bob,Ann,0,-10\n2026-13-05,Club,1,Ann,Bob,2,10\n")
    assert code == 2
    assert "line 2: date: '2026-13-05' is not a date of the calendar" in err
    assert "line 3: date: '2026-13-05' is not a date of the calendar" in err
    assert names == []


def test_a_name_is_kept_as_the_logs_keep_it(tmp_path: Path) -> None:
    zoe = unicodedata.normalize("NFD", "Zoë")
    code, err, names = imported(tmp_path, f"2026-01-05,Club,1,{zoe},Ann,0,-10\n2026-01-05,Club,1,Ann,Zoë,2,10\n")
    assert code == 0, err
    assert names == ["Ann", "Zo\u00eb"]
