"""The short way through a deal: as far as the deal is clean, every card legal, every claim right, no call.

Most deals of most logs are clean. :func:`walk_deal` walks one on the same :class:`~cribstats.play.PlayState` as
every other deal, without touching the game's replay while the deal stays clean, and credits it at once at the
end. At the first thing that is not clean (a card the state refuses, a claim not what is due, a board off, a
side reaching the target) it hands the deal over to :class:`~cribstats.replay.deal.DealReplay` with what it has
done: the cards read, and the play's state after the events it took, with what each earned
(:class:`~cribstats.replay.walk.PlayWalk`); the full replay credits and judges those events and goes on from
there. So each deal is walked once. A deal the short way does not take at all (a muggins call, a bid, a
first-deal bonus, ``pegged`` totals, no play, the dealer out of turn, the game over, the board unknown, a
recorded board at the target) goes to the full replay before anything is read.
``tests/test_replay_short_way.py`` holds the two ways equal on games with mistakes of every kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from operator import add, ge
from typing import TYPE_CHECKING, Any

from cribstats.cards import CARD_BY_TEXT, Card
from cribstats.gamelog import GO
from cribstats.play import PlayState
from cribstats.replay.deal import DealReplay, SeatCards, no_card_twice
from cribstats.replay.facts import DealFacts, PlayerDealFacts, ShowFact
from cribstats.replay.walk import PlayWalk
from cribstats.scoring import THIRTY_ONE, heels_points, score_show_total
from cribstats.variants import CRIB_SIZE, seat_after

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyDeal
    from cribstats.replay.game import GameReplay

#: what a play event lays, by its text: the card, or None for a go (a validated log holds no other text)
CARD_OR_GO: dict[str, Card | None] = {**CARD_BY_TEXT, GO: None}


def walk_deal(g: GameReplay, deal: AnyDeal, number: int, previous_dealer: str | None) -> DealFacts | None:
    """Replay a deal and credit it to ``g``, the short way as far as it is clean; None, with ``g`` untouched
    and nothing read, for a deal the short way does not take (the full replay then takes it from the start)."""
    if deal.muggins or deal.bid is not None or g.over or not g.board_known or deal.pegged is not None:
        return None
    events = deal.play
    rules = g.rules
    if events is None or (number == 1 and rules.first_deal_bonus):
        return None
    players, seat_of = g.players, g.seat_of
    n = len(players)
    dealer_seat = seat_of[deal.dealer]
    if previous_dealer is not None and dealer_seat != seat_after(seat_of[previous_dealer], n):
        return None
    crib_text = deal.crib_card
    if (crib_text is None) != (rules.crib_from_deck == 0):
        return None
    recorded = deal.scores
    if recorded and max(recorded.values()) >= g.target:
        return None  # by its board the game ends in this deal: the full replay, which ends it, walks it all

    # the deal, read by its texts: every hand and discard of the right size, the discards dealt, no card twice
    hands, discards = deal.hands, deal.discards
    dealt_size, crib_size = rules.dealt, rules.to_crib
    kept_size = dealt_size - crib_size
    card_of = CARD_BY_TEXT.__getitem__
    dealt_texts: list[list[str]] = []
    out_texts: list[list[str]] = []
    crib: list[Card] = []
    kept_by_seat: list[list[Card]] = []
    for p in players:
        dealt_t, out_t = hands.get(p), discards.get(p)
        if dealt_t is None or out_t is None or len(dealt_t) != dealt_size or len(out_t) != crib_size:
            return None
        kept_t = list(dealt_t)
        try:
            for t in out_t:
                kept_t.remove(t)
        except ValueError:
            return None  # a discard not dealt (a card dealt twice: below)
        dealt_texts.append(dealt_t)
        out_texts.append(out_t)
        kept_by_seat.append(list(map(card_of, kept_t)))
        crib += map(card_of, out_t)  # in seat order
    if crib_text is not None:
        crib.append(card_of(crib_text))
    if not no_card_twice(deal, dealt_texts, n * dealt_size) or len(crib) != CRIB_SIZE or (
        rules.hand_size != kept_size
    ):
        return None
    starter = card_of(deal.starter)

    # his heels
    heels_due = heels_points(starter)
    target = g.target
    side_of_seat = g.side_of_seat
    dealer_side = side_of_seat[dealer_seat]
    if (deal.heels is not None and deal.heels != heels_due) or (
        heels_due and max(g.board[dealer_side], g.board_due[dealer_side]) + heels_due >= target
    ):
        return DealReplay(g, deal, number, previous_dealer, seat_cards(dealt_texts, out_texts, kept_by_seat)).run()

    # the play: the state takes every card and go while each is legal; a side's points reaching the target, or a
    # claim that does that, hands the play over right after the card (the full replay ends the game on it)
    by_card = 3 in map(len, events)  # any event carries points: every card claims (0 when it carries none)
    claims = [e[2] if len(e) == 3 else 0 for e in events] if by_card else None
    board, board_due = g.board, g.board_due
    lead = max(max(board), max(board_due)) + heels_due  # no side is further on, by its board as claimed or due
    size = len(events)
    watch = claims is None  # without card claims a side's points peg as they are due: watch them reach the target
    room: list[int] = []  # how far each side is from the target, once it may be reached in the deal
    pegged: list[int] = []  # the play's points of each side so far, while watched
    ends_at: int | None = None  # the event after a claim that reaches the target, if one does: the walk stops
    if watch or lead + sum(claims or ()) >= target:
        room = target_room(g, dealer_side, heels_due)
        pegged = [0] * len(room)
        if claims is not None:
            for index, e in enumerate(events):
                if len(e) == 3:
                    side = side_of_seat[seat_of[e[0]]]
                    pegged[side] += e[2]
                    if pegged[side] >= room[side]:
                        ends_at = index + 1
                        break
            pegged = [0] * len(room)
    state = PlayState(kept_by_seat, dealer_seat, single_series=rules.single_series)
    lay_if_legal = state.lay_if_legal
    dues = [0] * size
    counts = [0] * size
    closes: dict[int, int] = {}
    by_seat = [0] * n  # the deal's points of each seat (his heels apart)
    card_or_go = CARD_OR_GO
    last = -1  # the index of the last card laid
    index = -1
    for event in events if ends_at is None else events[:ends_at]:
        index += 1
        seat = seat_of[event[0]]
        card = card_or_go[event[1]]  # None for a go
        if card is None:
            if state.over or not state.may_go(seat):
                return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,
                                 PlayWalk(state, index, dues, counts, closes))
            state.go(seat)
            counts[index] = state.count
            continue
        base = lay_if_legal(seat, card)
        if base is None:
            if not (state.series and state.series_over):
                return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,
                                 PlayWalk(state, index, dues, counts, closes))
            go, taker = _close_series(state, last, dues, closes, by_seat)  # nobody can go on: the go
            if watch:
                side = side_of_seat[taker]
                pegged[side] += go
            if (watch and pegged[side] >= room[side]) or (base := lay_if_legal(seat, card)) is None:
                return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,
                                 PlayWalk(state, index, dues, counts, closes))
        dues[index] = base
        counts[index] = count = state.count
        last = index
        by_seat[seat] += base
        if count == THIRTY_ONE:
            state.close_series()  # 31 closes the series with no go point (the 2 for it are in ``base``)
            closes[index] = 0
        if watch:
            side = side_of_seat[seat]
            pegged[side] += base
            if pegged[side] >= room[side]:
                return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,
                                 PlayWalk(state, index + 1, dues, counts, closes))
    if ends_at is not None:
        return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,
                         PlayWalk(state, ends_at, dues, counts, closes))
    if not state.over:
        if state.series and state.series_over:
            go, taker = _close_series(state, last, dues, closes, by_seat)  # the last card
            if watch:
                side = side_of_seat[taker]
                pegged[side] += go
        if not state.over or (watch and pegged[side] >= room[side]):  # cards the rules make someone play are
            return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,  # left
                             PlayWalk(state, size, dues, counts, closes))
    if claims is not None and claims != dues:  # a claim is wrong
        return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,
                         PlayWalk(state, size, dues, counts, closes))

    # the show: the hands from the pone round to the dealer, then the crib; every claim right; points only add
    # up, so no side reaching the target by the end of the deal reached it within it
    show_claims = deal.show or {}
    hand_due = [0] * n
    for seat in g.seat_order_from[dealer_seat]:
        due = hand_due[seat] = score_show_total(kept_by_seat[seat], starter)
        claimed = show_claims.get(players[seat])
        if claimed is not None and claimed != due:
            break
        by_seat[seat] += due
    else:
        crib_due = score_show_total(crib, starter, crib=True)
        claimed = show_claims.get("crib")
        if claimed is None or claimed == crib_due:
            by_seat[dealer_seat] += crib_due
            points = by_seat if g.seat_is_side else by_side(g, by_seat)
            if lead + max(points) < target or not any(
                map(ge, points, room or target_room(g, dealer_side, heels_due))
            ):
                points[dealer_side] += heels_due  # (the deal's own list: by_seat is not read again)
                after = list(map(add, board, points))
                scores_after = g.scores_by_player(after)
                if board_agrees(g, deal, after, scores_after):
                    board[:] = after
                    board_due[:] = map(add, board_due, points)
                    build = partial(
                        clean_deal_facts, g, dealer_seat, starter, dealt_texts, out_texts, kept_by_seat, crib,
                        dues, events, hand_due, crib_due, heels_due,
                    )
                    return DealFacts(
                        number, deal.dealer, starter, True, False, None, None, scores_after,
                        g.scores_due(), events, dues, counts, size, by_card, _build=build,
                    )
    return hand_over(g, deal, number, previous_dealer, dealt_texts, out_texts, kept_by_seat,
                     PlayWalk(state, size, dues, counts, closes))


def target_room(g: GameReplay, dealer_side: int, heels_due: int) -> list[int]:
    """How far each side is from the target, by its board as claimed or as due (whichever is further on), his
    heels taken."""
    room = [g.target - max(claimed, due) for claimed, due in zip(g.board, g.board_due, strict=True)]
    room[dealer_side] -= heels_due
    return room


def by_side(g: GameReplay, by_seat: list[int]) -> list[int]:
    """Points by seat added up by side (partners share one)."""
    points = [0] * g.sides
    for seat, p in enumerate(by_seat):
        points[g.side_of_seat[seat]] += p
    return points


def board_agrees(g: GameReplay, deal: AnyDeal, after: list[int], scores_after: dict[str, int]) -> bool:
    """The recorded board after the deal is the board as claimed (``after``, by player ``scores_after``), off by
    no more than it was (and note how far off it is)."""
    recorded = deal.scores
    if recorded is None:
        return True
    if g.board_as_recorded(recorded, scores_after):
        return True  # the board as recorded, and never off before: nothing off, nothing more to note
    if g.board_off(recorded, after):
        return False
    g.note_board(recorded, after)
    return True


def seat_cards(dealt_texts: list[list[str]], out_texts: list[list[str]], kept_by_seat: list[list[Card]]
               ) -> SeatCards:
    """The deal's cards by seat, for the full replay to take over with."""
    card_of = CARD_BY_TEXT.__getitem__
    return (
        [tuple(map(card_of, texts)) for texts in dealt_texts],
        [tuple(map(card_of, texts)) for texts in out_texts],
        kept_by_seat,
    )


