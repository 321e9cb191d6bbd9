"""The short way through a clean deal: every card legal, every claim right, no call, the game going on.

Most deals of most logs are clean. :func:`replay_clean_deal` replays one with no finding to make, on the same
:class:`~cribstats.play.PlayState` as every other deal, and without touching the game's replay until it knows
the deal is clean: at the first thing that is not (a card the state refuses, a claim not what is due, a board
off, a side reaching the target, a muggins call, a bid, a first-deal bonus) it returns None, and the deal is
replayed in full by :class:`~cribstats.replay.deal.DealReplay`, which finds what there is to find. So the short
way decides nothing the full replay would decide otherwise; ``tests/test_replay_short_way.py`` holds the two
equal on games with mistakes of every kind.
"""

from __future__ import annotations

from functools import partial
from operator import itemgetter
from typing import TYPE_CHECKING

from cribstats.cards import CARD_BY_TEXT, Card
from cribstats.gamelog import GO, Deal
from cribstats.play import PlayState
from cribstats.replay.facts import DealFacts, PlayerDealFacts, ShowFact
from cribstats.scoring import THIRTY_ONE, heels_points, score_show_total
from cribstats.variants import CRIB_SIZE

if TYPE_CHECKING:
    from cribstats.replay.game import GameReplay


def replay_clean_deal(g: GameReplay, deal: Deal, number: int, previous_dealer: str | None) -> DealFacts | None:
    """Replay a clean deal and credit it to ``g``; None, with ``g`` untouched, for any other deal."""
    if deal.muggins or deal.bid is not None or g.over or not g.board_known or deal.pegged is not None:
        return None
    events = deal.play
    rules = g.rules
    if events is None or (number == 1 and rules.first_deal_bonus):
        return None
    recorded = deal.scores
    target = g.target
    if recorded and max(recorded.values()) >= target:
        return None  # by its board the game ends in this deal: the full replay finds where
    players, seat_of = g.players, g.seat_of
    n = len(players)
    dealer_seat = seat_of[deal.dealer]
    if previous_dealer is not None and dealer_seat != (seat_of[previous_dealer] + 1) % n:
        return None
    crib_text = deal.crib_card
    if (crib_text is None) != (rules.crib_from_deck == 0):
        return None

    # the deal: every hand and discard of the right size, the discards dealt, no card twice
    card_of = CARD_BY_TEXT
    hands, discards = deal.hands, deal.discards
    dealt_size, crib_size = rules.dealt, rules.to_crib
    kept_size = dealt_size - crib_size
    starter = card_of[deal.starter]
    text_to_card = card_of.__getitem__
    dealt_by_seat: list[tuple[Card, ...]] = []
    out_by_seat: list[tuple[Card, ...]] = []
    kept_by_seat: list[list[Card]] = []
    crib: list[Card] = []
    for p in players:
        dealt_texts, out_texts = hands.get(p), discards.get(p)
        if dealt_texts is None or out_texts is None:
            return None
        dealt = tuple(map(text_to_card, dealt_texts))
        out = tuple(map(text_to_card, out_texts))
        if len(dealt) != dealt_size or len(out) != crib_size:
            return None
        kept = list(dealt)
        try:
            for c in out:
                kept.remove(c)
        except ValueError:
            return None  # a discard not dealt
        dealt_by_seat.append(dealt)
        out_by_seat.append(out)
        kept_by_seat.append(kept)
        crib += out
    seen = {starter}.union(*dealt_by_seat)
    if crib_text is not None:
        crib_card = card_of[crib_text]
        seen.add(crib_card)
        crib.append(crib_card)
    if len(seen) != n * dealt_size + 1 + (crib_text is not None):
        return None

    # his heels
    heels_due = heels_points(starter)
    if deal.heels is not None and deal.heels != heels_due:
        return None

    # the play: the state takes every card and go, and every claim is what the card earned
    state = PlayState(kept_by_seat, dealer_seat, single_series=rules.single_series)
    lay_if_legal = state.lay_if_legal
    size = len(events)
    dues = [0] * size
    counts = [0] * size
    pegged = [0] * n
    last = -1  # the index of the last card laid
    seats = list(map(seat_of.__getitem__, map(itemgetter(0), events)))
    cards = list(map(card_of.get, map(itemgetter(1), events)))  # None for a go
    index = -1
    for seat, card in zip(seats, cards, strict=True):
        index += 1
        if card is None:
            if events[index][1] != GO or state.over or not state.may_go(seat):
                return None
            state.go(seat)
            counts[index] = state.count
            continue
        base = lay_if_legal(seat, card)
        if base is None:
            if not (state.series and state.series_over):
                return None
            go, taker = state.close_series()  # nobody can go on: the go, to the last card laid
            dues[last] += go
            pegged[taker] += go
            base = lay_if_legal(seat, card)
            if base is None:
                return None
        dues[index] = base
        pegged[seat] += base
        counts[index] = count = state.count
        last = index
        if count == THIRTY_ONE:
            state.close_series()  # 31 closes the series with no go point (the 2 for it are in ``base``)
    if not state.over:
        if not (state.series and state.series_over):
            return None  # cards the rules make someone play are left: the full replay says so
        go, taker = state.close_series()  # the last card
        dues[last] += go
        pegged[taker] += go
        if not state.over:
            return None
    by_card = 3 in map(len, events)  # any event carries points: every card claims (0 when it carries none)
    if by_card and [e[2] if len(e) == 3 else 0 for e in events] != dues:
        return None  # a claim is wrong

    # the show: the hands from the pone round to the dealer, then the crib; every claim right
    show_claims = deal.show or {}
    hand_due = [0] * n
    for p in g.order_from[dealer_seat]:
        seat = seat_of[p]
        due = hand_due[seat] = score_show_total(kept_by_seat[seat], starter)
        claimed = show_claims.get(p)
        if claimed is not None and claimed != due:
            return None
    if len(crib) != CRIB_SIZE or rules.hand_size != kept_size:
        return None
    crib_due = score_show_total(crib, starter, crib=True)
    claimed = show_claims.get("crib")
    if claimed is not None and claimed != crib_due:
        return None

    # the board: the deal's points by side, none reaching the target, and the recorded board as claimed
    side_of_seat = g.side_of_seat
    after, after_due = list(g.board), list(g.board_due)
    for seat in range(n):
        side = side_of_seat[seat]
        points = pegged[seat] + hand_due[seat] + (crib_due + heels_due if seat == dealer_seat else 0)
        after[side] += points
        after_due[side] += points
    if max(after) >= target or max(after_due) >= target:
        return None
    offsets = g.board_offsets
    if recorded is not None:
        for p, side in g.player_sides:
            if p in recorded:
                offset = recorded[p] - after[side]
                if offset != 0 and offset != offsets.get(p, 0):
                    return None
        for p, side in g.player_sides:
            if p in recorded:
                offsets[p] = recorded[p] - after[side]

    # clean: credit it all, and give the facts
    g.board[:] = after
    g.board_due[:] = after_due
    build = partial(
        clean_deal_facts, g, dealer_seat, starter, dealt_by_seat, out_by_seat, kept_by_seat, crib, pegged,
        hand_due, crib_due, heels_due,
    )
    return DealFacts(
        number, deal.dealer, starter, True, False, None, None, g.scores_by_player(after),
        g.scores_by_player(after_due), events, dues, counts, size, by_card, _build=build,
    )


