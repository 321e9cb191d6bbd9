"""The same game recorded by both tables of a night, each sheet spelling it its own way (the players the other way
round, the event in capitals with a space after it, the default variant and target written out), is one game:
"already stored", counted once in the night, the standings and the stats. Games that differ in anything that
makes them two (the round, a score, a match game's number) stay two; a game with an id or with deals, and an
undated record, are never matched so. On an SQLite file and a PostgreSQL database."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app

HEADER = "date,event,round,player1,player2,score1,score2"
# Table 1's sheet: three games of round 1 and 2. Table 2 sends its own game of round 1 again, its own way.
TABLE_1 = [HEADER, "2026-05-12,Grass Roots,1,Ann,Kim,121,109", "2026-05-12,Grass Roots,1,Bob,Cat,121,80",
           "2026-05-12,Grass Roots,2,Ann,Bob,100,121"]  # fmt: skip
TABLE_2 = [HEADER + ",variant,target", "2026-05-12,GRASS ROOTS ,01,KIM,ann,109,121,six-card,121"]


def _run(*args: str, db: str) -> str:
    result = CliRunner().invoke(app, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.stdout


def _write(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n")
    return path


def _imported(db: str, *paths: Path) -> tuple[int, int]:
    """Games imported and already stored, as ``imports`` records them."""
    _run("import", "-q", *map(str, paths), db=db)
    runs = json.loads(_run("imports", "--format", "json", db=db))
    return sum(r["imported"] for r in runs), sum(r["present"] for r in runs)


def _games_of(db: str) -> dict[str, int]:
    return {row["player"]: row["games"] for row in json.loads(_run("stats", "--format", "json", db=db))}


def test_one_game_sent_by_both_tables_is_stored_once(db_url: str, tmp_path: Path) -> None:
    one, two = _write(tmp_path / "table1.csv", TABLE_1), _write(tmp_path / "table2.csv", TABLE_2)
    assert _imported(db_url, one, two) == (3, 1)
    # by hand: Ann played Kim (round 1) and Bob (round 2), Kim only Ann, Bob Cat and Ann, Cat only Bob
    assert _games_of(db_url) == {"Ann": 2, "Bob": 2, "Cat": 1, "Kim": 1}
    night = json.loads(_run("night", "--event", "grass roots", "--date", "2026-05-12", "--format", "json",
                            db=db_url))  # fmt: skip
    assert {row["player"]: row["games"] for row in night} == {"Ann": 2, "Bob": 2, "Cat": 1, "Kim": 1}


def test_the_second_sheet_sent_later_is_already_stored(db_url: str, tmp_path: Path) -> None:
    one, two = _write(tmp_path / "table1.csv", TABLE_1), _write(tmp_path / "table2.csv", TABLE_2)
    _run("import", "-q", str(one), db=db_url)
    assert _imported(db_url, two) == (3, 1)
    assert _games_of(db_url)["Kim"] == 1


def test_games_that_differ_stay_two(db_url: str, tmp_path: Path) -> None:
    other_round = [HEADER, "2026-05-12,Grass Roots,3,Kim,Ann,109,121"]  # a rematch in another round
    other_score = [HEADER, "2026-05-12,Grass Roots,1,Kim,Ann,110,121"]  # a score the tables disagree on
    match = [HEADER + ",match,match_game", "2026-05-12,Grass Roots,4,Ann,Kim,121,109,final,1",
             "2026-05-12,Grass Roots,4,Ann,Kim,121,109,final,2"]  # fmt: skip
    paths = [_write(tmp_path / f"{name}.csv", rows) for name, rows in
             (("one", TABLE_1), ("round", other_round), ("score", other_score), ("match", match))]  # fmt: skip
    assert _imported(db_url, *paths) == (3 + 1 + 1 + 2, 0)


def test_records_with_an_id_or_no_date_are_never_matched(db_url: str, tmp_path: Path) -> None:
    def record(key: str | None, first: str, second: str, date: str | None = "2026-05-12") -> str:
        game = {"format": "cribstats/game/1", "event": "Grass Roots", "round": "1", "players": [first, second],
                "result": {"winner": "Ann", "scores": {"Ann": 121, "Kim": 109}}}
        return json.dumps({**game, **({"id": key} if key else {}), **({"date": date} if date else {})})

    logs = tmp_path / "logs.jsonl"
    logs.write_text("\n".join([record("t1-g1", "Ann", "Kim"), record("t2-g1", "Kim", "Ann"),  # two ids: two games
                               record(None, "Ann", "Kim", None), record(None, "Kim", "Ann", None)]) + "\n")
    assert _imported(db_url, logs) == (4, 0)
