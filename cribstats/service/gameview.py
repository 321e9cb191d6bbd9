"""One stored game replayed: as the JSON of ``GET /api/v1/games/{id}`` and as the text ``cribstats show`` prints
(the game page shows that text, each finding line marked beside the claim it corrects, each piece of user text in
it isolated in a ``<bdi>``: a right-to-left name does not pull the card and count beside it into its own order)."""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from markupsafe import Markup, escape

from cribstats.cards import format_card
from cribstats.replay import GameOutcome, replay
from cribstats.safetext import visible
from cribstats.store.queries import StoredGame
from cribstats.textview import Mark, TextView

# The game page's mark of a piece of user text: two control characters around it. The text ``TextView`` writes
# holds no other control character (it shows every one in user text as an escape), so these are the marks alone.
_OPEN, _CLOSE = "\x0e", "\x0f"
_PIECE = re.compile("\x0e([^\x0e\x0f]*)\x0f")


def _cards(cards: tuple[int, ...]) -> list[str]:
    return [format_card(c) for c in cards]


def replayed(stored: StoredGame, mark: Mark | None = None) -> tuple[dict[str, Any], str]:
    """The game's JSON and its ``show`` text, from one replay; ``mark`` is applied to each piece of user text in
    the text (:class:`~cribstats.textview.TextView`)."""
    view = TextView(mark)
    outcome = replay(stored.game(), view, key=stored.key)
    return game_json(stored, outcome), view.result()


def _marked(text: str) -> str:
    return f"{_OPEN}{text}{_CLOSE}"


def page_line(line: str) -> Markup:
    """A line of the text with marked pieces as HTML: every piece of text escaped (and any hidden character shown
    as an escape, as the pages show text), each marked piece in a ``<bdi>`` of its own."""
    html = Markup()
    at = 0
    for piece in _PIECE.finditer(line):
        html += escape(visible(line[at : piece.start()])) + Markup("<bdi>%s</bdi>") % visible(piece.group(1))
        at = piece.end()
    return html + escape(visible(line[at:]))


def replayed_page(stored: StoredGame) -> tuple[dict[str, Any], list[tuple[Markup, bool]]]:
    """The game's JSON and the game page's lines of its ``show`` text: each line as HTML (:func:`page_line`), and
    whether it is a finding's."""
    detail, text = replayed(stored, _marked)
    lines = text.split("\n")
    return detail, [(page_line(line), _PIECE.sub(r"\1", line).lstrip().startswith("! ")) for line in lines]


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
