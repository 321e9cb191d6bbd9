"""A scorecard's spread written with the minus sign the scorecard page itself prints ("the spread as + or −",
U+2212), as phones and word processors also put it, is the loser's spread: the two cards agree and make the game
(`cribstats audit` and `import` read the sheet; on an SQLite file)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app

SHEET = "date,event,round,player,opponent,game_points,spread\n" \
        "2026-11-28,Club Night,1,Zoë,Bob,2,+30\n2026-11-28,Club Night,1,Bob,Zoë,0,\u221230\n"  # fmt: skip


def test_a_spread_with_a_typographic_minus_is_read(tmp_path: Path) -> None:
    (tmp_path / "cards.csv").write_text(SHEET, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'club.db'}"
    done = CliRunner().invoke(app, ["import", str(tmp_path / "cards.csv"), "--db", db])
    assert done.exit_code == 0, done.output
    night = CliRunner().invoke(app, ["night", "--db", db, "--event", "club night", "--date", "2026-11-28",
                                     "-fjson"])  # fmt: skip
    assert [(r["player"], r["card"]) for r in json.loads(night.stdout)] == [("Zoë", "2/1 +30"), ("Bob", "0/0 -30")]
