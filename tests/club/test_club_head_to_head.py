"""Head-to-head records and match statistics, recomputed from the season's logs and match records
(:mod:`club_season`)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from club.club_season import NAMES, PLAYOFFS, Played, _cli

# --- head to head -----------------------------------------------------------------------------------------------


def expected_head_to_head(games: list[Played]) -> dict[tuple[str, str], dict[str, Any]]:
    out: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for g in games:
        for k, side in enumerate(g.sides):
            for j, other in enumerate(g.sides):
                if j == k or g.won not in (j, k):
                    continue  # partners, and two losers of a three-player game, have no result between them
                for p in side:
                    for o in other:
                        line = out[(p, o)]
                        line["games"] += 1
                        if k == g.won:
                            line["wins"] += 1
                            line["spread"] += g.margins[j]
                            line["skunks_given"] += g.levels[j] > 0
                        else:
                            line["losses"] += 1
                            line["spread"] -= g.margins[k]
                            line["skunks_taken"] += g.levels[k] > 0
    fields = ("games", "wins", "losses", "spread", "skunks_given", "skunks_taken")
    return {pair: {**{f: c[f] for f in fields}, "win_rate": c["wins"] / c["games"]} for pair, c in out.items()}


# --- matches ----------------------------------------------------------------------------------------------------


def match_outcomes(season: Path) -> list[tuple[list[str], int | None, list[int]]]:
    """Each match record's sides (one player each), winning side (0/1, None if unfinished) and match points,
    from its games' recorded results under its rules: a game won counts 1 (games) or 1/2/3 for a win, a skunk
    and a double skunk or worse (points); the match ends when a side reaches first_to, or on a triple skunk
    when that wins."""
    out = []
    for line in (season / "playoffs.jsonl").read_text().splitlines():
        record = json.loads(line)
        rules, sides = record["rules"], record["players"]
        points, winner = [0, 0], None
        for game in record["games"]:
            won = sides.index(game["result"]["winner"])
            lost_score = game["result"]["scores"][sides[1 - won]]
            level = sum(lost_score < 121 - 30 * n for n in (1, 2, 3))
            points[won] += 1 if rules["count"] == "games" else rules["points"][min(level, 2)]
            if points[won] >= rules["first_to"] or (rules["triple_skunk_wins"] and level == 3):
                winner = won
                break
        out.append((sides, winner, points))
    return out


def expected_player_matches(season: Path) -> dict[str, dict[str, Any]]:
    lines: dict[str, Counter[str]] = defaultdict(Counter)
    for sides, winner, points in match_outcomes(season):
        if winner is None:
            continue
        for k, p in enumerate(sides):
            lines[p]["matches"] += 1
            lines[p]["matches_won"] += k == winner
            lines[p]["matches_lost"] += k != winner
            lines[p]["match_points"] += points[k]
    return {p: {**{f: c[f] for f in ("matches", "matches_won", "matches_lost", "match_points")},
                "match_win_rate": c["matches_won"] / c["matches"]} for p, c in lines.items()}  # fmt: skip


def expected_pair_matches(season: Path) -> dict[tuple[str, str], dict[str, int]]:
    pairs: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for sides, winner, _ in match_outcomes(season):
        for k, p in enumerate(sides):
            line = pairs[(p, sides[1 - k])]
            line["matches"] += 1
            line["matches_won"] += k == winner
            line["matches_lost"] += k != winner
    return {pair: {f: c[f] for f in ("matches", "matches_won", "matches_lost")} for pair, c in pairs.items()}


def test_the_playoffs_hold_both_rule_sets(season: Path) -> None:
    outcomes = match_outcomes(season)
    assert len(outcomes) == sum(n for n, _, _ in PLAYOFFS) and all(w is not None for _, w, _ in outcomes)
    assert any(max(points) > 2 for _, _, points in outcomes)  # points-to-7 matches


def test_match_statistics_agree(season: Path, season_db: str) -> None:
    expected = expected_player_matches(season)
    got = {r["player"]: {c: r[c] for c in ("matches", "matches_won", "matches_lost", "match_points",
                                          "match_win_rate")} for r in _cli(season_db, "stats")}  # fmt: skip
    no_matches = {"matches": 0, "matches_won": 0, "matches_lost": 0, "match_points": 0, "match_win_rate": None}
    assert got == {p: expected.get(p, no_matches) for p in NAMES}
    listed = _cli(season_db, "matches")
    assert len(listed) == len(match_outcomes(season))
    assert sorted((r["side1"], r["side2"], r["points1"], r["points2"]) for r in listed) == sorted(
        (sides[0], sides[1], points[0], points[1]) for sides, _, points in match_outcomes(season)
    )


def expected_pairs(played: list[Played], season: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Head-to-head in games and in matches (every pair that met in a match also met in its games)."""
    matches = expected_pair_matches(season)
    none = {"matches": 0, "matches_won": 0, "matches_lost": 0}
    return {pair: {**line, **matches.get(pair, none)} for pair, line in expected_head_to_head(played).items()}


def test_head_to_head_agrees(played: list[Played], season: Path, season_db: str) -> None:
    got = {(r.pop("player"), r.pop("opponent")): r for r in _cli(season_db, "head-to-head")}
    assert got == expected_pairs(played, season)
    mine = _cli(season_db, "head-to-head", "player c")
    assert {r["player"] for r in mine} == {"Player C"}
    assert {(r["player"], r["opponent"]) for r in mine} == {k for k in got if k[0] == "Player C"}
    # each pair's record is the mirror of the other's
    for (p, o), line in got.items():
        back = got[(o, p)]
        assert (line["wins"], line["losses"], line["spread"]) == (back["losses"], back["wins"], -back["spread"])
