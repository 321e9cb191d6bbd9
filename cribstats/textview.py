"""The terminal view of one game, deal by deal: the cards, the play with the count and the points, the show, and
each finding beside the thing it is about. It returns text and prints nothing (``cribstats show`` prints it).

:class:`TextView` is a :class:`~cribstats.replay.ReplayVisitor` (like python-chess's ``StringExporter``): pass it
to ``replay(game, view)`` and ``view.result()`` is the text; it keeps where the replay told each finding, so
that each is shown right after the thing it is about.

>>> from cribstats.gamelog import validate_game
>>> from cribstats.replay import replay
>>> game = validate_game({"format": "cribstats/game/1", "id": "g", "players": ["Alice", "Bob"],
...     "deals": [{"dealer": "Alice", "starter": "5H",
...         "hands": {"Alice": ["5S","4S","2S","8D","6H","8C"], "Bob": ["TS","6D","JH","4H","KC","7C"]},
...         "discards": {"Alice": ["8D","8C"], "Bob": ["TS","KC"]},
...         "play": [["Bob","JH"], ["Alice","5S",2], ["Bob","7C"], ["Alice","6H",3], ["Bob","go"],
...                  ["Alice","2S",1], ["Bob","6D"], ["Alice","4S"], ["Bob","4H",3]],
...         "show": {"Bob": 9, "Alice": 10, "crib": 6}, "scores": {"Alice": 24, "Bob": 12}}]})
>>> view = TextView()
>>> _ = replay(game, view)
>>> text = view.result()
>>> print(text.splitlines()[0])
Game g: six-card, to 121, Alice v Bob
>>> "! missed (hand): Alice claimed 10" in text
True

Each piece of user text (a player's name, the game's key, event, round and site) can be marked as it is written:
``TextView(mark=...)`` applies the function to each piece, already made visible, and puts in what it returns as it
is (the service wraps each in HTML's ``<bdi>``, so that a right-to-left name does not pull the numbers beside it
into its own order). The default marks nothing: ``cribstats show`` prints the same text either way.

>>> view = TextView(mark=lambda name: f"[{name}]")
>>> _ = replay(game, view)
>>> print(view.result().splitlines()[0])
Game [g]: six-card, to 121, [Alice] v [Bob]
>>> "! missed (hand): [Alice] claimed 10" in view.result()
True
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from cribstats.cards import format_card
from cribstats.discards.analysis import discard_line
from cribstats.findings import Finding
from cribstats.replay import DealFacts, GameOutcome, PlayFact, ReplayVisitor, ShowFact
from cribstats.safetext import visible
from cribstats.variants import Variant, seat_after

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyDeal, AnyGame

INDENT = "    "
Mark = Callable[[str], str]
"""What is done to each piece of user text in a line (see the module notes)."""

# While a line is built, each piece of user text stands made visible between these two control characters: no
# other text of the line holds either (every other piece of user text is made visible as it is put in).
_OPEN, _CLOSE = "\x02", "\x03"
_PIECE = re.compile("\x02([^\x02\x03]*)\x03")


def _same(text: str) -> str:
    return text


def _user(text: object) -> str:
    """A piece of user text, made visible, between the marks."""
    return f"{_OPEN}{visible(str(text))}{_CLOSE}"


def _padded(name: str, width: int) -> str:
    """A name and the spaces that make it ``width`` characters (``f"{name:<{width}}"``), the spaces unmarked."""
    return _user(name) + " " * (width - len(name))


def _finished(line: str, mark: Mark) -> str:
    """The line as shown: each piece of user text marked, the rest made visible (as it is already: a net)."""
    parts: list[str] = []
    at = 0
    for piece in _PIECE.finditer(line):
        parts += [visible(line[at : piece.start()]), mark(piece.group(1))]
        at = piece.end()
    parts.append(visible(line[at:]))
    return "".join(parts)


def _names_in(players: Sequence[str]) -> re.Pattern[str] | None:
    """The players' names as they stand in a finding's message: the longest first, and a name that begins or ends
    with a letter or digit not found inside a longer word."""
    names = sorted({p for p in players if p}, key=lambda n: (-len(n), n))
    if not names:
        return None
    return re.compile("|".join(
        ("(?<!\\w)" if re.match(r"\w", n) else "") + re.escape(n) + ("(?!\\w)" if re.search(r"\w\Z", n) else "")
        for n in names
    ))  # fmt: skip


def _message(text: str, names: re.Pattern[str] | None) -> str:
    """A finding's message with each player's name in it a piece of user text, the rest made visible."""
    if names is None:
        return visible(text)
    parts: list[str] = []
    at = 0
    for name in names.finditer(text):
        parts += [visible(text[at : name.start()]), _user(name.group())]
        at = name.end()
    parts.append(visible(text[at:]))
    return "".join(parts)


def _cards(cards: Iterable[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def _finding_line(f: Finding, indent: str, names: re.Pattern[str] | None = None) -> str:
    return f"{indent}! {f.kind} ({f.phase}): {_message(f.message, names)}"


def _claim(due: int | None, claimed: int | None) -> str:
    if due is None:
        return ""
    if claimed is None or claimed == due:
        return str(due)
    return f"{due} (claimed {claimed})"


def render_game(game: AnyGame, outcome: GameOutcome, after_show: Mapping[int, int], mark: Mark = _same) -> str:
    """The whole game as text, findings inline (see the module example); ``after_show`` gives, by ``id``, the
    show each finding of the show comes after (its index in the deal's shows), as the replay told them
    (:class:`TextView` keeps it): a muggins call right after the claim it corrects, not under the caller's hand.
    ``mark`` is applied to each piece of user text, made visible (see the module notes)."""
    by_place: dict[tuple[int | None, int | None], list[Finding]] = defaultdict(list)
    for f in outcome.findings:
        by_place[(f.deal, f.event)].append(f)
    names = _names_in(game.players)
    lines = [_header(game, outcome)]
    for facts in outcome.deals:
        lines.append("")
        lines.extend(_deal_lines(facts, by_place, after_show, outcome.variant, _bonus_line(game, facts),
                                 sides(game), judged=not game.giveaway_rule, names=names))  # fmt: skip
    lines.append("")
    lines.extend(_end_lines(outcome, by_place.get((None, None), []), sides(game), names))
    # names, events, sites and ids are user text: a control or hidden character in one shows as an escape
    return "\n".join(_finished(line, mark) for line in lines)


def sides(game: AnyGame) -> list[list[str]]:
    """The players by side: each player alone, or in four-player the two partnerships (seats 1 and 3, 2 and 4).

    >>> from cribstats.gamelog import validate_game
    >>> sides(validate_game({"format": "cribstats/game/1", "variant": "four-player",
    ...                      "players": ["Abe", "Bea", "Cal", "Dee"]}))
    [['Abe', 'Cal'], ['Bea', 'Dee']]
    """
    rules = game.variant_rules
    by_side: list[list[str]] = [[] for _ in range(rules.sides)]
    for seat, name in enumerate(game.players):
        by_side[rules.side_of(seat)].append(name)
    return by_side


def _header(game: AnyGame, outcome: GameOutcome) -> str:
    where = ", ".join(
        x
        for x in (
            _user(game.event) if game.event else None,
            f"round {_user(game.round)}" if game.round else None,
            _user(game.site) if game.site else None,
            visible(str(game.date)) if game.date else None,
        )
        if x
    )
    muggins = ", muggins" if game.muggins_rule else ""
    facing = " v ".join(" and ".join(_user(p) for p in side) for side in sides(game))
    head = f"Game {_user(outcome.key)}: {outcome.variant.name}, to {outcome.target}{muggins}, {facing}"
    return f"{head} ({where})" if where else head


def _bonus_line(game: AnyGame, facts: DealFacts) -> str | None:
    """The first deal's bonus to the first pone (five-card's "three for last"), or in a bidding game the bid that
    took the crib (bidding, docs/rules.md), which the board counts: said, so that the board adds up."""
    deals = game.deals or ()
    bid = getattr(deals[facts.number - 1], "bid", None) if facts.number <= len(deals) else None
    if bid is not None and not facts.after_end:
        who = _user(bid.player)
        return f"{INDENT}{who} bid {bid.points} for the crib: {bid.points} taken off {who}'s score"
    bonus = game.variant_rules.first_deal_bonus
    if facts.number != 1 or not bonus:  # scored before the first deal, even one that ends the game
        return None
    seats = {p.player: p.seat for p in facts.players}
    first_pone = game.players[seat_after(seats[facts.dealer], len(game.players))]
    what = "three for last" if bonus == 3 else f"{bonus} for last"
    return f"{INDENT}{_user(first_pone)} {what}: {bonus}"


def _board(scores: dict[str, int], teams: list[list[str]] | None) -> str:
    """Scores by side ("Abe and Cal 24, Bea and Dee 12": partners share one score), or by player."""
    if not teams or any(p not in scores for team in teams for p in team):
        return ", ".join(f"{_user(name)} {score}" for name, score in scores.items())
    return ", ".join(f"{' and '.join(_user(p) for p in team)} {scores[team[0]]}" for team in teams)


def _deal_lines(
    facts: DealFacts,
    by_place: dict[tuple[int | None, int | None], list[Finding]],
    after_show: Mapping[int, int],
    variant: Variant,
    bonus: str | None = None,
    teams: list[list[str]] | None = None,
    judged: bool = True,
    names: re.Pattern[str] | None = None,
) -> list[str]:
    """A deal's lines; each discard's value when ``judged`` (not in a giveaway game, whose players aim for the
    fewest points: docs/decisions.md, "Discard analysis"); ``names`` finds the players' names in a finding."""
    n = facts.number
    status = " (after the end of the game)" if facts.after_end else ""
    lines = [f"Deal {n}: {_user(facts.dealer)} deals, starter {format_card(facts.starter)}{status}"]
    width = max((len(p.player) for p in facts.players), default=0)
    heels: list[str] = []  # his heels, scored at the cut: after a bid or a bonus, which come before it
    for p in facts.players:
        dealt = f"dealt {_cards(p.dealt)}  to the crib {_cards(p.discards)}"
        lines.append(f"{INDENT}{_padded(p.player, width)}  {p.role:<6}  {dealt}")
        told = discard_line(p.dealt, p.discards, variant, p.role) if p.discards and judged else None
        if told is not None:
            lines.append(f"{INDENT}{_padded(p.player, width)}  {told}")
        if p.heels_due or p.heels_claimed:
            heels.append(f"{INDENT}{_user(p.player)} his heels: {_claim(p.heels_due, p.heels_claimed)}")
    if bonus is not None:
        lines.append(bonus)
    lines.extend(heels)
    here = by_place.get((n, None), [])
    deal_findings = [f for f in here if f.phase in ("deal", "heels", "play") and f.kind != "board"]
    lines.extend(_finding_line(f, INDENT, names) for f in deal_findings if f.phase in ("deal", "heels"))
    if facts.plays:
        lines.append(f"{INDENT}The play")
        for play in facts.plays:
            lines.append(_play_line(play, width))
            lines.extend(_finding_line(f, INDENT * 2, names) for f in by_place.get((n, play.index), []))
    lines.extend(_finding_line(f, INDENT, names) for f in deal_findings if f.phase == "play")
    show_findings = [f for f in here if f.phase in ("hand", "crib")]
    if facts.shows:
        lines.append(f"{INDENT}The show")
        for index, show in enumerate(facts.shows):
            lines.append(_show_line(show, width))
            lines.extend(_finding_line(f, INDENT * 2, names) for f in show_findings
                         if after_show.get(id(f)) == index)  # fmt: skip
    placed = range(len(facts.shows))
    lines.extend(_finding_line(f, INDENT, names) for f in show_findings if after_show.get(id(f)) not in placed)
    rest = [f for f in here if f not in deal_findings and f not in show_findings]
    if facts.scores_claimed:
        board = _board(facts.scores_claimed, teams)
        due = ""
        if facts.scores_due and facts.scores_due != facts.scores_claimed:
            due = "; by points due " + _board(facts.scores_due, teams)
        lines.append(f"{INDENT}Board by the claims: {board}{due}")
    else:
        lines.append(f"{INDENT}Board: not known (the play of this deal or an earlier one is not given)")
    lines.extend(_finding_line(f, INDENT, names) for f in rest)
    return lines


