"""Roles in three- and four-player deals (docs/decisions.md, "Statistics"): the dealer is the dealer, and every
player who does not deal is a pone, the dealer's partner included, for the figures "as dealer" and "as pone"."""

from __future__ import annotations

from cribstats.gamelog import validate_game
from cribstats.replay import replay


def test_every_player_but_the_dealer_is_a_pone_in_a_partnership_deal() -> None:
    # N deals; E (left of the dealer) leads; S is N's partner, W is E's: all three have the role pone
    deal = {"dealer": "N", "starter": "6C",
            "hands": {"N": ["AS", "2S", "3S", "4S", "KD"], "E": ["5H", "6H", "7H", "8H", "QD"],
                      "S": ["9C", "TC", "JC", "QC", "KC"], "W": ["AD", "2D", "3D", "4D", "5D"]},
            "discards": {"N": ["KD"], "E": ["QD"], "S": ["KC"], "W": ["5D"]}}
    game = validate_game({"format": "cribstats/game/1", "variant": "four-player", "players": ["N", "E", "S", "W"],
                          "deals": [deal]})
    facts = replay(game).deals[0].players
    assert [(p.player, p.seat, p.role) for p in facts] == [
        ("N", 0, "dealer"), ("E", 1, "pone"), ("S", 2, "pone"), ("W", 3, "pone")]


def test_both_non_dealers_are_pones_in_a_three_player_deal() -> None:
    deal = {"dealer": "B", "starter": "3D", "crib_card": "2D",
            "hands": {"A": ["AS", "2S", "3S", "4S", "KD"], "B": ["5H", "6H", "7H", "8H", "QD"],
                      "C": ["9C", "TC", "JC", "QC", "KC"]},
            "discards": {"A": ["KD"], "B": ["QD"], "C": ["KC"]}}
    game = validate_game({"format": "cribstats/game/1", "variant": "three-player", "players": ["A", "B", "C"],
                          "deals": [deal]})
    assert [(p.player, p.role) for p in replay(game).deals[0].players] == [
        ("A", "pone"), ("B", "dealer"), ("C", "pone")]
