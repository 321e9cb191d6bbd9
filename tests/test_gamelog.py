"""The game log model: what the contract (docs/game-log.md) accepts, and how it refuses the rest."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import orjson
import pytest

from cribstats.gamelog import (
    Deal,
    GameLog,
    GameLogError,
    MugginsCall,
    Result,
    canonical_json,
    content_hash,
    dump_game,
    format_place,
    game_key,
    validate_game,
)


def spec_deal() -> dict[str, Any]:
    """The deal of the spec's example, as written there."""
    return {
        "dealer": "Alice",
        "hands": {"Alice": ["5S", "4S", "2S", "8D", "6H", "8C"], "Bob": ["TS", "6D", "JH", "4H", "KC", "7C"]},
        "discards": {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]},
        "starter": "5H",
        "heels": 0,
        "play": [["Bob", "JH"], ["Alice", "5S", 2], ["Bob", "7C"], ["Alice", "6H", 3], ["Bob", "go"],
                 ["Alice", "2S", 1], ["Bob", "6D"], ["Alice", "4S"], ["Bob", "4H", 3]],
        "show": {"Bob": 9, "Alice": 12, "crib": 6},
        "muggins": [],
        "scores": {"Alice": 24, "Bob": 12},
    }


def spec_game() -> dict[str, Any]:
    return {
        "format": "cribstats/game/1",
        "id": "tuesday-2026-11-03-r2-t4",
        "event": "Tuesday League", "date": "2026-11-03", "site": "Elks Lodge", "round": "2",
        "variant": "six-card",
        "target": 121,
        "muggins": True,
        "players": ["Alice", "Bob"],
        "deals": [spec_deal()],
        "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 88}},
    }


def minimal(**fields: Any) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "players": ["Alice", "Bob"]} | fields


def refusal(data: object) -> str:
    with pytest.raises(GameLogError) as caught:
        validate_game(data)
    return str(caught.value)


# --- what is accepted --------------------------------------------------------------------------------------------


def test_spec_example_reads_field_for_field() -> None:
    game = validate_game(spec_game())
    assert isinstance(game, GameLog)
    assert (game.id, game.event, game.date, game.site, game.round) == (
        "tuesday-2026-11-03-r2-t4", "Tuesday League", "2026-11-03", "Elks Lodge", "2")
    assert (game.variant, game.target, game.muggins, game.players) == ("six-card", 121, True, ["Alice", "Bob"])
    deal = game.deals[0]
    assert isinstance(deal, Deal)
    assert deal.dealer == "Alice"
    assert deal.hands["Bob"] == ["TS", "6D", "JH", "4H", "KC", "7C"]
    assert deal.discards == {"Alice": ["8D", "8C"], "Bob": ["TS", "KC"]}
    assert (deal.starter, deal.heels) == ("5H", 0)
    assert deal.play[0] == ("Bob", "JH")
    assert deal.play[1] == ("Alice", "5S", 2)
    assert deal.play[4] == ("Bob", "go")
    assert deal.play[8] == ("Bob", "4H", 3)
    assert deal.show == {"Bob": 9, "Alice": 12, "crib": 6}
    assert deal.muggins == []
    assert deal.scores == {"Alice": 24, "Bob": 12}
    assert isinstance(game.result, Result)
    assert (game.result.winner, game.result.scores) == ("Alice", {"Alice": 121, "Bob": 88})


def test_defaults_come_from_the_variant() -> None:
    game = validate_game(minimal())
    assert (game.variant, game.target, game.muggins, game.deals, game.result) == (None, None, None, None, None)
    assert (game.variant_rules.name, game.target_score, game.muggins_rule) == ("six-card", 121, False)
    five = validate_game(minimal(variant="five-card"))
    assert five.target_score == 61
    assert validate_game(minimal(variant="five-card", target=121)).target_score == 121


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [("5H", "5H"), ("5h", "5H"), ("10s", "TS"), ("10S", "TS"), ("t♠", "TS"), ("J♦", "JD"), ("q♣", "QC"),
     ("Ah", "AH"), ("10♥", "TH"), ("kd", "KD"), ("9♠", "9S")],
)
def test_card_spellings_become_canonical(spelling: str, canonical: str) -> None:
    deal = spec_deal() | {"starter": spelling, "crib_card": spelling}
    deal["hands"]["Alice"][0] = spelling
    deal["play"][1] = ["Alice", spelling, 2]
    deal["play"][0] = ["Bob", spelling]
    game = validate_game(minimal(deals=[deal]))
    d = game.deals[0]
    assert (d.starter, d.crib_card, d.hands["Alice"][0]) == (canonical, canonical, canonical)
    assert d.play[1] == ("Alice", canonical, 2)
    assert d.play[0] == ("Bob", canonical)


