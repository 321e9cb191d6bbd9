"""Charts: every kind is drawn from a real store, saved as PNG and SVG, and carries its titles and legends."""

from __future__ import annotations

from pathlib import Path

import orjson
import polars as pl
import pytest

from cribstats.charts import (
    CHART_KINDS,
    ChartError,
    averages_chart,
    draw_chart,
    hands_chart,
    random_hand_distribution,
    save_figure,
    skunks_chart,
)
from cribstats.simulate import simulate_games
from cribstats.stats import read_frames
from cribstats.stats.frames import StatsFilter
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("charts")
    logs = folder / "games.jsonl"
    with open(logs, "wb") as handle:
        for game in simulate_games(12, players=["Ann", "Ben", "Cy"], seed=5, mistake_rate=0.05,
                                   start_date="2026-01-27", games_per_night=3):  # fmt: skip
            handle.write(orjson.dumps(game.log) + b"\n")
    engine = make_engine(f"sqlite:///{folder / 'charts.db'}")
    assert import_paths([logs], engine).imported == 12
    return engine


@pytest.mark.parametrize(("kind", "suffix"), [*((k, "png") for k in CHART_KINDS), ("averages", "svg")])
def test_every_chart_saves(engine, kind: str, suffix: str, tmp_path: Path) -> None:
    fig = draw_chart(kind, read_frames(engine))
    out = tmp_path / f"{kind}.{suffix}"
    save_figure(fig, out)
    data = out.read_bytes()
    assert len(data) > 5000
    if suffix == "png":
        assert data.startswith(PNG_MAGIC)
    else:
        assert b"<svg" in data[:500]
    assert fig._suptitle is not None and fig._suptitle.get_text()
    for ax in fig.axes:
        assert ax.get_ylabel()


@pytest.mark.parametrize("kind", CHART_KINDS)
def test_charts_of_no_games_still_draw(engine, kind: str, tmp_path: Path) -> None:
    fig = draw_chart(kind, read_frames(engine, StatsFilter(event="no such event")))
    save_figure(fig, tmp_path / "empty.png")
    assert (tmp_path / "empty.png").stat().st_size > 1000


def test_skunk_chart_shows_shares_by_level() -> None:
    stats = pl.DataFrame({
        "player": ["Ann", "Ben"], "games": [4, 4],
        "skunks_won": [1, 0], "double_skunks_won": [1, 0], "triple_skunks_won": [0, 0],
        "skunks_lost": [0, 1], "double_skunks_lost": [0, 1], "triple_skunks_lost": [0, 0],
    })  # fmt: skip
    fig = skunks_chart(stats)
    won_axes = fig.axes[0]
    # one bar per player and level; Ann's single and double skunks are a quarter of her games each
    heights = [round(p.get_height(), 6) for p in won_axes.patches]
    assert heights == [0.25, 0.0, 0.25, 0.0, 0.0, 0.0]
    legend = won_axes.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["single skunk", "double skunk", "triple skunk"]
    # levels differ by hatching as well as by shade, so they stay apart in greyscale
    assert [p.get_hatch() or "" for p in won_axes.patches] == ["", "", "//", "//", "xx", "xx"]


def test_random_hands_come_from_the_package_table() -> None:
    shares = random_hand_distribution()
    assert abs(sum(shares.values()) - 1) < 1e-12
    # 1,009,008 of the 12,994,800 hands with a starter score nothing; none scores 19
    assert shares[0] == 1009008 / 12994800
    assert 19 not in shares
    fig = hands_chart(pl.DataFrame({"points": [4], "hands": [2], "share": [1.0]}))
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(label.startswith("random hands (mean 4.77") for label in labels)


def test_bad_kind_and_suffix(tmp_path: Path, engine) -> None:
    with pytest.raises(ChartError, match="unknown chart 'pie'"):
        draw_chart("pie", read_frames(engine))
    with pytest.raises(ChartError, match=r"write a \.png or \.svg file"):
        save_figure(draw_chart("hands", read_frames(engine)), tmp_path / "chart.jpg")


