"""The rating update written out on floats agrees with openskill's own Plackett-Luce model, for any game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from cribstats.stats.ratings import Rating, game_ranks, plackett_luce, two_sides

MODEL = PlackettLuce()
ratings = st.builds(Rating, st.floats(-20, 70), st.floats(0.5, 12))


@st.composite
def games(draw: st.DrawFn) -> tuple[list[list[Rating]], list[int]]:
    sides = draw(st.integers(2, 4))
    size = draw(st.integers(1, 2))
    teams = [draw(st.lists(ratings, min_size=size, max_size=size)) for _ in range(sides)]
    ranks = draw(st.lists(st.integers(0, sides - 1), min_size=sides, max_size=sides))
    return teams, ranks


def _openskill(teams: list[list[Rating]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    rated = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


@settings(max_examples=300, deadline=None)
@given(games())
def test_plackett_luce_is_openskills(game: tuple[list[list[Rating]], list[int]]) -> None:
    teams, ranks = game
    ours = plackett_luce(teams, ranks)
    for mine, theirs in zip(ours, _openskill(teams, ranks), strict=True):
        for r, (mu, sigma) in zip(mine, theirs, strict=True):
            assert r.mu == pytest.approx(mu, abs=1e-9) and r.sigma == pytest.approx(sigma, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2).flatmap(lambda n: st.tuples(st.lists(ratings, min_size=n, max_size=n),
                                                     st.lists(ratings, min_size=n, max_size=n))))  # fmt: skip
def test_two_sides_is_the_general_update(sides: tuple[list[Rating], list[Rating]]) -> None:
    """The fast path for one on one and for partners gives the general update's figures."""
    winners, losers = sides
    fast = two_sides(winners, losers)
    general = plackett_luce([winners, losers], [0, 1])
    for mine, theirs in zip(fast, general, strict=True):
        for r, g in zip(mine, theirs, strict=True):
            assert r.mu == pytest.approx(g.mu, abs=1e-9) and r.sigma == pytest.approx(g.sigma, abs=1e-9)


def test_ranks_by_hand() -> None:
    assert game_ranks([(0, True, 121), (1, False, 90)]) == [0, 1]
    assert game_ranks([(0, False, 90), (1, False, 110), (2, True, 121)]) == [2, 1, 0]
    assert game_ranks([(0, False, None), (1, True, 121), (2, False, 5)]) == [2, 0, 1]  # unknown score last
