"""Every field of ``cribstats stats --format json`` recomputed from the replay of the logs, in plain Python.

A simulated season across all five variants (with mistakes and muggins, so findings exist), plus result-only
tally records and an unfinished game, is written to files, imported into a real database, and summed again here
straight from ``cribstats.formats`` and ``cribstats.replay``: no database and no polars on this side. The rules of
the figures (see ``cribstats.stats.measures``) are written out again below, from the definitions.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from datetime import date as Date
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.discards.analysis import DiscardError, judge_discard
from cribstats.formats import read_paths
from cribstats.gamelog import GameLog
from cribstats.replay import replay
from cribstats.simulate import simulate_games
from cribstats.stats.measures import CLUB_COLUMNS
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths
from cribstats.store.tables import name_key

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]
SEASON = [  # variant, games, seed, event, first night
    ("six-card", 14, 11, "Tuesday League", "2026-01-06"),
    ("five-card", 8, 12, "Open", "2026-02-03"),
    ("seven-card", 6, 13, "Tuesday League", "2026-02-10"),
    ("three-player", 8, 14, "Open", "2026-03-03"),
    ("four-player", 8, 15, "Tuesday League", "2026-03-10"),
]
TALLY = """date,event,round,player1,player2,score1,score2
2026-01-21,Tuesday League,9,alice,Bob,121,80
2026-01-21,Tuesday League,9,Carol,DAVE,55,121
2026-04-07,Open,1,Erin,Carol,121,119
"""
ILLEGAL = {"illegal-card", "over-31", "false-go", "out-of-turn", "unplayed"}
LEVEL_NAMES = {1: "skunks", 2: "double_skunks", 3: "triple_skunks"}


def write_season(folder: Path) -> None:
    """The season's logs: simulated games per variant, a tally sheet, and a game that stops before its end."""
    folder.mkdir(parents=True, exist_ok=True)
    for variant, n, seed, event, first in SEASON:
        games = simulate_games(
            n, variant=variant, players=NAMES, seed=seed, mistake_rate=0.04, muggins=seed % 2 == 1,
            events=[event], start_date=first, games_per_night=4,
        )  # fmt: skip
        with open(folder / f"{variant}.jsonl", "wb") as handle:
            for game in games:
                log = dict(game.log, id=f"{variant}-{game.log['id']}")
                handle.write(orjson.dumps(log) + b"\n")
    (folder / "tally.csv").write_text(TALLY)
    unfinished = next(simulate_games(1, variant="six-card", players=["Bob", "Erin"], seed=99)).log
    unfinished = dict(unfinished, id="unfinished", deals=unfinished["deals"][:3], date="2026-03-19",
                      event="Open")  # fmt: skip
    unfinished.pop("result", None)
    (folder / "unfinished.json").write_text(json.dumps(unfinished))


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("season") / "logs"
    write_season(folder)
    return folder


@pytest.fixture(scope="module")
def season_db(season: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'season.db'}"
    engine = make_engine(url)
    summary = import_paths([season], engine)
    assert summary.complete, summary.refused
    assert summary.imported == sum(n for _, n, *_ in SEASON) + 3 + 1
    return url


# --- the figures, recomputed -----------------------------------------------------------------------------------


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def _skunk_level(score: int | None, target: int) -> int:
    """0..3: how many of the lines target-30, target-60, target-90 the losing score falls short of."""
    if score is None:
        return 0
    return sum(score < target - 30 * k for k in (1, 2, 3))


