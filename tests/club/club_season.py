"""The simulated club season the club-table tests recompute from the logs, field for field.

A Grass Roots season of 32 weekly nights (ten players, nine games each a night, scored 2/3/0), a few nights of
four-player and three-player games in other events, and two playoff nights of matches (best of three, and first
to 7 match points with a triple skunk winning at once), imported into a real database; the tests (``test_club_*``)
work every table the club commands print out again straight from the logs (``cribstats.formats`` and
``cribstats.replay`` for the games, the match records' own games and results for the matches: no database, no
polars), from the rules as the clubs write them. The logs and the store are built once a test session;
``conftest.py`` hands them to the tests.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date as Date
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.formats import read_paths
from cribstats.match.model import MatchRules
from cribstats.replay import replay
from cribstats.simulate import simulate_games
from cribstats.simulate.club import simulate_matches
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

NAMES = [f"Player {c}" for c in "ABCDEFGHIJ"]
NIGHTS = 32
LEAGUE = "Grass Roots"
OTHERS = [("four-player", 24, "Partners"), ("three-player", 18, "Cutthroat")]
PLAYOFFS = [  # matches, rules, night
    (16, MatchRules(), Date(2026, 8, 4)),
    (12, MatchRules(first_to=7, count="points", triple_skunk_wins=True), Date(2026, 8, 11)),
]


def write_season(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "league.jsonl", "wb") as handle:
        for game in simulate_games(45 * NIGHTS, players=NAMES, seed=21, mistake_rate=0.01, events=[LEAGUE],
                                   start_date="2026-01-06", games_per_night=45):  # fmt: skip
            handle.write(orjson.dumps(game.log) + b"\n")
    for variant, n, event in OTHERS:
        with open(folder / f"{variant}.jsonl", "wb") as handle:
            for game in simulate_games(n, variant=variant, players=NAMES[:6], seed=22, events=[event],
                                       start_date="2026-02-05", games_per_night=6):  # fmt: skip
                handle.write(orjson.dumps(dict(game.log, id=f"{variant}-{game.log['id']}")) + b"\n")
    with open(folder / "playoffs.jsonl", "wb") as handle:
        for seed, (n, rules, night) in enumerate(PLAYOFFS, start=30):
            for record in simulate_matches(n, NAMES[:6], rules, seed=seed, event="Playoffs", date=night):
                handle.write(orjson.dumps(record) + b"\n")


_BUILT: dict[str, Any] = {}  # the season's logs and store, built once a test session


def season_logs(factory: pytest.TempPathFactory) -> Path:
    if "logs" not in _BUILT:
        folder = factory.mktemp("club") / "logs"
        write_season(folder)
        _BUILT["logs"] = folder
    return _BUILT["logs"]  # type: ignore[no-any-return]


def season_store(factory: pytest.TempPathFactory) -> str:
    if "store" not in _BUILT:
        url = f"sqlite:///{factory.mktemp('clubdb') / 'club.db'}"
        summary = import_paths([season_logs(factory)], make_engine(url))
        assert summary.complete, summary.refused
        _BUILT["store"] = url
    return _BUILT["store"]  # type: ignore[no-any-return]


# --- the logs, read again ---------------------------------------------------------------------------------------


@dataclass
class Played:
    """One decided game as the logs give it."""

    order: int
    event: str | None
    date: Date | None
    sides: list[list[str]]  # partners together, in seat order of their first player
    won: int  # index of the winning side
    margins: list[int]  # per side: target less its final claimed score (never below 0); 0 for the winner
    levels: list[int]  # per side: skunk level of its loss (0 for the winner)
    scores: list[int]
    round: str | None
    key: str
    file: str  # the log file's name and the game's line in it: where a night's games of one round follow
    line: tuple[int, ...]


@cache
def decided_games(folder: Path) -> tuple[Played, ...]:
    games = []
    for i, source in enumerate(read_paths([str(folder)])):
        game, outcome = source.game, replay(source.game)
        if not outcome.winners:
            continue
        partners = len(game.players) == 4
        sides = [[game.players[0], game.players[2]], [game.players[1], game.players[3]]] if partners else [
            [p] for p in game.players]  # fmt: skip
        scores = [outcome.scores_claimed[side[0]] for side in sides]
        won = next(k for k, side in enumerate(sides) if side[0] in outcome.winners)
        target = outcome.target
        margins = [0 if k == won else max(target - s, 0) for k, s in enumerate(scores)]
        levels = [0 if k == won else sum(s < target - 30 * n for n in (1, 2, 3)) for k, s in enumerate(scores)]
        day = Date.fromisoformat(game.date) if game.date else None
        line = tuple(int(n) for n in re.findall(r"\d+", source.place))  # "line 4", "line 2: games[1]"
        games.append(Played(i, game.event, day, sides, won, margins, levels, scores, game.round, outcome.key,
                            Path(source.file).name, line))  # fmt: skip
    return tuple(games)


def _player_lines(games: list[Played]) -> dict[str, dict[str, int]]:
    """Per player: games, wins, game points (2/3/0), spread, skunks given and taken."""
    out: dict[str, dict[str, int]] = defaultdict(Counter)  # type: ignore[arg-type]
    for g in games:
        worst = max(g.levels)
        for k, side in enumerate(g.sides):
            for p in side:
                line = out[p]
                for name in ("wins", "game_points", "spread", "skunks_given", "skunks_taken"):
                    line[name] += 0  # every figure is there, 0 included
                line["games"] += 1
                if k == g.won:
                    line["wins"] += 1
                    line["game_points"] += 3 if worst else 2
                    line["spread"] += sum(g.margins)
                    line["skunks_given"] += worst > 0
                else:
                    line["spread"] -= g.margins[k]
                    line["skunks_taken"] += g.levels[k] > 0
    return out


def _ordered(lines: dict[str, dict[str, int]]) -> list[str]:
    return sorted(
        lines, key=lambda p: (-lines[p]["game_points"], -lines[p]["wins"], -lines[p]["spread"], p.lower())
    )


def _places(lines: dict[str, dict[str, int]], order: list[str]) -> list[int]:
    key = [(lines[p]["game_points"], lines[p]["wins"], lines[p]["spread"]) for p in order]
    return [key.index(k) + 1 for k in key]


def _cli(url: str, *args: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(app, [*args, "--db", url, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _nights(games: list[Played]) -> list[tuple[str, Date]]:
    return sorted({(g.event or "", g.date) for g in games if g.date is not None}, key=lambda n: (n[1], n[0]))
