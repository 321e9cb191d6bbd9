"""One stored game replayed: as the JSON of ``GET /api/v1/games/{id}`` and as the text ``cribstats show`` prints
(the game page shows that text, each finding line marked beside the claim it corrects, each piece of user text in
it isolated in a ``<bdi>``: a right-to-left name does not pull the card and count beside it into its own order).

The page shows the text a block at a time (:class:`ReplayPage`): the game's line, then each deal under a heading of
its own (the deal's first line, ``Deal 3: Ann deals, starter 5H``), so that a screen reader goes deal to deal, then
the end of the game; each line is a box of its own, so that a long one wraps on a narrow screen rather than
scrolling sideways. The lines are the terminal's, in order, but for the blank lines between the blocks."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from markupsafe import Markup, escape

from cribstats.cards import format_card
from cribstats.replay import GameOutcome, replay
from cribstats.safetext import visible
from cribstats.store.queries import StoredGame
from cribstats.textview import INDENT, Mark, TextView

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


@dataclass(frozen=True, slots=True)
class PageLine:
    """A line of the ``show`` text as the game page shows it: HTML (:func:`page_line`), whether it is a finding's,
    and how deep it is indented (0, 1 or 2 steps: a wrapped line goes on under its start)."""

    html: Markup
    finding: bool
    depth: int

    @property
    def classes(self) -> str:
        depth = (f"in{self.depth}",) if self.depth else ()
        return " ".join(("line", *depth, *(("finding",) if self.finding else ())))


@dataclass(frozen=True, slots=True)
class ReplayPage:
    """The ``show`` text by blocks: ``head`` (the game's line), ``deals`` (each deal's heading, its first line, and
    its other lines) and ``end`` (the final board, the winners, the game's findings)."""

    head: list[PageLine]
    deals: list[tuple[Markup, list[PageLine]]] = field(default_factory=list)
    end: list[PageLine] = field(default_factory=list)


def _page_line(line: str) -> PageLine:
    text = _PIECE.sub(r"\1", line)
    depth = min(2, (len(text) - len(text.lstrip(" "))) // len(INDENT))
    return PageLine(page_line(line), text.lstrip().startswith("! "), depth)


def replayed_page(stored: StoredGame) -> tuple[dict[str, Any], ReplayPage]:
    """The game's JSON and the game page's blocks of its ``show`` text (:class:`ReplayPage`)."""
    detail, text = replayed(stored, _marked)
    blocks = [block.split("\n") for block in text.split("\n\n")]  # a blank line before each deal and the end
    deals = blocks[1:-1]
    if len(deals) != len(detail["deals"]) or not all(_PIECE.sub(r"\1", d[0]).startswith("Deal ") for d in deals):
        return detail, ReplayPage([_page_line(line) for line in text.split("\n")])  # never expected: one block
    return detail, ReplayPage(
        [_page_line(line) for line in blocks[0]],
        [(page_line(deal[0]), [_page_line(line) for line in deal[1:]]) for deal in deals],
        [_page_line(line) for line in blocks[-1]],
    )


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