@pytest.mark.parametrize("spelling", ["go", "GO", "Go"])
def test_go_in_any_case(spelling: str) -> None:
    deal = spec_deal()
    deal["play"][4] = ["Bob", spelling]
    assert validate_game(minimal(deals=[deal])).deals[0].play[4] == ("Bob", "go")


def test_three_player_crib_card_pegged_and_muggins_calls() -> None:
    deal = {
        "dealer": "Cy",
        "hands": {"Cy": ["AC", "2C", "3C", "4C", "5C"], "Di": ["6D", "7D", "8D", "9D", "TD"],
                  "Ed": ["JH", "QH", "KH", "AH", "2H"]},
        "crib_card": "3S",
        "discards": {"Cy": ["AC"], "Di": ["TD"], "Ed": ["2H"]},
        "starter": "4S",
        "pegged": {"Cy": 2, "Di": 3, "Ed": 1},
        "play": [["Di", "6D"], ["Ed", "JH", 0]],
        "show": {"Di": 10, "Ed": 4, "Cy": 14, "crib": 2},
        "muggins": [{"by": "Ed", "from": "Di", "phase": "play", "points": 2, "event": 0},
                    {"by": "Cy", "from": "Ed", "phase": "heels", "points": 2}],
    }
    game = validate_game({"format": "cribstats/game/1", "variant": "three-player", "muggins": True,
                          "players": ["Cy", "Di", "Ed"], "deals": [deal]})
    d = game.deals[0]
    assert d.crib_card == "3S"
    assert d.pegged == {"Cy": 2, "Di": 3, "Ed": 1}
    call = d.muggins[0]
    assert isinstance(call, MugginsCall)
    assert (call.by, call.from_, call.phase, call.points, call.event) == ("Ed", "Di", "play", 2, 0)
    assert (d.muggins[1].phase, d.muggins[1].event) == ("heels", None)
    assert dump_game(game)["deals"][0]["muggins"][0] == {"by": "Ed", "from": "Di", "phase": "play", "points": 2,
                                                         "event": 0}


def test_result_only_record() -> None:
    game = validate_game({"format": "cribstats/game/1", "event": "Club night", "date": "2026-10-27",
                          "players": ["Hal", "Ida"],
                          "result": {"winner": "Ida", "scores": {"Hal": 87, "Ida": 121}}})
    assert game.deals is None
    assert game.result.winner == "Ida"
    assert validate_game(minimal(deals=[])).deals == []


def test_four_player_game() -> None:
    deal = {"dealer": "N", "hands": {p: [] for p in "NESW"}, "discards": {p: [] for p in "NESW"}, "starter": "8S"}
    game = validate_game({"format": "cribstats/game/1", "variant": "four-player", "players": list("NESW"),
                          "deals": [deal], "result": {"winner": "S", "scores": {"N": 121, "E": 97, "S": 121,
                                                                                "W": 97}}})
    assert game.variant_rules.partnerships
    assert game.result.scores["S"] == 121


def test_rule_breaks_are_accepted() -> None:
    """A card played twice, a card not held, wrong claims, wrong card counts, a wrong dealer, a missing crib
    card in three-player, a muggins call in a game without muggins: the replay's business, not the contract's."""
    deal = spec_deal()
    deal["hands"]["Alice"].append("KS")  # seven cards dealt
    deal["discards"]["Bob"] = ["TS", "KC", "7C"]  # three discarded
    deal["play"].append(["Alice", "5S", 9])  # played twice, and a wild claim
    deal["play"].append(["Bob", "QD"])  # never dealt
    deal["play"].append(["Bob", "go"])  # a go after the end
    deal["show"] = {"Bob": 29, "Alice": 0, "crib": 19}  # impossible totals
    deal["heels"] = 2  # heels for a five
    deal["muggins"] = [{"by": "Bob", "from": "Alice", "phase": "heels", "points": 2}]
    second = spec_deal() | {"dealer": "Alice"}  # out of rotation
    game = validate_game(minimal(deals=[deal, second], muggins=False,
                                 result={"winner": "Bob", "scores": {"Alice": 3, "Bob": 4}}))
    assert game.deals[0].play[-3] == ("Alice", "5S", 9)
    assert len(game.deals[0].hands["Alice"]) == 7
    three = {"dealer": "Cy", "hands": {"Cy": [], "Di": [], "Ed": []}, "discards": {"Cy": [], "Di": [], "Ed": []},
             "starter": "4S"}
    assert validate_game({"format": "cribstats/game/1", "variant": "three-player", "players": ["Cy", "Di", "Ed"],
                          "deals": [three]}).deals[0].crib_card is None