def hand_over(
    g: GameReplay, deal: AnyDeal, number: int, previous_dealer: str | None, dealt_texts: list[list[str]],
    out_texts: list[list[str]], kept_by_seat: list[list[Card]], walk: PlayWalk,
) -> DealFacts:
    """The full replay takes the deal over: its cards as read, his heels right, the play as far as ``walk``."""
    cards = seat_cards(dealt_texts, out_texts, kept_by_seat)
    return DealReplay(g, deal, number, previous_dealer, cards).run(walk)


def _close_series(state: PlayState, last: int, dues: list[int], closes: dict[int, int],
                  by_seat: list[int]) -> tuple[int, int]:
    """Close the open series: its go or last-card point goes to the last card laid (event ``last``) and to the
    seat that laid it; the point and the seat."""
    go, taker = state.close_series()
    dues[last] += go
    closes[last] = go
    by_seat[taker] += go
    return go, taker


def clean_deal_facts(
    g: GameReplay, dealer_seat: int, starter: Card, dealt_texts: list[list[str]], out_texts: list[list[str]],
    kept_by_seat: list[list[Card]], crib: list[Card], dues: list[int], events: Sequence[Sequence[Any]],
    hand_due: list[int], crib_due: int, heels_due: int,
) -> tuple[list[PlayerDealFacts], list[ShowFact]]:
    """A clean deal's facts (every claim what is due), built when first asked for."""
    players, seat_of = g.players, g.seat_of
    dealt_by_seat, out_by_seat, _ = seat_cards(dealt_texts, out_texts, kept_by_seat)
    pegged = [0] * len(players)
    for event, due in zip(events, dues, strict=True):
        pegged[seat_of[event[0]]] += due
    facts: list[PlayerDealFacts] = []
    shows: list[ShowFact] = []
    for seat, p in enumerate(players):
        due, pegs = hand_due[seat], pegged[seat]
        facts.append(PlayerDealFacts(
            p, seat, "pone", dealt_by_seat[seat], out_by_seat[seat], pegs, pegs, due, due, None, None,
        ))  # fmt: skip
    for seat in g.seat_order_from[dealer_seat]:
        shows.append(ShowFact(players[seat], "hand", tuple(kept_by_seat[seat]), starter, hand_due[seat],
                              hand_due[seat]))
    holder = facts[dealer_seat]
    holder.role = "dealer"
    holder.crib_due = holder.crib_claimed = crib_due
    holder.heels_due = holder.heels_claimed = heels_due
    shows.append(ShowFact(players[dealer_seat], "crib", tuple(crib), starter, crib_due, crib_due))
    return facts, shows
