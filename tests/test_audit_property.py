"""Property tests: simulated games audit clean, and one claim changed by k gives exactly one finding saying so.

The simulator (``cribstats.simulate``) plays whole legal games with every claim right. Changing one claim (a
play event's points, a hand or crib claim, his heels) by +k or -k must give exactly one ``missed`` or
``overclaim`` with that claim and the points due, once the later board positions and the result are moved by the
same k so that nothing else is wrong; claims are chosen so that the change does not move the end of the game.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cribstats.findings import FINDING_KINDS
from cribstats.gamelog import validate_game
from cribstats.replay import replay
from cribstats.simulate import simulate_games
from cribstats.variants import VARIANT_NAMES, find_variant

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def simulated(variant: str, seed: int, **options: Any) -> dict[str, Any]:
    return next(simulate_games(1, variant=variant, seed=seed, **options)).log


def counting_order(players: list[str], dealer: str) -> list[str]:
    """The show: from the player after the dealer round the table, the dealer last, then the crib."""
    start = players.index(dealer) + 1
    return [*(players[(start + i) % len(players)] for i in range(len(players))), "crib"]


def trim_after_end(log: dict[str, Any]) -> dict[str, Any]:
    """The log cut at the claim that reaches the target, with the board and result at that moment.

    Games without mistakes only (every claim right, no muggins): the claims are added up in the order of the
    rules (his heels, the play event by event, the show in counting order). A simulated game stops there, so
    this gives it back unchanged: an independent check of where the replay and the simulator end a game.
    """
    rules = find_variant(log.get("variant", "six-card"))
    target = log.get("target") or rules.target
    players = log["players"]
    board = [0] * rules.sides

    def add(name: str, points: int) -> bool:
        board[rules.side_of(players.index(name))] += points
        return max(board) >= target

    def finish(d: int) -> dict[str, Any]:
        out = copy.deepcopy(log)
        out["deals"] = out["deals"][: d + 1]
        final = {name: board[rules.side_of(seat)] for seat, name in enumerate(players)}
        out["deals"][d]["scores"] = final
        if out.get("result"):
            out["result"]["scores"] = dict(final)
        return out

    for d, deal in enumerate(log["deals"]):
        if d == 0 and rules.first_deal_bonus:
            add(players[(players.index(deal["dealer"]) + 1) % len(players)], rules.first_deal_bonus)
        if add(deal["dealer"], deal.get("heels", 0)):
            out = finish(d)
            for key in ("play", "show"):
                out["deals"][d].pop(key, None)
            return out
        for e, event in enumerate(deal.get("play") or []):
            if len(event) == 3 and add(event[0], event[2]):
                out = finish(d)
                # the goes that close the series come before a go point is pegged: they belong before the end
                last = e + 1
                while last < len(deal["play"]) and deal["play"][last][1] == "go":
                    last += 1
                out["deals"][d]["play"] = out["deals"][d]["play"][:last]
                out["deals"][d].pop("show", None)
                return out
        show = deal.get("show") or {}
        for i, who in enumerate(counting_order(players, deal["dealer"])):
            if who in show and add(deal["dealer"] if who == "crib" else who, show[who]):
                out = finish(d)
                shown = counting_order(players, deal["dealer"])[: i + 1]
                out["deals"][d]["show"] = {k: v for k, v in show.items() if k in shown}
                return out
    return log


def claims(log: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every claim of the log: (deal index, phase, where, claimant, points)."""
    found: list[tuple[Any, ...]] = []
    for d, deal in enumerate(log["deals"]):
        if "heels" in deal:
            found.append((d, "heels", None, deal["dealer"], deal["heels"]))
        for e, event in enumerate(deal.get("play") or []):
            if len(event) == 3:
                found.append((d, "play", e, event[0], event[2]))
        for who, points in (deal.get("show") or {}).items():
            if who == "crib":
                found.append((d, "crib", who, deal["dealer"], points))
            else:
                found.append((d, "hand", who, who, points))
    return found


