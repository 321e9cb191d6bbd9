"""The night's table for people: a scorecard finding the cards cannot pin on either player has no player, shown
as the tables show any missing value (`-`), so that it cannot be read as a player called "None" (a name the
rule allows, shown as typed). On an SQLite file."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cribstats.cli.app import app

# Round 1: "None" beats Bob by 15, both cards agree. Round 2: both Cat and Dan claim the win: one finding, player
# null (the cards cannot tell whose is wrong).
CARDS = """date,event,round,player,opponent,game_points,spread
2026-06-02,Club Night,1,None,Bob,2,15
2026-06-02,Club Night,1,Bob,None,0,-15
2026-06-02,Club Night,2,Cat,Dan,2,20
2026-06-02,Club Night,2,Dan,Cat,2,20
"""


def _rows(table: str, heading: str) -> list[list[str]]:
    """The body rows of one titled table of the output, split on runs of spaces."""
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    rule = next(i for i in range(start, len(lines)) if set(lines[i].strip()) == {"─"})
    body = []
    for line in lines[rule + 1:]:
        if not line.strip():
            break
        body.append(line.split())
    return body


def test_a_finding_without_a_player_is_not_a_player_called_none(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    (tmp_path / "cards.csv").write_text(CARDS)
    assert CliRunner().invoke(app, ["import", str(tmp_path / "cards.csv"), "--db", db]).exit_code == 0
    done = CliRunner().invoke(app, ["night", "--db", db, "--event", "club night", "--date", "2026-06-02"])
    assert done.exit_code == 0, done.output
    placings = _rows(done.stdout, "Placings: Club Night, 2026-06-02")
    assert [row[1] for row in placings] == ["None", "Bob"]  # the player called None, as typed
    findings = _rows(done.stdout, "Scorecards that disagree")
    assert len(findings) == 1
    game, player = findings[0][:2]
    assert (game, player) == ("-", "-")
