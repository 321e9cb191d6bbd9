"""A match known only from its games (a tally sheet's ``match`` and ``match_game`` columns, no record) is where and
when its first game stored was played: the event filter finds it, and the bracket fills its slot from it. Before,
it had no event and no date, so ``matches --event`` left it out and the bracket's slot stayed open. Real commands
on a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app

# twelve entrants: three qualifiers (Ann, Ben, Cat by game points), Ann has the bye; Ben and Cat play a
# best-of-three semi written only as games of match "semi" (Cat wins 2-1)
QUALIFYING = """date,event,round,player1,player2,score1,score2
2026-12-05,Club Cup,1,Ann,Dan,121,80
2026-12-05,Club Cup,1,Ben,Eve,121,100
2026-12-05,Club Cup,1,Cat,Fay,121,100
2026-12-05,Club Cup,1,Gus,Hal,121,100
2026-12-05,Club Cup,1,Ian,Joe,121,100
2026-12-05,Club Cup,1,Kim,Lee,121,100
2026-12-05,Club Cup,2,Ann,Eve,121,80
2026-12-05,Club Cup,2,Ben,Fay,121,100
2026-12-05,Club Cup,2,Cat,Dan,121,100
"""
SEMI = """date,event,round,player1,player2,score1,score2,match,match_game
2026-12-06,Club Cup,semi,Ben,Cat,121,85,semi,1
2026-12-06,Club Cup,semi,Cat,Ben,121,60,semi,2
2026-12-06,Club Cup,semi,Cat,Ben,121,50,semi,3
"""


def test_a_match_from_its_games_has_their_event_and_date(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    (tmp_path / "qualifying.csv").write_text(QUALIFYING)
    (tmp_path / "semi.csv").write_text(SEMI)
    for sheet in ("qualifying.csv", "semi.csv"):
        done = CliRunner().invoke(app, ["import", str(tmp_path / sheet), "--db", db])
        assert done.exit_code == 0, done.output
    found = json.loads(CliRunner().invoke(app, ["matches", "--db", db, "--event", "club cup", "-fjson"]).stdout)
    assert [(m["match"], m["event"], str(m["date"]), m["winner"], m["score"]) for m in found] == [
        ("semi", "Club Cup", "2026-12-06", "Cat", "1-2")]
    bracket = json.loads(CliRunner().invoke(app, ["bracket", "--db", db, "--event", "Club Cup", "--entrants", "12",
                                                  "-fjson"]).stdout)
    first_round = [row for row in bracket if row["round"] == 1]
    assert [(row["side1"], row["side2"], row["winner"]) for row in first_round] == [("Ben", "Cat", "Cat")]


def test_migration_0017_gives_matches_stored_before_their_first_games_setting(tmp_path: Path, db_url: str) -> None:
    import sqlalchemy as sa
    from databases import migrate

    from cribstats.store.db import make_engine
    from cribstats.store.tables import event_table, match_table

    (tmp_path / "semi.csv").write_text(SEMI)
    assert CliRunner().invoke(app, ["import", str(tmp_path / "semi.csv"), "--db", db_url]).exit_code == 0
    engine = make_engine(db_url)
    try:
        m = match_table
        migrate(engine, "downgrade", "0016")
        with engine.begin() as conn:  # the row as the store wrote it before: no event, date or site
            conn.execute(sa.update(m).values(event_id=None, date=None, site=None))
        migrate(engine, "upgrade", "head")
        with engine.connect() as conn:
            row = conn.execute(sa.select(m.c.source_id, event_table.c.name, m.c.date)
                               .join(event_table, event_table.c.id == m.c.event_id)).one()  # fmt: skip
    finally:
        engine.dispose()
    assert (row.source_id, row.name, str(row.date)) == ("semi", "Club Cup", "2026-12-06")


def test_a_record_arriving_later_without_a_setting_keeps_the_games_one(tmp_path: Path) -> None:
    """The record of the semi, sent after its games and saying nothing of where or when, blanked the match's
    event and date: ``matches --event`` lost it again."""
    db = f"sqlite:///{tmp_path / 'club.db'}"
    (tmp_path / "semi.csv").write_text(SEMI)
    record = {"format": "cribstats/match/1", "id": "semi", "players": ["Ben", "Cat"], "rules": "best-of-3",
              "result": {"winner": "Cat"}}
    (tmp_path / "semi-record.json").write_text(json.dumps(record))
    for name in ("semi.csv", "semi-record.json"):
        done = CliRunner().invoke(app, ["import", str(tmp_path / name), "--db", db])
        assert done.exit_code == 0, done.output
    found = json.loads(CliRunner().invoke(app, ["matches", "--db", db, "--event", "club cup", "-fjson"]).stdout)
    assert [(m["match"], m["event"], str(m["date"]), m["winner"]) for m in found] == [
        ("semi", "Club Cup", "2026-12-06", "Cat")]
    # a record that does say where wins over the games
    record |= {"event": "Winter Cup", "date": "2026-12-07"}
    (tmp_path / "semi-record.json").write_text(json.dumps(record))
    done = CliRunner().invoke(app, ["import", "--replace", str(tmp_path / "semi-record.json"), "--db", db])
    assert done.exit_code == 0, done.output
    found = json.loads(CliRunner().invoke(app, ["matches", "--db", db, "-fjson"]).stdout)
    assert [(m["match"], m["event"], str(m["date"])) for m in found] == [("semi", "Winter Cup", "2026-12-07")]
