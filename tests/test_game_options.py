"""The game options (docs/rules.md): giveaway (the side that reaches the target loses) and bidding for the
crib (the bid winner takes the dealer's part: the crib, his heels, showing last; the other leads). Every value is
worked out by hand from the one deal below.

The deal (starter 5H): Alice holds 5S 4S 2S 8D 6H 8C and lays away 8D 8C; Bob holds TS 6D JH 4H KC 7C and lays
away TS KC. Bob leads: JH 10, 5S 15 (fifteen, 2 to Alice), 7C 22, 6H 28 (run of 5-6-7, 3 to Alice), Bob says go
(6D and 4H do not fit), 2S 30 (the go, 1 to Alice); then 6D 6, 4S 10, 4H 14 (a pair and the last card, 3 to Bob).
Pegged: Alice 6, Bob 3. Shows: Bob's 6D JH 4H 7C with 5H is 9 (fifteens 6D-4H-5H and JH-5H: 4; the run
4-5-6-7: 4; his nob, JH with a heart cut: 1), Alice's 5S 4S 2S 6H with 5H is 12 (fifteens 5S-4S-6H and
5H-4S-6H: 4; the pair of fives: 2; two runs of 4-5-6: 6), the crib 8D 8C TS KC with 5H is 6 (TS-5H and KC-5H: 4;
the pair of eights: 2).
"""

from __future__ import annotations

from typing import Any

import pytest

from cribstats.cards import parse_card
from cribstats.gamelog import GameLogError, validate_game
from cribstats.replay import replay
from cribstats.scoring import score_show_total

PLAY = [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"], ["Alice", "2S", 1],
        ["Bob", "6D"], ["Alice", "4S"], ["Bob", "4H", 3]]


def deal(dealer: str, **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "starter": "5H",
            "hands": {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]},
            "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]}, "play": PLAY,
            "show": {"Bob": 9, "Alice": 12, "crib": 6}, **extra}


def game(*deals: dict[str, Any], **extra: Any) -> Any:
    return validate_game({"format": "cribstats/game/1", "id": "g", **extra, "players": ["Alice", "Bob"],
                          "deals": list(deals)})


def test_the_show_values_of_the_deal() -> None:
    # the three show counts the module notes use, by the show scorer
    def show(cards: str, crib: bool = False) -> int:
        return score_show_total([parse_card(c) for c in cards.split()], parse_card("5H"), crib=crib)

    assert (show("6D JH 4H 7C"), show("5S 4S 2S 6H"), show("8D 8C TS KC", crib=True)) == (9, 12, 6)


def test_a_bid_is_taken_off_the_board_at_once_and_the_bidder_has_the_crib() -> None:
    # Bob deals, Alice bids 3 for the crib: Bob leads, Alice shows last with the crib.
    # Alice: -3 + 6 pegged + 12 hand + 6 crib = 21; Bob: 3 pegged + 9 hand = 12.
    outcome = replay(game(deal("Bob", bid={"player": "Alice", "points": 3}, scores={"Alice": 21, "Bob": 12}),
                          bidding=True))
    assert outcome.findings == []
    assert outcome.scores_claimed == {"Alice": 21, "Bob": 12}
    facts = {p.player: p for p in outcome.deals[0].players}
    assert (facts["Alice"].role, facts["Alice"].crib_due, facts["Bob"].role, facts["Bob"].crib_due) == (
        "dealer", 6, "pone", None)
    assert outcome.deals[0].dealer == "Bob"  # the deal is still Bob's: the next one passes to Alice


@pytest.mark.parametrize("spelling", [" Alice ", "Alice\u00a0", "\tAlice"])
def test_a_bid_names_its_player_as_every_other_field_may(spelling: str) -> None:
    # the name rule trims a name (and puts it in NFC) wherever a deal names a player: the bid too, and the
    # bid is then Alice's exactly as when spelt plainly
    plain = replay(game(deal("Bob", bid={"player": "Alice", "points": 3}, scores={"Alice": 21, "Bob": 12}),
                        bidding=True))
    spelt = game(deal("Bob", bid={"player": spelling, "points": 3}, scores={"Alice": 21, "Bob": 12}), bidding=True)
    assert spelt.deals[0].bid.player == "Alice"
    assert replay(spelt).scores_claimed == plain.scores_claimed == {"Alice": 21, "Bob": 12}


def test_a_bid_by_a_player_in_another_unicode_form_is_theirs() -> None:
    # "Zoë" with a combining diaeresis is the player "Zoë" of the players list (NFC), in the bid as in the hands
    log = {"format": "cribstats/game/1", "players": ["Alice", "Zo\u00eb"], "bidding": True,
           "deals": [{"dealer": "Alice", "hands": {"Alice": [], "Zoe\u0308": []},
                      "discards": {"Alice": [], "Zoe\u0308": ["AC"]}, "starter": "AC",
                      "bid": {"player": "Zoe\u0308", "points": 2}}]}
    assert validate_game(log).deals[0].bid.player == "Zo\u00eb"


def test_a_board_that_forgets_the_bid_is_a_board_finding() -> None:
    outcome = replay(game(deal("Bob", bid={"player": "Alice", "points": 3}, scores={"Alice": 24, "Bob": 12}),
                          bidding=True))
    assert [(f.kind, f.player, f.claimed, f.due) for f in outcome.findings] == [("board", "Alice", 24, 21)]