def expected_stats(folder: Path, keep: Callable[[GameLog], bool] = lambda g: True,
                   player: str | None = None) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Per player name key: every stats field except ``player``, from the replay of the logs."""
    acc: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(int))
    lists: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for source in read_paths([str(folder)]):
        game = source.game
        if not keep(game):
            continue
        if player is not None and name_key(player) not in {name_key(p) for p in game.players}:
            continue
        outcome = replay(game)
        key = {p: name_key(p) for p in game.players}
        for p in game.players:
            acc[key[p]]["games"] += 0
        if outcome.winners:
            partners = len(game.players) == 4
            target = outcome.target
            side = {p: (seat % 2 if partners else seat) for seat, p in enumerate(game.players)}
            scores = outcome.scores_claimed
            level = {p: _skunk_level(scores.get(p), target) for p in game.players if p not in outcome.winners}
            game_level = max(level.values())
            margin_of_side: dict[int, int] = {}
            for p in level:
                score = scores.get(p)
                margin_of_side[side[p]] = max(target - score, 0) if score is not None else 0
            first_dealer = game.deals[0].dealer if game.deals else None  # the log's first deal's dealer
            for p in game.players:
                a = acc[key[p]]
                a["games"] += 1
                if p == first_dealer:
                    a["first_dealer_games"] += 1
                    a["first_dealer_wins"] += p in outcome.winners
                if p in outcome.winners:
                    a["wins"] += 1
                    a["game_points"] += 3 if game_level >= 1 else 2
                    a["spread"] += sum(margin_of_side.values())
                    if game_level:
                        a[f"{LEVEL_NAMES[game_level]}_won"] += 1
                else:
                    a["losses"] += 1
                    a["spread"] -= margin_of_side[side[p]]
                    if level[p]:
                        a[f"{LEVEL_NAMES[level[p]]}_lost"] += 1
        for deal in outcome.deals:
            for facts in deal.players:
                a, seen = acc[key[facts.player]], lists[key[facts.player]]
                a["heels"] += facts.heels_due
                if facts.discards and outcome.variant.players == 2:  # every deal's discard, two players
                    try:
                        choice = judge_discard(facts.dealt, facts.discards, outcome.variant, facts.role)
                    except DiscardError:
                        pass
                    else:
                        seen[f"discard_{facts.role}"].append(choice.loss)  # type: ignore[arg-type]
                if not deal.completed:
                    continue
                a["deals"] += 1
                a[f"deals_as_{facts.role}"] += 1
                for what, value in (("pegging", facts.pegged_due), ("hand", facts.hand_due)):
                    if value is not None:
                        seen[f"{what}_{facts.role}"].append(value)
                if facts.role == "dealer" and facts.crib_due is not None:
                    seen["crib"].append(facts.crib_due)
                # accuracy's points due: the play where logged, the hand, the crib as dealer (no heels)
                crib = facts.crib_due if facts.role == "dealer" else None
                a["due_counted"] += sum(v for v in (facts.pegged_due, facts.hand_due, crib) if v is not None)
        for finding in outcome.findings:
            if finding.player is None:
                continue
            a = acc[key[finding.player]]
            if finding.kind == "missed":
                a["points_missed"] += finding.due - finding.claimed
                if finding.deal is not None and outcome.deals[finding.deal - 1].completed:
                    a["missed_completed"] += finding.due - finding.claimed
                    if finding.phase in ("play", "hand", "crib"):  # accuracy's phases: not his heels
                        a["missed_counted"] += finding.due - finding.claimed
            elif finding.kind in ("overclaim", "muggins-call"):  # a call beyond the miss over-claims (the rules)
                a["points_overclaimed"] += finding.claimed - finding.due
            elif finding.kind in ILLEGAL:
                a["illegal_plays"] += 1
    out = {}
    for k, a in acc.items():
        if player is not None and k != name_key(player):
            continue
        seen = lists[k]
        row = {
            name: a[name]
            for name in ("games", "wins", "losses", "first_dealer_games", "first_dealer_wins", "game_points",
                         "spread", "deals", "deals_as_dealer",
                         "deals_as_pone", "heels", "points_missed", "points_overclaimed", "illegal_plays")
        }  # fmt: skip
        for level in LEVEL_NAMES.values():
            row[f"{level}_won"] = a[f"{level}_won"]
            row[f"{level}_lost"] = a[f"{level}_lost"]
        row["win_rate"] = _ratio(a["wins"], a["games"])
        row["first_dealer_win_rate"] = _ratio(a["first_dealer_wins"], a["first_dealer_games"])
        for what in ("pegging", "hand"):
            for role in ("dealer", "pone"):
                values = seen[f"{what}_{role}"]
                row[f"{what}_per_deal_{role}"] = _ratio(sum(values), len(values))
        row["crib_per_deal"] = _ratio(sum(seen["crib"]), len(seen["crib"]))
        row["missed_per_deal"] = _ratio(a["missed_completed"], a["deals"])
        row["accuracy"] = _ratio(a["due_counted"] - a["missed_counted"], a["due_counted"])
        row["spread_per_game"] = _ratio(a["spread"], a["games"])
        for role in ("dealer", "pone"):
            losses = seen[f"discard_{role}"]
            row[f"discard_loss_per_deal_{role}"] = _ratio(sum(losses), len(losses))
        out[k] = row
    return out


def cli_stats(url: str, *args: str) -> dict[str, dict[str, Any]]:
    result = CliRunner().invoke(app, ["stats", "--db", url, "--format", "json", *args])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    for row in rows:
        for column in CLUB_COLUMNS:  # the rating: recomputed in test_club_recompute
            row.pop(column)
    return {name_key(row.pop("player")): row for row in rows}


def _same(got: dict[str, dict[str, Any]], expected: dict[str, dict[str, Any]]) -> bool:
    """Equal, the discard losses (sums of floats, added in another order) to within rounding."""
    assert got.keys() == expected.keys()
    for k in got:
        g, e = dict(got[k]), dict(expected[k])
        for name in ("discard_loss_per_deal_dealer", "discard_loss_per_deal_pone"):
            assert g.pop(name) == pytest.approx(e.pop(name), abs=1e-9), (k, name)
        assert g == e, k
    return True


# --- the tests --------------------------------------------------------------------------------------------------


def test_every_field_agrees_with_the_replay(season: Path, season_db: str) -> None:
    got = cli_stats(season_db)
    expected = expected_stats(season)
    assert set(got) == {name_key(n) for n in NAMES}
    assert _same(got, expected)
    # the season exercises what the figures distinguish
    assert sum(r["skunks_won"] + r["double_skunks_won"] for r in got.values()) > 0
    assert sum(r["points_missed"] for r in got.values()) > 0
    assert sum(r["discard_loss_per_deal_pone"] or 0 for r in got.values()) > 0
    assert sum(r["illegal_plays"] for r in got.values()) > 0
    assert all(0 < r["accuracy"] < 1 for r in got.values())  # every player missed something, and claimed most
    assert any(r["spread_per_game"] not in (None, 0.0) for r in got.values())
    first_dealer = [(r["first_dealer_wins"], r["first_dealer_games"]) for r in got.values()]
    assert 0 < sum(w for w, _ in first_dealer) < sum(g for _, g in first_dealer)


def test_the_season_has_what_the_definitions_distinguish(season: Path) -> None:
    """Guards the fixture: result-only games, an unfinished game, three- and four-player games are all there."""
    kinds = {"result-only": 0, "no winner": 0, "three": 0, "four": 0}
    for source in read_paths([str(season)]):
        outcome = replay(source.game)
        kinds["result-only"] += not outcome.deals
        kinds["no winner"] += not outcome.winners
        kinds["three"] += len(source.game.players) == 3
        kinds["four"] += len(source.game.players) == 4
    assert kinds == {"result-only": 3, "no winner": 1, "three": 8, "four": 8}


def test_result_only_and_unfinished_games_by_hand(season_db: str) -> None:
    """The two tally rows of 21 January (no other game that day), worked out by hand: alice 121-80 over Bob is a
    skunk (80 < 91: 3 game points, spread 41), DAVE 121-55 over Carol a double skunk (55 < 61: spread 66)."""
    got = cli_stats(season_db, "--since", "2026-01-21", "--until", "2026-01-21")
    assert set(got) == {"alice", "bob", "carol", "dave"}
    alice, bob, carol, dave = got["alice"], got["bob"], got["carol"], got["dave"]
    assert (alice["games"], alice["wins"], alice["game_points"], alice["spread"], alice["skunks_won"]) == (
        1, 1, 3, 41, 1)  # fmt: skip
    assert (bob["games"], bob["losses"], bob["game_points"], bob["spread"]) == (1, 1, 0, -41)
    assert bob["skunks_lost"] == 1
    assert (dave["double_skunks_won"], dave["skunks_won"], dave["game_points"], dave["spread"]) == (1, 0, 3, 66)
    assert (carol["double_skunks_lost"], carol["skunks_lost"], carol["spread"]) == (1, 0, -66)
    assert alice["deals"] == 0 and alice["pegging_per_deal_dealer"] is None  # result-only: games, not deals
    # the unfinished game (Bob and Erin, 19 March): deals count, the game does not
    unfinished = cli_stats(season_db, "--since", "2026-03-19", "--until", "2026-03-19", "--player", "erin")
    erin = unfinished["erin"]
    assert erin["games"] == 0 and erin["win_rate"] is None
    assert erin["deals"] == 3


def _day(game: GameLog) -> Date:
    return Date.fromisoformat(str(game.date))


FILTERS: list[tuple[list[str], Callable[[GameLog], bool], str | None]] = [
    (["--player", "  ALICE "], lambda g: True, "Alice"),
    (["--event", "tuesday league"], lambda g: (g.event or "").lower() == "tuesday league", None),
    (["--since", "2026-03-01"], lambda g: g.date is not None and _day(g) >= Date(2026, 3, 1), None),
    (["--until", "2026-02-10"], lambda g: g.date is not None and _day(g) <= Date(2026, 2, 10), None),
    (["--variant", "Three-Player"], lambda g: g.variant == "three-player", None),
    (["--variant", "four-player", "--player", "bob"], lambda g: g.variant == "four-player", "Bob"),
    (["--event", "Open", "--since", "2026-03-01", "--until", "2026-03-31"],
     lambda g: g.event == "Open" and g.date is not None and "2026-03-01" <= g.date <= "2026-03-31", None),
]  # fmt: skip


@pytest.mark.parametrize(("args", "keep", "player"), FILTERS, ids=[" ".join(a) for a, _, _ in FILTERS])
def test_filters(season: Path, season_db: str, args: list[str], keep: Callable[[GameLog], bool],
                 player: str | None) -> None:  # fmt: skip
    got = cli_stats(season_db, *args)
    expected = expected_stats(season, keep, player)
    assert _same(got, expected)
    assert got, "the filter should match some games"


def test_unknown_player_gives_no_rows(season_db: str) -> None:
    assert cli_stats(season_db, "--player", "Nobody") == {}


@pytest.mark.postgres
def test_postgresql_agrees(season: Path, pg_url: str) -> None:
    engine = make_engine(pg_url)
    summary = import_paths([season], engine)
    assert summary.complete
    assert _same(cli_stats(pg_url), expected_stats(season))
    assert _same(
        cli_stats(pg_url, "--event", "OPEN", "--player", "carol"),
        expected_stats(season, lambda g: g.event == "Open", "Carol"),
    )
