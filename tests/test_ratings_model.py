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


# (key, date, round) in the order of the file; the play order by hand: the earlier date first; on 2026-11-05
# round 1, then round 2 in the order of the file (k before a, though a's key sorts first), then round 10 (after
# 2, as a number); the undated game last.
PLAYED = [("k", "2026-11-05", "2", ("Ann", "Ben")), ("a", "2026-11-05", "2", ("Ben", "Cat")),
          ("b", "2026-11-05", "10", ("Cat", "Ann")), ("c", "2026-11-05", "1", ("Ann", "Ben")),
          ("u", None, "1", ("Ben", "Cat")), ("z", "2026-11-04", "7", ("Cat", "Ann"))]  # fmt: skip
PLAY_ORDER = ["z", "c", "k", "a", "b", "u"]


def test_ratings_take_the_games_in_play_order(store, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import orjson

    from cribstats.simulate import simulate_games
    from cribstats.stats.club import ratings_tables
    from cribstats.stats.frames import StatsFilter
    from cribstats.stats.results import load_game_order
    from cribstats.store.importer import import_file
    from cribstats.store.queries import list_games

    lines = []
    for i, (key, day, round_, players) in enumerate(PLAYED):
        log = next(iter(simulate_games(1, players=list(players), seed=40 + i))).log
        log = {k: v for k, v in log.items() if k not in ("date", "round")} | {"id": key, "round": round_}
        lines.append(orjson.dumps(log | ({"date": day} if day else {})))
    path = tmp_path / "night.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert import_file(path, store).imported == len(PLAYED)
    with store.connect() as conn:
        listed = {g.key: g for g in list_games(conn)}
        ids = {listed[key].id: key for key in listed}
        order = [ids[seats[0][0]] for _, seats in load_game_order(conn, StatsFilter())]
    assert order == PLAY_ORDER

    ratings: dict[str, object] = {}  # openskill's own model, game by game in the order worked out by hand
    for key in PLAY_ORDER:
        game = listed[key]
        (winner,) = game.winners
        sides = [winner, *(p for p in game.players if p != winner)]
        rated = MODEL.rate([[ratings.get(p, MODEL.rating())] for p in sides], ranks=[0, 1])  # type: ignore[list-item]
        ratings.update({p: team[0] for p, team in zip(sides, rated, strict=True)})
    rows = {r["player"]: r for r in ratings_tables(store, StatsFilter(), None)[0].to_dicts()}
    for player, rating in ratings.items():
        assert rows[player]["mu"] == pytest.approx(rating.mu, abs=1e-9)  # type: ignore[attr-defined]
        assert rows[player]["sigma"] == pytest.approx(rating.sigma, abs=1e-9)  # type: ignore[attr-defined]


def test_the_two_winners_of_a_three_player_giveaway_game_are_rated_alike(tmp_path: object) -> None:
    """docs/rules.md, giveaway: the side that reaches the target loses and every other side wins. Kim reached 121,
    so Lou (70) and Max (100) both won; the rules rank the winners no further, so from equal ratings they end
    equal, as openskill rates ranks [1, 0, 0]."""
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from cribstats.cli.app import app

    folder = Path(str(tmp_path))
    log = {"format": "cribstats/game/1", "id": "g3", "variant": "three-player", "giveaway": True,
           "players": ["Kim", "Lou", "Max"],
           "result": {"winner": "Lou", "scores": {"Kim": 121, "Lou": 70, "Max": 100}}}
    (folder / "give.jsonl").write_text(json.dumps(log) + "\n")
    url = f"sqlite:///{folder / 'club.db'}"
    runner = CliRunner()
    assert runner.invoke(app, ["import", "-q", "--db", url, str(folder / "give.jsonl")]).exit_code == 0
    rated = runner.invoke(app, ["rating", "--db", url, "--format", "json"])
    rows = {row["player"]: (row["mu"], row["sigma"]) for row in json.loads(rated.stdout)}
    (kim, lou, max_) = _openskill([[Rating(25, 25 / 3)]] * 3, [1, 0, 0])
    assert rows["Lou"] == pytest.approx(lou[0]) and rows["Max"] == pytest.approx(max_[0])
    assert rows["Kim"] == pytest.approx(kim[0]) and rows["Lou"] == rows["Max"]
