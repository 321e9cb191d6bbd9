"""One deal: the deal checks, his heels, the play (see :mod:`~cribstats.replay.play`), the show and the board."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from cribstats.cards import CARD_BY_TEXT, Card, format_card
from cribstats.findings import (
    board_message,
    counted,
    crib_card_message,
    dealer_rotation_message,
    dealt_count_message,
    discard_count_message,
    discard_not_dealt_message,
    duplicate_card_message,
    heels_what,
    muggins_heels_message,
    show_what,
    unjudged_show_message,
)
from cribstats.replay.claims import NEVER, Claims
from cribstats.replay.facts import DealFacts, PlayerDealFacts, ShowFact, ShowPhase
from cribstats.replay.play import PlayReplay
from cribstats.replay.walk import PlayWalk
from cribstats.scoring import heels_points, score_show_total
from cribstats.variants import CRIB_SIZE, seat_after

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyDeal
    from cribstats.replay.game import GameReplay

#: a deal's cards as the short way read them, by seat: dealt, discarded and kept
SeatCards = tuple[list[tuple[Card, ...]], list[tuple[Card, ...]], list[list[Card]]]


class DealReplay(Claims):
    """One deal: deal checks, his heels, the play, the show and the board."""

    def __init__(self, g: GameReplay, deal: AnyDeal, number: int, previous_dealer: str | None,
                 cards: SeatCards | None = None) -> None:
        """``cards``: the deal's cards as the short way read them; it reads only a clean deal (the dealer in turn,
        every hand and discard of its size, the discards dealt, no card twice), so the deal checks pass unmade."""
        self.g = g
        self.deal = deal
        self.number = number
        self.previous_dealer = previous_dealer
        self.rules = g.rules
        self.players = players = g.players
        self.n = len(players)
        #: the seat with the dealer's part this deal: the crib, his heels, the last to play and to count
        self.dealer_seat = dealer_seat = self.dealer_part(deal)
        self.crib_holder = players[dealer_seat]
        self.order_from_pone = g.order_from[dealer_seat]
        self.starter = CARD_BY_TEXT[deal.starter]
        self.read_clean = cards is not None
        self.dealt: dict[str, tuple[Card, ...]] = {}
        self.discards: dict[str, tuple[Card, ...]] = {}
        self.kept: dict[str, list[Card]] = {}
        self.kept_by_seat: list[list[Card]] = []
        self.facts: dict[str, PlayerDealFacts] = {}
        card_of = CARD_BY_TEXT.__getitem__
        hands, discards = deal.hands, deal.discards
        for seat, p in enumerate(players):
            if cards is not None:
                dealt, out, kept = cards[0][seat], cards[1][seat], cards[2][seat]
            else:
                dealt = tuple(map(card_of, hands.get(p, ())))
                out = tuple(map(card_of, discards.get(p, ())))
                kept = without(dealt, out)
            self.dealt[p], self.discards[p], self.kept[p] = dealt, out, kept
            self.kept_by_seat.append(kept)
            self.facts[p] = PlayerDealFacts(
                p, seat, "dealer" if seat == dealer_seat else "pone", dealt, out,
                None, None, None, None, None, None,  # pegged, hand and crib: due and claimed, filled in below
            )
        # the play, by event (see DealFacts): filled in by the play's replay
        self.play_events: Sequence[Sequence[Any]] = ()
        self.play_dues: list[int] = []
        self.play_counts: list[int] = []
        self.play_after_end_from = 0
        self.play_claims_by_card = False
        self.shows: list[ShowFact] = []
        self.calls = deal.muggins or ()
        self.missed_left: dict[tuple[str, str, int | None], int] = {}

    def dealer_part(self, deal: AnyDeal) -> int:
        """The seat that takes the dealer's part this deal (the crib, his heels, showing last; the other leads):
        the bid winner's when the deal has a bid, else the dealer's. Everything that follows reads ``dealer_seat``
        and ``crib_holder``."""
        return self.g.seat_of[deal.bid.player if deal.bid is not None else deal.dealer]

    def run(self, walk: PlayWalk | None = None) -> DealFacts:
        """Replay the deal; ``walk``: its play as far as the short way took it, taken over from there."""
        g = self.g
        bonus = self.rules.first_deal_bonus
        if self.number == 1 and bonus and not g.over:
            # five-card's three for last is scored before the deal: reaching the target, it ends the game before a
            # card is dealt, and the whole deal comes after the end
            g.credit(g.side_of[self.order_from_pone[0]], bonus, bonus)
        after_end = g.over
        if after_end:
            g.after_end("deal", None, "a whole deal")
        else:
            if not self.read_clean:
                self.check_deal()
            if self.deal.bid is not None:  # the bid is taken off the bidder's score at once, before the cut
                g.credit(g.side_of[self.deal.bid.player], -self.deal.bid.points, -self.deal.bid.points)
            self.heels()
            self.play(walk)
            self.show()
            self.check_board()
        g.after_end_reported = False  # the next deal may tell of the end again
        return DealFacts(
            self.number, self.deal.dealer, self.starter, not after_end and not g.over, after_end,
            [*self.facts.values()], self.shows, g.scores_by_player(g.board) if g.board_known else {},
            g.scores_due(),
            self.play_events, self.play_dues, self.play_counts, self.play_after_end_from, self.play_claims_by_card,
        )

    # -- the deal ---------------------------------------------------------------------------------------------

    def deal_is_clean(self) -> bool:
        """The common case, checked at once: the dealer in turn, every count right, no card twice."""
        g, deal, rules = self.g, self.deal, self.rules
        previous = self.previous_dealer
        if previous is not None and deal.dealer != g.players[seat_after(g.seat_of[previous], self.n)]:
            return False
        crib_text = deal.crib_card
        if (crib_text is None) != (rules.crib_from_deck == 0):
            return False
        dealt_size, crib_size = rules.dealt, rules.to_crib
        for dealt, out, kept in zip(self.dealt.values(), self.discards.values(), self.kept_by_seat, strict=True):
            # every discard was dealt when each one took a card out of the hand
            if len(dealt) != dealt_size or len(out) != crib_size or len(kept) != dealt_size - crib_size:
                return False
        # every hand is a player's, of the size counted above
        return no_card_twice(deal, deal.hands.values(), self.n * dealt_size)

    def check_deal(self) -> None:
        if self.deal_is_clean():
            return
        g, deal, rules = self.g, self.deal, self.rules
        if self.previous_dealer is not None:
            expected = self.players[seat_after(g.seat_of[self.previous_dealer], self.n)]
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
            c = CARD_BY_TEXT[deal.crib_card]
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
        g, dealer = self.g, self.crib_holder
        due = heels_points(self.starter)
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

    # -- the play ---------------------------------------------------------------------------------------------

    def play(self, walk: PlayWalk | None = None) -> None:
        deal = self.deal
        if deal.play is None:
            self.play_totals_only()
        else:
            PlayReplay(self, walk).run()

    def play_totals_only(self) -> None:
        """A deal without ``play``: pegging totals are credited but cannot be judged; without them, nothing. What
        the play was due cannot be known either way, so neither can the board as due from here on."""
        g, deal = self.g, self.deal
        if not g.over:  # after the end (his heels ended it) a missing play is no gap: nothing there counts
            g.due_known = False
        if deal.pegged is None:
            if not g.over:
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
            crib.append(CARD_BY_TEXT[self.deal.crib_card])
        self.count_show(self.crib_holder, "crib", crib, claims.get("crib"))
        self.g.place_at = NEVER

    def count_show(self, player: str, phase: ShowPhase, cards: list[Card], claimed: int | None) -> None:
        g = self.g
        g.place_at = len(self.shows)  # its findings come right after it
        if g.over:
            if claimed is not None:
                g.after_end(phase, player, f"{player} claimed {claimed} for the {phase}")
            if self.calls:
                for call in self.calls_for(phase, None, player):
                    g.after_end(phase, call.by, f"{call.by} called muggins on {player}'s {phase}")
            return
        crib = phase == "crib"
        size = CRIB_SIZE if crib else self.rules.hand_size
        if len(cards) != size or len({self.starter, *cards}) != size + 1:
            # a bad deal (the wrong number of cards, or a card in it twice, the starter included) makes this claim
            # impossible to judge: credit it as claimed, and say so
            if claimed is not None:
                shown = show_what(phase, [format_card(c) for c in cards], self.deal.starter)
                why = self.unjudged_why(cards, size)
                g.find("bad-deal", "deal", player, unjudged_show_message(player, claimed, shown, why), stage=phase,
                       at=len(self.shows) - 1)  # right after the show before it: this one has none
                g.credit(g.side_of[player], claimed, 0)
            return
        due = score_show_total(cards, self.starter, crib=crib)
        claim = due if claimed is None else claimed
        facts = self.facts[player]
        if crib:
            facts.crib_due, facts.crib_claimed = due, claim
        else:
            facts.hand_due, facts.hand_claimed = due, claim
        fact = ShowFact(player, phase, tuple(cards), self.starter, due, claim)
        self.shows.append(fact)
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

    def unjudged_why(self, cards: list[Card], size: int) -> str:
        """Why a hand or crib cannot be counted: its size, or the first card in it twice (the starter taken)."""
        if len(cards) != size:
            return f"it holds {counted(len(cards), 'card')}, not {size}"
        seen = {self.starter}
        for card in cards:
            if card in seen:
                return f"{format_card(card)} is in it twice, the starter taken"
            seen.add(card)
        return "it holds a card twice"  # (not reached: the caller found one)

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
        board = g.board
        if g.board_as_recorded(recorded, g.scores_by_player(board)):
            return
        for p in g.board_off(recorded, board):
            position = board[g.side(p)]
            g.find("board", "deal", p, board_message(p, self.number, recorded[p], position),
                   claimed=recorded[p], due=position, stage="board")
        g.note_board(recorded, board)


def no_card_twice(deal: AnyDeal, hands: Iterable[Iterable[str]], dealt: int) -> bool:
    """No card is in the deal twice, by the cards' texts (one text a card): the starter, the crib's card from the
    deck if there is one, and ``hands``, ``dealt`` cards in all, are all different."""
    seen = {deal.starter}.union(*hands)
    if deal.crib_card is not None:
        seen.add(deal.crib_card)
    return len(seen) == dealt + 1 + (deal.crib_card is not None)


def without(cards: Sequence[Card], removed: Sequence[Card]) -> list[Card]:
    """``cards`` less one copy of each of ``removed`` that it holds, in order."""
    out = list(cards)
    for c in removed:
        if c in out:
            out.remove(c)
    return out
