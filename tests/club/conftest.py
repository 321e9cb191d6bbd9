"""The fixtures of the club-table tests: the simulated season's logs, its store and its decided games."""

from __future__ import annotations

from pathlib import Path

import pytest

from club.club_season import Played, decided_games, season_logs, season_store


@pytest.fixture
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The season's logs (written once a test session)."""
    return season_logs(tmp_path_factory)


@pytest.fixture
def season_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The season imported into an SQLite file (once a test session)."""
    return season_store(tmp_path_factory)


@pytest.fixture
def played(season: Path) -> list[Played]:
    """Every decided game of the season, read from the logs."""
    return list(decided_games(season))
