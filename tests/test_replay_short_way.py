"""The short way through a clean deal (``cribstats.replay.clean``) decides nothing the full replay would decide
otherwise: on simulated games of every variant, with mistakes, muggins calls, logs without card claims and one
more thing broken by hand (events swapped, dropped or doubled, a claim or a board moved), every fact, finding,
score and winner is the same with the short way as with every deal replayed the full way.
"""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cribstats.replay.game as game_module
from cribstats.gamelog import GameLog, GameLogError, game_key, validate_game
from cribstats.replay import GameOutcome, ReplayVisitor
from cribstats.replay.game import GameReplay
from cribstats.simulate import simulate_games
from cribstats.variants import VARIANT_NAMES

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BREAKS = ("none", "swap", "drop", "double", "reorder", "claim", "show", "heels", "board", "starter")


def simulated(variant: str, seed: int, **options: Any) -> dict[str, Any]:
    return next(simulate_games(1, variant=variant, seed=seed, **options)).log


def outcome_data(outcome: GameOutcome) -> dict[str, Any]:
    """Everything a replay gives, as plain data (the play's facts as built from the per-event lists)."""
    return {
        "deals": [
            {
                "head": (d.number, d.dealer, d.starter, d.completed, d.after_end),
                "players": [asdict(p) for p in d.players],
                "plays": [asdict(p) for p in d.plays],
                "lists": (list(d.play_events), d.play_dues, d.play_counts, d.play_claims(), d.play_after_end_from),
                "shows": [asdict(s) for s in d.shows],
                "scores": (d.scores_claimed, d.scores_due),
            }
            for d in outcome.deals
        ],
        "findings": [asdict(f) for f in outcome.findings],
        "end": (outcome.scores_claimed, outcome.scores_due, outcome.winners, outcome.winners_due,
                outcome.skunk_levels, outcome.ended_in_deal),
    }


def replayed(game: GameLog, *, short_way: bool) -> GameOutcome:
    run = GameReplay(game, ReplayVisitor(), game_key(game))
    run.short_way = short_way
    return run.run()


def broken(log: dict[str, Any], what: str, first: int, where: int) -> dict[str, Any]:
    """``log`` with one thing broken by hand in every third deal from deal ``first`` (mod 3): the others stay as
    they were, and clean ones among them take the short way."""
    out = copy.deepcopy(log)
    for d in out["deals"][first % 3 :: 3]:
        break_deal(d, out["players"], what, where)
    return out


def break_deal(d: dict[str, Any], players: list[str], what: str, where: int) -> None:
    play = d.get("play") or []
    at = where % len(play) if play else 0
    if what == "swap" and len(play) > 1:
        j = (at + 1) % len(play)
        play[at], play[j] = play[j], play[at]
    elif what == "drop" and play:
        del play[at]
    elif what == "double" and play:
        play.insert(at, list(play[at]))
    elif what == "reorder" and play:  # one player's cards laid in another order: past 31, out of turn, ...
        mine = [i for i, e in enumerate(play) if e[0] == play[at][0] and e[1] != "go"]
        if len(mine) > 1:
            i, j = mine[where % len(mine)], mine[(where + 1) % len(mine)]
            play[i][1], play[j][1] = play[j][1], play[i][1]
    elif what == "claim" and play and len(play[at]) == 3:
        play[at][2] = max(0, play[at][2] + (1 if where % 2 else -1))
    elif what == "show" and d.get("show"):
        who = sorted(d["show"])[where % len(d["show"])]
        d["show"][who] = max(0, d["show"][who] + 1)
    elif what == "heels":
        d["heels"] = 2 if not d.get("heels") else 0
    elif what == "board" and d.get("scores"):
        who = sorted(d["scores"])[where % len(d["scores"])]
        d["scores"][who] += 1
    elif what == "starter":
        d["starter"] = d["hands"][players[0]][0]  # a card dealt to a player: a bad deal


@given(
    variant=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 10_000),
    rate=st.sampled_from([0.0, 0.0, 0.05, 0.2]),
    muggins=st.booleans(),
    strip_claims=st.booleans(),
    what=st.sampled_from(BREAKS),
    deal=st.integers(0, 2),
    where=st.integers(0, 30),
)
@SETTINGS
def test_the_short_way_gives_what_the_full_replay_gives(
    variant: str, seed: int, rate: float, muggins: bool, strip_claims: bool, what: str, deal: int, where: int
) -> None:
    log = simulated(variant, seed, mistake_rate=rate, muggins=muggins)
    if strip_claims:
        for d in log["deals"]:
            if d.get("play") and not d.get("muggins"):
                d["play"] = [event[:2] for event in d["play"]]
    try:
        game = validate_game(broken(log, what, deal, where))
    except GameLogError:
        assume(False)
        return
    assert outcome_data(replayed(game, short_way=True)) == outcome_data(replayed(game, short_way=False))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_clean_deals_take_the_short_way(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above is not between two full replays: in a simulated game without mistakes every deal but
    the last (where the target is reached) and, where the variant has one, the first (its bonus) is clean and
    takes the short way; the last does not."""
    taken: list[bool] = []
    short_way = game_module.replay_clean_deal

    def spy(*args: Any) -> Any:
        facts = short_way(*args)
        taken.append(facts is not None)
        return facts

    monkeypatch.setattr(game_module, "replay_clean_deal", spy)
    log = simulated(variant, 7)
    replayed(validate_game(log), short_way=True)
    bonus = variant == "five-card"  # three for last to the first pone, in the first deal
    assert len(taken) == len(log["deals"]) >= 3
    assert taken[bonus:-1] == [True] * (len(taken) - 1 - bonus)
    assert taken[-1] is False


def test_a_clean_deal_leaves_the_replay_untouched_when_it_is_not_clean() -> None:
    """A deal refused by the short way (here: a claim one short) changes nothing in the game's replay: the board,
    the due board and the recorded offsets are as they were."""
    log = simulated("six-card", 3)
    log["deals"][0]["show"] = {k: v + 1 for k, v in log["deals"][0]["show"].items()}
    game = validate_game(log)
    run = GameReplay(game, ReplayVisitor(), "k")
    before = (list(run.board), list(run.board_due), dict(run.board_offsets), run.over)
    assert game_module.replay_clean_deal(run, game.deals[0], 1, None) is None  # type: ignore[index]
    assert (list(run.board), list(run.board_due), dict(run.board_offsets), run.over) == before


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_short_way_on_a_sweep_of_broken_plays_without_claims(variant: str) -> None:
    """Without card claims a card laid wrong is not caught by a claim that disagrees: the state alone must
    refuse it. Every seed of a sweep, with one player's cards reordered, swapped with the next event or dropped
    in every third deal."""
    compared = 0
    for seed in range(30):
        log = simulated(variant, seed, mistake_rate=0.2)
        for d in log["deals"]:
            if d.get("play"):
                d["play"] = [event[:2] for event in d["play"]]
        for what in ("reorder", "swap", "drop"):
            for first in range(3):
                game = validate_game(broken(log, what, first, seed))
                assert outcome_data(replayed(game, short_way=True)) == outcome_data(
                    replayed(game, short_way=False)
                ), (variant, seed, what, first)
                compared += 1
    assert compared == 30 * 9