def test_null_for_an_optional_field_is_the_field_left_out() -> None:
    """The same game written with ``null`` fields and without them is one game: one canonical form, one hash, one
    key (a store would otherwise hold it twice)."""
    written_null = minimal(id=None, result=None, site=None, deals=[spec_deal() | {"bid": None, "pegged": None}])
    game, same = validate_game(written_null), validate_game(minimal(deals=[spec_deal()]))
    assert game.id is None and game.site is None
    dumped = dump_game(game)
    assert dumped == dump_game(same)
    assert list(dumped) == ["format", "players", "deals"] and list(dumped["deals"][0]) == list(spec_deal())
    assert canonical_json(game) == canonical_json(same)
    assert content_hash(game) == content_hash(same) and game_key(game) == game_key(same)


# --- what is refused, and how it is said -------------------------------------------------------------------------

CARD_RULE = "ranks are A 2-9 T J Q K, suits C D H S"
SHAPE = 'a play event is [player, card], [player, card, points] or [player, "go"]'


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return change


def _drop(path: tuple[Any, ...]) -> Any:
    def change(data: dict[str, Any]) -> None:
        target = data
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]
    return change


CONTRACT_BREAKS = [
    (_set(("deals", 0, "play", 5), ["Alice", "1H"]), f"deals[0].play[5]: '1H' is not a card: {CARD_RULE}"),
    (_set(("deals", 0, "play", 5), ["Alice", "11H", 1]), f"deals[0].play[5]: '11H' is not a card: {CARD_RULE}"),
    (_set(("deals", 0, "play", 4), ["Bob", "go", 1]),
     'deals[0].play[4]: a go carries no points: write [player, "go"]'),
    (_set(("deals", 0, "play", 5), ["Alice", "2S", -1]), "deals[0].play[5]: points cannot be negative (-1)"),
    (_set(("deals", 0, "play", 5), ["Alice", "2S", "1"]),
     "deals[0].play[5]: points must be a whole number, not '1'"),
    (_set(("deals", 0, "play", 5), ["Alice", "2S", 1.5]),
     "deals[0].play[5]: points must be a whole number, not the number 1.5"),
    (_set(("deals", 0, "play", 5), ["Alice"]), f"deals[0].play[5]: a play event has 2 or 3 items, not 1: {SHAPE}"),
    (_set(("deals", 0, "play", 5), ["Alice", "2S", 1, 0]),
     f"deals[0].play[5]: a play event has 2 or 3 items, not 4: {SHAPE}"),
    (_set(("deals", 0, "play", 5), "2S"), f"deals[0].play[5]: '2S' is not a play event: {SHAPE}"),
    (_set(("deals", 0, "play", 5), [7, "2S"]), f"deals[0].play[5]: the number 7 is not a player's name: {SHAPE}"),
    (_set(("deals", 0, "play", 5), ["Carol", "2S"]), "deals[0].play[5]: 'Carol' is not a player of this game"),
    (_set(("deals", 0, "hands", "Carol"), []), "deals[0].hands: 'Carol' is not a player of this game"),
    (_drop(("deals", 0, "hands", "Bob")), "deals[0].hands: no hand for 'Bob'"),
    (_drop(("deals", 0, "discards", "Alice")), "deals[0].discards: no discards for 'Alice'"),
    (_set(("deals", 0, "discards", "Zed"), []), "deals[0].discards: 'Zed' is not a player of this game"),
    (_set(("deals", 0, "hands", "Alice", 2), "ZZ"), f"deals[0].hands.Alice[2]: 'ZZ' is not a card: {CARD_RULE}"),
    (_set(("deals", 0, "hands", "Alice", 2), 5),
     "deals[0].hands.Alice[2]: the number 5 is not a card: a card is a string such as '5H'"),
    (_set(("deals", 0, "hands", "Alice"), "5S 4S"), "deals[0].hands.Alice: expected an array, found '5S 4S'"),
    (_set(("deals", 0, "starter"), " 5H"), f"deals[0].starter: ' 5H' is not a card: {CARD_RULE}"),
    (_set(("deals", 0, "crib_card"), "5X"), f"deals[0].crib_card: '5X' is not a card: {CARD_RULE}"),
    (_set(("deals", 0, "dealer"), "Carol"), "deals[0].dealer: 'Carol' is not a player of this game"),
    (_drop(("deals", 0, "starter")), "deals[0]: missing required field 'starter'"),
    (_drop(("deals", 0, "discards")), "deals[0]: missing required field 'discards'"),
    (_set(("deals", 0, "cut"), "5H"), "deals[0]: unknown field 'cut'"),
    (_set(("deals", 0, "heels"), -2), "deals[0].heels: must be 0 or more, not -2"),
    (_set(("deals", 0, "heels"), True), "deals[0].heels: expected a whole number, found true"),
    (_set(("deals", 0, "heels"), "2"), "deals[0].heels: expected a whole number, found '2'"),
    (_set(("deals", 0, "show", "Dan"), 2), "deals[0].show: 'Dan' is not a player of this game"),
    (_set(("deals", 0, "show", "crib"), None), "deals[0].show.crib: expected a whole number, found null"),
    (_set(("deals", 0, "pegged"), {"Alice": 2, "Eve": 1}), "deals[0].pegged: 'Eve' is not a player of this game"),
    (_set(("deals", 0, "scores"), {"Alice": 24, "Eve": 1}), "deals[0].scores: 'Eve' is not a player of this game"),
    (_set(("deals", 0, "muggins"), [{"by": "Bob", "from": "Alice", "phase": "play", "points": 2}]),
     "deals[0].muggins[0]: a play call needs 'event', the index of the play event whose claim it corrects"),
    (_set(("deals", 0, "muggins"), [{"by": "Bob", "from": "Alice", "phase": "hand", "points": 2, "event": 1}]),
     "deals[0].muggins[0]: only a play call has 'event'; this call is on the hand"),
    (_set(("deals", 0, "muggins"), [{"by": "Bob", "from": "Alice", "phase": "show", "points": 2}]),
     "deals[0].muggins[0].phase: 'show' is not a phase: use one of play, heels, hand, crib"),
    (_set(("deals", 0, "muggins"), [{"by": "Bob", "from": "Alice", "phase": "play", "points": 2, "event": 9}]),
     "deals[0].muggins[0].event: there is no play event 9 in this deal (its play has 9)"),
    (_set(("deals", 0, "muggins"), [{"by": "Bob", "from": "Bob", "phase": "hand", "points": 2}]),
     "deals[0].muggins[0]: 'Bob' cannot call muggins on themself"),
    (_set(("deals", 0, "muggins"), [{"by": "Eve", "from": "Bob", "phase": "hand", "points": 2}]),
     "deals[0].muggins[0]: 'Eve' is not a player of this game"),
    (_set(("deals", 0, "muggins"), [{"by": "Bob", "phase": "hand", "points": 2}]),
     "deals[0].muggins[0]: missing required field 'from'"),
    (_drop(("players",)), "missing required field 'players'"),
    (_drop(("format",)), "missing required field 'format'"),
    (_set(("format",), "cribstats/game/2"),
     "format: 'cribstats/game/2' is not a format cribstats reads: expected 'cribstats/game/1' (a game) or "
     "'cribstats/match/1' (a match record)"),
    (_set(("variant",), "nine-card"),
     "variant: 'nine-card' is not a variant: use one of six-card, five-card, seven-card, three-player, "
     "four-player"),
    (_set(("variant",), "three-player"), "players: three-player is played by 3 players, not 2"),
    (_set(("muggins",), 1), "muggins: expected true or false, found the number 1"),
    (_set(("muggins",), "yes"), "muggins: expected true or false, found 'yes'"),
    (_set(("target",), "121"), "target: expected a whole number, found '121'"),
    (_set(("target",), 0), "target: must be more than 0, not 0"),
    (_set(("date",), "2026-13-01"), "date: '2026-13-01' is not a date of the calendar"),
    (_set(("date",), "3 Nov 2026"), "date: '3 Nov 2026' is not a date: write YYYY-MM-DD"),
    # digits of another script are no date of the contract's shape (a regular expression's \d takes them)
    (_set(("date",), "\uff12\uff10\uff12\uff16-04-01"),
     "date: '\uff12\uff10\uff12\uff16-04-01' is not a date: write YYYY-MM-DD"),
    (_set(("round",), 2), "round: expected a string, found the number 2"),
    (_set(("id",), ""), "id: must not be empty"),
    (_set(("players",), ["Alice"]), "players: a game has 2 to 4 players, not 1"),
    (_set(("players",), ["A", "B", "C", "D", "E"]), "players: a game has 2 to 4 players, not 5"),
    (_set(("players",), ["Alice", "Alice"]), "players: 'Alice' is named twice: player names must be distinct"),
    (_set(("players",), ["Alice", "crib"]),
     "players: 'crib' cannot be a player's name: show uses it for the crib"),
    (_set(("players",), ["Alice", ""]), "players[1]: must not be empty"),
    (_set(("deals", 0, "scores", ""), 3), "deals[0].scores: a player's name must not be empty"),
    (_set(("deals",), {}), "deals: expected an array, found an object"),
    (_set(("deals", 0), []), "deals[0]: expected an object, found an array"),
    (_set(("result",), {"winner": "Carol"}), "result.winner: 'Carol' is not a player of this game"),
    (_set(("result",), {"scores": {"Alice": 121, "Carol": 3}}),
     "result.scores: 'Carol' is not a player of this game"),
    (_set(("result",), {"winner": "Alice", "margin": 3}), "result: unknown field 'margin'"),
    (_set(("result", "scores", "Bob"), -5),
     "result.scores.Bob: must be 0 or more, not -5 (only a bidding game's scores go below 0)"),
]


