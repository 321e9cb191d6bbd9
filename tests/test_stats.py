"""The measures over small hand-made stores: results, skunks, spread, standings order, deal and finding figures.

Each test writes its rows into a real database (an SQLite file, and PostgreSQL when a server is configured), reads
the totals back with ``load_frames`` (the grouped queries the statistics run) and checks the figures. Every
expected value is worked out by hand in the comments from the definitions in ``cribstats.stats.measures``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from datetime import date as Date
from typing import Any

import polars as pl
import pytest
import sqlalchemy as sa
from polars.testing import assert_frame_equal

from cribstats.names import event_key
from cribstats.stats.frames import StatsFilter, StatsFrames, load_frames, player_totals_query
from cribstats.stats.measures import (
    findings_by_kind,
    hand_points,
    load_stats,
    missed_by_phase,
    skunk_trend,
    standings,
)
from cribstats.store import tables as t
from cribstats.store.db import make_engine, upgrade
from cribstats.store.tables import name_key
from cribstats.store.totals import add_game_totals
from cribstats.variants import find_variant

MakeFrames = Callable[..., StatsFrames]
CARD = "5H"


def _cards(n: int) -> str:
    return " ".join([CARD] * n)


def store_rows(
    conn: sa.Connection,
    games: list[dict[str, Any]],
    deals: list[dict[str, Any]],
    findings: list[dict[str, Any]],
) -> None:
    """Rows as the importer would store them, per game totals included. A game: id, variant, target, date,
    event, seats [(name, team, won, level, score)]; a deal row: game, name, role, completed, pegged, hand, crib,
    heels (each on a deal of its own, dealt the variant's cards); a finding: game, name, kind, phase, claimed,
    due, completed (of a deal of its own; ``deal`` None for a game-level finding)."""
    player_ids: dict[str, int] = {}

    def pid(name: str) -> int:
        if name_key(name) not in player_ids:
            player_ids[name_key(name)] = len(player_ids) + 1
            conn.execute(t.player_table.insert(), {"id": player_ids[name_key(name)], "name": name,
                                                   "name_key": name_key(name)})  # fmt: skip
        return player_ids[name_key(name)]

    events: dict[str, int] = {}
    variants = {}
    for g in games:
        variant = find_variant(g.get("variant", "six-card"))
        variants[g["id"]] = variant
        event = g.get("event")
        if event is not None and event not in events:
            events[event] = len(events) + 1
            conn.execute(t.event_table.insert(), {"id": events[event], "name": event,
                                                   "name_key": event_key(event)})
        conn.execute(t.game_table.insert(), {
            "id": g["id"], "content_hash": f"h{g['id']}", "game_key": f"g{g['id']}", "variant": variant.name,
            "target": g.get("target", variant.target), "muggins": False, "player_count": len(g["seats"]),
            "date": g.get("date"), "event_id": events.get(event) if event else None, "skunk_level": 0,
            "deal_count": g.get("deal_count", 0), "finding_count": 0, "log": "{}",
            "imported_at": datetime.now(UTC),
        })  # fmt: skip
        for seat, (name, team, won, level, score) in enumerate(g["seats"]):
            conn.execute(t.game_player_table.insert(), {
                "game_id": g["id"], "player_id": pid(name), "seat": seat, "team": team, "won": won, "won_due": won,
                "skunk_level": level, "final_score_claimed": score,
            })  # fmt: skip
    numbers: dict[int, int] = {}

    def new_deal(game: int, name: str, completed: bool) -> int:
        numbers[game] = numbers.get(game, 0) + 1
        result = conn.execute(t.deal_table.insert().returning(t.deal_table.c.id), {
            "game_id": game, "number": numbers[game], "dealer_id": pid(name), "starter": CARD,
            "completed": completed, "after_end": False,
        })  # fmt: skip
        return result.scalar_one()

    for d in deals:
        variant = variants[d["game"]]
        completed = bool(d["completed"])
        conn.execute(t.deal_player_table.insert(), {
            "deal_id": new_deal(d["game"], d["name"], completed), "game_id": d["game"],
            "player_id": pid(d["name"]),
            "seat": 0, "role": d["role"], "dealt": _cards(variant.dealt),
            "discards": _cards(variant.dealt - variant.hand_size), "pegged_due": d.get("pegged"),
            "hand_due": d.get("hand"), "crib_due": d.get("crib"), "heels_due": d.get("heels", 0),
            "heels_claimed": 0, "muggins_gained": 0, "muggins_lost": 0, "completed": completed,
        })  # fmt: skip
    for seq, f in enumerate(findings):
        number = None
        if f.get("deal", True):
            new_deal(f["game"], f["name"], bool(f.get("completed", True)))
            number = numbers[f["game"]]
        conn.execute(t.finding_table.insert(), {
            "game_id": f["game"], "seq": seq, "deal_number": number, "kind": f["kind"],
            "phase": f.get("phase", "play"), "player_id": pid(f["name"]) if f.get("name") else None,
            "claimed": f.get("claimed"), "due": f.get("due"), "message": f["kind"],
        })  # fmt: skip
    add_game_totals(conn, [g["id"] for g in games])


@pytest.fixture
def engine(store: sa.Engine) -> sa.Engine:
    return store


@pytest.fixture
def make_frames(engine: sa.Engine) -> MakeFrames:
    """Store the rows (see :func:`store_rows`), then read the frames as the statistics do."""

    def make(
        games: list[dict[str, Any]],
        deals: list[dict[str, Any]] | None = None,
        findings: list[dict[str, Any]] | None = None,
        filters: StatsFilter | None = None,
    ) -> StatsFrames:
        with engine.begin() as conn:
            store_rows(conn, games, deals or [], findings or [])
        with engine.connect() as conn:
            return load_frames(conn, filters)

    return make


def two_player(game_id: int, winner: str, loser: str, loser_score: int, **extra: Any) -> dict[str, Any]:
    level = sum(loser_score < line for line in (91, 61, 31))
    return {"id": game_id, "seats": [(winner, 0, True, 0, 121), (loser, 1, False, level, loser_score)], **extra}


def by_player(frame: pl.DataFrame) -> dict[str, dict[str, Any]]:
    return {row.pop("player"): row for row in frame.to_dicts()}


def test_standings_follow_the_acc_order(make_frames: MakeFrames) -> None:
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


def test_three_player_margin_over_each_loser(make_frames: MakeFrames) -> None:
    # Ann reaches 121; Ben 100 (margin 21), Cy 85 (margin 36, a skunk: 85 < 91). The game's level is 1.
    game = {"id": 1, "variant": "three-player",
            "seats": [("Ann", 0, True, 0, 121), ("Ben", 1, False, 0, 100), ("Cy", 2, False, 1, 85)]}  # fmt: skip
    got = by_player(load_stats(make_frames([game])))
    assert (got["Ann"]["spread"], got["Ann"]["game_points"], got["Ann"]["skunks_won"]) == (57, 3, 1)
    assert (got["Ben"]["spread"], got["Ben"]["skunks_lost"], got["Ben"]["losses"]) == (-21, 0, 1)
    assert (got["Cy"]["spread"], got["Cy"]["skunks_lost"], got["Cy"]["game_points"]) == (-36, 1, 0)


def test_partners_share_the_side_result(make_frames: MakeFrames) -> None:
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


def test_deal_and_finding_figures(make_frames: MakeFrames) -> None:
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
        {"game": 1, "name": "Ann", "kind": "muggins-call", "claimed": 2, "due": 0},  # 2 over-claimed by the call
        {"game": 1, "name": "Ann", "kind": "bad-deal", "phase": "deal"},  # not a play
    ]
    got = by_player(load_stats(make_frames(games, deals, findings)))
    ann = got["Ann"]
    assert (ann["games"], ann["wins"], ann["win_rate"]) == (1, 1, 1.0)  # the unfinished game is not a game
    assert (ann["deals"], ann["deals_as_dealer"], ann["deals_as_pone"]) == (3, 2, 1)
    assert (ann["pegging_per_deal_dealer"], ann["pegging_per_deal_pone"]) == (3.0, None)
    assert (ann["hand_per_deal_dealer"], ann["hand_per_deal_pone"], ann["crib_per_deal"]) == (10.0, 7.0, 5.5)
    assert ann["heels"] == 2
    assert (ann["points_missed"], ann["points_overclaimed"], ann["illegal_plays"]) == (5, 2 + 2, 2)
    assert ann["missed_per_deal"] == 2 / 3
    ben = got["Ben"]
    assert (ben["games"], ben["losses"], ben["deals"], ben["deals_as_dealer"], ben["crib_per_deal"]) == (
        1, 1, 1, 0, None)  # fmt: skip
    assert (ben["points_missed"], ben["missed_per_deal"], ben["illegal_plays"]) == (0, 0.0, 0)


def test_accuracy_and_spread_per_game(make_frames: MakeFrames) -> None:
    games = [
        two_player(1, "Ann", "Ben", 100),  # Ann +21, Ben -21
        two_player(2, "Ben", "Ann", 80),  # Ben +41 (a skunk), Ann -41
        {"id": 3, "seats": [("Ann", 0, False, 0, 40), ("Cy", 1, False, 0, 50)]},  # unfinished: no one's game
    ]
    deals = [
        # Ann's points due in completed deals: pegged 4, hand 8, crib 5 as dealer, hand 3 as pone (no logged
        # play): 20. Her heels (2) and the cut-short deal (pegged 9, hand 29, crib 24) count for none of it.
        {"game": 1, "name": "Ann", "role": "dealer", "completed": True, "pegged": 4, "hand": 8, "crib": 5,
         "heels": 2},
        {"game": 2, "name": "Ann", "role": "pone", "completed": True, "pegged": None, "hand": 3},
        {"game": 2, "name": "Ann", "role": "dealer", "completed": False, "pegged": 9, "hand": 29, "crib": 24},
        # Cy (no decided game) has only a cut-short deal; Ben's only completed deal has nothing due.
        {"game": 3, "name": "Cy", "role": "dealer", "completed": False, "pegged": 3, "hand": 6, "crib": 2},
        {"game": 1, "name": "Ben", "role": "pone", "completed": True, "pegged": 0, "hand": 0},
    ]  # fmt: skip
    findings = [
        # Ann missed 2 + 2 + 1 = 5 of the 20 in completed deals: she claimed 15 of them, 15 / 20 = 0.75.
        {"game": 1, "name": "Ann", "kind": "missed", "phase": "play", "claimed": 0, "due": 2},
        {"game": 1, "name": "Ann", "kind": "missed", "phase": "hand", "claimed": 6, "due": 8},
        {"game": 1, "name": "Ann", "kind": "missed", "phase": "crib", "claimed": 4, "due": 5},
        # none of these lowers it: an over-claim of 3 counts as what was due, his heels are left out, and the
        # cut-short deal is not a completed one.
        {"game": 2, "name": "Ann", "kind": "overclaim", "phase": "hand", "claimed": 6, "due": 3},
        {"game": 1, "name": "Ann", "kind": "missed", "phase": "heels", "claimed": 0, "due": 2},
        {"game": 2, "name": "Ann", "kind": "missed", "phase": "hand", "claimed": 20, "due": 29,
         "completed": False},
        {"game": 3, "name": "Cy", "kind": "missed", "phase": "hand", "claimed": 0, "due": 6, "completed": False},
    ]  # fmt: skip
    got = by_player(load_stats(make_frames(games, deals, findings)))
    ann, ben, cy = got["Ann"], got["Ben"], got["Cy"]
    assert (ann["points_missed"], ann["points_overclaimed"]) == (5 + 2 + 9, 3)
    assert ann["accuracy"] == 0.75
    assert (ann["spread"], ann["games"], ann["spread_per_game"]) == (21 - 41, 2, -10.0)
    assert (ben["accuracy"], ben["spread_per_game"]) == (None, (41 - 21) / 2)  # nothing due: null
    assert (cy["deals"], cy["accuracy"], cy["games"], cy["spread_per_game"]) == (0, None, 0, None)


def test_the_first_dealers_win_rate(make_frames: MakeFrames) -> None:
    games = [
        two_player(1, "Ann", "Ben", 100),
        two_player(2, "Ben", "Ann", 100),
        two_player(3, "Ann", "Ben", 100),
        two_player(4, "Ann", "Ben", 100),  # a result without deals: no one is known to have dealt first
        {"id": 5, "seats": [("Ann", 0, False, 0, 40), ("Cy", 1, False, 0, 50)]},  # unfinished: no one's game
    ]
    deals = [  # each row a deal of its own, numbered in order within its game: the first row deals first
        {"game": 1, "name": "Ann", "role": "dealer", "completed": True},  # Ann deals first and wins
        {"game": 1, "name": "Ben", "role": "dealer", "completed": True},  # (the second deal: not the first)
        {"game": 2, "name": "Ann", "role": "dealer", "completed": True},  # Ann deals first and loses
        {"game": 3, "name": "Ben", "role": "dealer", "completed": True},  # Ben deals first and loses
        {"game": 5, "name": "Cy", "role": "dealer", "completed": False},  # Cy deals first: the game is undecided
    ]
    got = by_player(load_stats(make_frames(games, deals)))
    ann, ben, cy = got["Ann"], got["Ben"], got["Cy"]
    # Ann dealt first in games 1 and 2 and won 1 of them: 1 / 2; Ben in game 3, lost: 0 / 1; Cy in no decided game
    assert (ann["games"], ann["wins"]) == (4, 3)
    assert (ann["first_dealer_games"], ann["first_dealer_wins"], ann["first_dealer_win_rate"]) == (2, 1, 0.5)
    assert (ben["first_dealer_games"], ben["first_dealer_wins"], ben["first_dealer_win_rate"]) == (1, 0, 0.0)
    assert (cy["first_dealer_games"], cy["first_dealer_wins"], cy["first_dealer_win_rate"]) == (0, 0, None)


def test_player_filter_keeps_that_player_only(make_frames: MakeFrames) -> None:
    games = [two_player(1, "Ann", "Ben", 100), two_player(2, "Ben", "Ann", 70)]
    got = load_stats(make_frames(games, filters=StatsFilter(player=" ann ")))
    assert got["player"].to_list() == ["Ann"]
    # won by 21, lost by 51 (a skunk: 70 < 91)
    assert got.select("games", "wins", "spread", "skunks_lost", "game_points").row(0) == (2, 1, -30, 1, 2)


def test_skunk_trend_by_month(make_frames: MakeFrames) -> None:
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


def test_hand_points_only_four_card_hands(make_frames: MakeFrames) -> None:
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


def test_missed_by_phase(make_frames: MakeFrames) -> None:
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



def test_filters_pick_games_in_the_database(make_frames: MakeFrames, engine: sa.Engine) -> None:
    # (1) League, 2026-01-10: Ann beats Ben on 100 (margin 21). (2) League, 2026-02-10: Ben beats Ann on 80
    # (41, a skunk: 80 < 91). (3) Open, 2026-02-20, five-card (target 61): Ann beats Ben on 40 (21; the
    # five-card skunk line is 31, so none). (4) undated: Ben beats Ann on 120 (1). Ann has one completed deal as
    # pone per game g, pegging g points with a hand of 2g, and one missed finding of g points.
    games = [
        two_player(1, "Ann", "Ben", 100, event="League", date=Date(2026, 1, 10)),
        two_player(2, "Ben", "Ann", 80, event="League", date=Date(2026, 2, 10)),
        {"id": 3, "variant": "five-card", "event": "Open", "date": Date(2026, 2, 20),
         "seats": [("Ann", 0, True, 0, 61), ("Ben", 1, False, 0, 40)]},
        two_player(4, "Ben", "Ann", 120),
    ]  # fmt: skip
    deals = [{"game": g, "name": "Ann", "role": "pone", "completed": True, "pegged": g, "hand": 2 * g}
             for g in range(1, 5)]  # fmt: skip
    findings = [{"game": g, "name": "Ann", "kind": "missed", "claimed": 0, "due": g} for g in range(1, 5)]
    make_frames(games, deals, findings)

    def read(**filters: Any) -> StatsFrames:
        with engine.connect() as conn:
            return load_frames(conn, StatsFilter(**filters))

    def ann(**filters: Any) -> tuple[Any, ...]:
        row = by_player(load_stats(read(**filters)))["Ann"]
        columns = ("games", "wins", "spread", "deals", "pegging_per_deal_pone", "points_missed")
        return tuple(row[c] for c in columns)

    assert ann() == (4, 2, 21 - 41 + 21 - 1, 4, 10 / 4, 10)
    assert ann(event="LEAGUE") == (2, 1, 21 - 41, 2, 3 / 2, 3)
    assert ann(since=Date(2026, 2, 1)) == (2, 1, -41 + 21, 2, 5 / 2, 5)  # the undated game is left out
    assert ann(since=Date(2026, 1, 10), until=Date(2026, 1, 10)) == (1, 1, 21, 1, 1.0, 1)
    assert ann(variant="six-card") == (3, 1, 21 - 41 - 1, 3, 7 / 3, 7)
    assert ann(variant="five-card", event="open") == (1, 1, 21, 1, 3.0, 3)
    # Ben's six-card games: won 2 (one a skunk: 3 + 2 game points), lost 1; spread -21 + 41 + 1.
    ben = by_player(load_stats(read(variant="six-card")))["Ben"]
    assert (ben["games"], ben["wins"], ben["game_points"], ben["skunks_won"], ben["spread"]) == (3, 2, 5, 1, 21)
    assert ben["deals"] == 0 and ben["pegging_per_deal_pone"] is None
    # Only the five-card game's hand (2 * 3 points, three cards) is left for the three-card hand chart.
    assert hand_points(read(variant="five-card"), hand_size=3).rows() == [(6, 1, 1.0)]
    assert hand_points(read(variant="five-card")).height == 0
    assert load_stats(read(event="no such event")).height == 0
    assert load_stats(read(player="nobody")).height == 0


def test_findings_by_kind_counts_game_level_findings(make_frames: MakeFrames) -> None:
    # Two missed findings, one over-claim, and a result finding about the game (no player, no deal).
    findings = [
        {"game": 1, "name": "Ann", "kind": "missed", "claimed": 0, "due": 2},
        {"game": 1, "name": "Ben", "kind": "missed", "claimed": 1, "due": 2},
        {"game": 1, "name": "Ann", "kind": "overclaim", "claimed": 3, "due": 2},
        {"game": 1, "name": None, "kind": "result", "phase": "result", "deal": None},
    ]
    frames = make_frames([two_player(1, "Ann", "Ben", 100)], findings=findings)
    assert findings_by_kind(frames).rows() == [("missed", 2), ("overclaim", 1), ("result", 1)]


def test_stats_and_standings_read_no_detail(engine: sa.Engine) -> None:
    with engine.connect() as conn:
        frames = load_frames(conn, detail=False)
    assert (frames.game_totals, frames.game_results, frames.hand_totals) == (None, None, None)
    assert load_stats(frames).height == 0 and standings(frames).height == 0
    with pytest.raises(ValueError, match="read them with detail=True"):
        hand_points(frames)


def test_stats_read_the_per_game_totals_alone(sqlite_url: str) -> None:
    """``stats`` and ``standings`` add up game_player_totals (joined to the players' names), nothing else (but
    ``stats`` reads the points missed by phase for ``accuracy`` too: ``missed_totals``)."""
    engine = make_engine(sqlite_url)
    upgrade(engine)
    with engine.connect() as conn:
        for filters in (StatsFilter(), StatsFilter(player="Ann")):
            sql = str(player_totals_query(filters).compile(conn, compile_kwargs={"literal_binds": True}))
            plan = " ".join(row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
            assert "game_player_totals" in plan
            for table in ("deal_player", "finding", "game_player ", "deal "):
                assert table not in plan + " "
    engine.dispose()
