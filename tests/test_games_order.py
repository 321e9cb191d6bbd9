"""``cribstats games`` lists a night's games in the order they were played: by date, then round (in numeric
order), then table (the order of the file, and of the files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app


def result(game_id: str, date: str | None, round_: str | None, a: str, b: str) -> dict[str, Any]:
    log: dict[str, Any] = {"format": "cribstats/game/1", "id": game_id, "event": "Tuesday League",
                           "players": [a, b], "result": {"winner": a, "scores": {a: 121, b: 100}}}
    if date:
        log["date"] = date
    if round_:
        log["round"] = round_
    return log


def test_games_of_an_event_come_by_date_round_and_table(sqlite_url: str, tmp_path: Path) -> None:
    # two sheets of one night and one of the week before, imported newest first, rounds out of order
    night = [result("n-r10-t1", "2026-11-03", "10", "A", "B"), result("n-r2-t1", "2026-11-03", "2", "C", "D"),
             result("n-r2-t2", "2026-11-03", "2", "E", "F"), result("n-r1-t1", "2026-11-03", "1", "A", "C")]
    late = [result("n-r1-t2", "2026-11-03", "1", "B", "D"), result("n-final", "2026-11-03", "final", "A", "E")]
    before = [result("w-r1-t1", "2026-10-27", "1", "A", "B"), result("undated", None, None, "C", "D")]
    files = [write_jsonl(tmp_path / "a-night.jsonl", night), write_jsonl(tmp_path / "b-late.jsonl", late),
             write_jsonl(tmp_path / "c-before.jsonl", before)]
    for path in files:
        assert CliRunner().invoke(app, ["import", "--db", sqlite_url, "-q", str(path)]).exit_code == 0
    listed = CliRunner().invoke(app, ["games", "--db", sqlite_url, "--event", "tuesday league",
                                      "--format", "json"])
    order = [g["game"] for g in orjson.loads(listed.stdout)]
    assert order == ["w-r1-t1",  # the week before
                     "n-r1-t1", "n-r1-t2",  # round 1: table 1 of the first sheet, then the second sheet's
                     "n-r2-t1", "n-r2-t2",  # round 2 in file order
                     "n-r10-t1",  # round 10 after round 2
                     "n-final",  # a named round after the numbered ones
                     "undated"]
    limited = CliRunner().invoke(app, ["games", "--db", sqlite_url, "--limit", "2", "--format", "json"])
    assert [g["game"] for g in orjson.loads(limited.stdout)] == order[:2]


def test_natural_order_of_rounds_and_places() -> None:
    from cribstats.store.queries import natural_key

    assert sorted(["line 10", "line 9", "line 100"], key=natural_key) == ["line 9", "line 10", "line 100"]
    assert sorted(["[12]", "[3]"], key=natural_key) == ["[3]", "[12]"]
    assert sorted(["Final", "semi-final", "2", None, "1"], key=natural_key) == ["1", "2", "Final", "semi-final",
                                                                               None]
