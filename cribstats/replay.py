"""The replay: a state machine over each deal that knows what is legal, what is due and what was claimed.

``replay(game)`` walks a :class:`~cribstats.gamelog.GameLog` once and returns a :class:`GameOutcome` with the
facts of every deal (points due and claimed per player, every play and show) and every finding. A
:class:`ReplayVisitor` passed in is told the same things in game order, so the audit, the store and the terminal
view share one walk.

A deal's play with nothing wrong in it (the common case) is walked on local state by ``_play_in_order``; at the
first thing it cannot vouch for it gives up, having changed nothing, and ``_PlayReplay`` walks the deal with every
rule. The two must agree (``tests/test_audit_property.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Literal

from cribstats.cards import DECK, JACK, Card, format_card, value
from cribstats.findings import (
    Finding,
    after_end_message,
    board_message,
    claim_message,
    crib_card_message,
    dealer_rotation_message,
    dealt_count_message,
    discard_count_message,
    discard_not_dealt_message,
    duplicate_card_message,
    false_go_message,
    heels_what,
    illegal_card_message,
    muggins_heels_message,
    muggins_message,
    muggins_off_message,
    out_of_turn_message,
    over_31_message,
    pegged_what,
    play_detail,
    play_what,
    result_score_message,
    result_winner_message,
    show_what,
    unplayed_message,
)
from cribstats.gamelog import GO, Deal, GameLog, MugginsCall, PlayEvent, Result, game_key
from cribstats.scoring import THIRTY_ONE, PegScore, ShowScore, peg_points_ranks, score_show, score_show_total
from cribstats.variants import CRIB_SIZE, Variant

HEELS = 2
ANY_EVENT = -1

Role = Literal["dealer", "pone"]


@dataclass(slots=True)
class PlayFact:
    """One logged play event: a card laid or a go said, with the count after it and the points."""

    index: int  # into the deal's ``play`` list
    player: str
    card: Card | None  # None for a go
    count: int  # the count after the event (0 once a series closed on it is still shown as the closing count)
    due: int  # points the rules award for it, go or last card included
    claimed: int | None  # points the log claims for it; None when the deal does not claim card by card
    after_end: bool = False  # laid after the game had ended: counts for nothing


@dataclass(slots=True)
class ShowFact:
    """One hand or crib counted in the show."""

    player: str  # whose hand; the dealer for the crib
    phase: Literal["hand", "crib"]
    cards: tuple[Card, ...]
    starter: Card
    due: int
    claimed: int
    after_end: bool = False

    @property
    def score(self) -> ShowScore:
        """The breakdown: every fifteen, pair, run, flush and nobs."""
        return score_show(self.cards, self.starter, crib=self.phase == "crib")


@dataclass(slots=True)
class PlayerDealFacts:
    """What one player did and was due in one deal: the row statistics read most."""

    player: str
    seat: int
    role: Role
    dealt: tuple[Card, ...]
    discards: tuple[Card, ...]
    pegged_due: int | None  # None when the log leaves the play out entirely
    pegged_claimed: int | None
    hand_due: int | None  # None when the hand was never shown (the game ended first)
    hand_claimed: int | None
    crib_due: int | None  # dealer only
    crib_claimed: int | None
    heels_due: int = 0
    heels_claimed: int = 0
    muggins_gained: int = 0  # points taken from others by muggins calls
    muggins_lost: int = 0  # points others took from this player


@dataclass(slots=True)
class DealFacts:
    """One deal, replayed."""

    number: int  # 1-based
    dealer: str
    starter: Card
    completed: bool  # False for the deal in which the game ended and any deal after the end
    after_end: bool  # the whole deal came after the game had ended
    players: list[PlayerDealFacts]
    plays: list[PlayFact] = field(default_factory=list)
    shows: list[ShowFact] = field(default_factory=list)
    scores_claimed: dict[str, int] = field(default_factory=dict)  # board after the deal, per player (team score)
    scores_due: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class GameOutcome:
    """A replayed game: its deals, findings and result as the table had it and as the rules award it."""

    key: str  # the game's id, or its content hash
    variant: Variant
    target: int
    deals: list[DealFacts]
    findings: list[Finding]
    scores_claimed: dict[str, int]  # final position per player (partners share the team's)
    scores_due: dict[str, int]
    winners: tuple[str, ...]  # the side that reached the target by claims (a recorded result for result-only)
    winners_due: tuple[str, ...]  # the side that first reached the target by points due, if any
    skunk_level: int  # 0..3: the highest skunk of a losing player, from the claimed scores
    skunk_levels: dict[str, int]  # per player: 0 for a winner, else the level of that player's loss
    ended_in_deal: int | None  # the deal in which a side reached the target
    recorded: Result | None


class ReplayVisitor:
    """Told what the replay finds, in game order. Override what you need; :meth:`result` returns your value."""

    def begin_game(self, game: GameLog, key: str) -> None: ...

    def begin_deal(self, number: int, deal: Deal) -> None: ...

    def visit_play(self, fact: PlayFact) -> None: ...

    def visit_show(self, fact: ShowFact) -> None: ...

    def visit_finding(self, finding: Finding) -> None: ...

    def end_deal(self, facts: DealFacts) -> None: ...

    def end_game(self, outcome: GameOutcome) -> None: ...

    def result(self) -> object:
        return None


# --- the replay ----------------------------------------------------------------------------------------------

_CARD_OF: dict[str, Card] = {format_card(c): c for c in DECK}
_VALUE: tuple[int, ...] = tuple(value(c) for c in DECK)
_value_of = _VALUE.__getitem__


_NO_POINTS = PegScore(0, 0, 0, 0, 0)
# series of ranks recur a great deal: a pure function's memo, bounded, of each series' points and breakdown
_PEG_MEMO: dict[tuple[int, ...], tuple[int, PegScore]] = {}
_PEG_MEMO_SIZE = 1 << 17


def _peg_points(series: tuple[int, ...], count: int) -> tuple[int, PegScore]:
    """:func:`~cribstats.scoring.peg_points_ranks` with its points, remembered (the ranks give the count)."""
    entry = _PEG_MEMO.get(series)
    if entry is None:
        if len(_PEG_MEMO) >= _PEG_MEMO_SIZE:
            _PEG_MEMO.clear()
        peg = peg_points_ranks(series, count)
        entry = _PEG_MEMO[series] = (peg.points, peg)
    return entry


def _fits(cards: list[Card], room: int) -> bool:
    """Whether any of ``cards`` can be laid with ``room`` left below 31."""
    return bool(cards) and min(map(_value_of, cards)) <= room


def _someone_can_play(held: list[list[Card]], gone: set[int], room: int) -> bool:
    """Whether a seat that has not said go holds a card that fits: while so, the series is not over."""
    for seat, cards in enumerate(held):
        if cards and seat not in gone and min(map(_value_of, cards)) <= room:
            return True
    return False


def _next_holding(held: list[list[Card]], after: int) -> int | None:
    """The first seat after ``after`` (round the table) that still holds a card: the next lead; None when none."""
    n = len(held)
    for i in range(1, n + 1):
        seat = (after + i) % n
        if held[seat]:
            return seat
    return None


def _turn_instead(held: list[list[Card]], gone: set[int], last: int, seat: int, room: int) -> int | None:
    """Whose turn it was, in an open series whose last card ``last`` laid, when ``seat`` acted; None when it
    was ``seat``'s own. Players before ``seat`` who hold no card that fits have said go, whatever the log says.
    """
    n = len(held)
    s = last
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if s in gone:
            continue
        if s == seat:
            return None
        if _fits(held[s], room):
            return s
    return None


_index_of = attrgetter("index")
_card_of = _CARD_OF.__getitem__


def _overrides(visitor: ReplayVisitor, method: str) -> bool:
    """Whether ``visitor`` does anything on ``method`` (the base class does nothing)."""
    bound = getattr(visitor, method, None)
    return bound is None or getattr(bound, "__func__", None) is not getattr(ReplayVisitor, method)
_NEVER = 10**9
_STAGE = {"deal": 0, "heels": 1, "play": 2, "hand": 3, "crib": 4, "board": 5}


def replay(game: GameLog, visitor: ReplayVisitor | None = None, *, key: str | None = None) -> GameOutcome:
    """Replay every deal of a game; return its facts and findings, telling ``visitor`` as it goes.

    ``key`` names the game in findings (default: its id, else its content hash).

    >>> from cribstats.gamelog import validate_game
    >>> game = validate_game({"format": "cribstats/game/1", "id": "g", "players": ["Alice", "Bob"],
    ...     "deals": [{"dealer": "Alice", "starter": "5H",
    ...         "hands": {"Alice": ["5S","4S","2S","8D","6H","8C"], "Bob": ["TS","6D","JH","4H","KC","7C"]},
    ...         "discards": {"Alice": ["8D","8C"], "Bob": ["TS","KC"]},
    ...         "play": [["Bob","JH"], ["Alice","5S",2], ["Bob","7C"], ["Alice","6H",3], ["Bob","go"],
    ...                  ["Alice","2S",1], ["Bob","6D"], ["Alice","4S"], ["Bob","4H",3]],
    ...         "show": {"Bob": 9, "Alice": 12, "crib": 6}, "scores": {"Alice": 24, "Bob": 12}}]})
    >>> outcome = replay(game)
    >>> outcome.findings, outcome.scores_claimed
    ([], {'Alice': 24, 'Bob': 12})
    """
    return _GameReplay(game, visitor or ReplayVisitor(), key if key is not None else game_key(game)).run()


class _GameReplay:
    """The state of one game's replay: the boards (as claimed and as due), the end, the findings."""

    def __init__(self, game: GameLog, visitor: ReplayVisitor, key: str) -> None:
        self.game = game
        self.visitor = visitor
        self.key = key
        self.rules = rules = game.variant_rules
        self.target = game.target if game.target is not None else rules.target
        self.players = players = list(game.players)
        n = len(players)
        self.seat_of = {name: seat for seat, name in enumerate(players)}
        self.side_of = {name: rules.side_of(seat) for seat, name in enumerate(players)}
        self.sides = rules.sides
        self.player_sides = tuple(self.side_of.items())  # (name, side) in seat order
        self.side_of_seat = [rules.side_of(seat) for seat in range(n)]
        self.seat_is_side = self.side_of_seat == list(range(self.sides))  # no partners: each seat scores alone
        #: the players in counting order (from the pone round to the dealer), by the dealer's seat
        self.order_from = [tuple(players[(dealer + i) % n] for i in range(1, n + 1)) for dealer in range(n)]
        self.board = [0] * self.sides  # as the table had it: claims, muggins takings, bonus
        self.board_due = [0] * self.sides
        self.board_known = True
        self.over = False
        self.winner_side: int | None = None
        self.winner_due_side: int | None = None
        self.ended_in_deal: int | None = None
        self.findings: list[Finding] = []
        self.deal_findings: list[tuple[tuple[int, int], Finding]] = []
        self.deal_number = 0
        self.after_end_reported = False
        self.board_offsets: dict[str, int] = {}
        # the visitor is told every play and show; a visitor that ignores them need not be called for each
        self.tell_plays = _overrides(visitor, "visit_play")
        self.tell_shows = _overrides(visitor, "visit_show")

    # -- bookkeeping ------------------------------------------------------------------------------------------

    def side(self, player: str) -> int:
        return self.side_of[player]

    def find(self, kind: str, phase: str, player: str | None, message: str, *, event: int | None = None,
             claimed: int | None = None, due: int | None = None, stage: str | None = None,
             at: int | None = None) -> None:
        """Record a finding; within a deal findings come in game order: by stage, then at the event (``at``)."""
        finding = Finding(
            self.key, self.deal_number or None, event, kind, phase, player, claimed, due, message  # type: ignore[arg-type]
        )
        if self.deal_number:
            if at is None:
                at = event if event is not None else _NEVER
            self.deal_findings.append(((_STAGE[stage or phase], at), finding))
        else:
            self.findings.append(finding)

    def credit(self, side: int, claimed: int, due: int) -> None:
        """Move a side's pegs (as claimed) and its score due, and see whether the game has ended."""
        board_due = self.board_due
        board_due[side] += due
        if self.winner_due_side is None and board_due[side] >= self.target:
            self.winner_due_side = side
        board = self.board
        board[side] += claimed
        if not self.over and self.board_known and board[side] >= self.target:
            self.over = True
            self.winner_side = side
            self.ended_in_deal = self.deal_number

    def after_end(self, phase: str, player: str | None, what: str, *, event: int | None = None) -> None:
        """Something in a deal after the end: one finding per deal, for the first such thing."""
        if not self.after_end_reported:
            self.after_end_reported = True
            self.find("after-end", phase, player, after_end_message(self.target, what), event=event)

    def scores_by_player(self, board: list[int]) -> dict[str, int]:
        if self.seat_is_side:
            return dict(zip(self.players, board, strict=True))
        return {name: board[side] for name, side in self.player_sides}

    # -- the game ---------------------------------------------------------------------------------------------

    def run(self) -> GameOutcome:
        visitor = self.visitor
        visitor.begin_game(self.game, self.key)
        deals: list[DealFacts] = []
        previous_dealer: str | None = None
        for number, deal in enumerate(self.game.deals or [], start=1):
            self.deal_number = number
            self.after_end_reported = False
            self.deal_findings = []
            visitor.begin_deal(number, deal)
            facts = _DealReplay(self, deal, number, previous_dealer).run()
            previous_dealer = deal.dealer
            if self.deal_findings:
                self.deal_findings.sort(key=lambda item: item[0])
                for _, finding in self.deal_findings:
                    self.findings.append(finding)
                    visitor.visit_finding(finding)
            visitor.end_deal(facts)
            deals.append(facts)
        self.deal_number = 0
        before = len(self.findings)
        outcome = self.outcome(deals)
        for finding in self.findings[before:]:
            visitor.visit_finding(finding)
        visitor.end_game(outcome)
        return outcome

    def outcome(self, deals: list[DealFacts]) -> GameOutcome:
        recorded = self.game.result
        sides_of = [
            [p for seat, p in enumerate(self.players) if self.rules.side_of(seat) == s] for s in range(self.sides)
        ]
        if deals and self.board_known:
            scores = self.scores_by_player(self.board)
            winners = tuple(sides_of[self.winner_side]) if self.winner_side is not None else ()
            self.judge_result(scores, winners)
        else:
            scores = {}
            if recorded and recorded.scores:  # in seat order, as the board's are
                seat_of, last = self.seat_of, len(self.players)
                scores = dict(sorted(recorded.scores.items(), key=lambda item: seat_of.get(item[0], last)))
            winners = ()
            if recorded and recorded.winner:
                winners = tuple(sides_of[self.side(recorded.winner)])
        winners_due = tuple(sides_of[self.winner_due_side]) if self.winner_due_side is not None else ()
        levels = {p: 0 for p in self.players}
        if winners:
            for p in self.players:
                if p not in winners and p in scores:
                    levels[p] = self.rules.skunk_level(scores[p], self.target)
        return GameOutcome(
            key=self.key,
            variant=self.rules,
            target=self.target,
            deals=deals,
            findings=self.findings,
            scores_claimed=scores,
            scores_due=self.scores_by_player(self.board_due) if deals else {},
            winners=winners,
            winners_due=winners_due,
            skunk_level=max(levels.values(), default=0),
            skunk_levels=levels,
            ended_in_deal=self.ended_in_deal,
            recorded=recorded,
        )

    def judge_result(self, scores: dict[str, int], winners: tuple[str, ...]) -> None:
        recorded = self.game.result
        if recorded is None:
            return
        if recorded.winner is not None and recorded.winner not in winners:
            replayed = winners[0] if winners else None
            self.find("result", "result", None, result_winner_message(recorded.winner, replayed, self.target))
        for player in self.players:
            if recorded.scores and player in recorded.scores and recorded.scores[player] != scores[player]:
                self.find(
                    "result", "result", player,
                    result_score_message(player, recorded.scores[player], scores[player]),
                    claimed=recorded.scores[player], due=scores[player],
                )


