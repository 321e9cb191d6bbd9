"""The measures on small hand-built frames: results, skunks, spread, standings order, deal and finding figures.

Every expected value is worked out by hand in the comments from the definitions in ``cribstats.stats.measures``.
"""

from __future__ import annotations

from datetime import date as Date
from typing import Any

import polars as pl
from polars.testing import assert_frame_equal

from cribstats.stats.frames import (
    DEAL_PLAYER_SCHEMA,
    FINDING_SCHEMA,
    GAME_PLAYER_SCHEMA,
    GAME_SCHEMA,
    StatsFilter,
    StatsFrames,
)
from cribstats.stats.measures import hand_points, load_stats, missed_by_phase, skunk_trend, standings
from cribstats.store.tables import name_key
from cribstats.variants import find_variant

PLAYER_IDS: dict[str, int] = {}


def _pid(name: str) -> int:
    return PLAYER_IDS.setdefault(name, len(PLAYER_IDS) + 1)


def make_frames(
    games: list[dict[str, Any]],
    deals: list[dict[str, Any]] | None = None,
    findings: list[dict[str, Any]] | None = None,
    filters: StatsFilter | None = None,
) -> StatsFrames:
    """Frames as the store would give them. A game: id, variant, target, date, seats [(name, team, won, level,
    score)]; a deal row: game, name, role, completed, pegged, hand, crib, heels; a finding: game, name, kind,
    phase, claimed, due, completed."""
    game_rows, gp_rows = [], []
    for g in games:
        game_rows.append({"game_id": g["id"], "game_key": f"g{g['id']}", "date": g.get("date"),
                          "variant": g.get("variant", "six-card"), "target": g.get("target", 121),
                          "player_count": len(g["seats"]), "deal_count": 0, "event": None})  # fmt: skip
        for name, team, won, level, score in g["seats"]:
            gp_rows.append({"game_id": g["id"], "player_id": _pid(name), "player": name,
                            "name_key": name_key(name), "team": team, "won": int(won), "skunk_level": level,
                            "final_score_claimed": score})  # fmt: skip
    hand_sizes = {g["id"]: find_variant(g.get("variant", "six-card")).hand_size for g in games}
    dp_rows = [
        {"player_id": _pid(d["name"]), "role": d["role"], "completed": int(d["completed"]),
         "pegged_due": d.get("pegged"), "hand_due": d.get("hand"), "crib_due": d.get("crib"),
         "heels_due": d.get("heels", 0), "hand_size": hand_sizes[d["game"]]}
        for d in deals or []
    ]  # fmt: skip
    f_rows = [
        {"game_id": f["game"], "player_id": _pid(f["name"]), "kind": f["kind"], "phase": f.get("phase", "play"),
         "claimed": f.get("claimed"), "due": f.get("due"), "completed": int(f.get("completed", True))}
        for f in findings or []
    ]  # fmt: skip
    return StatsFrames(
        games=pl.DataFrame(game_rows, schema=GAME_SCHEMA).lazy(),
        game_players=pl.DataFrame(gp_rows, schema=GAME_PLAYER_SCHEMA)
        .lazy()
        .with_columns(pl.col("won").cast(bool)),
        deal_players=pl.DataFrame(dp_rows, schema=DEAL_PLAYER_SCHEMA)
        .lazy()
        .with_columns(pl.col("completed").cast(bool)),
        findings=pl.DataFrame(f_rows, schema=FINDING_SCHEMA).lazy().with_columns(pl.col("completed").cast(bool)),
        filters=filters or StatsFilter(),
    )


def two_player(game_id: int, winner: str, loser: str, loser_score: int, **extra: Any) -> dict[str, Any]:
    level = sum(loser_score < line for line in (91, 61, 31))
    return {"id": game_id, "seats": [(winner, 0, True, 0, 121), (loser, 1, False, level, loser_score)], **extra}


def by_player(frame: pl.DataFrame) -> dict[str, dict[str, Any]]:
    return {row.pop("player"): row for row in frame.to_dicts()}


