"""The play of one deal as a state, in the manner of python-chess's ``Board``: the one place the play's rules live.

A :class:`PlayState` holds the cards still held, the count, the series (the ranks laid since the count was last
0), who has said go, and who laid last. It answers whose turn it is, which cards may be laid, whether a player
must say go and whether the series is over; :meth:`PlayState.lay` returns the points a card earns and
:meth:`PlayState.close_series` the go or last-card point and who takes it. The variants' differences are data on
it: five-card's single series (``single_series``), and partners, who are simply seats (sides are the caller's).

The replay judges a log's claims against it, the simulator plays on it, and ``show``'s view reads the facts the
replay builds from it.

>>> from cribstats.cards import format_card, parse_card, parse_cards
>>> state = PlayState([parse_cards("5S 4S"), parse_cards("JH 7C")], dealer=0)
>>> state.turn(), [format_card(c) for c in state.legal_cards(1)]
(1, ['JH', '7C'])
>>> state.lay(1, parse_card("JH")), state.lay(0, parse_card("5S")), state.count
(0, 2, 15)
>>> state.lay(1, parse_card("7C")), state.must_go(0), state.series_over
(0, False, False)
>>> state.lay(0, parse_card("4S")), state.series_over, state.close_series()
(0, True, (1, 0))
>>> state.over
True
"""

from __future__ import annotations

from collections.abc import Sequence

from cribstats.cards import DECK, VALUES, Card, Rank, rank
from cribstats.pegging import PegScore, peg_parts, peg_points_ranks
from cribstats.scoring import THIRTY_ONE

__all__ = ["VALUE", "PlayState", "peg_points", "peg_score"]

VALUE = VALUES  # the counting value of each card, by card (:data:`cribstats.cards.VALUES`)

# each card's rank as a series of one, to lengthen a series by (one tuple made, not a list and a tuple)
_ALONE: tuple[tuple[Rank], ...] = tuple((rank(c),) for c in DECK)

# series of ranks recur a great deal: a pure function's memo, bounded, of the points of each series' last card
_PEG_MEMO: dict[tuple[Rank, ...], int] = {}
_PEG_MEMO_SIZE = 1 << 17


def _peg_entry(series: tuple[Rank, ...], count: int) -> int:
    if len(_PEG_MEMO) >= _PEG_MEMO_SIZE:
        _PEG_MEMO.clear()
    points = _PEG_MEMO[series] = sum(peg_parts(series, count))
    return points


def peg_points(series: tuple[Rank, ...], count: int) -> int:
    """The points of the last card of a series given by its ranks (``count`` is theirs), remembered."""
    points = _PEG_MEMO.get(series)
    return points if points is not None else _peg_entry(series, count)


def peg_score(series: tuple[Rank, ...], count: int) -> PegScore:
    """:func:`peg_points` with its breakdown: fifteen, thirty-one, pairs and run."""
    return peg_points_ranks(series, count)