class _DealReplay:
    """One deal: deal checks, his heels, the play, the show and the board."""

    def __init__(self, g: _GameReplay, deal: Deal, number: int, previous_dealer: str | None) -> None:
        self.g = g
        self.deal = deal
        self.number = number
        self.previous_dealer = previous_dealer
        self.rules = g.rules
        self.players = players = g.players
        self.n = len(players)
        self.dealer_seat = dealer_seat = g.seat_of[deal.dealer]
        self.order_from_pone = g.order_from[dealer_seat]
        self.starter = _CARD_OF[deal.starter]
        hands, discards = deal.hands, deal.discards
        self.dealt: dict[str, list[Card]] = {}
        self.discards: dict[str, list[Card]] = {}
        self.kept: dict[str, list[Card]] = {}
        self.kept_by_seat: list[list[Card]] = []
        self.facts: dict[str, PlayerDealFacts] = {}
        for seat, p in enumerate(players):
            dealt = self.dealt[p] = list(map(_card_of, hands.get(p, ())))
            out = self.discards[p] = list(map(_card_of, discards.get(p, ())))
            kept = self.kept[p] = _without(dealt, out)
            self.kept_by_seat.append(kept)
            self.facts[p] = PlayerDealFacts(
                p, seat, "dealer" if seat == dealer_seat else "pone", tuple(dealt), tuple(out),
                None, None, None, None, None, None,  # pegged, hand and crib: due and claimed, filled in below
            )
        self.plays: list[PlayFact] = []
        self.shows: list[ShowFact] = []
        self.calls = list(deal.muggins or [])
        self.missed_left: dict[tuple[str, str, int | None], int] = {}

    def run(self) -> DealFacts:
        g = self.g
        after_end = g.over
        if after_end:
            g.after_end("deal", None, "a whole deal")
        else:
            self.check_deal()
            bonus = self.rules.first_deal_bonus
            if self.number == 1 and bonus:
                g.credit(g.side_of[self.order_from_pone[0]], bonus, bonus)
            self.heels()
            self.play()
            self.show()
            self.check_board()
        return DealFacts(
            self.number, self.deal.dealer, self.starter, not after_end and not g.over, after_end,
            list(self.facts.values()), self.plays, self.shows, g.scores_by_player(g.board),
            g.scores_by_player(g.board_due),
        )

    # -- the deal ---------------------------------------------------------------------------------------------

    def deal_is_clean(self) -> bool:
        """The common case, checked at once: the dealer in turn, every count right, no card twice."""
        g, deal, rules = self.g, self.deal, self.rules
        previous = self.previous_dealer
        if previous is not None and deal.dealer != g.players[(g.seat_of[previous] + 1) % self.n]:
            return False
        if (deal.crib_card is None) != (rules.crib_from_deck == 0):
            return False
        cards = [self.starter] if deal.crib_card is None else [self.starter, _CARD_OF[deal.crib_card]]
        dealt_size, crib_size = rules.dealt, rules.to_crib
        for dealt, out, kept in zip(self.dealt.values(), self.discards.values(), self.kept_by_seat, strict=True):
            # every discard was dealt when each one took a card out of the hand
            if len(dealt) != dealt_size or len(out) != crib_size or len(kept) != dealt_size - crib_size:
                return False
            cards += dealt
        return len(set(cards)) == len(cards)

    def check_deal(self) -> None:
        if self.deal_is_clean():
            return
        g, deal, rules = self.g, self.deal, self.rules
        if self.previous_dealer is not None:
            expected = self.players[(g.seat_of[self.previous_dealer] + 1) % self.n]
            if deal.dealer != expected:
                g.find("bad-deal", "deal", deal.dealer, dealer_rotation_message(deal.dealer, expected))
        for p in self.players:
            if len(self.dealt[p]) != rules.dealt:
                g.find("bad-deal", "deal", p, dealt_count_message(p, len(self.dealt[p]), rules.dealt))
        seen: set[Card] = set()
        for p in deal.hands:
            for c in self.dealt[p]:
                if c in seen:
                    g.find("bad-deal", "deal", p, duplicate_card_message(format_card(c), f"in {p}'s hand"))
                seen.add(c)
        if deal.crib_card is not None:
            c = _CARD_OF[deal.crib_card]
            if c in seen:
                g.find("bad-deal", "deal", None, duplicate_card_message(format_card(c), "as the crib card"))
            seen.add(c)
        if self.starter in seen:
            g.find("bad-deal", "deal", None, duplicate_card_message(deal.starter, "as the starter"))
        if (deal.crib_card is None) != (rules.crib_from_deck == 0):
            g.find("bad-deal", "deal", None, crib_card_message(missing=deal.crib_card is None))
        for p in self.players:
            wrong = [c for c in self.discards[p] if c not in self.dealt[p]]
            if wrong:
                g.find("bad-discard", "deal", p, discard_not_dealt_message(p, format_card(wrong[0])))
            elif len(self.discards[p]) != rules.to_crib:
                g.find("bad-discard", "deal", p, discard_count_message(p, len(self.discards[p]), rules.to_crib))

    # -- his heels --------------------------------------------------------------------------------------------

    def heels(self) -> None:
        g, dealer = self.g, self.deal.dealer
        due = HEELS if self.starter >> 2 == JACK else 0
        claimed = self.deal.heels if self.deal.heels is not None else due
        facts = self.facts[dealer]
        if g.over:
            if self.deal.heels:
                g.after_end("heels", dealer, f"{dealer} claimed his heels")
            return
        facts.heels_due, facts.heels_claimed = due, claimed
        if claimed != due or self.calls:
            self.judge_claim(dealer, "heels", claimed, due, lambda: heels_what(self.deal.starter))
        g.credit(g.side_of[dealer], claimed, due)
        if not self.calls:
            return
        for call in self.calls_for("heels", None):
            if g.over:
                g.after_end("heels", call.by, f"{call.by} called muggins")
                continue
            g.find("muggins-call", "heels", call.by, muggins_heels_message(call.by, call.from_, call.points),
                   claimed=call.points, due=0)
            self.take(call)

    # -- claims and muggins -----------------------------------------------------------------------------------

    def judge_claim(self, player: str, phase: str, claimed: int, due: int, what: Callable[[], str],
                    event: int | None = None) -> None:
        """A claim against the points due; ``what`` names the thing counted, built only for a finding."""
        if claimed != due:
            kind = "missed" if claimed < due else "overclaim"
            self.g.find(kind, phase, player, claim_message(player, phase, claimed, due, what()),
                        event=event, claimed=claimed, due=due)
        if self.calls and phase != "heels" and self.g.game.muggins_rule:
            self.missed_left[(player, phase, event)] = max(0, due - claimed)

    def calls_for(self, phase: str, event: int | None, victim: str | None = None) -> list[MugginsCall]:
        """The muggins calls on one claim (``event`` ANY_EVENT: on any play event)."""
        return [
            c for c in self.calls
            if c.phase == phase and event in (ANY_EVENT, c.event) and (victim is None or c.from_ == victim)
        ]

    def take(self, call: MugginsCall) -> None:
        """The board follows a muggins taking, right or wrong."""
        self.g.credit(self.g.side_of[call.by], call.points, 0)
        self.facts[call.by].muggins_gained += call.points
        self.facts[call.from_].muggins_lost += call.points

    def judge_calls(self, victim: str, phase: str, event: int | None, what: Callable[[], str]) -> None:
        """Judge the calls on one claim against what it missed (ANY_EVENT: calls on a ``pegged`` total)."""
        g = self.g
        pool = None if event == ANY_EVENT else event
        for call in self.calls_for(phase, event, victim):
            if not g.game.muggins_rule:
                g.find("muggins-call", phase, call.by, muggins_off_message(call.by, victim, call.points),
                       event=call.event, claimed=call.points, due=0)
                continue
            left = self.missed_left.get((victim, phase, pool), 0)
            if call.points > left:
                g.find("muggins-call", phase, call.by, muggins_message(call.by, victim, call.points, left, what()),
                       event=call.event, claimed=call.points, due=left, at=event if event != ANY_EVENT else _NEVER)
            self.missed_left[(victim, phase, pool)] = max(0, left - call.points)

    def credit_calls(self, victim: str, phase: str, event: int | None) -> None:
        if not self.calls:
            return
        for call in self.calls_for(phase, event, victim):
            if self.g.over:
                self.g.after_end(phase, call.by, f"{call.by} called muggins", event=event)
            else:
                self.take(call)

    # -- the play ---------------------------------------------------------------------------------------------

    def play(self) -> None:
        deal = self.deal
        if deal.play is None:
            self.play_totals_only()
        elif not _play_in_order(self, deal.play):
            _PlayReplay(self).run()

    def play_totals_only(self) -> None:
        """A deal without ``play``: pegging totals are credited but cannot be judged; without them, nothing."""
        g, deal = self.g, self.deal
        if deal.pegged is None:
            if not g.over:  # after the end (his heels ended it) a missing play is no gap: nothing there counts
                g.board_known = False
            return
        for p in self.order_from_pone:
            claimed = deal.pegged.get(p)
            if claimed is None:
                continue
            self.facts[p].pegged_claimed = claimed
            if g.over:
                g.after_end("play", p, f"{p} pegged {claimed}")
                continue
            g.credit(g.side_of[p], claimed, 0)

    # -- the show ---------------------------------------------------------------------------------------------

    def show(self) -> None:
        claims = self.deal.show or {}
        for p in self.order_from_pone:
            self.count_show(p, "hand", self.kept[p], claims.get(p))
        crib = list(chain.from_iterable(self.discards.values()))  # in seat order
        if self.deal.crib_card is not None:
            crib.append(_CARD_OF[self.deal.crib_card])
        self.count_show(self.deal.dealer, "crib", crib, claims.get("crib"))

    def count_show(self, player: str, phase: str, cards: list[Card], claimed: int | None) -> None:
        g = self.g
        if g.over:
            if claimed is not None:
                g.after_end(phase, player, f"{player} claimed {claimed} for the {phase}")
            for call in self.calls_for(phase, None, player):
                g.after_end(phase, call.by, f"{call.by} called muggins on {player}'s {phase}")
            return
        if not g.board_known and claimed is None:
            return
        crib = phase == "crib"
        size = CRIB_SIZE if crib else self.rules.hand_size
        if len(cards) != size:  # a bad deal makes this claim impossible to judge: credit it as claimed
            if claimed is not None:
                g.credit(g.side_of[player], claimed, 0)
            return
        due = score_show_total(cards, self.starter, crib=crib)
        claim = due if claimed is None else claimed
        facts = self.facts[player]
        if crib:
            facts.crib_due, facts.crib_claimed = due, claim
        else:
            facts.hand_due, facts.hand_claimed = due, claim
        fact = ShowFact(player, phase, tuple(cards), self.starter, due, claim)  # type: ignore[arg-type]
        self.shows.append(fact)
        if g.tell_shows:
            g.visitor.visit_show(fact)
        if claim == due and not self.calls:  # the common case: nothing to judge
            g.credit(g.side_of[player], claim, due)
            return

        def what() -> str:
            return show_what(phase, [format_card(c) for c in cards], self.deal.starter)

        self.judge_claim(player, phase, claim, due, what)
        g.credit(g.side_of[player], claim, due)
        if self.calls:
            self.judge_calls(player, phase, None, what)
            self.credit_calls(player, phase, None)

    # -- the board --------------------------------------------------------------------------------------------

    def check_board(self) -> None:
        g, recorded = self.g, self.deal.scores
        if recorded is None:
            return
        if not g.board_known:
            for p, score in recorded.items():
                g.board[g.side(p)] = score
            g.board_known = True
            if not g.over and max(g.board) >= g.target:
                g.over = True
                g.winner_side = g.board.index(max(g.board))
                g.ended_in_deal = self.number
            return
        board, offsets = g.board, g.board_offsets
        for p, side in g.player_sides:
            if p not in recorded:
                continue
            position = board[side]
            offset = recorded[p] - position
            if offset != 0 and offset != offsets.get(p, 0):
                g.find("board", "deal", p, board_message(p, self.number, recorded[p], position),
                       claimed=recorded[p], due=position, stage="board")
            offsets[p] = offset