def test_standings_follow_the_acc_order() -> None:
    # Zoe: 3 plain wins over Cal, margins 6+7+9 = 22 -> 6 points, 3 wins.
    # Yan: 2 skunk wins (80, 85: margins 41+36 = 77) -> 6 points, 2 wins: below Zoe on games won despite spread.
    # Xia: 2 wins (100, 101: 21+20 = 41) -> 4 points; Bea and Abe: 2 wins each (110, 111: 11+10 = 21) -> 4
    # points, level with each other on everything: both 4th, Abe listed first by name. Cal: 11 losses, 2 skunked.
    scores = {"Zoe": [115, 114, 112], "Yan": [80, 85], "Xia": [100, 101], "Bea": [110, 111], "Abe": [110, 111]}
    games, n = [], 0
    for winner, losers in scores.items():
        for s in losers:
            n += 1
            games.append(two_player(n, winner, "Cal", s))
    expected = pl.DataFrame(
        {
            "rank": [1, 2, 3, 4, 4, 6],
            "player": ["Zoe", "Yan", "Xia", "Abe", "Bea", "Cal"],
            "games": [3, 2, 2, 2, 2, 11],
            "wins": [3, 2, 2, 2, 2, 0],
            "losses": [0, 0, 0, 0, 0, 11],
            "game_points": [6, 6, 4, 4, 4, 0],
            "spread": [22, 77, 41, 21, 21, -182],
            "skunk_wins": [0, 2, 0, 0, 0, 0],
            "skunk_losses": [0, 0, 0, 0, 0, 2],
        }
    )
    assert_frame_equal(standings(make_frames(games)), expected)


def test_three_player_margin_over_each_loser() -> None:
    # Ann reaches 121; Ben 100 (margin 21), Cy 85 (margin 36, a skunk: 85 < 91). The game's level is 1.
    game = {"id": 1, "variant": "three-player",
            "seats": [("Ann", 0, True, 0, 121), ("Ben", 1, False, 0, 100), ("Cy", 2, False, 1, 85)]}  # fmt: skip
    got = by_player(load_stats(make_frames([game])))
    assert (got["Ann"]["spread"], got["Ann"]["game_points"], got["Ann"]["skunks_won"]) == (57, 3, 1)
    assert (got["Ben"]["spread"], got["Ben"]["skunks_lost"], got["Ben"]["losses"]) == (-21, 0, 1)
    assert (got["Cy"]["spread"], got["Cy"]["skunks_lost"], got["Cy"]["game_points"]) == (-36, 1, 0)


def test_partners_share_the_side_result() -> None:
    # Team 0 (Ann, Cy) wins; team 1 (Ben, Di) ends on 60, a double skunk (60 < 61): the margin 61 counts once.
    game = {"id": 1, "variant": "four-player",
            "seats": [("Ann", 0, True, 0, 121), ("Ben", 1, False, 2, 60), ("Cy", 0, True, 0, 121),
                      ("Di", 1, False, 2, 60)]}  # fmt: skip
    got = by_player(load_stats(make_frames([game])))
    for winner in ("Ann", "Cy"):
        assert (got[winner]["spread"], got[winner]["game_points"]) == (61, 3)
        assert (got[winner]["double_skunks_won"], got[winner]["skunks_won"]) == (1, 0)
    for loser in ("Ben", "Di"):
        assert (got[loser]["spread"], got[loser]["double_skunks_lost"], got[loser]["skunks_lost"]) == (-61, 1, 0)


def test_deal_and_finding_figures() -> None:
    games = [
        two_player(1, "Ann", "Ben", 100),
        {"id": 2, "seats": [("Ann", 0, False, 0, 40), ("Ben", 1, False, 0, 50)]},  # unfinished: no winner
    ]
    deals = [
        # Ann: dealer twice (pegged 4 and 2: 3.0 a deal; hand 8 and 12: 10.0; crib 5 and 6: 5.5), pone once with
        # no logged play (pegging average over no deal: null; hand 7), and the cut-short last deal (not counted
        # for deals or averages; its heels 2 count).
        {"game": 1, "name": "Ann", "role": "dealer", "completed": True, "pegged": 4, "hand": 8, "crib": 5},
        {"game": 1, "name": "Ann", "role": "pone", "completed": True, "pegged": None, "hand": 7},
        {"game": 2, "name": "Ann", "role": "dealer", "completed": True, "pegged": 2, "hand": 12, "crib": 6},
        {"game": 1, "name": "Ann", "role": "dealer", "completed": False, "pegged": 9, "hand": 29, "crib": 24,
         "heels": 2},
        {"game": 1, "name": "Ben", "role": "pone", "completed": True, "pegged": 1, "hand": 4},
    ]  # fmt: skip
    findings = [
        {"game": 1, "name": "Ann", "kind": "missed", "claimed": 0, "due": 2},  # 2 missed, completed deal
        {"game": 1, "name": "Ann", "kind": "missed", "claimed": 4, "due": 7, "completed": False},  # 3, cut short
        {"game": 1, "name": "Ann", "kind": "overclaim", "claimed": 6, "due": 4},  # 2 over-claimed
        {"game": 1, "name": "Ann", "kind": "false-go"},
        {"game": 1, "name": "Ann", "kind": "over-31", "completed": False},
        {"game": 1, "name": "Ann", "kind": "muggins-call", "claimed": 2, "due": 0},  # none of the three figures
        {"game": 1, "name": "Ann", "kind": "bad-deal", "phase": "deal"},  # not a play
    ]
    got = by_player(load_stats(make_frames(games, deals, findings)))
    ann = got["Ann"]
    assert (ann["games"], ann["wins"], ann["win_rate"]) == (1, 1, 1.0)  # the unfinished game is not a game
    assert (ann["deals"], ann["deals_as_dealer"], ann["deals_as_pone"]) == (3, 2, 1)
    assert (ann["pegging_per_deal_dealer"], ann["pegging_per_deal_pone"]) == (3.0, None)
    assert (ann["hand_per_deal_dealer"], ann["hand_per_deal_pone"], ann["crib_per_deal"]) == (10.0, 7.0, 5.5)
    assert ann["heels"] == 2
    assert (ann["points_missed"], ann["points_overclaimed"], ann["illegal_plays"]) == (5, 2, 2)
    assert ann["missed_per_deal"] == 2 / 3
    ben = got["Ben"]
    assert (ben["games"], ben["losses"], ben["deals"], ben["deals_as_dealer"], ben["crib_per_deal"]) == (
        1, 1, 1, 0, None)  # fmt: skip
    assert (ben["points_missed"], ben["missed_per_deal"], ben["illegal_plays"]) == (0, 0.0, 0)