@pytest.mark.parametrize(("change", "message"), CONTRACT_BREAKS, ids=[m for _, m in CONTRACT_BREAKS])
def test_contract_breaks_name_the_place_and_the_problem(change: Any, message: str) -> None:
    data = spec_game()
    change(data)
    assert refusal(data) == message


def test_refusal_carries_place_and_message() -> None:
    data = spec_game()
    data["deals"][0]["play"][5] = ["Alice", "1H"]
    with pytest.raises(GameLogError) as caught:
        validate_game(data)
    assert (caught.value.place, caught.value.message) == ("deals[0].play[5]", f"'1H' is not a card: {CARD_RULE}")
    assert isinstance(caught.value, ValueError)


def test_a_game_is_an_object() -> None:
    assert refusal([spec_game()]) == "a game is a JSON object, not an array"
    assert refusal("game") == "a game is a JSON object, not 'game'"


def test_names_that_are_not_identifiers_are_quoted_in_places() -> None:
    data = minimal(players=["Mary Ann", "Bob"], deals=[{
        "dealer": "Bob", "hands": {"Mary Ann": ["5S", "QQ"], "Bob": []}, "discards": {"Mary Ann": [], "Bob": []},
        "starter": "5H"}])
    assert refusal(data) == f"deals[0].hands[\"Mary Ann\"][1]: 'QQ' is not a card: {CARD_RULE}"
    assert format_place(("deals", 3, "play", 5)) == "deals[3].play[5]"
    assert format_place(()) == ""