def test_a_bid_can_take_a_score_below_nothing() -> None:
    # Alice bids 5 at 0: she is at -5 before the cut, and ends the deal at -5 + 6 + 12 + 6 = 19
    outcome = replay(game(deal("Bob", bid={"player": "Alice", "points": 5}, scores={"Alice": 19, "Bob": 12}),
                          bidding=True))
    assert outcome.findings == [] and outcome.scores_claimed["Alice"] == 19
    # a board position below 0 is a bidding game's right: Alice bids 30 and the board says -6
    low = replay(game(deal("Bob", bid={"player": "Alice", "points": 30}, scores={"Alice": -6, "Bob": 12}),
                      bidding=True))
    assert low.findings == [] and low.scores_claimed == {"Alice": -6, "Bob": 12}


def test_without_a_bid_the_dealer_keeps_the_crib_and_bob_may_not_lead() -> None:
    outcome = replay(game(deal("Bob"), bidding=True))
    assert ("out-of-turn", "Bob") in [(f.kind, f.player) for f in outcome.findings]


def test_the_bid_winner_takes_his_heels() -> None:
    # the same cards cut on a jack (JS for 5H, which is not in either hand): 2 for his heels, to the bid winner
    with_jack = deal("Bob", bid={"player": "Alice", "points": 1}, heels=2)
    with_jack["starter"] = "JS"
    del with_jack["play"], with_jack["show"]
    outcome = replay(game(with_jack, bidding=True))
    facts = {p.player: p for p in outcome.deals[0].players}
    assert (facts["Alice"].heels_due, facts["Alice"].heels_claimed, facts["Bob"].heels_due) == (2, 2, 0)
    assert [f.kind for f in outcome.findings] == []


@pytest.mark.parametrize(("data", "place", "message"), [
    ({"deals": [deal("Bob", bid={"player": "Alice", "points": 3})]}, "deals[0].bid",
     'a bid for the crib needs "bidding": true on the game'),
    ({"bidding": True, "deals": [deal("Bob", bid={"player": "Alice", "points": 0})]}, "deals[0].bid.points",
     "must be 1 or more, not 0"),
    ({"bidding": True, "deals": [deal("Bob", bid={"player": "Carol", "points": 2})]}, "deals[0].bid.player",
     "'Carol' is not a player of this game"),
    ({"bidding": True, "variant": "five-card"}, "bidding", "bidding for the crib is six-card only, not five-card"),
    ({"deals": [deal("Bob", scores={"Alice": -3, "Bob": 12})]}, 'deals[0].scores.Alice',
     "must be 0 or more, not -3 (only a bidding game's scores go below 0)"),
])
def test_bids_that_break_the_contract(data: dict[str, Any], place: str, message: str) -> None:
    with pytest.raises(GameLogError) as caught:
        validate_game({"format": "cribstats/game/1", "players": ["Alice", "Bob"], **data})
    assert (caught.value.place, caught.value.message) == (place, message)


def test_a_giveaway_game_is_won_by_the_side_that_does_not_reach_the_target() -> None:
    # Alice deals (Bob leads), target 24: Alice pegs 6, Bob 3; Bob shows 9 (12), Alice 12 (18), then her crib 6
    # takes her to 24: she reached the target, so she loses and Bob wins.
    outcome = replay(game(deal("Alice"), giveaway=True, target=24))
    assert (outcome.winners, outcome.skunk_level, outcome.ended_in_deal) == (("Bob",), 0, 1)
    assert outcome.scores_claimed == {"Alice": 24, "Bob": 12}
    plain = replay(game(deal("Alice"), target=24))
    assert plain.winners == ("Alice",)


def test_a_giveaway_result_that_names_the_side_that_reached_the_target() -> None:
    outcome = replay(game(deal("Alice"), giveaway=True, target=24, result={"winner": "Alice"}))
    assert [(f.kind, f.message) for f in outcome.findings] == [
        ("result", "the log records Alice as the winner, but Alice reached 24 first, which loses a giveaway game")]
    right = replay(game(deal("Alice"), giveaway=True, target=24, result={"winner": "Bob"}))
    assert right.findings == []


def test_a_giveaway_win_is_stored_as_two_game_points(store: Any, tmp_path: Any) -> None:
    import orjson
    import sqlalchemy as sa

    from cribstats.store.importer import import_paths

    log = {"format": "cribstats/game/1", "id": "give", "giveaway": True, "target": 24, "players": ["Alice", "Bob"],
           "deals": [deal("Alice")]}
    path = tmp_path / "giveaway.jsonl"
    path.write_bytes(orjson.dumps(log) + b"\n")
    assert import_paths([path], store).imported == 1
    with store.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT p.name, t.won, t.skunk_level, t.game_points FROM game_player_totals t "
            "JOIN player p ON p.id = t.player_id ORDER BY p.name")).all()
    # Alice reached 24 (24-12): she loses; Bob wins, 2 game points, no skunk
    assert [tuple(r) for r in rows] == [("Alice", False, 0, 0), ("Bob", True, 0, 2)]
