"""Night placings and the night's special hands, recomputed from the season's logs (:mod:`club_season`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date as Date
from pathlib import Path
from typing import Any

from club.club_season import LEAGUE, NAMES, NIGHTS, Played, _cli, _nights, _ordered, _places, _player_lines
from cribstats.formats import read_paths
from cribstats.replay import replay

# --- nights -----------------------------------------------------------------------------------------------------


def expected_night(games: list[Played], event: str, day: Date) -> list[dict[str, Any]]:
    lines = _player_lines([g for g in games if g.event == event and g.date == day])
    order = _ordered(lines)
    rows = []
    for place, p in zip(_places(lines, order), order, strict=True):
        line = lines[p]
        gp, wins, spread = line["game_points"], line["wins"], line["spread"]
        sign = "+" if spread >= 0 else "-"
        rows.append({"place": place, "player": p, "games": line["games"], "wins": wins,
                     "losses": line["games"] - wins, "game_points": gp, "spread": spread,
                     "card": f"{gp}/{wins} {sign}{abs(spread)}", "skunks_given": line["skunks_given"],
                     "skunks_taken": line["skunks_taken"], "grand_slam": wins == line["games"]})  # fmt: skip
    return rows


def test_the_season_is_long_enough(played: list[Played]) -> None:
    league = [n for n in _nights(played) if n[0] == LEAGUE]
    assert len(league) == NIGHTS >= 30
    first = league[0][1]
    games_each = Counter(
        p for g in played if g.event == LEAGUE and g.date == first for side in g.sides for p in side
    )
    assert games_each == dict.fromkeys(NAMES, 9)  # a Grass Roots night: nine games each


def test_every_night_agrees(played: list[Played], season_db: str) -> None:
    for event, day in _nights(played):
        got = _cli(season_db, "night", "--event", event.upper(), "--date", day.isoformat())
        assert got == expected_night(played, event, day), (event, day)


def test_special_hands_agree_with_the_replay(season: Path, season_db: str) -> None:
    """The night's shows of 24 or more, or with four of a kind, as the replay scored them (its own scorer path)."""
    by_night: dict[tuple[str, str], list[tuple[str, str, int, str, int, bool]]] = defaultdict(list)
    for source in read_paths([str(season)]):
        game, outcome = source.game, replay(source.game)
        for deal in outcome.deals:
            for show in deal.shows:
                ranks = Counter(c >> 2 for c in (*show.cards, show.starter))
                quads = max(ranks.values()) == 4
                if show.due >= 24 or quads:
                    by_night[(game.event or "", game.date or "")].append(
                        (show.player, outcome.key, deal.number, show.phase, show.due, quads)
                    )
    assert by_night, "the season should hold some special hands"
    for (event, day), expected in by_night.items():
        got = _cli(season_db, "night", "--event", event, "--date", day, "--hands")
        assert sorted((r["player"], r["game_key"], r["deal"], r["what"], r["points"], r["four_of_a_kind"])
                      for r in got) == sorted(expected)  # fmt: skip
        for r in got:
            assert r["special"] == ("29" if r["points"] == 29 else "28" if r["points"] == 28
                                    else "24+" if r["points"] >= 24 else None)  # fmt: skip
