"""cribstats: cribbage game logs in, a muggins audit, a relational store and player statistics out.

The rules core (cards, variants, scoring, the game log model, the replay) imports nothing from storage,
statistics or the command line, so it can be used as a library::

    >>> from cribstats import parse_card, score_show
    >>> score_show([parse_card(c) for c in ("5C", "5D", "5H", "JS")], parse_card("5S")).total
    29
"""

from cribstats.cards import Card, format_card, parse_card, parse_cards
from cribstats.errors import CardError, ConflictError, CribstatsError, LogError, VariantError
from cribstats.findings import Finding
from cribstats.formats import SourceGame, read_games, read_paths
from cribstats.gamelog import GameLog, GameLogError, dump_game, validate_game
from cribstats.replay import GameOutcome, ReplayVisitor, replay
from cribstats.scoring import (
    CountError,
    HandError,
    PegScore,
    ShowScore,
    score_peg,
    score_show,
    score_show_many,
    score_show_total,
)
from cribstats.variants import VARIANTS, Variant, find_variant

__all__ = [
    "VARIANTS",
    "Card",
    "CardError",
    "ConflictError",
    "CountError",
    "CribstatsError",
    "Finding",
    "GameLog",
    "GameLogError",
    "GameOutcome",
    "HandError",
    "LogError",
    "PegScore",
    "ReplayVisitor",
    "ShowScore",
    "SourceGame",
    "Variant",
    "VariantError",
    "dump_game",
    "find_variant",
    "format_card",
    "parse_card",
    "parse_cards",
    "read_games",
    "read_paths",
    "replay",
    "score_peg",
    "score_show",
    "score_show_many",
    "score_show_total",
    "validate_game",
]
