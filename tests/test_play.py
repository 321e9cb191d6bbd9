"""The play state's seat questions against a naive reading of the rule: the next seat round the table (to the
left of ``after``, seat numbers going up and wrapping to 0) that still holds a card leads; none when nobody does.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cribstats.cards import DECK
from cribstats.play import PlayState

TABLES = st.integers(2, 4).flatmap(
    lambda n: st.tuples(
        st.lists(st.lists(st.sampled_from(DECK), max_size=5, unique=True), min_size=n, max_size=n),
        st.integers(0, n - 1),
    )
)


def naive_next_holding(held: list[list[int]], after: int) -> int | None:
    """Walk round the table one seat at a time, ``after`` itself last."""
    n = len(held)
    seat = after
    for _ in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        if held[seat]:
            return seat
    return None


@given(TABLES)
def test_next_holding_is_the_first_seat_round_the_table_with_a_card(table: tuple[list[list[int]], int]) -> None:
    held, after = table
    state = PlayState(held, dealer=after)
    assert state.next_holding(after) == naive_next_holding(held, after)
    assert state.leader == naive_next_holding(held, after)
    assert state.over == (not any(held))


@given(TABLES)
def test_the_next_series_is_led_by_the_first_seat_after_the_last_card_holding_one(
    table: tuple[list[list[int]], int],
) -> None:
    held, dealer = table
    state = PlayState(held, dealer=dealer)
    seat = state.turn()
    if seat is None:
        assert not any(held)
        return
    card = state.held[seat][0]
    state.lay(seat, card)
    point, taker = state.close_series()
    left = [list(cards) for cards in held]
    left[seat].remove(card)
    assert (point, taker) == (1, seat)
    assert state.leader == naive_next_holding(left, seat)
    assert state.over == (not any(left))


def test_next_holding_by_hand() -> None:
    """Four seats, only seats 0 and 2 holding cards: after 0 comes 2, after 2 comes 0, after 3 comes 0."""
    state = PlayState([[1], [], [2], []], dealer=3)
    assert [state.next_holding(s) for s in range(4)] == [2, 2, 0, 0]
    assert state.leader == 0