def test_player_filter_keeps_that_player_only() -> None:
    games = [two_player(1, "Ann", "Ben", 100), two_player(2, "Ben", "Ann", 70)]
    got = load_stats(make_frames(games, filters=StatsFilter(player=" ann ")))
    assert got["player"].to_list() == ["Ann"]
    # won by 21, lost by 51 (a skunk: 70 < 91)
    assert got.select("games", "wins", "spread", "skunks_lost", "game_points").row(0) == (2, 1, -30, 1, 2)


def test_skunk_trend_by_month() -> None:
    games = [
        two_player(1, "Ann", "Ben", 80, date=Date(2026, 1, 5)),  # skunk
        two_player(2, "Ann", "Ben", 100, date=Date(2026, 1, 20)),
        two_player(3, "Ann", "Ben", 50, date=Date(2026, 2, 1)),  # double skunk
        two_player(4, "Ann", "Ben", 50),  # undated: left out
    ]
    expected = pl.DataFrame(
        {"month": [Date(2026, 1, 1), Date(2026, 2, 1)], "games": [2, 1], "skunked": [1, 1],
         "double_or_worse": [0, 1], "skunk_rate": [0.5, 1.0], "double_rate": [0.0, 1.0]}
    )  # fmt: skip
    assert_frame_equal(skunk_trend(make_frames(games)), expected)


def test_hand_points_only_four_card_hands() -> None:
    games = [two_player(1, "Ann", "Ben", 100), two_player(2, "Ann", "Ben", 100, variant="five-card")]
    deals = [
        {"game": 1, "name": "Ann", "role": "dealer", "completed": True, "hand": 8},
        {"game": 1, "name": "Ben", "role": "pone", "completed": True, "hand": 8},
        {"game": 1, "name": "Ann", "role": "pone", "completed": False, "hand": 4},
        {"game": 1, "name": "Ben", "role": "dealer", "completed": False, "hand": None},  # never shown
        {"game": 2, "name": "Ann", "role": "dealer", "completed": True, "hand": 6},  # three-card hand: left out
    ]
    expected = pl.DataFrame({"points": [4, 8], "hands": [1, 2], "share": [1 / 3, 2 / 3]})
    assert_frame_equal(hand_points(make_frames(games, deals)), expected)


def test_missed_by_phase() -> None:
    games = [two_player(1, "Ann", "Ben", 100)]
    deals = [{"game": 1, "name": "Ann", "role": "dealer", "completed": True},
             {"game": 1, "name": "Ann", "role": "pone", "completed": True}]  # fmt: skip
    findings = [
        {"game": 1, "name": "Ann", "kind": "missed", "phase": "hand", "claimed": 4, "due": 6},
        {"game": 1, "name": "Ann", "kind": "missed", "phase": "play", "claimed": 0, "due": 1},
        {"game": 1, "name": "Ann", "kind": "missed", "phase": "crib", "claimed": 0, "due": 4, "completed": False},
    ]
    got = missed_by_phase(make_frames(games, deals, findings))
    assert got.select("phase", "missed", "per_deal").rows() == [
        ("play", 1, 0.5), ("heels", 0, 0.0), ("hand", 2, 1.0), ("crib", 0, 0.0)
    ]  # fmt: skip
