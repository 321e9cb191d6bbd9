"""The club tables on PostgreSQL equal the ones recomputed from the season's logs (:mod:`club_season`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from club.club_season import LEAGUE, NAMES, Played, _cli, _nights
from club.test_club_head_to_head import expected_pairs, expected_player_matches
from club.test_club_nights import expected_night
from club.test_club_seasons import _same, expected_season
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths


@pytest.mark.postgres
def test_postgresql_agrees(played: list[Played], season: Path, pg_url: str) -> None:
    assert import_paths([season], make_engine(pg_url)).complete
    for event, day in _nights(played)[::7]:
        assert _cli(pg_url, "night", "--event", event, "--date", day.isoformat()) == expected_night(
            played, event, day
        )
    _same(_cli(pg_url, "season", "--event", LEAGUE, "--quarters", "--drop-lowest"),
          expected_season(played, quarters=True, drop_lowest=True, period="season", event=LEAGUE))  # fmt: skip
    got = {(r.pop("player"), r.pop("opponent")): r for r in _cli(pg_url, "head-to-head")}
    assert got == expected_pairs(played, season)
    won = {p: line["matches_won"] for p, line in expected_player_matches(season).items()}
    assert {r["player"]: r["matches_won"] for r in _cli(pg_url, "stats")} == {p: won.get(p, 0) for p in NAMES}
    sqlite_ratings = {r["player"]: r["mu"] for r in _cli(pg_url, "rating")}
    assert len(sqlite_ratings) == len(NAMES)