def side(log: dict[str, Any], player: str) -> list[str]:
    """The players who share ``player``'s score: the partner too in four-player."""
    players = log["players"]
    if find_variant(log.get("variant", "six-card")).partnerships:
        seat = players.index(player)
        return [p for i, p in enumerate(players) if i % 2 == seat % 2]
    return [player]


def change_claim(log: dict[str, Any], claim: tuple[Any, ...], delta: int) -> dict[str, Any]:
    """The log with one claim moved by ``delta`` and every later board position and the result moved with it."""
    out = copy.deepcopy(log)
    d, phase, where, claimant, points = claim
    deal = out["deals"][d]
    if phase == "heels":
        deal["heels"] = points + delta
    elif phase == "play":
        deal["play"][where] = [*deal["play"][where][:2], points + delta]
    else:
        deal["show"][where] = points + delta
    members = side(out, claimant)
    for later in out["deals"][d:]:
        for name in members:
            if "scores" in later and name in later["scores"]:
                later["scores"][name] += delta
    result = out.get("result") or {}
    for name in members:
        if name in (result.get("scores") or {}):
            result["scores"][name] += delta
    return out


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 10**6))
def test_simulated_games_audit_clean(variant: str, seed: int) -> None:
    log = simulated(variant, seed)
    assert trim_after_end(log) == log, "the log goes on after a side reached the target"
    outcome = replay(validate_game(log))
    assert outcome.findings == []
    assert outcome.winners, "a simulated game is played to the target"
    assert outcome.scores_claimed == outcome.scores_due


@SETTINGS
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 10**6),
    k=st.integers(1, 6),
    sign=st.sampled_from([1, -1]),
    pick=st.integers(0, 10**6),
)
def test_one_claim_changed_gives_exactly_one_finding(
    variant: str, seed: int, k: int, sign: int, pick: int
) -> None:
    log = simulated(variant, seed)
    game = validate_game(log)
    before = replay(game)
    assert before.findings == []
    target = before.target
    delta = sign * k
    claim = claims(log)[pick % len(claims(log))]
    d, phase, where, claimant, points = claim
    assume(points + delta >= 0)
    final = before.scores_claimed[claimant]
    if claimant in set().union(*(side(log, w) for w in before.winners)):
        # the winner: only a smaller claim that still leaves the winning claim at or over the target
        assume(delta < 0 and final + delta >= target)
    else:
        assume(final + delta < target)

    changed = replay(validate_game(change_claim(log, claim, delta)))
    expected = (
        d + 1,
        where if phase == "play" else None,
        "missed" if delta < 0 else "overclaim",
        phase,
        claimant,
        points + delta,
        points,
    )
    assert [(f.deal, f.event, f.kind, f.phase, f.player, f.claimed, f.due) for f in changed.findings] == [expected]
    assert changed.findings[0].game == log["id"]
    assert changed.winners == before.winners and changed.ended_in_deal == before.ended_in_deal


def test_simulated_mistakes_are_the_findings_the_simulator_expects() -> None:
    """Games with mistakes: the audit finds exactly the findings the simulator says it made, field for field."""
    keys = ["game", "deal", "event", "kind", "phase", "player", "claimed", "due"]
    seen: set[str] = set()
    for variant in VARIANT_NAMES:
        for sim in simulate_games(6, variant=variant, seed=11, mistake_rate=0.05, muggins=True):
            found = [{k: getattr(f, k) for k in keys} for f in replay(validate_game(sim.log)).findings]
            assert found == [{k: f[k] for k in keys} for f in sim.findings], sim.log["id"]
            seen.update(f["kind"] for f in found)
    assert seen <= set(FINDING_KINDS)
    assert {"missed", "overclaim", "board"} <= seen


