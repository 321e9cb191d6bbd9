"""What the replay tells a visitor depends on what the visitor listens to, asked of its class once and of the
visitor itself when it sets a method of its own."""

from __future__ import annotations

from typing import Any

from cribstats.findings import Finding
from cribstats.gamelog import GameLog, validate_game
from cribstats.replay import ReplayVisitor, replay
from cribstats.replay.game import GameReplay

# the seed deal, with Alice's hand claimed 10 where 12 is due: one finding, "missed"
GAME: dict[str, Any] = {
    "format": "cribstats/game/1", "id": "g", "players": ["Alice", "Bob"],
    "deals": [{"dealer": "Alice", "starter": "5H",
               "hands": {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"],
                         "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]},
               "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
               "play": [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"],
                        ["Alice", "2S", 1], ["Bob", "6D"], ["Alice", "4S"], ["Bob", "4H", 3]],
               "show": {"Bob": 9, "Alice": 10, "crib": 6}, "scores": {"Alice": 22, "Bob": 12}}],
}  # fmt: skip


def game() -> GameLog:
    return validate_game(GAME)


class Findings(ReplayVisitor):
    def __init__(self) -> None:
        self.found: list[Finding] = []

    def visit_finding(self, finding: Finding) -> None:
        self.found.append(finding)


class Deals(ReplayVisitor):
    def __init__(self) -> None:
        self.ends = 0

    def end_deal(self, facts: Any) -> None:
        self.ends += 1


def tells(visitor: ReplayVisitor) -> tuple[bool, bool, bool]:
    run = GameReplay(game(), visitor, "g")
    return run.tell_events, run.tell_plays, run.tell_deals


def test_each_kind_of_visitor_is_told_what_it_listens_to_whatever_came_before() -> None:
    assert tells(ReplayVisitor()) == (False, False, False)
    assert tells(Findings()) == (True, False, False)
    assert tells(ReplayVisitor()) == (False, False, False)  # not what the visitor before it listened to
    assert tells(Deals()) == (False, False, True)
    assert tells(Findings()) == (True, False, False)


def test_a_visitor_that_sets_a_method_of_its_own_is_told() -> None:
    assert tells(ReplayVisitor()) == (False, False, False)  # its class asked once, and remembered
    found: list[Finding] = []
    own = ReplayVisitor()
    own.visit_finding = found.append  # type: ignore[method-assign]  # a visitor set up by hand
    assert tells(own) == (True, False, False)
    outcome = replay(game(), own)
    assert [f.kind for f in outcome.findings] == ["missed"]
    assert found == outcome.findings
    assert tells(ReplayVisitor()) == (False, False, False)  # the class's own answer stands


def test_a_finding_reaches_the_visitor_beside_the_outcome() -> None:
    visitor = Findings()
    outcome = replay(game(), visitor)
    assert [(f.kind, f.player, f.claimed, f.due) for f in visitor.found] == [("missed", "Alice", 10, 12)]
    assert visitor.found == outcome.findings
    deals = Deals()
    replay(game(), deals)
    assert deals.ends == 1