# --- writing and identity ----------------------------------------------------------------------------------------


def test_dump_keeps_only_given_fields_in_spec_order_with_canonical_cards() -> None:
    data = {"players": ["Alice", "Bob"], "deals": [{"starter": "10h", "discards": {"Alice": [], "Bob": []},
                                                    "hands": {"Bob": ["j♣"], "Alice": []}, "dealer": "Bob"}],
            "format": "cribstats/game/1", "event": "Night"}
    dumped = dump_game(validate_game(data))
    assert list(dumped) == ["format", "event", "players", "deals"]
    assert list(dumped["deals"][0]) == ["dealer", "hands", "discards", "starter"]
    assert dumped["deals"][0]["hands"] == {"Bob": ["JC"], "Alice": []}
    assert dumped["deals"][0]["starter"] == "TH"


def test_content_hash_is_sha256_of_sorted_compact_json() -> None:
    game = validate_game({"players": ["A", "B"], "format": "cribstats/game/1", "result": {"winner": "B"}})
    text = b'{"format":"cribstats/game/1","players":["A","B"],"result":{"winner":"B"}}'
    assert content_hash(game) == hashlib.sha256(text).hexdigest()
    assert game_key(game) == hashlib.sha256(text).hexdigest()[:16]


def test_content_hash_ignores_spelling_and_key_order_but_not_content() -> None:
    one = copy.deepcopy(spec_game())
    two = copy.deepcopy(spec_game())
    two["deals"][0]["starter"] = "5h"
    two["deals"][0]["hands"]["Bob"][0] = "10S"
    assert content_hash(validate_game(one)) == content_hash(validate_game(dict(reversed(list(two.items())))))
    two["deals"][0]["show"]["crib"] = 4
    assert content_hash(validate_game(one)) != content_hash(validate_game(two))


