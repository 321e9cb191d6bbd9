"""A night's scorecard sheet and its corrected version imported in one run (two files, or one folder). Imported in
two runs, the corrected sheet stores the game its cards now make and retires the disagreement the first sheet
stored; in one run the first sheet's disagreement was stored all the same, beside the game. The sheet read later
has the word on each game it gives, in one run as across runs (on an SQLite file and on PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

HEAD = "date,event,round,player,opponent,game_points,spread\n"
ANN_BOB = "2026-11-05,Club Night,1,Ann,Bob,2,+18\n2026-11-05,Club Night,1,Bob,Ann,0,-18\n"
ANN_CAT = "2026-11-05,Club Night,2,Ann,Cat,2,+12\n2026-11-05,Club Night,2,Cat,Ann,0,-10\n"  # spreads not opposite
DEE_EVE = "2026-11-05,Club Night,2,Dee,Eve,2,+15\n2026-11-05,Club Night,2,Eve,Dee,2,+15\n"  # both claim the win
WRONG = HEAD + ANN_BOB + ANN_CAT + DEE_EVE
FIXED = HEAD + ANN_BOB + ANN_CAT.replace("Cat,Ann,0,-10", "Cat,Ann,0,-12")  # Dee and Eve's cards left out
ANN_CAT_DISAGREE = ("the cards of Ann against Cat in round 2 disagree: Ann's spread is +12 but Cat's is -10, "
                    "not -12")
DEE_EVE_DISAGREE = "the cards of Dee against Eve in round 2 disagree: both cards claim the win"


def _import(db: str, *args: str) -> str:
    done = CliRunner().invoke(app, ["import", "-q", "--db", db, *args])
    assert done.exit_code == 0, done.output
    return " ".join(done.stdout.split())


def _night(db: str) -> tuple[list[str], list[str]]:
    """The night's cards (``night``) and the messages of its stored scorecard findings."""
    from cribstats.store.db import make_engine
    from cribstats.store.matches import scorecard_findings

    args = ["night", "--db", db, "--event", "club night", "--date", "2026-11-05", "-fjson"]
    placings = json.loads(CliRunner().invoke(app, args).stdout)
    engine = make_engine(db)
    with engine.connect() as conn:
        found = scorecard_findings(conn, event="Club Night")
    engine.dispose()
    return [f"{r['player']} {r['card']}" for r in placings], sorted(f.message for f in found)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_corrected_sheet_read_after_the_first_retires_its_disagreement(
    tmp_path: Path, db_url: str, jobs: str
) -> None:
    (tmp_path / "cards.csv").write_text(WRONG)
    (tmp_path / "cards_v2.csv").write_text(FIXED)
    summary = _import(db_url, "-j", jobs, str(tmp_path / "cards.csv"), str(tmp_path / "cards_v2.csv"))
    assert "games imported │ 2" in summary and "scorecard findings stored │ 1" in summary
    cards, findings = _night(db_url)
    # Ann beat Bob by 18 and Cat by 12; Dee and Eve's cards, which the corrected sheet does not give, still
    # disagree, so their finding stays
    assert cards == ["Ann 4/2 +30", "Cat 0/0 -12", "Bob 0/0 -18"]
    assert findings == [DEE_EVE_DISAGREE]
    text = CliRunner().invoke(app, ["night", "--db", db_url, "--event", "club night", "--date", "2026-11-05"])
    assert "Scorecards that disagree" in text.stdout and "Cat's is -10" not in text.stdout


def test_a_folder_is_read_in_its_order_and_the_later_sheet_has_the_word(tmp_path: Path, db_url: str) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "a_cards.csv").write_text(WRONG)
    (folder / "b_cards_v2.csv").write_text(FIXED)
    _import(db_url, str(folder))
    assert _night(db_url) == (["Ann 4/2 +30", "Cat 0/0 -12", "Bob 0/0 -18"], [DEE_EVE_DISAGREE])


def test_the_first_sheet_read_after_the_corrected_one_has_the_word_as_in_two_runs(
    tmp_path: Path, db_url: str
) -> None:
    # the corrected sheet first, then the old one: the old sheet's disagreement is the word on Ann and Cat's game,
    # and the game the corrected cards made stays stored, as when the two are imported in two runs
    (tmp_path / "cards.csv").write_text(WRONG)
    (tmp_path / "cards_v2.csv").write_text(FIXED)
    _import(db_url, str(tmp_path / "cards_v2.csv"), str(tmp_path / "cards.csv"))
    in_one_run = _night(db_url)
    assert in_one_run == (["Ann 4/2 +30", "Cat 0/0 -12", "Bob 0/0 -18"], [ANN_CAT_DISAGREE, DEE_EVE_DISAGREE])
    two_runs = f"sqlite:///{tmp_path / 'two_runs.db'}"
    _import(two_runs, str(tmp_path / "cards_v2.csv"))
    _import(two_runs, str(tmp_path / "cards.csv"))
    assert _night(two_runs) == in_one_run


def test_a_sheet_read_twice_in_one_run_with_its_correction_between_keeps_the_last_word(
    tmp_path: Path, db_url: str
) -> None:
    (tmp_path / "cards.csv").write_text(WRONG)
    (tmp_path / "cards_v2.csv").write_text(FIXED)
    wrong, fixed = str(tmp_path / "cards.csv"), str(tmp_path / "cards_v2.csv")
    _import(db_url, wrong, fixed, wrong)
    assert _night(db_url)[1] == [ANN_CAT_DISAGREE, DEE_EVE_DISAGREE]
    _import(db_url, fixed, wrong, fixed)
    assert _night(db_url)[1] == [DEE_EVE_DISAGREE]
