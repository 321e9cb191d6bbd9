"""The short way through a clean deal (``cribstats.replay.clean``) decides nothing the full replay would decide
otherwise: on simulated games of every variant, with mistakes, muggins calls, logs without card claims and one
more thing broken by hand (events swapped, dropped or doubled, a claim or a board moved), every fact, finding,
score and winner is the same with the short way as with every deal replayed the full way.
"""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cribstats.replay.clean as clean_module
import cribstats.replay.game as game_module
import cribstats.replay.play as play_module
from cribstats.gamelog import GameLog, GameLogError, game_key, validate_game
from cribstats.play import PlayState
from cribstats.replay import GameOutcome, ReplayVisitor
from cribstats.replay.game import GameReplay
from cribstats.replay.walk import PlayWalk
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
    boards=st.booleans(),
)
@SETTINGS
def test_the_short_way_gives_what_the_full_replay_gives(
    variant: str, seed: int, rate: float, muggins: bool, strip_claims: bool, what: str, deal: int, where: int,
    boards: bool,
) -> None:
    """Every fact, finding, score and winner the same either way; without recorded boards (``boards`` False)
    the deal where the game ends is started the short way too, and taken over from within."""
    log = simulated(variant, seed, mistake_rate=rate, muggins=muggins)
    if strip_claims:
        for d in log["deals"]:
            if d.get("play") and not d.get("muggins"):
                d["play"] = [event[:2] for event in d["play"]]
    if not boards:
        for d in log["deals"]:
            d.pop("scores", None)
    try:
        game = validate_game(broken(log, what, deal, where))
    except GameLogError:
        assume(False)
        return
    assert outcome_data(replayed(game, short_way=True)) == outcome_data(replayed(game, short_way=False))


class CountingState(PlayState):
    """A play state that counts the states made and the cards laid on them (a second walk lays cards again)."""

    made: ClassVar[list[CountingState]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.laid = 0
        CountingState.made.append(self)

    def lay(self, seat: int, card: int) -> int:
        self.laid += 1
        return super().lay(seat, card)

    def lay_if_legal(self, seat: int, card: int) -> int | None:
        points = super().lay_if_legal(seat, card)
        self.laid += points is not None
        return points

    def lay_over(self, seat: int, card: int) -> None:
        self.laid += 1
        super().lay_over(seat, card)


def walks(game: GameLog, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """For each deal with a play: the states made for it, the cards laid on them, and the deal's card events."""
    monkeypatch.setattr(clean_module, "PlayState", CountingState)
    monkeypatch.setattr(play_module, "PlayState", CountingState)
    out = []
    for d in game.deals or []:
        CountingState.made = []
        run = GameReplay(game.model_copy(update={"deals": [d]}), ReplayVisitor(), "k")
        run.run()
        if d.play is not None:
            cards = sum(1 for e in d.play if e[1] != "go")
            out.append((len(CountingState.made), sum(s.laid for s in CountingState.made), cards))
    return out


@given(
    variant=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 10_000),
    rate=st.sampled_from([0.0, 0.05, 0.2]),
    what=st.sampled_from(BREAKS),
    where=st.integers(0, 30),
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
def test_each_deal_is_walked_once(
    variant: str, seed: int, rate: float, what: str, where: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One walk per deal, clean or broken: one play state, and no card laid on it twice (each deal replayed
    alone, as the first of its game, so that every one is a deal the short way starts)."""
    log = simulated(variant, seed, mistake_rate=rate)
    try:
        game = validate_game(broken(log, what, 0, where))
    except GameLogError:
        assume(False)
        return
    for made, laid, cards in walks(game, monkeypatch):
        assert made == 1
        assert laid <= cards


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("board", [True, False])
def test_every_deal_starts_the_short_way(variant: str, board: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above is not between two full replays: in a simulated game without mistakes every deal but
    the first of a variant with a first-deal bonus is started the short way, except the last when its recorded
    board is at the target (the game ends in it: the full replay takes it from the start). Without that board,
    the last deal too is started the short way, and the full replay takes it over from within (only it)."""
    taken: list[bool] = []
    handed: list[int] = []
    short_way, take_over = game_module.walk_deal, play_module.PlayReplay.take_over

    def spy(*args: Any) -> Any:
        facts = short_way(*args)
        taken.append(facts is not None)
        return facts

    def spy_take_over(self: play_module.PlayReplay, walk: PlayWalk) -> None:
        handed.append(self.d.number)
        take_over(self, walk)

    monkeypatch.setattr(game_module, "walk_deal", spy)
    monkeypatch.setattr(play_module.PlayReplay, "take_over", spy_take_over)
    log = simulated(variant, 7)
    if not board:
        del log["deals"][-1]["scores"]
    game = validate_game(log)
    outcome = replayed(game, short_way=True)
    bonus = variant == "five-card"  # three for last to the first pone, in the first deal
    last = len(log["deals"])
    assert len(taken) == last >= 3
    assert taken[bonus:-1] == [True] * (last - 1 - bonus)
    assert taken[-1] is not board
    assert handed == ([] if board else [last])
    assert outcome.ended_in_deal == last
    assert outcome_data(outcome) == outcome_data(replayed(game, short_way=False))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_card_the_state_refuses_hands_the_play_over_at_that_card(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card laid twice (the copy right after the card) stops the short way at the copy: the full replay takes
    the play over there, with the cards before it already laid, and finds the card not held."""
    log = simulated(variant, 11)
    play = log["deals"][1]["play"]
    at = next(i for i, e in enumerate(play) if e[1] != "go")
    play.insert(at + 1, list(play[at]))
    stops: list[int] = []
    take_over = play_module.PlayReplay.take_over

    def spy_take_over(self: play_module.PlayReplay, walk: PlayWalk) -> None:
        stops.append(walk.stop)
        take_over(self, walk)

    monkeypatch.setattr(play_module.PlayReplay, "take_over", spy_take_over)
    game = validate_game(log)
    outcome = replayed(game, short_way=True)
    assert stops[0] == at + 1
    first = next(f for f in outcome.findings if f.deal == 2)
    assert (first.event, first.kind) == (at + 1, "illegal-card")
    assert outcome_data(outcome) == outcome_data(replayed(game, short_way=False))


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


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_deal_where_the_game_ends_without_claims_or_boards(variant: str) -> None:
    """Without card claims or recorded boards, the deal in which the game ends is started the short way, which
    must stop at the card that reaches the target (after it the play counts for nothing): on a sweep of seeds,
    with mistakes and without, the same as the full replay, and the game ends in the same deal."""
    ended_in_play = 0
    for seed in range(40):
        log = simulated(variant, seed, mistake_rate=0.1 if seed % 2 else 0.0)
        for d in log["deals"]:
            d.pop("scores", None)
            if d.get("play") and not d.get("muggins"):
                d["play"] = [event[:2] for event in d["play"]]
        game = validate_game(log)
        short, full = replayed(game, short_way=True), replayed(game, short_way=False)
        assert outcome_data(short) == outcome_data(full), (variant, seed)
        last = short.deals[-1]
        ended_in_play += last.players[0].hand_due is None and last.players[1].hand_due is None
    assert ended_in_play > 0  # some games end in the play, where the walk must stop at the card
