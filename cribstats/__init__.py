"""cribstats: cribbage game logs in, a muggins audit, a relational store and player statistics out.

The rules core (cards, variants, scoring, the game log model, the replay) imports nothing from storage,
statistics or the command line, so it can be used as a library::

    >>> from cribstats import parse_card, score_show
    >>> score_show([parse_card(c) for c in ("5C", "5D", "5H", "JS")], parse_card("5S")).total
    29

The names below are loaded on first use, so that a command imports only what it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cribstats.lazy import lazy_names

if TYPE_CHECKING:
    from cribstats.cards import Card, format_card, parse_card, parse_cards
    from cribstats.errors import CardError, ConflictError, CribstatsError, LogError, VariantError
    from cribstats.findings import Finding
    from cribstats.formats import SourceGame, read_games, read_paths
    from cribstats.gamelog import GameLog, GameLogError, dump_game, validate_game
    from cribstats.pegging import PegScore, score_peg
    from cribstats.replay import GameOutcome, ReplayVisitor, replay
    from cribstats.scoring import CountError, HandError, ShowScore, score_show, score_show_total
    from cribstats.scoring_many import score_show_many
    from cribstats.variants import VARIANTS, Variant, find_variant

_MODULES: dict[str, tuple[str, ...]] = {
    "cribstats.cards": ("Card", "format_card", "parse_card", "parse_cards"),
    "cribstats.errors": ("CardError", "ConflictError", "CribstatsError", "LogError", "VariantError"),
    "cribstats.findings": ("Finding",),
    "cribstats.formats": ("SourceGame", "read_games", "read_paths"),
    "cribstats.gamelog": ("GameLog", "GameLogError", "dump_game", "validate_game"),
    "cribstats.replay": ("GameOutcome", "ReplayVisitor", "replay"),
    "cribstats.pegging": ("PegScore", "score_peg"),
    "cribstats.scoring": ("CountError", "HandError", "ShowScore", "score_show", "score_show_total"),
    "cribstats.scoring_many": ("score_show_many",),
    "cribstats.variants": ("VARIANTS", "Variant", "find_variant"),
}  # fmt: skip

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

__getattr__, __dir__ = lazy_names(__name__, _MODULES, globals())
