"""The rules of docs/rules.md that no other test file pins on its own, and the index of docs/rules.md itself: each
test it cites exists.

Every expected value is read off the rules by hand (the working is in the comments), never from the program.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from spec_example import example_deal

from cribstats.gamelog import validate_game
from cribstats.match.judge import MatchGame, judge_match
from cribstats.match.model import MatchRules
from cribstats.replay import replay

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"


def result_only(winner: str, alice: int, bob: int, **fields: Any) -> Any:
    """A game recorded by its result alone: Alice against Bob."""
    return validate_game({"format": "cribstats/game/1", "id": "r", "players": ["Alice", "Bob"],
                          "result": {"winner": winner, "scores": {"Alice": alice, "Bob": bob}}, **fields})


# --- game results: the skunk lines of each variant's target and of a log's own target ---------------------------

# (variant, the log's target or None, the loser's score, the skunk level), read off the rules: skunked below
# target - 30, double below target - 60, triple below target - 90.
SKUNKS = [
    # six-card, to 121: under 91, under 61, under 31
    ("six-card", None, 91, 0), ("six-card", None, 90, 1), ("six-card", None, 61, 1), ("six-card", None, 60, 2),
    ("six-card", None, 31, 2), ("six-card", None, 30, 3), ("six-card", None, 0, 3),
    # five-card, to 61: under 31, under 1 (no score is under -29)
    ("five-card", None, 60, 0), ("five-card", None, 31, 0), ("five-card", None, 30, 1), ("five-card", None, 1, 1),
    ("five-card", None, 0, 2),
    # seven-card, to 181: under 151, under 121, under 91
    ("seven-card", None, 151, 0), ("seven-card", None, 150, 1), ("seven-card", None, 121, 1),
    ("seven-card", None, 120, 2), ("seven-card", None, 91, 2), ("seven-card", None, 90, 3),
    # a six-card log played to 61: the lines of a 61 game
    ("six-card", 61, 31, 0), ("six-card", 61, 30, 1), ("six-card", 61, 0, 2),
    # a six-card log played to 91: under 61, under 31, under 1
    ("six-card", 91, 61, 0), ("six-card", 91, 60, 1), ("six-card", 91, 30, 2), ("six-card", 91, 0, 3),
]


@pytest.mark.parametrize(("variant", "target", "loser", "level"), SKUNKS)
def test_a_games_skunk_level_follows_its_target(variant: str, target: int | None, loser: int, level: int) -> None:
    to = target if target is not None else {"six-card": 121, "five-card": 61, "seven-card": 181}[variant]
    fields: dict[str, Any] = {"variant": variant} | ({"target": target} if target is not None else {})
    outcome = replay(result_only("Alice", to, loser, **fields))
    assert outcome.findings == []
    assert (outcome.winners, outcome.skunk_level) == (("Alice",), level)


def test_each_loser_has_a_skunk_level_of_their_own() -> None:
    # three players to 61: Bob at 30 (< 31) is skunked, Carol at 45 is not; the game's level is the deepest
    three = validate_game({"format": "cribstats/game/1", "id": "r3", "variant": "three-player", "target": 61,
                           "players": ["Alice", "Bob", "Carol"],
                           "result": {"winner": "Alice", "scores": {"Alice": 61, "Bob": 30, "Carol": 45}}})
    outcome = replay(three)
    assert (outcome.findings, outcome.skunk_levels, outcome.skunk_level) == (
        [], {"Alice": 0, "Bob": 1, "Carol": 0}, 1)
    # partners to 121: Bob and Dave at 60 (< 61) are both double skunked
    four = validate_game({"format": "cribstats/game/1", "id": "r4", "variant": "four-player",
                          "players": ["Alice", "Bob", "Carol", "Dave"],
                          "result": {"winner": "Alice",
                                     "scores": {"Alice": 121, "Bob": 60, "Carol": 121, "Dave": 60}}})
    outcome = replay(four)
    assert outcome.winners == ("Alice", "Carol")
    assert outcome.skunk_levels == {"Alice": 0, "Bob": 2, "Carol": 0, "Dave": 2}


def test_a_giveaway_game_has_no_skunk() -> None:
    # Alice reached 121 and Bob is at 40: in a plain game Bob is double skunked (40 < 61); in a giveaway game
    # Alice, who reached the target, loses, Bob wins, and there is no skunk.
    plain = replay(result_only("Alice", 121, 40))
    assert (plain.winners, plain.skunk_level) == (("Alice",), 2)
    give = replay(result_only("Bob", 121, 40, giveaway=True))
    assert give.findings == []
    assert (give.winners, give.skunk_level) == (("Bob",), 0)


def test_a_double_skunk_is_worth_what_the_club_sets() -> None:
    # points [1, 2, 4] (a club that gives 4 for a double): Bob at 55 (< 61) is double skunked, 4 points; at 85
    # (< 91) skunked, 2; at 100, 1. A triple (25 < 31) counts as a double: 4.
    rules = MatchRules(first_to=9, count="points", points=[1, 2, 4])
    levels = {55: 2, 85: 1, 100: 0, 25: 3}  # worked from the 121 lines, not from the program
    for loser, points in ((55, 4), (85, 2), (100, 1), (25, 4)):
        game = MatchGame(1, "g1", ("Alice", "Bob"), "six-card", ("Alice",), levels[loser], None)
        assert judge_match("m", (("Alice",), ("Bob",)), rules, [game]).points == [points, 0]


# --- one deal: the dealer rotates to the next name in seat order -----------------------------------------------


def three_player_bare(dealer: str) -> dict[str, Any]:
    """A three-player deal with no play: each dealt five, one to the crib each and one from the deck."""
    return {
        "dealer": dealer,
        "hands": {
            "Alice": ["5S", "4S", "2S", "6H", "8D"],
            "Bob": ["6D", "JH", "4H", "7C", "TS"],
            "Carol": ["3C", "9C", "QH", "8H", "KS"],
        },
        "crib_card": "8C",
        "discards": {"Alice": ["8D"], "Bob": ["TS"], "Carol": ["KS"]},
        "starter": "5H",
    }


def test_the_deal_passes_to_the_next_name_of_three() -> None:
    # players Alice, Bob, Carol; Alice deals first, so Bob deals second (Carol would skip him)
    def game(second: str) -> Any:
        return validate_game({"format": "cribstats/game/1", "id": "t", "variant": "three-player",
                              "players": ["Alice", "Bob", "Carol"],
                              "deals": [three_player_bare("Alice"), three_player_bare(second)]})

    assert replay(game("Bob")).findings == []
    assert [(f.deal, f.kind, f.player) for f in replay(game("Carol")).findings] == [(2, "bad-deal", "Carol")]


# --- five-card: one series, ended at 31 --------------------------------------------------------------------------


def five_card_deal(play: list[list[Any]]) -> Any:
    # Alice deals, Bob is the first pone: 3 for last before the deal. Bob keeps TD KD 4C (7H 8H to the crib),
    # Alice QH AC 9S (3S 6C to the crib); starter 2D. The play: TD 10, QH 20, KD 30 (T-Q-K is no run), AC 31: 2,
    # and the series, the whole play of five-card, ends there: 4C and 9S stay in hand with no go or last card.
    # Show with 2D: Bob TD KD 4C: no fifteen (10+4, 10+2, 4+2, 10+4+2 miss), no pair, run or flush: 0;
    # Alice QH AC 9S: 10+1, 10+2, 10+1+2, 9+1, 9+2, 9+1+2, 1+2 miss 15: 0; the crib 3S 6C 7H 8H with 2D:
    # 7+8 and 6+7+2: 4, the run 6-7-8: 3 = 7. Board: Alice 2 + 7 = 9, Bob 3.
    deal = {"dealer": "Alice",
            "hands": {"Alice": ["QH", "AC", "9S", "3S", "6C"], "Bob": ["TD", "KD", "4C", "7H", "8H"]},
            "discards": {"Alice": ["3S", "6C"], "Bob": ["7H", "8H"]}, "starter": "2D", "play": play,
            "show": {"Bob": 0, "Alice": 0, "crib": 7}, "scores": {"Alice": 9, "Bob": 3}}
    return validate_game({"format": "cribstats/game/1", "id": "f", "variant": "five-card",
                          "players": ["Alice", "Bob"], "deals": [deal]})


PLAY_TO_31 = [["Bob", "TD"], ["Alice", "QH"], ["Bob", "KD"], ["Alice", "AC", 2]]


def test_five_card_play_ends_at_31_with_cards_left_in_hand() -> None:
    outcome = replay(five_card_deal(PLAY_TO_31))
    assert outcome.findings == []
    assert [p.due for p in outcome.deals[0].plays] == [0, 0, 0, 2]
    assert {p.player: p.pegged_due for p in outcome.deals[0].players} == {"Alice": 2, "Bob": 0}
    assert outcome.scores_claimed == {"Alice": 9, "Bob": 3}


def test_five_card_31_is_two_and_no_last_card_point() -> None:
    # claiming 3 for the 31 (2 and a last card) is an over-claim of 1, and the board of 9 is then short of 10
    rows = [(f.event, f.kind, f.player, f.claimed, f.due)
            for f in replay(five_card_deal([*PLAY_TO_31[:3], ["Alice", "AC", 3]])).findings]
    assert rows == [(3, "overclaim", "Alice", 3, 2), (None, "board", "Alice", 9, 10)]


def test_five_card_a_card_laid_after_the_one_series_is_out_of_turn() -> None:
    outcome = replay(five_card_deal([*PLAY_TO_31, ["Bob", "4C"]]))
    assert [(f.event, f.kind, f.player) for f in outcome.findings] == [(4, "out-of-turn", "Bob")]


# --- bidding for the crib: the bid winner shows last ------------------------------------------------------------


def test_the_bid_winner_shows_last_and_the_other_player_first() -> None:
    # The seed deal dealt by Bob, Alice bidding 3 for the crib: Bob leads the play (as the deal's play has it) and
    # shows first. Alice: -3 + 6 pegged + 12 hand + 6 crib = 21; Bob: 3 pegged + 9 hand = 12.
    def game(deal: dict[str, Any], **fields: Any) -> Any:
        return validate_game({"format": "cribstats/game/1", "id": "b", "bidding": True,
                              "players": ["Alice", "Bob"], "deals": [deal], **fields})

    bid = {"player": "Alice", "points": 3}
    outcome = replay(game(example_deal(dealer="Bob", bid=bid, scores={"Alice": 21, "Bob": 12})))
    assert outcome.findings == []
    assert [(s.player, s.phase, s.due) for s in outcome.deals[0].shows] == [
        ("Bob", "hand", 9), ("Alice", "hand", 12), ("Alice", "crib", 6)]
    # to 12: after the play Alice has 3 and Bob 3; Bob's hand (9) takes him to 12 first and ends the game, before
    # Alice's 12 would take her to 15
    short = example_deal(dealer="Bob", bid=bid, show={"Bob": 9})
    del short["scores"]
    ended = replay(game(short, target=12))
    assert (ended.findings, ended.winners, ended.scores_claimed) == ([], ("Bob",), {"Alice": 3, "Bob": 12})


# --- four-player with six cards each is not a deal of cribstats ------------------------------------------------


def test_four_player_with_six_cards_each_is_a_bad_deal() -> None:
    # four players dealt six and laying away two would fill the crib with eight: each hand is found dealt 6, not 5,
    # and each discard 2, not 1; the game is audited, not refused whole
    hands = {"Alice": ["5S", "4S", "2S", "6H", "8D", "AC"], "Bob": ["6D", "JH", "4H", "7C", "TS", "AH"],
             "Carol": ["3C", "9C", "QH", "8H", "KS", "AS"], "Dave": ["AD", "2D", "3H", "9D", "8C", "2C"]}
    discards = {name: cards[-2:] for name, cards in hands.items()}
    game = validate_game({"format": "cribstats/game/1", "id": "six", "variant": "four-player",
                          "players": list(hands), "deals": [{"dealer": "Alice", "hands": hands,
                                                             "discards": discards, "starter": "5H"}]})
    found = [(f.kind, f.player, f.message) for f in replay(game).findings]
    assert [(k, p) for k, p, _ in found] == [("bad-deal", n) for n in hands] + [("bad-discard", n) for n in hands]
    assert all("6 cards, not 5" in m for k, _, m in found if k == "bad-deal")
    assert all("2 cards, not 1" in m for k, _, m in found if k == "bad-discard")


# --- the index of docs/rules.md ----------------------------------------------------------------------------------

CITED = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def cited_tests() -> list[tuple[str, str]]:
    return CITED.findall(RULES_DOC.read_text(encoding="utf-8"))


def test_the_rules_page_cites_tests() -> None:
    assert len(cited_tests()) >= 60


@pytest.mark.parametrize(("path", "name"), cited_tests())
def test_every_test_the_rules_page_cites_exists(path: str, name: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    functions = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assert name.startswith("test_") and name in functions, f"{path}::{name} is not a test of that file"
