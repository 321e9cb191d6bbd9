"""The play of one deal, replayed on the :class:`~cribstats.play.PlayState`: what each card earned, and what the
log claimed for it.

The state knows the rules (whose turn, what fits, when a series is over, the go point); this walk tells it the
log's events in order, asks it what was legal, and judges every claim. On a clean deal each event takes the short
way through (the card held, in turn and fitting; the claim right): the same walk, without the searches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cribstats.cards import CARD_BY_TEXT, VALUES, Card, format_card
from cribstats.findings import (
    FindingKind,
    false_go_message,
    illegal_card_message,
    out_of_turn_message,
    over_31_message,
    pegged_what,
    play_detail,
    play_what,
    unknown_go_claim_message,
    unplayed_message,
)
from cribstats.gamelog import GO
from cribstats.play import PlayState, peg_score
from cribstats.replay.claims import ANY_EVENT
from cribstats.replay.walk import PlayWalk
from cribstats.scoring import THIRTY_ONE

if TYPE_CHECKING:
    from cribstats.replay.deal import DealReplay


class PlayReplay:
    """The play of one deal: who holds what, the count, the series, whose turn, and what each card earned.

    Claims come card by card (any event carries points), as totals (``pegged``), or not at all (taken as due).
    What each event earned and the count after it are kept by event index (``dues``, ``counts``): no object is
    built per event (:attr:`~cribstats.replay.facts.DealFacts.plays` builds them when asked).
    """

    __slots__ = (
        "after_end_from", "card_claims", "claimed_by_seat", "counts", "d", "deferred", "due_by_seat", "dues",
        "events", "g", "kept_back", "n", "names", "pending", "pending_claimed", "pending_right",
        "single_series", "state", "totals", "walk",
    )

    def __init__(self, d: DealReplay, walk: PlayWalk | None = None) -> None:
        self.d = d
        self.g = d.g
        self.n = n = d.n
        self.names = d.players
        self.single_series = d.rules.single_series
        self.walk = walk
        self.state = walk.state if walk is not None else PlayState(
            d.kept_by_seat, d.dealer_seat, single_series=self.single_series
        )
        self.events = events = d.deal.play or []
        self.card_claims = 3 in map(len, events)  # any event carries points
        self.totals = not self.card_claims and d.deal.pegged is not None
        self.dues = [0] * len(events)  # by event: points due, go or last card included
        self.counts = [0] * len(events)  # by event: the count after it
        self.after_end_from = len(events)  # the first card laid after the game had ended
        self.pending = -1  # the index of the last card laid, while its series may still give it a go (-1: none)
        self.pending_claimed: int | None = None  # what the log claims for the pending card
        self.pending_right = True  # no card pending, or its claim is what it earned so far
        # the part of the pending card's claim beyond what it earned by itself, when that part alone would take its
        # side to the target: it is pegged when the series closes, after the others' goes (game-log.md)
        self.deferred: tuple[int, int] | None = None  # (side, points)
        self.kept_back = [0] * n
        # what each seat's cards earned and claimed, go and last card included (after the end: nothing)
        self.due_by_seat = [0] * n
        self.claimed_by_seat = [0] * n

    # -- the walk ---------------------------------------------------------------------------------------------

    def run(self) -> None:
        g, state = self.g, self.state
        seat_of, card_claims, lay_if_legal = g.seat_of, self.card_claims, state.lay_if_legal
        fast, dues, counts = not self.d.calls, self.dues, self.counts
        no_claim = 0 if card_claims else None
        start = 0
        if self.walk is not None:
            self.take_over(self.walk)
            start = self.walk.stop
        events = self.events
        for index in range(start, len(events)):
            event = events[index]
            player, text = event[0], event[1]
            seat = seat_of[player]
            if text == GO:
                if not g.over and not state.over and state.may_go(seat):
                    state.go(seat)  # the common case of :meth:`go`: a go in its place credits nothing
                    counts[index] = state.count
                else:
                    self.go(index, player)
                continue
            card = CARD_BY_TEXT[text]
            claimed = event[2] if len(event) == 3 else no_claim
            # the short way, for the common case: nothing is called, nothing is held back, the card before it
            # earned what it claimed and the state says the card is legal; else the long way judges it all
            if not (fast and self.pending_right and self.deferred is None and not g.over) or (
                base := lay_if_legal(seat, card)
            ) is None:
                laid = self.before_lay(index, player, seat, card, claimed)
                if laid is None:
                    continue
                base = laid
            dues[index] = base
            counts[index] = count = state.count
            self.pending = index
            self.pending_claimed = claimed
            self.pending_right = claimed is None or claimed == base
            self.credit_laid(seat, base, claimed)
            if count == THIRTY_ONE:
                self.close_series(go_point=True)
        if not g.over and not state.over and state.series and state.series_over:
            self.close_series(go_point=True)  # the log ends with the series: its go is due (it may end the game)
        if not g.over and not state.over:
            self.check_unplayed()
            if state.series and not state.series_over:
                # the log stops while someone still had to play: whether the last card laid earned a go is
                # not known, so its claim is judged only where it is wrong either way, and says so
                self.judge_unknown_go()
                self.pending = -1
                self.pending_right = True
                self.credit_deferred()
        if self.pending >= 0:  # the game over by now ended at or before the last card: its go came after the end
            self.close_series(go_point=not g.over)
        d = self.d
        d.play_events, d.play_dues, d.play_counts = self.events, self.dues, self.counts
        d.play_after_end_from, d.play_claims_by_card = self.after_end_from, card_claims
        self.totals_and_facts()

    def take_over(self, walk: PlayWalk) -> None:
        """Take the play over from the short way: credit and judge the events it took, in order, as the walk
        below would have (the state has taken them already, and is not asked again)."""
        events, dues, counts, closes, walked = self.events, self.dues, self.counts, walk.closes, walk.dues
        seat_of, stop = self.g.seat_of, walk.stop
        no_claim = 0 if self.card_claims else None
        counts[:stop] = walk.counts[:stop]
        left = sum(map(len, self.d.kept_by_seat))  # cards held: a point taken with none left is the last card
        series: tuple[int, ...] = ()
        for index in range(stop):
            event = events[index]
            text = event[1]
            if text == GO:
                continue  # the state has it; a legal go credits nothing
            if self.pending >= 0:  # as :meth:`lay` finishes a card its series went on from
                if not self.pending_right:
                    self.finish_pending(0, series)
                else:
                    self.pending = -1
            go = closes.get(index)
            dues[index] = base = walked[index] - (go or 0)
            claimed = event[2] if len(event) == 3 else no_claim
            self.pending = index
            self.pending_claimed = claimed
            self.pending_right = claimed is None or claimed == base
            series = (*series, CARD_BY_TEXT[text] >> 2)
            self.credit_laid(seat_of[event[0]], base, claimed)
            left -= 1
            if go is not None:
                self.finish_pending(go, series, last_card=left == 0)
                series = ()

    def before_lay(self, index: int, player: str, seat: int, card: Card, claimed: int | None) -> int | None:
        """A card the short way did not take: close the series if it is over (nobody, the card's player
        included, can go on with it), peg a claim held back, then the card after the end, or laid as the
        state allows (its points returned, for the short way to credit), or judged in full by :meth:`lay`."""
        g, state = self.g, self.state
        if state.series and not g.over and not (
            state.fits(card) and seat not in state.gone and card in state.held[seat]
        ) and state.series_over:  # the card cannot go on with the series, nor can anyone: the series closes
            self.close_series(go_point=True)
        if self.deferred is not None:
            self.credit_deferred()  # a card follows: the claim held back is on the board by now
        if g.over:
            self.counts[index] = state.count
            self.after_end_from = min(self.after_end_from, index)
            g.after_end("play", player, f"{player} laid {self.events[index][1]}", event=index)
            return None
        if not self.d.calls and self.pending_right:
            base = state.lay_if_legal(seat, card)
            if base is not None:
                return base
        self.lay(index, player, card, claimed)
        return None

    def credit_laid(self, seat: int, base: int, claimed: int | None) -> None:
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

    def credit_deferred(self) -> None:
        """Peg the go part of a claim held back until its series closed (see ``deferred``)."""
        if self.deferred is not None:
            side, points = self.deferred
            self.deferred = None
            self.g.credit(side, points, 0)

    def go(self, index: int, player: str) -> None:
        seat = self.g.seat_of[player]
        state = self.state
        self.counts[index] = state.count
        if self.g.over or state.over:
            return  # a go after the play or after the end changes nothing
        if not state.may_go(seat):
            fits = state.legal_cards(seat)
            card = format_card(fits[0])
            new_count = state.count + VALUES[fits[0]]
            instead = state.turn_instead(seat)
            if instead is not None:  # said out of turn: a finding, but not a go
                act = f"said go holding {card} ({new_count})"
                message = out_of_turn_message(player, act, self.names[instead])
                self.g.find("out-of-turn", "play", player, message, event=index)
                return
            message = false_go_message(player, state.count, card, new_count)
            self.g.find("false-go", "play", player, message, event=index)
            self.kept_back[seat] += 1
        state.go(seat)

    def lay(self, index: int, player: str, card: Card, claimed: int | None) -> None:
        g, state = self.g, self.state
        seat = g.seat_of[player]
        instead = state.turn_instead(seat)
        if card in state.held[seat]:
            if state.over:
                message = f"{player} laid {format_card(card)} after the play had ended"
                g.find("out-of-turn", "play", player, message, event=index)
        else:
            message = illegal_card_message(player, format_card(card), self.why_not_held(seat, card))
            g.find("illegal-card", "play", player, message, event=index)
            self.kept_back[seat] += 1
        if instead is not None:
            message = out_of_turn_message(player, f"laid {format_card(card)}", self.names[instead])
            g.find("out-of-turn", "play", player, message, event=index)
        if state.over:
            state.remove(seat, card)
            self.counts[index] = state.count
            self.claim_now(index, player, card, claimed)
            return
        if self.pending >= 0:
            if self.d.calls or not self.pending_right:
                self.finish_pending(0, state.series)
            else:
                self.pending = -1  # finish_pending's common case: nothing more earned, nothing to judge
        if not state.fits(card):
            count = state.count
            g.find("over-31", "play", player, over_31_message(player, format_card(card), count), event=index)
            state.lay_over(seat, card)
            self.counts[index] = count + VALUES[card]
            self.claim_now(index, player, card, claimed)
            self.close_series(go_point=False)
            return
        base = state.lay(seat, card)
        self.dues[index] = base
        self.counts[index] = new_count = state.count
        self.pending = index
        self.pending_claimed = claimed
        self.pending_right = claimed is None or claimed == base
        self.credit_laid(seat, base, claimed)
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

    def claim_now(self, index: int, player: str, card: Card, claimed: int | None) -> None:
        """A card that earns nothing (over 31, or after the play): judged and credited at once."""
        if claimed is not None:
            self.claimed_by_seat[self.g.seat_of[player]] += claimed
            self.judge(index, card, player, claimed, 0, lambda: "nothing")
            if not self.totals:
                self.g.credit(self.g.side_of[player], claimed, 0)
        if self.d.calls:
            self.d.credit_calls(player, "play", index)
            self.d.judge_calls(player, "play", index, lambda: self.what(card, lambda: "nothing"))

    def judge(
        self, index: int, card: Card, player: str, claimed: int, due: int, detail: Callable[[], str]
    ) -> None:
        if self.totals:
            return
        self.d.judge_claim(player, "play", claimed, due, lambda: self.what(card, detail), event=index)

    @staticmethod
    def what(card: Card, detail: Callable[[], str]) -> str:
        return play_what(format_card(card), detail())

    def finish_pending(self, go: int, series: tuple[int, ...], *, last_card: bool | None = None) -> None:
        """The pending card's series went on (go 0) or closed on it (a go or last-card point: ``last_card``,
        when not the state's own word, says which); ``series``: the ranks of its series, up to it."""
        index = self.pending
        if index < 0:
            return
        self.pending = -1
        right, self.pending_right = self.pending_right, True
        if self.deferred is not None:
            self.credit_deferred()
        calls = self.d.calls
        if not go and not calls and right:
            return  # the common case: nothing more earned, nothing to judge
        event = self.events[index]
        player, card, claimed = event[0], CARD_BY_TEXT[event[1]], self.pending_claimed
        self.dues[index] = due = self.dues[index] + go
        if go:
            g = self.g
            seat = g.seat_of[player]
            self.due_by_seat[seat] += go
            if claimed is None:
                self.claimed_by_seat[seat] += go
            pegs = 0 if self.card_claims or self.totals else go  # a card's claim holds its go already
            g.credit(g.side_of_seat[seat], pegs, go)
        if self.totals or (not calls and (claimed is None or claimed == due)):
            return  # nothing to judge: no claim, or the claim was right, and no muggins call
        peg = peg_score(series, self.counts[index])
        is_go = go and not (self.state.all_laid if last_card is None else last_card)  # else the last card

        def detail() -> str:
            return play_detail(peg.fifteen, peg.thirty_one, peg.pairs, peg.run, go if is_go else 0,
                               0 if is_go else go)

        if claimed is not None:
            self.judge(index, card, player, claimed, due, detail)
        if self.d.calls:
            self.d.judge_calls(player, "play", index, lambda: self.what(card, detail))

    def close_series(self, *, go_point: bool) -> None:
        state = self.state
        series = state.series  # the pending card's, if a card is pending: the last laid
        go, _ = state.close_series(point=go_point and self.pending >= 0)
        self.finish_pending(go, series)

    def judge_unknown_go(self) -> None:
        """The pending card's claim when whether it earned a go is not known: wrong only below what it earned
        alone or above that and a go (a finding that says so), else not judged."""
        index, claimed = self.pending, self.pending_claimed
        if index < 0 or claimed is None or self.totals:
            return
        earned = self.dues[index]
        if earned <= claimed <= earned + 1:
            return
        due = earned if claimed < earned else earned + 1
        player, card = self.events[index][0], CARD_BY_TEXT[self.events[index][1]]
        peg = peg_score(self.state.series, self.counts[index])
        what = self.what(card, lambda: play_detail(peg.fifteen, peg.thirty_one, peg.pairs, peg.run, 0, 0))
        kind: FindingKind = "missed" if claimed < due else "overclaim"
        self.g.find(kind, "play", player, unknown_go_claim_message(player, claimed, due, what), event=index,
                    claimed=claimed, due=due)

    def check_unplayed(self) -> None:
        """The log's play ends: anyone still holding a card the rules make them play?"""
        state, hand_size = self.state, self.d.rules.hand_size
        for seat, name in enumerate(self.names):
            if len(self.d.kept_by_seat[seat]) != hand_size:
                continue  # a bad deal or discard left the hand the wrong size: that is its finding, not this
            if self.single_series:
                must = state.legal_cards(seat) if state.series and seat not in state.gone else []
            else:
                must = state.held[seat]
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