def _play_line(play: PlayFact, width: int) -> str:
    card = "go" if play.card is None else format_card(play.card)
    points = _claim(play.due, play.claimed) if (play.due or play.claimed) else ""
    late = "  (after the end)" if play.after_end else ""
    return f"{INDENT * 2}{_padded(play.player, width)}  {card:<2}  count {play.count:>2}  {points}".rstrip() + late


def _show_line(show: ShowFact, width: int) -> str:
    what = "crib" if show.phase == "crib" else "hand"
    detail = ", ".join(
        f"{kind} {points}"
        for kind, points in (
            ("fifteens", show.score.fifteens),
            ("pairs", show.score.pairs),
            ("runs", show.score.runs),
            ("flush", show.score.flush),
            ("nobs", show.score.nobs),
        )
        if points
    )
    late = "  (after the end)" if show.after_end else ""
    detail_text = f"  [{detail}]" if detail else ""
    return (
        f"{INDENT * 2}{_padded(show.player, width)}  {what} {_cards(show.cards)}  {_claim(show.due, show.claimed)}"
        f"{detail_text}{late}"
    )


def _end_lines(
    outcome: GameOutcome,
    game_findings: list[Finding],
    teams: list[list[str]] | None = None,
    names: re.Pattern[str] | None = None,
) -> list[str]:
    lines = []
    if outcome.scores_claimed:
        final = _board(outcome.scores_claimed, teams)
        lines.append(f"Final: {final}")
    if outcome.winners:
        skunk = {1: ", a skunk", 2: ", a double skunk", 3: ", a triple skunk"}.get(outcome.skunk_level, "")
        ended = f" in deal {outcome.ended_in_deal}" if outcome.ended_in_deal else ""
        lines.append(f"Won by {' and '.join(_user(p) for p in outcome.winners)}{ended}{skunk}")
    elif outcome.deals and not outcome.scores_claimed:
        lines.append("The winner is not known: the board is not known after a deal without its play")
    else:
        lines.append("No side reached the target")
    if outcome.winners_due and set(outcome.winners_due) != set(outcome.winners):
        lines.append(f"By the points due, {' and '.join(_user(p) for p in outcome.winners_due)} would have won")
    lines.extend(_finding_line(f, "", names) for f in game_findings)
    total = len(outcome.findings)
    lines.append(f"{total} finding{'s' if total != 1 else ''}")
    return lines


class TextView(ReplayVisitor):
    """A replay visitor whose :meth:`result` is the text of :func:`render_game`; ``mark``, if given, is applied to
    each piece of user text (see the module notes)."""

    def __init__(self, mark: Mark | None = None) -> None:
        self._mark = mark or _same
        self._game: AnyGame | None = None
        self._text = ""
        self._shows = 0  # the shows told so far in the deal
        self._after_show: dict[int, int] = {}  # by id, each of the deal's findings told after a show: which

    def begin_game(self, game: AnyGame, key: str) -> None:
        self._game = game
        self._after_show = {}

    def begin_deal(self, number: int, deal: AnyDeal) -> None:
        self._shows = 0

    def visit_show(self, fact: ShowFact) -> None:
        self._shows += 1

    def visit_finding(self, finding: Finding) -> None:
        if finding.deal is not None and self._shows:
            self._after_show[id(finding)] = self._shows - 1

    def end_game(self, outcome: GameOutcome) -> None:
        assert self._game is not None
        self._text = render_game(self._game, outcome, self._after_show, self._mark)

    def result(self) -> str:
        return self._text
