"""A deal logged without its play (neither ``play`` nor ``pegged``): its pegging cannot be known, so neither can
the board as due from then on. The store keeps no score as due for the game, and ``show`` prints no board as due
(the board as claimed is taken up from the deal's scores, as docs/game-log.md says)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app

HANDS = {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]}
DISCARDS = {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]}


def deal_without_play(scores: dict[str, int]) -> dict[str, Any]:
    """The example deal of docs/game-log.md with no ``play``: Alice deals; Bob shows 9, Alice 12, the crib 6."""
    return {"dealer": "Alice", "starter": "5H", "hands": HANDS, "discards": DISCARDS,
            "show": {"Bob": 9, "Alice": 12, "crib": 6}, "scores": scores}


def test_a_deal_without_its_play_leaves_the_board_as_due_unknown(sqlite_url: str, tmp_path: Path) -> None:
    # the example deal with its play left out: the table kept Alice 6 + 12 + 6 = 24, Bob 3 + 9 = 12
    game = {"format": "cribstats/game/1", "id": "shows-only", "players": ["Alice", "Bob"],
            "deals": [deal_without_play({"Alice": 24, "Bob": 12})]}
    path = write_jsonl(tmp_path / "night.jsonl", [game])
    runner = CliRunner()
    assert runner.invoke(app, ["import", "--db", sqlite_url, "-q", str(path)]).exit_code == 0
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as conn:
        got = conn.execute(sa.text(
            "SELECT p.name, gp.final_score_claimed, gp.final_score_due, gp.won_due FROM game_player gp"
            " JOIN player p ON p.id = gp.player_id ORDER BY gp.seat")).all()
    engine.dispose()
    # the board as claimed is the table's; as due, nothing can say (the shows alone, 18 and 9, leave out the play)
    assert [tuple(row) for row in got] == [("Alice", 24, None, False), ("Bob", 12, None, False)]
    shown = runner.invoke(app, ["show", "--db", sqlite_url, "shows-only"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    assert "Board by the claims: Alice 24, Bob 12\n" in shown.stdout
    assert "due" not in shown.stdout.split("Board by the claims")[1]


def test_a_deal_without_its_play_or_a_board_leaves_the_board_as_claimed_unknown(sqlite_url: str,
                                                                               tmp_path: Path) -> None:
    # the same deal with no board written either: the shows alone (Alice 12 + 6, Bob 9) are not the board, since
    # the play's points are missing; nobody can say who is ahead, nor who won
    deal = deal_without_play({})
    del deal["scores"]
    game = {"format": "cribstats/game/1", "id": "no-board", "players": ["Alice", "Bob"], "deals": [deal]}
    path = write_jsonl(tmp_path / "night.jsonl", [game])
    runner = CliRunner()
    assert runner.invoke(app, ["import", "--db", sqlite_url, "-q", str(path)]).exit_code == 0
    shown = runner.invoke(app, ["show", "--db", sqlite_url, "no-board"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    assert "Board by the claims" not in shown.stdout and "Alice 18" not in shown.stdout
    assert "    Board: not known (the play of this deal or an earlier one is not given)\n" in shown.stdout
    assert "The winner is not known" in shown.stdout and "No side reached the target" not in shown.stdout