@pytest.mark.parametrize(("filters", "subtitle"), [
    (StatsFilter(player="Ann McDonald", event="St Mary's Tuesday"),
     "Player Ann McDonald, event St Mary's Tuesday"),
    (StatsFilter(player="de Vries"), "Player de Vries"),
    (StatsFilter(player="Øyvind Ådland"), "Player Øyvind Ådland"),
])  # fmt: skip
def test_a_filtered_chart_keeps_names_as_typed(tmp_path: Path, filters: StatsFilter, subtitle: str) -> None:
    logs = tmp_path / "games.jsonl"
    with open(logs, "wb") as handle:
        for game in simulate_games(3, players=["Ann McDonald", "de Vries", "Øyvind Ådland"], seed=3,
                                   events=["St Mary's Tuesday"], start_date="2026-12-08"):  # fmt: skip
            handle.write(orjson.dumps(game.log) + b"\n")
    engine = make_engine(f"sqlite:///{tmp_path / 'names.db'}")
    assert import_paths([logs], engine).imported == 3
    for kind in CHART_KINDS:
        fig = draw_chart(kind, read_frames(engine, filters))
        assert fig._suptitle is not None
        assert fig._suptitle.get_text().splitlines()[1:] == [subtitle], kind


def _texts(fig) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.get_text() for ax in fig.axes for t in ax.texts]


@pytest.mark.parametrize("kind", ["averages", "accuracy"])
def test_per_deal_charts_of_results_only_games_say_so(tmp_path: Path, kind: str) -> None:
    tally = tmp_path / "ladder.csv"
    tally.write_text("date,event,round,player1,player2,score1,score2\n"
                     "2026-09-08,Autumn Ladder,1,Ann,Ben,121,100\n"
                     "2026-09-08,Autumn Ladder,2,Ben,Cy,121,90\n")  # fmt: skip
    engine = make_engine(f"sqlite:///{tmp_path / 'ladder.db'}")
    assert import_paths([tally], engine).imported == 2
    texts = _texts(draw_chart(kind, read_frames(engine, StatsFilter(event="Autumn Ladder"))))
    assert texts and set(texts) == {"The matching games have no completed deals to average"}
    assert set(_texts(draw_chart(kind, read_frames(engine, StatsFilter(event="Nowhere"))))) == {
        "No stored games match"
    }


def _bars_under_legends(fig) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """Each (panel title, bar number) whose drawn box meets the drawn box of a legend, after drawing."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.patches import Rectangle

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    legends = [ax.get_legend().get_window_extent(renderer) for ax in fig.axes if ax.get_legend()]
    assert legends
    for box in legends:  # on the page, not cut off at its edge
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1 and fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    return [
        (ax.get_title(), i)
        for ax in fig.axes
        for i, bar in enumerate(p for p in ax.patches if isinstance(p, Rectangle) and p.get_height() > 0)
        if any(box.overlaps(bar.get_window_extent(renderer)) for box in legends)
    ]


@pytest.mark.parametrize("players", [3, 8, 16])
def test_the_averages_legend_covers_no_bar(players: int) -> None:
    # even bars up to the top of every panel, where a legend inside the axes would sit on the last ones
    stats = pl.DataFrame({
        "player": [f"Player {i}" for i in range(players)], "games": [10] * players, "deals": [80] * players,
        "pegging_per_deal_dealer": [3.4] * players, "pegging_per_deal_pone": [3.4] * players,
        "hand_per_deal_dealer": [8.0] * players, "hand_per_deal_pone": [8.0] * players,
        "crib_per_deal": [4.6] * players,
    })  # fmt: skip
    assert _bars_under_legends(averages_chart(stats)) == []


def test_the_averages_legend_covers_no_bar_of_a_real_store(engine) -> None:  # type: ignore[no-untyped-def]
    assert _bars_under_legends(draw_chart("averages", read_frames(engine))) == []