def test_game_key_is_the_id_when_there_is_one() -> None:
    assert game_key(validate_game(spec_game())) == "tuesday-2026-11-03-r2-t4"


# --- muggins between partners ------------------------------------------------------------------------------------


def _partners_game(by: str, victim: str) -> dict[str, Any]:
    """A four-player deal (partners Ann and Cy, Bo and Di: seats 0 and 2, 1 and 3) with one muggins call."""
    hands = {"Ann": ["AS", "2S", "3S", "4S", "KD"], "Bo": ["5H", "6H", "7H", "8H", "QD"],
             "Cy": ["9C", "TC", "JC", "QC", "KC"], "Di": ["AD", "2D", "3D", "4D", "5D"]}
    deal = {"dealer": "Ann", "hands": hands, "discards": {p: [cards[-1]] for p, cards in hands.items()},
            "starter": "6C", "show": {"Cy": 10},
            "muggins": [{"by": by, "from": victim, "phase": "hand", "points": 2}]}
    return minimal(variant="four-player", muggins=True, players=["Ann", "Bo", "Cy", "Di"], deals=[deal])


def test_a_muggins_call_on_ones_own_partner_is_refused_by_both_readers() -> None:
    """RULES.md: under muggins *an opponent* takes the missed points. Partners score together, so a call by Ann on
    her partner Cy takes nothing from the other side: it is refused at its place, as a call on oneself is."""
    from cribstats.gamelog.fast import decode_game_json

    data = _partners_game("Ann", "Cy")
    assert refusal(data) == ("deals[0].muggins[0]: 'Ann' cannot call muggins on 'Cy', a partner: muggins takes "
                             "points from an opponent")
    assert decode_game_json(orjson.dumps(data)) is None  # the fast reader leaves the refusal to the model


def test_a_muggins_call_on_an_opponent_in_a_partnership_game_is_read() -> None:
    deals = validate_game(_partners_game("Bo", "Cy")).deals
    assert deals is not None and deals[0].muggins is not None
    (call,) = deals[0].muggins
    assert (call.by, call.from_, call.points) == ("Bo", "Cy", 2)


# --- numbers too large to read -----------------------------------------------------------------------------------


@pytest.mark.parametrize("number", ["18446744073709551616", "99999999999999999999999999"])
def test_a_whole_number_past_64_bits_is_refused_as_too_large_not_as_not_whole(number: str) -> None:
    """A count written with its digits is a whole number, however large: the refusal says it is too large (as
    it does just past the 64-bit bound), not that it is not whole, and names no rounded figure."""
    from cribstats.gamelog import validate_game_json

    text = '{"format": "cribstats/game/1", "players": ["Alice", "Bob"], "target": N}'.replace("N", number)
    with pytest.raises(GameLogError) as caught:
        validate_game_json(text.encode())
    assert str(caught.value) == "target: must be 9223372036854775807 or less, not a number this large"
    event = ('{"format": "cribstats/game/1", "players": ["Alice", "Bob"], "deals": [{"dealer": "Alice", '
             '"hands": {"Alice": [], "Bob": []}, "discards": {"Alice": [], "Bob": []}, "starter": "5H", '
             '"play": [["Bob", "JH", N]]}]}').replace("N", number)
    with pytest.raises(GameLogError) as caught:
        validate_game_json(event.encode())
    assert str(caught.value) == ("deals[0].play[0]: points must be 9223372036854775807 or less, not a number "
                                 "this large")