def replay_record(log: dict[str, Any]) -> list[Any]:
    """Everything a replay gives: findings, boards, result, and every deal's facts, plays and shows."""
    outcome = replay(validate_game(log))
    return [
        [f.to_dict() for f in outcome.findings],
        outcome.scores_claimed, outcome.scores_due, outcome.winners, outcome.winners_due, outcome.ended_in_deal,
        [(d.completed, d.after_end, d.scores_claimed, d.scores_due, d.players, d.plays, d.shows)
         for d in outcome.deals],
    ]  # fmt: skip


RANK_ORDER = "A23456789TJQK"


def naive_value(text: str) -> int:
    return min(RANK_ORDER.index(text[0]) + 1, 10)


def naive_points(series: list[str], count: int) -> int:
    """The points of the last card of ``series`` (card texts), worked out the long way."""
    points = 2 if count in (15, 31) else 0
    ranks = [RANK_ORDER.index(c[0]) for c in series]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[min(same, 4)]
    for k in range(len(ranks), 2, -1):
        tail = sorted(ranks[-k:])
        if tail == list(range(tail[0], tail[0] + k)):
            points += k
            break
    return points


def naive_play_dues(deal: dict[str, Any], players: list[str], single_series: bool) -> list[int]:
    """The points due for each event of a deal's play, by a replay written from the rules alone: a series
    closes as soon as no one who has not said go can lay a card (the last card then takes a point unless it
    made 31); a card past 31 earns nothing and ends the series with no point; five-card plays one series."""
    held = {p: [c for c in deal["hands"][p] if c not in deal["discards"][p]] for p in players}
    dues = [0] * len(deal["play"])
    count, series, gone, last = 0, [], set(), None
    finished = False

    def series_over() -> bool:
        return count == 31 or all(
            p in gone or not any(count + naive_value(c) <= 31 for c in held[p]) for p in players
        )

    def close(point: bool) -> None:
        nonlocal count, series, gone, finished
        if point and last is not None and count != 31:
            dues[last] += 1
        count, series, gone = 0, [], set()
        finished = single_series or not any(held.values())

    for i, event in enumerate(deal["play"]):
        player, what = event[0], event[1]
        if finished:
            continue
        if what == "go":
            if series:  # a go logged once its series has closed belongs to that series: nothing more to do
                gone.add(player)
        else:
            held[player].remove(what)
            if count + naive_value(what) > 31:
                close(point=False)
                continue
            count += naive_value(what)
            series.append(what)
            dues[i] = naive_points(series, count)
            last = i
        if series and series_over():
            close(point=True)
    return dues


@given(
    variant=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 10**6),
    rate=st.sampled_from([0.0, 0.05, 0.2]),
    muggins=st.booleans(),
    strip_claims=st.booleans(),
)
@SETTINGS
def test_the_play_engine_agrees_with_a_naive_replay(
    variant: str, seed: int, rate: float, muggins: bool, strip_claims: bool
) -> None:
    """Every card's points due, go and last card included, and every player's pegging, in every deal played to
    its end (games with claim mistakes, false goes and cards past 31 included, and logs without card claims),
    are what the naive replay above gives."""
    log = simulated(variant, seed, mistake_rate=rate, muggins=muggins)
    if strip_claims:
        for deal in log["deals"]:
            if deal.get("play") and not deal.get("muggins"):
                deal["play"] = [event[:2] for event in deal["play"]]
    rules = find_variant(variant)
    outcome = replay(validate_game(log))
    compared = 0
    for deal, facts in zip(log["deals"], outcome.deals, strict=True):
        if not facts.completed:
            continue
        dues = naive_play_dues(deal, log["players"], rules.single_series)
        assert [f.due for f in facts.plays] == dues
        assert facts.play_dues == dues
        for p in facts.players:
            mine = [dues[i] for i, e in enumerate(deal["play"]) if e[0] == p.player]
            assert p.pegged_due == sum(mine)
        compared += 1
    assert compared >= 1
