"""What the short way (:mod:`~cribstats.replay.clean`) hands the full replay (:mod:`~cribstats.replay.play`)
when a deal's play stops being clean: the play's state as it stands and what the events it took earned, so that
the full replay goes on from there and no event is walked twice."""

from __future__ import annotations

from cribstats.play import PlayState


class PlayWalk:
    """How far the short way (:mod:`~cribstats.replay.clean`) took a deal's play before handing it over: the
    state after the events before ``stop``, what each of them earned (``dues``, go and last card included) and
    the count after it (``counts``), and the series it closed (``closes``: the card a series closed on, and the
    go or last-card point it took there, in the order they closed)."""

    __slots__ = ("closes", "counts", "dues", "state", "stop")

    def __init__(self, state: PlayState, stop: int, dues: list[int], counts: list[int],
                 closes: dict[int, int]) -> None:
        self.state = state
        self.stop = stop
        self.dues = dues
        self.counts = counts
        self.closes = closes