# --- a play call names its victim's claim ------------------------------------------------------------------------


def _called_at(event: int, *, points: list[int | None] | None = None) -> dict[str, Any]:
    """The spec deal with muggins on, and Bob calling muggins on Alice's play claim at ``event``."""
    game = spec_game()
    deal = game["deals"][0]
    if points is not None:
        deal["play"] = [e[:2] + ([] if p is None else [p]) for e, p in zip(deal["play"], points, strict=True)]
    deal["muggins"] = [{"by": "Bob", "from": "Alice", "phase": "play", "points": 2, "event": event}]
    return game


def test_a_play_call_at_another_players_card_is_refused_at_its_event() -> None:
    """game-log.md: a play call names "the index of the play event whose claim it corrects". Event 0 is Bob's JH:
    Alice made no claim there, so the call corrects nothing and was silently lost (neither judged nor put on the
    board); it is refused at its place, as an event outside the play is."""
    assert refusal(_called_at(0)) == ("deals[0].muggins[0].event: play event 0 is Bob's JH, not a claim of "
                                      "Alice's: a play call names the event whose claim it corrects")


def test_a_play_call_at_a_go_is_refused_at_its_event() -> None:
    # event 4 is Bob's go; a go claims nothing (its point is claimed with the card that closes the series)
    assert refusal(_called_at(4)) == ("deals[0].muggins[0].event: play event 4 is Bob's go, not a claim of "
                                      "Alice's: a play call names the event whose claim it corrects")


def test_a_play_call_at_the_victims_card_is_read() -> None:
    # event 1 is Alice's 5S; event 7 is Alice's 4S, which claims 0 (no points written: claims card by card)
    for event in (1, 7):
        deals = validate_game(_called_at(event)).deals
        assert deals is not None and deals[0].muggins is not None and deals[0].muggins[0].event == event


def test_a_play_call_in_a_deal_of_pegged_totals_may_name_any_event() -> None:
    # no event carries points: the play is claimed as totals, and a call is judged against the victim's total
    game = _called_at(0, points=[None] * 9)
    game["deals"][0]["pegged"] = {"Alice": 4, "Bob": 3}
    deals = validate_game(game).deals
    assert deals is not None and deals[0].muggins is not None and deals[0].muggins[0].event == 0


def test_a_crib_call_on_a_player_who_has_no_crib_is_refused() -> None:
    """Alice deals the spec deal, so the crib is hers: a call taking Bob's crib points corrects no claim (it was
    silently dropped: not judged, not on the board)."""
    game = spec_game()
    game["deals"][0]["muggins"] = [{"by": "Alice", "from": "Bob", "phase": "crib", "points": 2}]
    assert refusal(game) == ("deals[0].muggins[0]: Bob has no crib to call muggins on: the crib of this deal is "
                             "Alice's")


def test_a_crib_call_in_a_bidding_game_is_on_the_bid_winner() -> None:
    """Seed 002's bidding: the bid winner (Bob, though Alice deals) takes the crib, so a crib call is on Bob."""
    game = spec_game()
    game["bidding"] = True
    deal = game["deals"][0]
    deal["bid"] = {"player": "Bob", "points": 2}
    deal["muggins"] = [{"by": "Bob", "from": "Alice", "phase": "crib", "points": 2}]
    del game["result"], deal["scores"]
    assert refusal(game) == ("deals[0].muggins[0]: Alice has no crib to call muggins on: the crib of this deal "
                             "is Bob's")
    deal["muggins"] = [{"by": "Alice", "from": "Bob", "phase": "crib", "points": 2}]
    deals = validate_game(game).deals
    assert deals is not None and deals[0].muggins is not None and deals[0].muggins[0].from_ == "Bob"


def test_a_bid_outside_a_bidding_game_is_the_error_named_not_the_crib_call_it_moves() -> None:
    # no "bidding": the bid is the contract break; the dealer, Alice, keeps the crib for the call's sake
    game = spec_game()
    deal = game["deals"][0]
    deal["bid"] = {"player": "Bob", "points": 2}
    deal["muggins"] = [{"by": "Bob", "from": "Alice", "phase": "crib", "points": 2}]
    assert refusal(game) == 'deals[0].bid: a bid for the crib needs "bidding": true on the game'
