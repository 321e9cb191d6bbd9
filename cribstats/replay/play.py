"""The play of one deal: who holds what, the count, the series, whose turn, and what each card earned.

A deal's play with nothing wrong in it (the common case) is walked on local state by :func:`play_in_order`; at the
first thing it cannot vouch for it gives up, having changed nothing, and :class:`PlayReplay` walks the deal with
every rule. The two must agree (``tests/test_audit_property.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING

from cribstats.cards import DECK, Card, format_card, value
from cribstats.findings import (
    false_go_message,
    illegal_card_message,
    out_of_turn_message,
    over_31_message,
    pegged_what,
    play_detail,
    play_what,
    unplayed_message,
)
from cribstats.gamelog import GO, PlayEvent
from cribstats.replay.claims import ANY_EVENT
from cribstats.replay.facts import PlayFact
from cribstats.scoring import THIRTY_ONE, PegScore, peg_points_ranks

if TYPE_CHECKING:
    from cribstats.replay.deal import DealReplay

CARD_OF: dict[str, Card] = {format_card(c): c for c in DECK}
VALUE: tuple[int, ...] = tuple(value(c) for c in DECK)
value_of = VALUE.__getitem__


NO_POINTS = PegScore(0, 0, 0, 0, 0)
# series of ranks recur a great deal: a pure function's memo, bounded, of each series' points and breakdown
PEG_MEMO: dict[tuple[int, ...], tuple[int, PegScore]] = {}
PEG_MEMO_SIZE = 1 << 17


def peg_points(series: tuple[int, ...], count: int) -> tuple[int, PegScore]:
    """:func:`~cribstats.scoring.peg_points_ranks` with its points, remembered (the ranks give the count)."""
    entry = PEG_MEMO.get(series)
    if entry is None:
        if len(PEG_MEMO) >= PEG_MEMO_SIZE:
            PEG_MEMO.clear()
        peg = peg_points_ranks(series, count)
        entry = PEG_MEMO[series] = (peg.points, peg)
    return entry


def any_fits(cards: list[Card], room: int) -> bool:
    """Whether any of ``cards`` can be laid with ``room`` left below 31."""
    return bool(cards) and min(map(value_of, cards)) <= room


def someone_can_play(held: list[list[Card]], gone: set[int], room: int) -> bool:
    """Whether a seat that has not said go holds a card that fits: while so, the series is not over."""
    return any(
        cards and seat not in gone and min(map(value_of, cards)) <= room for seat, cards in enumerate(held)
    )


def next_holding(held: list[list[Card]], after: int) -> int | None:
    """The first seat after ``after`` (round the table) that still holds a card: the next lead; None when none."""
    n = len(held)
    for i in range(1, n + 1):
        seat = (after + i) % n
        if held[seat]:
            return seat
    return None


def turn_instead(held: list[list[Card]], gone: set[int], last: int, seat: int, room: int) -> int | None:
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
        if any_fits(held[s], room):
            return s
    return None


index_of = attrgetter("index")
card_of = CARD_OF.__getitem__


class PlayReplay:
    """The play of one deal: who holds what, the count, the series, whose turn, and what each card earned.

    Claims come card by card (any event carries points), as totals (``pegged``), or not at all (taken as due).
    """

    def __init__(self, d: DealReplay) -> None:
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
        self.leader = next_holding(self.held, d.dealer_seat)
        self.play_over = self.leader is None
        self.pending: PlayFact | None = None  # the last card laid, while its series may still give it a go
        self.pending_peg = NO_POINTS
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
        return [c for c in self.held[seat] if VALUE[c] <= room]

    def whose_turn_instead(self, seat: int) -> int | None:
        """Whose turn it was when ``seat`` acted, or None when it was ``seat``'s own (:func:`turn_instead`)."""
        if self.play_over:
            return None
        if not self.series:
            return None if self.leader in (None, seat) else self.leader
        assert self.last_layer is not None
        return turn_instead(self.held, self.gone, self.last_layer, seat, THIRTY_ONE - self.count)

    def series_is_over(self) -> bool:
        """No one who has not said go holds a card that fits: the series closes."""
        return not someone_can_play(self.held, self.gone, THIRTY_ONE - self.count)

    # -- the walk ---------------------------------------------------------------------------------------------

    def run(self) -> None:
        g = self.g
        seat_of, held, facts, card_claims = g.seat_of, self.held, self.facts, self.card_claims
        for index, event in enumerate(self.events):
            player, text = event[0], event[1]
            if text == GO:
                self.go(index, player)
                continue
            card = CARD_OF[text]
            claimed = event[2] if len(event) == 3 else (0 if card_claims else None)
            if self.series and not g.over:
                # no search when the card about to be laid fits and its player is still in: the series goes on
                seat = seat_of[player]
                goes_on = VALUE[card] <= THIRTY_ONE - self.count and seat not in self.gone and card in held[seat]
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
        facts.sort(key=index_of)
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
            new_count = self.count + VALUE[fits[0]]
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
        new_count = self.count + VALUE[card]
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
        entry = PEG_MEMO.get(series)
        if entry is None:
            entry = peg_points(series, new_count)
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
        self.leader = next_holding(self.held, after)
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


def play_in_order(d: DealReplay, events: list[PlayEvent]) -> bool:
    """The play of a deal in the common case, walked on local state alone: every card held and laid in turn,
    every go true, every claim right, nobody reaching the target, every card played, no muggins call.

    At the first thing that is not so it returns False, having changed nothing, and :class:`PlayReplay` walks
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

    leader = next_holding(held, last)
    if leader is None:
        return False
    for index, event in enumerate(events):
        player, text = event[0], event[1]
        seat = seat_of[player]  # type: ignore[index]
        if text == GO:
            facts.append(PlayFact(index, player, None, count, 0, None))  # type: ignore[arg-type]
            if leader is not None and seat not in gone:
                if any_fits(held[seat], THIRTY_ONE - count):
                    return False
                gone.add(seat)
            continue
        card = CARD_OF[text]  # type: ignore[index]
        hand = held[seat]
        if leader is None or card not in hand:
            return False
        room = THIRTY_ONE - count
        if series:
            if VALUE[card] <= room and seat not in gone:
                # the seat right after the last card's is in turn at once (the common case: no search)
                if seat != (last + 1) % n and turn_instead(held, gone, last, seat, room) is not None:
                    return False
            else:  # this card starts a new series: the open one must be over, its last card earning the go
                if someone_can_play(held, gone, room) or not close(1):
                    return False
                count, series, gone, pending = 0, (), set(), None
                leader = next_holding(held, last)
        if not series and leader != seat:
            return False
        if pending is not None and pending.claimed is not None and pending.claimed != pending.due:
            return False  # the series went on: a go claimed with it was not earned
        hand.remove(card)
        count += VALUE[card]
        series = (*series, card >> 2)
        last = seat
        entry = PEG_MEMO.get(series)
        base = (entry if entry is not None else peg_points(series, count))[0]
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
            leader = next_holding(held, last)
    if leader is not None:  # the log ends with a series open: it must be over, and every card played
        if not series or someone_can_play(held, gone, THIRTY_ONE - count):
            return False
        if not close(1) or next_holding(held, last) is not None:
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
