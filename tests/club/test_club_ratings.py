"""Ratings, recomputed from the season's logs with openskill's own model (:mod:`club_season`)."""

from __future__ import annotations

from collections import Counter
from datetime import date as Date
from typing import Any

import pytest
from openskill.models import PlackettLuce

from club.club_season import Played, _cli

# --- ratings ----------------------------------------------------------------------------------------------------


def test_ratings_follow_openskill_game_by_game(played: list[Played], season_db: str) -> None:
    """openskill's Plackett-Luce, run here over the games in play order (by date, undated last; a day's games by
    round, as numbers; then by the log file and the line in it), ranks from the result: the winner first, the
    others by score."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    counts: Counter[str] = Counter()
    for g in sorted(played, key=lambda g: (g.date is None, g.date or Date.min, int(g.round or 0), g.file, g.line)):
        losing = sorted({s for j, s in enumerate(g.scores) if j != g.won}, reverse=True)
        ranks = [0 if k == g.won else 1 + losing.index(g.scores[k]) for k in range(len(g.sides))]
        teams = [[ratings.get(p) or model.rating() for p in side] for side in g.sides]
        for side, new in zip(g.sides, model.rate(teams, ranks=ranks), strict=True):
            for p, r in zip(side, new, strict=True):
                ratings[p] = r
                counts[p] += 1
    got = {r["player"]: r for r in _cli(season_db, "rating")}
    assert set(got) == set(ratings)
    for p, r in ratings.items():
        assert got[p]["mu"] == pytest.approx(r.mu) and got[p]["sigma"] == pytest.approx(r.sigma)
        assert got[p]["rating"] == pytest.approx(r.mu - 3 * r.sigma)
        assert got[p]["games"] == counts[p]
    assert [r["rank"] for r in sorted(got.values(), key=lambda r: -r["rating"])] == list(range(1, len(got) + 1))
    in_stats = {r["player"]: r["rating"] for r in _cli(season_db, "stats")}
    assert in_stats == {p: pytest.approx(r.mu - 3 * r.sigma) for p, r in ratings.items()}
    alone = _cli(season_db, "stats", "--player", "player b")  # a rating is earned against the whole club
    assert [r["rating"] for r in alone] == [pytest.approx(ratings["Player B"].mu - 3 * ratings["Player B"].sigma)]
    history = _cli(season_db, "rating", "Player A", "--history")
    assert history[-1]["mu"] == pytest.approx(ratings["Player A"].mu)
    assert len(history) == counts["Player A"]
