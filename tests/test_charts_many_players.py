"""A chart of one bar per player draws at most :data:`~cribstats.charts.MOST_CHARTED` players, those with the most
games (or deals), and says so under its title; a club that fits is drawn whole. Before, 400 players were crowded
into one figure 16 inches wide, their names a black band. A real store of simulated games among 45 players; the
players expected are counted from the logs here."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import pytest
import sqlalchemy as sa

from cribstats.charts import MOST_CHARTED, draw_chart
from cribstats.discard_report import discard_chart
from cribstats.simulate import simulate_games
from cribstats.stats import read_frames
from cribstats.stats.discards import discard_summary
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

PLAYERS = [f"Player {i:02}" for i in range(45)]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[sa.Engine, Counter[str]]:
    folder = tmp_path_factory.mktemp("many")
    logs = folder / "games.jsonl"
    games: Counter[str] = Counter()
    with open(logs, "wb") as handle:
        for game in simulate_games(150, players=PLAYERS, seed=11):
            games.update(game.log["players"])
            handle.write(orjson.dumps(game.log) + b"\n")
    engine = make_engine(f"sqlite:///{folder / 'club.db'}")
    assert import_paths([logs], engine).imported == 150
    return engine, games


def _labels(fig) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.get_text() for t in fig.axes[0].get_xticklabels()]


def test_the_skunks_chart_draws_the_players_with_the_most_games(club: tuple[sa.Engine, Counter[str]]) -> None:
    engine, games = club
    assert len(games) == len(PLAYERS) > MOST_CHARTED
    # the most games first, ties by name; drawn in name order
    most = sorted(sorted(games, key=lambda p: (-games[p], p))[:MOST_CHARTED])
    fig = draw_chart("skunks", read_frames(engine))
    assert _labels(fig) == most
    assert fig.get_suptitle().endswith(f"The {MOST_CHARTED} players with the most games, of {len(PLAYERS)}")


@pytest.mark.parametrize("kind", ["averages", "accuracy"])
def test_the_per_deal_charts_draw_at_most_the_limit(club: tuple[sa.Engine, Counter[str]], kind: str) -> None:
    fig = draw_chart(kind, read_frames(club[0]))
    assert len(_labels(fig)) == MOST_CHARTED
    assert fig.get_suptitle().endswith(f"The {MOST_CHARTED} players with the most deals, of {len(PLAYERS)}")


def test_the_discard_chart_draws_at_most_the_limit(club: tuple[sa.Engine, Counter[str]]) -> None:
    with club[0].connect() as conn:
        summary = discard_summary(conn)
    fig = discard_chart(summary)
    assert len(_labels(fig)) == MOST_CHARTED
    assert f"of {len(PLAYERS)}" in fig.get_suptitle()


def test_a_club_that_fits_is_drawn_whole(tmp_path: Path) -> None:
    logs = tmp_path / "games.jsonl"
    logs.write_bytes(b"".join(orjson.dumps(g.log) + b"\n" for g in simulate_games(6, players=PLAYERS[:5], seed=3)))
    engine = make_engine(f"sqlite:///{tmp_path / 'club.db'}")
    try:
        assert import_paths([logs], engine).imported == 6
        fig = draw_chart("skunks", read_frames(engine))
        assert len(_labels(fig)) == len({p for g in simulate_games(6, players=PLAYERS[:5], seed=3)
                                         for p in g.log["players"]})
        assert "most games" not in fig.get_suptitle()
    finally:
        engine.dispose()