def clean_deal_facts(
    g: GameReplay, dealer_seat: int, starter: Card, dealt_by_seat: list[tuple[Card, ...]],
    out_by_seat: list[tuple[Card, ...]], kept_by_seat: list[list[Card]], crib: list[Card], pegged: list[int],
    hand_due: list[int], crib_due: int, heels_due: int,
) -> tuple[list[PlayerDealFacts], list[ShowFact]]:
    """A clean deal's facts (every claim what is due), built when first asked for."""
    players, seat_of = g.players, g.seat_of
    facts: list[PlayerDealFacts] = []
    shows: list[ShowFact] = []
    for seat, p in enumerate(players):
        due, pegs = hand_due[seat], pegged[seat]
        facts.append(PlayerDealFacts(
            p, seat, "pone", dealt_by_seat[seat], out_by_seat[seat], pegs, pegs, due, due, None, None,
        ))  # fmt: skip
    for p in g.order_from[dealer_seat]:
        seat = seat_of[p]
        shows.append(ShowFact(p, "hand", tuple(kept_by_seat[seat]), starter, hand_due[seat], hand_due[seat]))
    holder = facts[dealer_seat]
    holder.role = "dealer"
    holder.crib_due = holder.crib_claimed = crib_due
    holder.heels_due = holder.heels_claimed = heels_due
    shows.append(ShowFact(players[dealer_seat], "crib", tuple(crib), starter, crib_due, crib_due))
    return facts, shows