class _PlayReplay:
    """The play of one deal: who holds what, the count, the series, whose turn, and what each card earned.

    Claims come card by card (any event carries points), as totals (``pegged``), or not at all (taken as due).
    """

    def __init__(self, d: _DealReplay) -> None:
        self.d = d
        self.g = d.g
        self.n = d.n
        self.names = d.players
        self.single_series = d.rules.single_series
        self.held = [list(cards) for cards in d.kept_by_seat]
        self.events = d.deal.play or []
        self.card_claims = 3 in map(len, self.events)  # any event carries points
        self.totals = not self.card_claims and d.deal.pegged is not None
        self.count = 0
        self.series: tuple[int, ...] = ()  # ranks laid since the count was last 0
        self.last_layer: int | None = None
        self.gone: set[int] = set()
        self.leader = _next_holding(self.held, d.dealer_seat)
        self.play_over = self.leader is None
        self.pending: PlayFact | None = None  # the last card laid, while its series may still give it a go
        self.pending_peg = _NO_POINTS
        # the part of the pending card's claim beyond what it earned by itself, when that part alone would take its
        # side to the target: it is pegged when the series closes, after the others' goes (game-log.md)
        self.deferred: tuple[int, int] | None = None  # (side, points)
        self.kept_back = [0] * self.n
        self.facts: list[PlayFact] = []
        # what each seat's cards earned and claimed, go and last card included (after the end: nothing)
        self.due_by_seat = [0] * self.n
        self.claimed_by_seat = [0] * self.n

    # -- who can play -----------------------------------------------------------------------------------------

    def fitting(self, seat: int) -> list[Card]:
        room = THIRTY_ONE - self.count
        return [c for c in self.held[seat] if _VALUE[c] <= room]

    def whose_turn_instead(self, seat: int) -> int | None:
        """Whose turn it was when ``seat`` acted, or None when it was ``seat``'s own (:func:`_turn_instead`)."""
        if self.play_over:
            return None
        if not self.series:
            return None if self.leader in (None, seat) else self.leader
        assert self.last_layer is not None
        return _turn_instead(self.held, self.gone, self.last_layer, seat, THIRTY_ONE - self.count)

    def series_is_over(self) -> bool:
        """No one who has not said go holds a card that fits: the series closes."""
        return not _someone_can_play(self.held, self.gone, THIRTY_ONE - self.count)

    # -- the walk ---------------------------------------------------------------------------------------------

    def run(self) -> None:
        g = self.g
        seat_of, held, facts, card_claims = g.seat_of, self.held, self.facts, self.card_claims
        for index, event in enumerate(self.events):
            player, text = event[0], event[1]
            if text == GO:
                self.go(index, player)
                continue
            card = _CARD_OF[text]
            claimed = event[2] if len(event) == 3 else (0 if card_claims else None)
            if self.series and not g.over:
                # no search when the card about to be laid fits and its player is still in: the series goes on
                seat = seat_of[player]
                goes_on = _VALUE[card] <= THIRTY_ONE - self.count and seat not in self.gone and card in held[seat]
                if not goes_on and self.series_is_over():
                    self.close_series(go_point=True)
            self.credit_deferred()  # a card follows: the claim held back is on the board by now
            if g.over:
                facts.append(PlayFact(index, player, card, self.count, 0, claimed, after_end=True))
                g.after_end("play", player, f"{player} laid {text}", event=index)
                continue
            self.lay(index, player, card, claimed)
        if not g.over and not self.play_over and self.series and self.series_is_over():
            self.close_series(go_point=True)  # the log ends with the series: its go is due (it may end the game)
        if not g.over and not self.play_over:
            self.check_unplayed()
            if self.series and not self.series_is_over():
                # the log stops while someone still had to play: whether the last card laid earned a go is
                # not known, so its claim is left unjudged rather than guessed
                self.pending = None
                self.credit_deferred()
        if self.pending is not None:
            own_end = g.over and self.pending.index == self.ended_at
            self.close_series(go_point=not own_end)
        facts.sort(key=_index_of)
        if g.tell_plays:
            visit_play = g.visitor.visit_play
            for fact in facts:
                visit_play(fact)
        self.d.plays.extend(facts)
        self.totals_and_facts()

    def credit_laid(self, index: int, seat: int, base: int, claimed: int | None) -> None:
        """Credit a card laid on the count: ``base`` due, the claim as the log has it (see the class)."""
        g = self.g
        self.due_by_seat[seat] += base
        self.claimed_by_seat[seat] += base if claimed is None else claimed
        side = g.side_of_seat[seat]
        if self.card_claims:
            assert claimed is not None
            pegs = claimed
        else:
            pegs = 0 if self.totals else base
        board, board_due, target = g.board, g.board_due, g.target
        if board[side] + pegs < target and board_due[side] + base < target:
            board[side] += pegs  # the common case: nobody reaches the target, so no more to it than this
            board_due[side] += base
            return
        was_over, before = g.over, board[side]
        if self.card_claims and not was_over and before + min(pegs, base) < target <= before + pegs:
            own = min(pegs, base)  # only the go in the claim reaches the target: the end comes as the series ends
            g.credit(side, own, base)
            self.deferred = (side, pegs - own)
            return
        g.credit(side, pegs, base)
        if was_over or not g.over:
            return
        if self.card_claims:  # the game ended on the card itself, or only on its go (see docs/decisions.md)
            if before + min(pegs, base) >= target:
                self.ended_at = index
        elif not self.totals:
            self.ended_at = index

    ended_at: int | None = None  # the event on whose own points the game ended

    def credit_deferred(self) -> None:
        """Peg the go part of a claim held back until its series closed (see ``deferred``)."""
        if self.deferred is not None:
            side, points = self.deferred
            self.deferred = None
            self.g.credit(side, points, 0)

    def go(self, index: int, player: str) -> None:
        seat = self.g.seat_of[player]
        fact = PlayFact(index, player, None, self.count, 0, None)
        self.facts.append(fact)
        if self.g.over or self.play_over:
            return  # a go after the play or after the end changes nothing
        fits = self.fitting(seat)
        if fits and seat not in self.gone:
            card = format_card(fits[0])
            new_count = self.count + _VALUE[fits[0]]
            instead = self.whose_turn_instead(seat)
            if instead is not None:  # said out of turn: a finding, but not a go
                act = f"said go holding {card} ({new_count})"
                message = out_of_turn_message(player, act, self.names[instead])
                self.g.find("out-of-turn", "play", player, message, event=index)
                return
            message = false_go_message(player, self.count, card, new_count)
            self.g.find("false-go", "play", player, message, event=index)
            self.kept_back[seat] += 1
        self.gone.add(seat)

    def lay(self, index: int, player: str, card: Card, claimed: int | None) -> None:
        g = self.g
        seat = g.seat_of[player]
        instead = self.whose_turn_instead(seat)
        held = self.held[seat]
        if card in held:
            held.remove(card)
            if self.play_over:
                message = f"{player} laid {format_card(card)} after the play had ended"
                g.find("out-of-turn", "play", player, message, event=index)
        else:
            message = illegal_card_message(player, format_card(card), self.why_not_held(seat, card))
            g.find("illegal-card", "play", player, message, event=index)
            self.kept_back[seat] += 1
        if instead is not None:
            message = out_of_turn_message(player, f"laid {format_card(card)}", self.names[instead])
            g.find("out-of-turn", "play", player, message, event=index)
        if self.play_over:
            fact = PlayFact(index, player, card, self.count, 0, claimed)
            self.facts.append(fact)
            self.claim_now(fact, player, claimed, 0)
            return
        pending = self.pending
        if pending is not None:
            if self.d.calls or (pending.claimed is not None and pending.claimed != pending.due):
                self.finish_pending(go=0)
            else:
                self.pending = None  # finish_pending's common case: nothing more earned, nothing to judge
        new_count = self.count + _VALUE[card]
        if new_count > THIRTY_ONE:
            g.find("over-31", "play", player, over_31_message(player, format_card(card), self.count), event=index)
            fact = PlayFact(index, player, card, new_count, 0, claimed)
            self.facts.append(fact)
            self.claim_now(fact, player, claimed, 0)
            self.last_layer = seat
            self.close_series(go_point=False)
            return
        self.count = new_count
        self.series = series = (*self.series, card >> 2)
        self.last_layer = seat
        entry = _PEG_MEMO.get(series)
        if entry is None:
            entry = _peg_points(series, new_count)
        base, self.pending_peg = entry
        fact = PlayFact(index, player, card, new_count, base, claimed)
        self.facts.append(fact)
        self.pending = fact
        self.credit_laid(index, seat, base, claimed)
        if self.d.calls:
            self.d.credit_calls(player, "play", index)
        if new_count == THIRTY_ONE:
            self.close_series(go_point=True)

    def why_not_held(self, seat: int, card: Card) -> str:
        name = self.names[seat]
        if card in self.d.discards[name] and card in self.d.dealt[name]:
            return "was discarded to the crib"
        if card in self.d.dealt[name]:
            return "was already laid"
        return f"was never dealt to {name}"

    # -- claims -----------------------------------------------------------------------------------------------

    def claim_now(self, fact: PlayFact, player: str, claimed: int | None, due: int) -> None:
        """A card that earns nothing (over 31, or after the play): judged and credited at once."""
        if claimed is not None:
            self.claimed_by_seat[self.g.seat_of[player]] += claimed
            self.judge(fact, player, claimed, due, lambda: "nothing")
            if not self.totals:
                self.g.credit(self.g.side_of[player], claimed, 0)
        if self.d.calls:
            self.d.credit_calls(player, "play", fact.index)
            self.d.judge_calls(player, "play", fact.index, lambda: self.what(fact, lambda: "nothing"))

    def judge(self, fact: PlayFact, player: str, claimed: int, due: int, detail: Callable[[], str]) -> None:
        if self.totals:
            return
        self.d.judge_claim(
            player, "play", claimed, due, lambda: self.what(fact, detail), event=fact.index
        )

    @staticmethod
    def what(fact: PlayFact, detail: Callable[[], str]) -> str:
        return play_what(format_card(fact.card or 0), detail())

    def finish_pending(self, go: int) -> None:
        """The pending card's series went on (go 0) or closed on it (a go or last-card point)."""
        fact = self.pending
        if fact is None:
            return
        self.pending = None
        self.credit_deferred()
        if not go and not self.d.calls and (fact.claimed is None or fact.claimed == fact.due):
            return  # the common case: nothing more earned, nothing to judge
        player, peg = fact.player, self.pending_peg
        fact.due += go
        if go:
            seat = self.g.seat_of[player]
            self.due_by_seat[seat] += go
            if fact.claimed is None:
                self.claimed_by_seat[seat] += go
            if self.card_claims or self.totals:
                self.g.credit(self.g.side_of[player], 0, go)
            else:
                self.g.credit(self.g.side_of[player], go, go)
        if self.totals:
            return
        assert peg is not None
        is_go = go and any(self.held)  # someone still holds a card: a go, else the last card

        def detail() -> str:
            return play_detail(peg.fifteen, peg.thirty_one, peg.pairs, peg.run, go if is_go else 0,
                               0 if is_go else go)

        if fact.claimed is not None:
            self.judge(fact, player, fact.claimed, fact.due, detail)
        if self.d.calls:
            self.d.judge_calls(player, "play", fact.index, lambda: self.what(fact, detail))

    def close_series(self, *, go_point: bool) -> None:
        go = 0
        if go_point and self.pending is not None and self.count != THIRTY_ONE:
            go = 1
        self.finish_pending(go)
        self.count = 0
        self.series = ()
        self.gone = set()
        assert self.last_layer is not None or not go_point
        after = self.last_layer if self.last_layer is not None else self.d.dealer_seat
        self.leader = _next_holding(self.held, after)
        if self.leader is None or self.single_series:
            self.play_over = True

    def check_unplayed(self) -> None:
        """The log's play ends: anyone still holding a card the rules make them play?"""
        for seat, name in enumerate(self.names):
            if self.single_series:
                must = self.fitting(seat) if self.series and seat not in self.gone else []
            else:
                must = self.held[seat]
            if len(must) > self.kept_back[seat]:
                self.g.find("unplayed", "play", name, unplayed_message(name, [format_card(c) for c in must]))

    def totals_and_facts(self) -> None:
        d, g = self.d, self.g
        seat_of, dues, claims = g.seat_of, self.due_by_seat, self.claimed_by_seat
        if not self.totals:
            for name in d.order_from_pone:
                facts, seat = d.facts[name], seat_of[name]
                facts.pegged_due = dues[seat]
                facts.pegged_claimed = claims[seat]
            return
        pegged = d.deal.pegged or {}
        for name in d.order_from_pone:
            facts, due = d.facts[name], dues[seat_of[name]]
            facts.pegged_due = due
            claimed = pegged.get(name, due)
            facts.pegged_claimed = claimed
            if g.over:
                if name in pegged:
                    g.after_end("play", name, f"{name} pegged {claimed}")
                continue
            d.judge_claim(name, "play", claimed, due, pegged_what)
            g.credit(g.side_of[name], claimed, 0)
            if d.calls:  # calls on a total were taken as its cards were laid; they share what the total missed
                d.judge_calls(name, "play", ANY_EVENT, pegged_what)


