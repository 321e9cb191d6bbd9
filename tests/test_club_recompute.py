"""Night placings, season standings, head-to-head, match statistics and ratings recomputed from the logs, field
for field.

A simulated Grass Roots season of 32 weekly nights (ten players, nine games each a night, scored 2/3/0), a few
nights of four-player and three-player games in other events, and two playoff nights of matches (best of three,
and first to 7 match points with a triple skunk winning at once) are imported into a real database; every table
the club commands print is then worked out again here straight from the logs (``cribstats.formats`` and
``cribstats.replay`` for the games, the match records' own games and results for the matches: no database, no
polars), from the rules as the clubs write them.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date as Date
from pathlib import Path
from typing import Any

import orjson
import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.formats import read_paths
from cribstats.match.model import MatchRules
from cribstats.replay import replay
from cribstats.simulate import simulate_games
from cribstats.simulate.club import simulate_matches
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

NAMES = [f"Player {c}" for c in "ABCDEFGHIJ"]
NIGHTS = 32
LEAGUE = "Grass Roots"
OTHERS = [("four-player", 24, "Partners"), ("three-player", 18, "Cutthroat")]
PLAYOFFS = [  # matches, rules, night
    (16, MatchRules(), Date(2026, 8, 4)),
    (12, MatchRules(first_to=7, count="points", triple_skunk_wins=True), Date(2026, 8, 11)),
]


def write_season(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "league.jsonl", "wb") as handle:
        for game in simulate_games(45 * NIGHTS, players=NAMES, seed=21, mistake_rate=0.01, events=[LEAGUE],
                                   start_date="2026-01-06", games_per_night=45):  # fmt: skip
            handle.write(orjson.dumps(game.log) + b"\n")
    for variant, n, event in OTHERS:
        with open(folder / f"{variant}.jsonl", "wb") as handle:
            for game in simulate_games(n, variant=variant, players=NAMES[:6], seed=22, events=[event],
                                       start_date="2026-02-05", games_per_night=6):  # fmt: skip
                handle.write(orjson.dumps(dict(game.log, id=f"{variant}-{game.log['id']}")) + b"\n")
    with open(folder / "playoffs.jsonl", "wb") as handle:
        for seed, (n, rules, night) in enumerate(PLAYOFFS, start=30):
            for record in simulate_matches(n, NAMES[:6], rules, seed=seed, event="Playoffs", date=night):
                handle.write(orjson.dumps(record) + b"\n")


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("club") / "logs"
    write_season(folder)
    return folder


@pytest.fixture(scope="module")
def season_db(season: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('clubdb') / 'club.db'}"
    summary = import_paths([season], make_engine(url))
    assert summary.complete, summary.refused
    return url


# --- the logs, read again ---------------------------------------------------------------------------------------


@dataclass
class Played:
    """One decided game as the logs give it."""

    order: int
    event: str | None
    date: Date | None
    sides: list[list[str]]  # partners together, in seat order of their first player
    won: int  # index of the winning side
    margins: list[int]  # per side: target less its final claimed score (never below 0); 0 for the winner
    levels: list[int]  # per side: skunk level of its loss (0 for the winner)
    scores: list[int]
    round: str | None
    key: str


@pytest.fixture(scope="module")
def played(season: Path) -> list[Played]:
    games = []
    for i, source in enumerate(read_paths([str(season)])):
        game, outcome = source.game, replay(source.game)
        if not outcome.winners:
            continue
        partners = len(game.players) == 4
        sides = [[game.players[0], game.players[2]], [game.players[1], game.players[3]]] if partners else [
            [p] for p in game.players]  # fmt: skip
        scores = [outcome.scores_claimed[side[0]] for side in sides]
        won = next(k for k, side in enumerate(sides) if side[0] in outcome.winners)
        target = outcome.target
        margins = [0 if k == won else max(target - s, 0) for k, s in enumerate(scores)]
        levels = [0 if k == won else sum(s < target - 30 * n for n in (1, 2, 3)) for k, s in enumerate(scores)]
        day = Date.fromisoformat(game.date) if game.date else None
        games.append(Played(i, game.event, day, sides, won, margins, levels, scores, game.round, outcome.key))
    return games


def _player_lines(games: list[Played]) -> dict[str, dict[str, int]]:
    """Per player: games, wins, game points (2/3/0), spread, skunks given and taken."""
    out: dict[str, dict[str, int]] = defaultdict(Counter)  # type: ignore[arg-type]
    for g in games:
        worst = max(g.levels)
        for k, side in enumerate(g.sides):
            for p in side:
                line = out[p]
                for name in ("wins", "game_points", "spread", "skunks_given", "skunks_taken"):
                    line[name] += 0  # every figure is there, 0 included
                line["games"] += 1
                if k == g.won:
                    line["wins"] += 1
                    line["game_points"] += 3 if worst else 2
                    line["spread"] += sum(g.margins)
                    line["skunks_given"] += worst > 0
                else:
                    line["spread"] -= g.margins[k]
                    line["skunks_taken"] += g.levels[k] > 0
    return out


def _ordered(lines: dict[str, dict[str, int]]) -> list[str]:
    return sorted(
        lines, key=lambda p: (-lines[p]["game_points"], -lines[p]["wins"], -lines[p]["spread"], p.lower())
    )


def _places(lines: dict[str, dict[str, int]], order: list[str]) -> list[int]:
    key = [(lines[p]["game_points"], lines[p]["wins"], lines[p]["spread"]) for p in order]
    return [key.index(k) + 1 for k in key]


def _cli(url: str, *args: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(app, [*args, "--db", url, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


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


def _nights(games: list[Played]) -> list[tuple[str, Date]]:
    return sorted({(g.event or "", g.date) for g in games if g.date is not None}, key=lambda n: (n[1], n[0]))


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
        (sides[0], sides[1], points[0], points[1]) for sides, _, points in match_outcomes(season))


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


# --- ratings ----------------------------------------------------------------------------------------------------


def test_ratings_follow_openskill_game_by_game(played: list[Played], season_db: str) -> None:
    """openskill's Plackett-Luce, run here over the games in date order (a day's games by round, then game key),
    ranks from the result: the winner first, the others by score."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    counts: Counter[str] = Counter()
    for g in sorted(played, key=lambda g: (g.date is None, g.date or Date.min, int(g.round or 0), g.key)):
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
