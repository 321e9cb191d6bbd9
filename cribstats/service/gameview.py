"""One stored game replayed: as the JSON of ``GET /api/v1/games/{id}`` and as the text ``cribstats show`` prints
(the game page shows that text, each finding line marked beside the claim it corrects)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from cribstats.cards import format_card
from cribstats.replay import GameOutcome, replay
from cribstats.store.queries import StoredGame
from cribstats.textview import TextView


def _cards(cards: tuple[int, ...]) -> list[str]:
    return [format_card(c) for c in cards]


def replayed(stored: StoredGame) -> tuple[dict[str, Any], str]:
    """The game's JSON and its ``show`` text, from one replay."""
    view = TextView()
    outcome = replay(stored.game(), view, key=stored.key)
    return game_json(stored, outcome), view.result()


def game_json(stored: StoredGame, outcome: GameOutcome) -> dict[str, Any]:
    game = stored.game()
    return {
        "id": stored.id,
        "game": stored.key,
        "content_hash": stored.content_hash,
        "source": stored.source,
        "date": game.date,
        "event": game.event,
        "round": game.round,
        "site": game.site,
        "variant": outcome.variant.name,
        "target": outcome.target,
        "players": list(game.players),
        "scores_claimed": outcome.scores_claimed,
        "scores_due": outcome.scores_due,
        "winners": list(outcome.winners),
        "winners_due": list(outcome.winners_due),
        "skunk_level": outcome.skunk_level,
        "ended_in_deal": outcome.ended_in_deal,
        "deals": [
            {
                "number": d.number,
                "dealer": d.dealer,
                "starter": format_card(d.starter),
                "completed": d.completed,
                "after_end": d.after_end,
                "players": [
                    {**{k: v for k, v in asdict(p).items() if k not in ("dealt", "discards")},
                     "dealt": _cards(p.dealt), "discards": _cards(p.discards)}
                    for p in d.players
                ],
                "play": [
                    {"index": e.index, "player": e.player, "card": None if e.card is None else format_card(e.card),
                     "count": e.count, "due": e.due, "claimed": e.claimed, "after_end": e.after_end}
                    for e in d.plays
                ],
                "show": [
                    {"player": s.player, "phase": s.phase, "cards": _cards(s.cards),
                     "starter": format_card(s.starter), "due": s.due, "claimed": s.claimed,
                     "after_end": s.after_end}
                    for s in d.shows
                ],
                "scores_claimed": d.scores_claimed,
                "scores_due": d.scores_due,
            }
            for d in outcome.deals
        ],
        "findings": [f.to_dict() for f in outcome.findings],
    }  # fmt: skip