def _play_in_order(d: _DealReplay, events: list[PlayEvent]) -> bool:
    """The play of a deal in the common case, walked on local state alone: every card held and laid in turn,
    every go true, every claim right, nobody reaching the target, every card played, no muggins call.

    At the first thing that is not so it returns False, having changed nothing, and :class:`_PlayReplay` walks
    the deal again with every rule; otherwise it leaves the same facts and board that walk would.
    """
    g = d.g
    card_claims = 3 in map(len, events)
    if d.calls or g.over or d.rules.single_series or (not card_claims and d.deal.pegged is not None):
        return False
    n, seat_of, side_of_seat, target = d.n, g.seat_of, g.side_of_seat, g.target
    held = [list(cards) for cards in d.kept_by_seat]
    board, board_due = list(g.board), list(g.board_due)
    due_by_seat, claimed_by_seat = [0] * n, [0] * n
    facts: list[PlayFact] = []
    count, series, gone = 0, (), set()  # type: ignore[var-annotated]
    last = d.dealer_seat
    pending: PlayFact | None = None  # the last card laid, while its series is open

    def close(go: int) -> bool:
        """Close the series on the pending card (``go``: its go point); False when its claim is wrong."""
        assert pending is not None
        if go:
            seat = seat_of[pending.player]
            side = side_of_seat[seat]
            if board_due[side] + go >= target or (not card_claims and board[side] + go >= target):
                return False
            pending.due += go
            due_by_seat[seat] += go
            board_due[side] += go
            if not card_claims:
                claimed_by_seat[seat] += go
                board[side] += go
        return pending.claimed is None or pending.claimed == pending.due

    leader = _next_holding(held, last)
    if leader is None:
        return False
    for index, event in enumerate(events):
        player, text = event[0], event[1]
        seat = seat_of[player]  # type: ignore[index]
        if text == GO:
            facts.append(PlayFact(index, player, None, count, 0, None))  # type: ignore[arg-type]
            if leader is not None and seat not in gone:
                if _fits(held[seat], THIRTY_ONE - count):
                    return False
                gone.add(seat)
            continue
        card = _CARD_OF[text]  # type: ignore[index]
        hand = held[seat]
        if leader is None or card not in hand:
            return False
        room = THIRTY_ONE - count
        if series:
            if _VALUE[card] <= room and seat not in gone:
                # the seat right after the last card's is in turn at once (the common case: no search)
                if seat != (last + 1) % n and _turn_instead(held, gone, last, seat, room) is not None:
                    return False
            else:  # this card starts a new series: the open one must be over, its last card earning the go
                if _someone_can_play(held, gone, room) or not close(1):
                    return False
                count, series, gone, pending = 0, (), set(), None
                leader = _next_holding(held, last)
        if not series and leader != seat:
            return False
        if pending is not None and pending.claimed is not None and pending.claimed != pending.due:
            return False  # the series went on: a go claimed with it was not earned
        hand.remove(card)
        count += _VALUE[card]
        series = (*series, card >> 2)
        last = seat
        entry = _PEG_MEMO.get(series)
        base = (entry if entry is not None else _peg_points(series, count))[0]
        claimed = event[2] if len(event) == 3 else (0 if card_claims else None)
        pending = PlayFact(index, player, card, count, base, claimed)  # type: ignore[arg-type]
        facts.append(pending)
        side = side_of_seat[seat]
        pegs = claimed if card_claims else base
        if board[side] + pegs >= target or board_due[side] + base >= target:  # type: ignore[operator]
            return False
        board[side] += pegs  # type: ignore[operator]
        board_due[side] += base
        due_by_seat[seat] += base
        claimed_by_seat[seat] += base if claimed is None else claimed  # type: ignore[operator]
        if count == THIRTY_ONE:
            if not close(0):
                return False
            count, series, gone, pending = 0, (), set(), None
            leader = _next_holding(held, last)
    if leader is not None:  # the log ends with a series open: it must be over, and every card played
        if not series or _someone_can_play(held, gone, THIRTY_ONE - count):
            return False
        if not close(1) or _next_holding(held, last) is not None:
            return False
    g.board[:], g.board_due[:] = board, board_due
    if g.tell_plays:
        for fact in facts:
            g.visitor.visit_play(fact)
    d.plays.extend(facts)
    for name in d.order_from_pone:
        seat = seat_of[name]
        d.facts[name].pegged_due, d.facts[name].pegged_claimed = due_by_seat[seat], claimed_by_seat[seat]
    return True


def _without(cards: list[Card], removed: list[Card]) -> list[Card]:
    """``cards`` less one copy of each of ``removed`` that it holds, in order."""
    out = list(cards)
    if not removed:
        return out
    for c in removed:
        if c in out:
            out.remove(c)
    return out
