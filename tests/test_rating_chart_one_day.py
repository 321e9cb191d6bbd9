"""The rating chart of one night's games spans that night, the day before to the day after, with the night's date
on the axis: left to itself, the axis of a single date spanned four years (2025-01 to 2029-01 for 2026-12-05)."""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
from matplotlib.dates import date2num

from cribstats.club_charts import rating_chart

NIGHT = date(2026, 12, 5)


def _steps(*days: date) -> pl.DataFrame:
    rows = [("Ann", i + 1, day, 1.0 + i, 26.0, 8.0) for i, day in enumerate(days)]
    rows += [("Bob", i + 1, day, -1.0 - i, 24.0, 8.0) for i, day in enumerate(days)]
    return pl.DataFrame(rows, schema=["player", "rated", "date", "rating", "mu", "sigma"], orient="row")


def _ticks(ax: object) -> list[str]:
    ax.figure.canvas.draw()  # type: ignore[attr-defined]
    return [t.get_text() for t in ax.get_xticklabels() if t.get_text()]  # type: ignore[attr-defined]


def test_one_night_spans_the_day_before_to_the_day_after() -> None:
    ax = rating_chart(_steps(NIGHT, NIGHT)).axes[0]
    low, high = ax.get_xlim()
    assert (low, high) == (date2num(NIGHT - timedelta(days=1)), date2num(NIGHT + timedelta(days=1)))
    assert _ticks(ax) == ["2026-12-04", "2026-12-05", "2026-12-06"]


def test_several_nights_keep_matplotlibs_own_span() -> None:
    days = (date(2026, 1, 6), date(2026, 3, 3))
    ax = rating_chart(_steps(*days)).axes[0]
    low, high = ax.get_xlim()
    assert low <= date2num(days[0]) and high >= date2num(days[1])
    assert high - low < 365  # a couple of months, not years