class PlayState:
    """One deal's play: cards held by seat, the count, the series, who said go, who laid last.

    ``hands`` are the cards each seat kept, in seat order; ``dealer`` is the dealer's seat, whose left-hand
    player (the next seat holding a card) leads. The state trusts what it is told: :meth:`lay` lays a card that
    is not held or not in turn as well (a replay of a broken log asks it to); the questions say what was legal.
    """

    __slots__ = ("count", "gone", "held", "last", "leader", "n", "over", "series", "single_series")

    def __init__(self, hands: Sequence[Sequence[Card]], dealer: int, *, single_series: bool = False) -> None:
        self.held: list[list[Card]] = list(map(list, hands))
        self.n = len(self.held)
        self.single_series = single_series
        self.count = 0
        self.series: tuple[Rank, ...] = ()
        self.gone: set[int] = set()
        #: the seat that laid the last card (the dealer before the first card)
        self.last = dealer
        #: who leads the open series: the first seat after the last card's that holds a card
        self.leader = self.next_holding(dealer)
        #: the play is over: every card laid, or five-card's one series closed
        self.over = self.leader is None

    # -- questions --------------------------------------------------------------------------------------------

    @property
    def room(self) -> int:
        """How far the count is below 31."""
        return THIRTY_ONE - self.count

    def fits(self, card: Card) -> bool:
        """Whether ``card`` can be laid on the count."""
        return VALUE[card] <= THIRTY_ONE - self.count

    def legal_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds that fit on the count, in the order held (none once the play is over)."""
        if self.over:
            return []
        room = THIRTY_ONE - self.count
        return [c for c in self.held[seat] if VALUE[c] <= room]

    def can_lay(self, seat: int) -> bool:
        """Whether ``seat`` holds a card that fits."""
        cards = self.held[seat]
        return bool(cards) and min(map(VALUE.__getitem__, cards)) <= THIRTY_ONE - self.count

    def must_go(self, seat: int) -> bool:
        """Whether ``seat``, holding cards, holds none that fits: it must say go."""
        return not self.over and bool(self.held[seat]) and not self.can_lay(seat)

    def may_go(self, seat: int) -> bool:
        """Whether ``seat`` may say go: it said go already, or holds no card that fits (else the go is false)."""
        return seat in self.gone or not self.can_lay(seat)

    @property
    def series_over(self) -> bool:
        """No one who has not said go holds a card that fits: the series closes (31 closes it at once)."""
        room = THIRTY_ONE - self.count
        gone = self.gone
        for seat, cards in enumerate(self.held):
            if seat not in gone:
                for card in cards:
                    if VALUE[card] <= room:
                        return False
        return True

    def turn(self) -> int | None:
        """Whose turn it is to act (lay a card, or say go): the first seat after the last card's that holds a
        card and has not said go; None once the play is over or nobody can act."""
        if self.over:
            return None
        n, held, gone = self.n, self.held, self.gone
        for i in range(1, n + 1):
            seat = (self.last + i) % n
            if held[seat] and seat not in gone:
                return seat
        return None

    def turn_instead(self, seat: int) -> int | None:
        """Whose turn it was when ``seat`` acted, or None when it was ``seat``'s own.

        In an open series the players after the last card's who hold no card that fits have said go, whatever
        a log says; a new series is the leader's, unless the leader has said go (a false go on the lead counts as
        a go): then it passes on round the table as a go passes the turn.
        """
        if self.over:
            return None
        n, held, gone, room = self.n, self.held, self.gone, THIRTY_ONE - self.count
        if not self.series:
            leader = self.leader
            if leader is None or leader == seat:
                return None
            if leader not in gone:
                return leader
            s = leader  # every card fits on a count of 0: the next seat holding one that has not said go leads
            for _ in range(n - 1):
                s = s + 1 if s + 1 < n else 0
                if s in gone:
                    continue
                if s == seat:
                    return None
                if held[s]:
                    return s
            return None
        s = self.last
        for _ in range(n):
            s = s + 1 if s + 1 < n else 0
            if s in gone:
                continue
            if s == seat:
                return None
            cards = held[s]
            if cards and min(map(VALUE.__getitem__, cards)) <= room:
                return s
        return None

    def next_holding(self, after: int) -> int | None:
        """The first seat after ``after`` (round the table) that still holds a card; None when none does."""
        n, held = self.n, self.held
        seat = (after + 1) % n
        if held[seat]:  # most often the very next seat
            return seat
        for i in range(2, n + 1):
            seat = (after + i) % n
            if held[seat]:
                return seat
        return None

    def others_in(self, seat: int) -> bool:
        """Whether a seat other than ``seat`` holds a card and has not said go (so ``seat`` passing, by a go, hands
        the turn on rather than ending the series)."""
        gone = self.gone
        return any(s != seat and cards and s not in gone for s, cards in enumerate(self.held))

    # -- moves ------------------------------------------------------------------------------------------------

    def lay(self, seat: int, card: Card) -> int:
        """``seat`` lays ``card`` on the count: the points it earns by itself (fifteen, 31, pairs, run).

        The card leaves the hand if held. A card that does not fit is :meth:`lay_over` instead.
        """
        hand = self.held[seat]
        if card in hand:  # a card not held is laid all the same (the replay has said so)
            hand.remove(card)
        self.count = count = self.count + VALUE[card]
        self.series = series = self.series + _ALONE[card]
        self.last = seat
        points = _PEG_MEMO.get(series)
        return points if points is not None else _peg_entry(series, count)

    def lay_if_legal(self, seat: int, card: Card) -> int | None:
        """:meth:`lay` when it is legal (the play goes on, ``seat`` has not said go, holds ``card``, it fits and it
        is ``seat``'s turn): the points it earns; None, with nothing changed, when it is not."""
        if self.over or seat in self.gone:
            return None
        hand = self.held[seat]
        count = self.count + VALUE[card]
        if count > THIRTY_ONE or card not in hand:
            return None
        series = self.series
        if series:  # the seat after the last card's is in turn at once; else ask who was
            if seat != (self.last + 1) % self.n and self.turn_instead(seat) is not None:
                return None
        elif seat != self.leader:
            return None
        hand.remove(card)
        self.count = count
        self.series = series = series + _ALONE[card]
        self.last = seat
        points = _PEG_MEMO.get(series)
        return points if points is not None else _peg_entry(series, count)

    def lay_over(self, seat: int, card: Card) -> None:
        """``seat`` lays ``card`` past 31: it counts for nothing and ends the series (with no go point)."""
        hand = self.held[seat]
        if card in hand:
            hand.remove(card)
        self.last = seat

    def remove(self, seat: int, card: Card) -> None:
        """``card`` leaves ``seat``'s hand without being counted (laid after the play was over)."""
        hand = self.held[seat]
        if card in hand:
            hand.remove(card)

    def go(self, seat: int) -> None:
        """``seat`` says go: it lays no more in this series."""
        self.gone.add(seat)

    def close_series(self, *, point: bool = True) -> tuple[int, int]:
        """Close the series: the go or last-card point (0 at 31, or with ``point`` False) and the seat that takes
        it (the last to lay). The count goes back to 0 and the next seat holding a card leads, unless the play is
        over (every card laid, or the variant plays one series)."""
        earned = 1 if point and self.series and self.count != THIRTY_ONE else 0
        taker = self.last
        self.count = 0
        self.series = ()
        self.gone = set()
        self.leader = self.next_holding(taker)
        if self.leader is None or self.single_series:
            self.over = True
        return earned, taker

    @property
    def all_laid(self) -> bool:
        """Every card has been laid: a point taken now is for the last card, not a go."""
        return not any(self.held)
