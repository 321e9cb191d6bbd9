"""A night's scorecards corrected after the import: the director fixes the card that disagreed and imports the
sheet again. The game the two cards now make is stored, and the disagreement they no longer have is not listed
beside it any more (`cribstats night`; on an SQLite file)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app

HEAD = "date,event,round,player,opponent,game_points,spread\n"
AGREE = "2026-11-05,Club Night,1,Ann,Bob,2,+18\n2026-11-05,Club Night,1,Bob,Ann,0,-18\n"
WRONG = HEAD + AGREE + "2026-11-05,Club Night,2,Ann,Cat,2,+12\n2026-11-05,Club Night,2,Cat,Ann,0,-10\n"
FIXED = WRONG.replace("Cat,Ann,0,-10", "Cat,Ann,0,-12")


def _night(db: str) -> tuple[list[str], str]:
    args = ["night", "--db", db, "--event", "club night", "--date", "2026-11-05"]
    placings = json.loads(CliRunner().invoke(app, [*args, "-fjson"]).stdout)
    return [f"{r['player']} {r['card']}" for r in placings], CliRunner().invoke(app, args).stdout


def test_a_corrected_card_retires_the_disagreement(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    sheet = tmp_path / "cards.csv"
    sheet.write_text(WRONG)
    assert CliRunner().invoke(app, ["import", str(sheet), "--db", db]).exit_code == 0
    cards, table = _night(db)
    assert cards == ["Ann 2/1 +18", "Bob 0/0 -18"] and "Scorecards that disagree" in table
    sheet.write_text(FIXED)
    done = CliRunner().invoke(app, ["import", str(sheet), "--db", db])
    assert done.exit_code == 0 and "retired, the cards corrected │ 1" in " ".join(done.stdout.split())
    cards, table = _night(db)
    assert cards == ["Ann 4/2 +30", "Cat 0/0 -12", "Bob 0/0 -18"]
    assert "Scorecards that disagree" not in table


def test_a_card_changed_but_still_wrong_replaces_its_disagreement_and_leaves_the_others(tmp_path: Path) -> None:
    # Ann and Cat's cards disagree on the spread (+12 against -10), Dee and Eve's on the winner (both claim it).
    # Cat's card is changed to -11: still wrong, so one finding of Ann and Cat's (the new spreads), not two; Dee
    # and Eve's cards were not changed, and their finding stays as it was
    from cribstats.store.db import make_engine
    from cribstats.store.matches import scorecard_findings

    both = "2026-11-05,Club Night,2,Dee,Eve,2,+15\n2026-11-05,Club Night,2,Eve,Dee,2,+15\n"
    db = f"sqlite:///{tmp_path / 'club.db'}"
    sheet = tmp_path / "cards.csv"
    for text in (WRONG + both, WRONG.replace("Cat,Ann,0,-10", "Cat,Ann,0,-11") + both):
        sheet.write_text(text)
        assert CliRunner().invoke(app, ["import", str(sheet), "--db", db]).exit_code == 0
    engine = make_engine(db)
    with engine.connect() as conn:
        found = scorecard_findings(conn, event="Club Night")
    engine.dispose()
    messages = sorted(f.message for f in found)
    assert len(messages) == 2, messages
    assert any("+12" in m and "-11" in m for m in messages) and not any("-10" in m for m in messages)
    assert any("Dee" in m and "Eve" in m for m in messages)
