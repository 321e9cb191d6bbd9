"""Simulated games: whole games of every variant between sensible players, optionally with known mistakes.

:func:`simulate_games` yields each game's log (docs/game-log.md) with the findings the audit must give
for it (findings version 1, docs/findings.md): none when ``mistake_rate`` is 0.

>>> game = next(simulate_games(1, seed=7))
>>> game.log["format"], game.log["variant"], game.findings
('cribstats/game/1', 'six-card', [])
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from datetime import timedelta
from typing import Any

from cribstats.simulate.game import GameRun, GameSetup, SimulationError
from cribstats.simulate.mistakes import Mistakes
from cribstats.simulate.players import Player
from cribstats.variants import find_variant

__all__ = ["DEFAULT_NAMES", "Player", "SimulatedGame", "SimulationError", "default_strength", "simulate_games"]

DEFAULT_NAMES = (
    "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Hank", "Irene", "Jack", "Kate", "Leo",
)
DAYS_BETWEEN_NIGHTS = 7  # an event meets once a week


@dataclass(slots=True)
class SimulatedGame:
    """One simulated game: its log as a dict, and the findings the audit must produce for it, in game order."""

    log: dict[str, Any]
    findings: list[dict[str, Any]]


def default_strength(name: str) -> float:
    """A player's strength when none is given: fixed by the name, between 0.5 and 1.

    >>> default_strength("Alice") == default_strength("Alice")
    True
    >>> 0.5 <= default_strength("Bob") <= 1.0
    True
    """
    return 0.5 + 0.5 * (zlib.crc32(name.encode()) % 1001) / 1000


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "game"


def simulate_games(
    n: int,
    *,
    variant: str = "six-card",
    players: Sequence[str] | None = None,
    seed: int = 0,
    mistake_rate: float = 0.0,
    strengths: Mapping[str, float] | None = None,
    muggins: bool = False,
    events: Sequence[str] = (),
    start_date: Date | str | None = None,
    games_per_night: int = 40,
    site: str | None = None,
    target: int | None = None,
    random_players: bool = False,
    method: str = "table",
) -> Iterator[SimulatedGame]:
    """Yield ``n`` simulated games, one at a time (memory does not grow with ``n``), the same for the same seed.

    ``players`` are names: with more names than seats, each round of a club night seats every player of the
    pool once at random. ``strengths`` (0..1 by name) default to :func:`default_strength`. ``events`` cycle by
    night; with ``start_date``, each night of ``games_per_night`` games is dated, an event meeting weekly.
    ``mistake_rate`` is the chance of an error at each opportunity (see :mod:`cribstats.simulate.mistakes`).

    :raises VariantError: for an unknown variant.
    :raises ValueError: for too few or repeated names, or a rate outside 0..1.
    """
    rules = find_variant(variant)
    names = list(players) if players else list(DEFAULT_NAMES[: rules.players])
    if len(names) < rules.players:
        raise ValueError(f"{rules.name} needs {rules.players} players, not {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError("player names must be distinct")
    if not 0.0 <= mistake_rate <= 1.0:
        raise ValueError(f"the mistake rate is a chance per opportunity, from 0 to 1, not {mistake_rate}")
    pool = [Player(name, (strengths or {}).get(name, default_strength(name))) for name in names]
    first_date = Date.fromisoformat(start_date) if isinstance(start_date, str) else start_date
    tables = max(1, len(pool) // rules.players)
    prefix = _slug(events[0]) if len(events) == 1 else rules.name
    seating = random.Random(f"{seed}:seating")
    seats: list[Player] = []
    for i in range(n):
        night, in_night = divmod(i, games_per_night)
        round_no, table = divmod(in_night, tables)
        if table == 0:  # a new round: everyone is seated afresh
            order = list(pool)
            seating.shuffle(order)
            seats = order
        group = seats[table * rules.players : (table + 1) * rules.players]
        meta: dict[str, str] = {}
        if events:
            meta["event"] = events[night % len(events)]
        if first_date is not None:
            week, nth = divmod(night, max(1, len(events)))
            meta["date"] = (first_date + timedelta(days=week * DAYS_BETWEEN_NIGHTS + nth)).isoformat()
        if site:
            meta["site"] = site
        if len(pool) > rules.players or first_date is not None:  # a club night: rounds of tables
            meta["round"] = str(round_no + 1)
        setup = GameSetup(
            game_id=f"{prefix}-s{seed}-g{i + 1:06d}",
            variant=rules,
            players=group,
            target=target or rules.target,
            muggins=muggins,
            meta=meta,
            random_players=random_players,
            method=method,
        )
        errors = Mistakes(mistake_rate, random.Random(f"{seed}:{i}:errors"))
        run = GameRun(setup, random.Random(f"{seed}:{i}:play"), errors)
        log, findings = run.play()
        yield SimulatedGame(log, findings)
