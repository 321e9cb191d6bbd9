"""Season standings (by quarter, the lowest night dropped, dates cut), recomputed from the season's logs
(:mod:`club_season`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date as Date
from typing import Any

import pytest

from club.club_season import LEAGUE, Played, _cli, _nights, _ordered, _places, _player_lines

# --- the season -------------------------------------------------------------------------------------------------


def expected_season(games: list[Played], *, quarters: bool, drop_lowest: bool, period: str,
                    event: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
    per_night: dict[tuple[str, str], dict[str, dict[str, int]]] = defaultdict(dict)
    for ev, day in _nights(games):
        if event is not None and ev != event:
            continue
        name = f"{day.year}-Q{(day.month - 1) // 3 + 1}" if quarters else period
        lines = _player_lines([g for g in games if (g.event or "") == ev and g.date == day])
        for p, line in lines.items():
            per_night[(name, p)][f"{day}|{ev}"] = dict(line, date=day.toordinal())
    rows_by_period: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for (name, p), nights in per_night.items():
        kept = list(nights.values())
        dropped = 0
        if drop_lowest and len(kept) > 1:
            low = min(kept, key=lambda n: (n["game_points"], n["wins"], n["spread"], n["date"]))
            kept.remove(low)
            dropped = 1
        total = Counter()  # type: ignore[var-annotated]
        for n in kept:
            total.update({k: v for k, v in n.items() if k != "date"})
        rating = sum(n["game_points"] + 2 * (n["game_points"] - 11)
                     for n in kept if n["games"] == 9 and n["game_points"] >= 12)  # fmt: skip
        gp, games_played = total["game_points"], total["games"]
        rows_by_period[name][p] = {
            "period": name, "player": p, "nights": len(kept), "game_points": gp, "average": gp / len(kept),
            "nights_12_plus": sum(n["game_points"] >= 12 for n in kept), "games": games_played,
            "wins": total["wins"], "win_rate": total["wins"] / games_played, "spread": total["spread"],
            "skunks_given": total["skunks_given"], "skunks_taken": total["skunks_taken"],
            "rating_points": rating, "dropped": dropped,
        }  # fmt: skip
    out = []
    for name in sorted(rows_by_period):
        lines = rows_by_period[name]
        order = _ordered(lines)
        for place, p in zip(_places(lines, order), order, strict=True):
            out.append({"rank": place, **lines[p]})
    return out


def _same(got: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.keys() == e.keys()
        for key, value in e.items():
            assert g[key] == (pytest.approx(value) if isinstance(value, float) else value), (e["player"], key)


@pytest.mark.parametrize(("quarters", "drop"), [(False, False), (True, False), (True, True), (False, True)])
def test_season_standings_agree(played: list[Played], season_db: str, quarters: bool, drop: bool) -> None:
    args = ["season", "--event", LEAGUE.lower()] + (["--quarters"] if quarters else []) + (
        ["--drop-lowest"] if drop else [])  # fmt: skip
    got = _cli(season_db, *args)
    expected = expected_season(played, quarters=quarters, drop_lowest=drop, period="season",
                               event=LEAGUE)  # fmt: skip
    _same(got, expected)
    assert any(r["rating_points"] for r in got) and any(r["nights_12_plus"] for r in got)
    if quarters:
        assert {r["period"] for r in got} == {"2026-Q1", "2026-Q2", "2026-Q3"}


def test_season_dates_cut_the_nights(played: list[Played], season_db: str) -> None:
    since, until = Date(2026, 2, 1), Date(2026, 4, 30)
    inside = [g for g in played if g.date is not None and since <= g.date <= until]
    got = _cli(season_db, "season", "--since", since.isoformat(), "--until", until.isoformat())
    _same(got, expected_season(inside, quarters=False, drop_lowest=False,
                               period="season"))  # fmt: skip
