"""`cribstats bracket --entrants N` against the event's stored qualifying: N says how many entered when not all
their games are stored, so it is never fewer than the players whose qualifying games are stored (on SQLite and
PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.importer import import_paths


def _run(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


def _twelve_entrants(store: sa.Engine, tmp_path: Path) -> None:
    """One qualifying round of six games: twelve entrants, three qualifiers (one in four, rounded up)."""
    rows = ["date,event,round,player1,player2,score1,score2"]
    rows += [f"2026-12-05,Winter Classic,1,W{i},L{i},121,{110 - i}" for i in range(6)]
    (tmp_path / "qualifying.csv").write_text("\n".join(rows) + "\n")
    assert import_paths([tmp_path / "qualifying.csv"], store).complete


def test_fewer_entrants_than_stored_players_is_refused(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    _twelve_entrants(store, tmp_path)
    code, out, err = _run("bracket", "--db", db_url, "--event", "winter classic", "--entrants", "3")
    assert code == 2
    assert out == ""
    said = " ".join(err.split())
    assert "--entrants 3" in said and "12 players" in said and "winter classic" in said


def test_as_many_or_more_entrants_than_stored_players_draws(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    _twelve_entrants(store, tmp_path)
    for entrants, qualifiers in (("12", 3), ("13", 4)):
        code, out, err = _run("bracket", "--db", db_url, "--event", "winter classic", "--entrants", entrants,
                              "-f", "json")  # fmt: skip
        assert code == 0, err
        seeds = {s["seed1"] for s in json.loads(out)} | {s["seed2"] for s in json.loads(out)}
        assert max(seeds) == qualifiers


def test_one_qualifier_is_the_champion_without_a_playoff(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    """Four entrants or fewer give one qualifier (one in four, rounded up): there is no playoff to draw, and the
    qualifier is the event's champion. The title counts in words a director would write (1 qualifier, 1 bye)."""
    rows = ["date,event,round,player1,player2,score1,score2",
            "2026-12-05,Small Open,1,Ann,Bob,121,100", "2026-12-05,Small Open,2,Ann,Cat,121,110"]  # fmt: skip
    (tmp_path / "small.csv").write_text("\n".join(rows) + "\n")
    assert import_paths([tmp_path / "small.csv"], store).complete
    code, out, err = _run("bracket", "--db", db_url, "--event", "small open")
    assert code == 0, err
    assert "3 entrants, 1 qualifier, 0 byes" in " ".join(out.split())
    assert "Champion: Ann (the one qualifier: no playoff)" in " ".join(err.split())
    code, out, err = _run("bracket", "--db", db_url, "--event", "small open", "--entrants", "12")
    assert code == 0, err
    assert "12 entrants, 3 qualifiers, 1 bye" in " ".join(out.split())
    assert "Champion" not in err
