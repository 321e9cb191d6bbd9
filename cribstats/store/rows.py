"""One game, replayed and turned into the rows that store it (no database yet)."""

from __future__ import annotations

import logging
from datetime import date as Date
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

from cribstats.cards import CARD_TEXT
from cribstats.discards.analysis import DiscardError
from cribstats.discards.values import Discard, many_discard_values
from cribstats.errors import CribstatsError
from cribstats.gamelog import GO, canonical_json, game_key
from cribstats.names import one_player_twice, quoted, stored_event
from cribstats.replay import DealFacts, GameOutcome, ReplayVisitor, replay
from cribstats.replay.facts import PlayerDealFacts
from cribstats.safetext import storable_path
from cribstats.store.tables import name_key
from cribstats.variants import Variant

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyDeal, AnyGame

LOGGER = logging.getLogger(__name__)


def _as_plain_tuple(self: tuple[Any, ...]) -> tuple[Any, ...]:
    """Pickle support: a row travels from a worker process as a plain tuple (unpickled without a call into
    Python), and the writer needs no more than that."""
    return (tuple, (tuple(self),))


class GamePlayerRow(NamedTuple):
    """A ``game_player`` row but for its ids (the seat stands in for the player until the writer knows it)."""

    seat: int
    team: int
    final_score_claimed: int | None
    final_score_due: int | None
    won: int
    won_due: int
    skunk_level: int
    recorded_score: int | None


class DealRow(NamedTuple):
    """A ``deal`` row but for its ids (``dealer`` is the dealer's seat); ``play`` is the deal's play as one
    value (:func:`play_value`)."""

    dealer: int
    number: int
    starter: str
    crib_card: str | None
    completed: int
    after_end: int
    play: str


class DealPlayerRow(NamedTuple):
    """A ``deal_player`` row but for its ids: one player's facts in one deal, and what his discard was worth
    (:data:`NOT_VALUED` when it is not valued)."""

    seat: int
    role: str
    dealt: str
    discards: str
    pegged_due: int | None
    pegged_claimed: int | None
    hand_due: int | None
    hand_claimed: int | None
    crib_due: int | None
    crib_claimed: int | None
    heels_due: int
    heels_claimed: int
    muggins_gained: int
    muggins_lost: int
    completed: int
    hand_only: int | None
    kept: str | None
    thrown: str | None
    hand_value: float | None
    crib_value: float | None
    expected: float | None
    best_kept: str | None
    best_thrown: str | None
    best_expected: float | None
    loss: float | None


DealPlayers = list[tuple[int, int, DealPlayerRow]]
"""A game's ``deal_player`` rows, each with its deal's index and the player's seat."""

VALUE_FIELDS = DealPlayerRow._fields[DealPlayerRow._fields.index("hand_only") :]
"""The fields of a discard's value (:data:`cribstats.discards.values.DiscardValues`), the last of the row."""
NOT_VALUED: tuple[None, ...] = (None,) * len(VALUE_FIELDS)


class FindingRow(NamedTuple):
    """A ``finding`` row but for its ids."""

    seq: int
    deal_number: int | None
    event: int | None
    kind: str
    phase: str
    claimed: int | None
    due: int | None
    message: str


for _row in (GamePlayerRow, DealRow, DealPlayerRow, FindingRow):
    _row.__reduce__ = _as_plain_tuple  # type: ignore[assignment,method-assign]


class PreparedGame(NamedTuple):
    """A replayed game as rows, ready for the writer but for the ids a batch gives out.

    Rows are named by column (the tuples above; plain tuples once sent from a worker process); they hold players
    by seat (an index into ``names``) and deals by their index in ``deals``. Booleans are 0/1. A tuple itself, so
    that a worker sends it with no more than its values.
    """

    file: str
    place: str | None
    content_hash: str
    key: str
    source_id: str | None
    event: str | None
    winner_key: str | None
    names: dict[str, str]  # name key -> trimmed spelling, in seat order
    game_row: tuple[Any, ...]  # the game's own columns (GAME_OWN_COLUMNS), as Python values
    game_players: list[GamePlayerRow]
    deals: list[DealRow]
    deal_players: DealPlayers  # (deal index, seat, row), the discard's value in it
    findings: list[tuple[int | None, FindingRow]]  # (seat or None, row)
    written_hash: str | None = None  # a match record's whole game: the hash of the game as the record writes it

    @property
    def log(self) -> str:
        """The canonical game log JSON."""
        return str(self.game_row[LOG_AT])


# Column orders of the tables the writer fills in bulk: the ids first, then the named rows' fields.
GAME_OWN_COLUMNS = (
    "source_id",
    "content_hash",
    "game_key",
    "variant",
    "target",
    "muggins",
    "giveaway",
    "player_count",
    "date",
    "site",
    "round",
    "source_file",
    "source_place",
    "ended_in_deal",
    "skunk_level",
    "deal_count",
    "finding_count",
    "log",
)
LOG_AT = GAME_OWN_COLUMNS.index("log")
GAME_COLUMNS = ("id", *GAME_OWN_COLUMNS, "event_id", "recorded_winner", "imported_at", "import_id")
MUGGINS_AT, GIVEAWAY_AT, DATE_AT = (GAME_COLUMNS.index(c) for c in ("muggins", "giveaway", "date"))
GAME_PLAYER_COLUMNS = ("game_id", "player_id", *GamePlayerRow._fields)
DEAL_COLUMNS = ("id", "game_id", "dealer_id", *DealRow._fields[1:])
DEAL_PLAYER_COLUMNS = ("deal_id", "game_id", "player_id", *DealPlayerRow._fields)
FINDING_COLUMNS = ("game_id", "player_id", *FindingRow._fields)


def play_value(facts: DealFacts, seat_of: dict[str, int]) -> str:
    """A deal's play as the one value ``deal.play`` stores: a JSON array with one array per event, in the order
    of the log's ``play`` list, ``[seat, card, count, due, claimed, after_end]`` (``card`` null for a go,
    ``claimed`` null when the deal does not claim card by card, ``after_end`` 1 for a card laid after the game
    had ended, else 0): the facts of :attr:`cribstats.replay.DealFacts.plays`, read from the replay's lists.

    >>> from cribstats.replay.facts import DealFacts
    >>> facts = DealFacts(1, "Ann", 0, True, False, [], play_events=[("Bob", "6C"), ("Ann", "go")],
    ...                   play_dues=[0, 0], play_counts=[6, 6], play_after_end_from=2)
    >>> play_value(facts, {"Ann": 0, "Bob": 1})
    '[[1,"6C",6,0,null,0],[0,null,6,0,null,0]]'
    """
    events = facts.play_events
    if not events:
        return "[]"
    after = facts.play_after_end_from
    return orjson.dumps([
        (seat_of[e[0]], None, count, due, claimed, 0) if e[1] == GO
        else (seat_of[e[0]], e[1], count, due, claimed, 1 if i >= after else 0)
        for i, e, count, due, claimed in zip(
            range(len(events)), events, facts.play_counts, facts.play_dues, facts.play_claims(), strict=True
        )
    ]).decode()  # fmt: skip


class GameRefused(CribstatsError):
    """A game that reads but cannot be stored (e.g. two of its players are one player once names are folded)."""


def canonical_log(game: AnyGame) -> tuple[str, str]:
    """The canonical game log JSON (fields in the spec's order) and its content hash.

    The hash is :func:`cribstats.gamelog.content_hash`, both from :func:`cribstats.gamelog.canonical_json`.
    """
    text, digest = canonical_json(game)
    return text.decode(), digest


class RowBuilder(ReplayVisitor):
    """Builds a game's rows as the replay tells it the game, so that the store's rows come from the one walk the
    audit makes too: each deal's rows (the deal with its play, its players' facts) as the deal ends, the players'
    results, the discards' values and the findings as the game ends. (Told a deal whole, it need not be told each
    event.)"""

    def __init__(self, seat_of: dict[str, int], values: DiscardQueue, *, judged: bool = True) -> None:
        self.seat_of = seat_of
        self.values = values
        self.judged = judged  # discards valued (not in a giveaway game, whose players aim for the fewest points)
        self.deal_index = -1
        self.crib_card: str | None = None
        self.deals: list[DealRow] = []
        self.deal_players: DealPlayers = []
        self.findings: list[tuple[int | None, FindingRow]] = []
        self.game_players: list[GamePlayerRow] = []
        self._facts: list[PlayerFacts] = []  # the discards valued once the game's variant is known

    def begin_deal(self, number: int, deal: AnyDeal) -> None:
        self.deal_index += 1
        self.crib_card = deal.crib_card

    def end_deal(self, facts: DealFacts) -> None:
        index, completed, card, seat_of = self.deal_index, int(facts.completed), CARD_TEXT, self.seat_of
        dealer = seat_of[facts.dealer]
        self.deals.append(DealRow(
            dealer, facts.number, card[facts.starter], self.crib_card, completed, int(facts.after_end),
            play_value(facts, seat_of),
        ))  # fmt: skip
        for p in facts.players:
            own = (
                p.seat, p.role, " ".join([card[c] for c in p.dealt]), " ".join([card[c] for c in p.discards]),
                p.pegged_due, p.pegged_claimed, p.hand_due, p.hand_claimed, p.crib_due, p.crib_claimed,
                p.heels_due, p.heels_claimed, p.muggins_gained, p.muggins_lost, completed,
            )  # fmt: skip
            self._facts.append((index, seat_of[p.player], own, p if p.discards and self.judged else None))

    def end_game(self, outcome: GameOutcome) -> None:
        seat_of = self.seat_of
        self.findings = [
            (None if f.player is None else seat_of.get(f.player),
             FindingRow(i, f.deal, f.event, f.kind, f.phase, f.claimed, f.due, f.message))
            for i, f in enumerate(outcome.findings)
        ]  # fmt: skip
        self.deal_players = deal_player_rows(self._facts, outcome.variant, self.values)
        winners, winners_due = set(outcome.winners), set(outcome.winners_due)
        recorded = outcome.recorded
        recorded_scores = (recorded.scores if recorded is not None else None) or {}
        for name, seat in self.seat_of.items():
            self.game_players.append(
                GamePlayerRow(
                    seat,
                    outcome.variant.side_of(seat),
                    outcome.scores_claimed.get(name),
                    outcome.scores_due.get(name),
                    int(name in winners),
                    int(name in winners_due),
                    outcome.skunk_levels.get(name, 0),
                    recorded_scores.get(name),
                )
            )


PlayerFacts = tuple[int, int, tuple[Any, ...], PlayerDealFacts | None]
"""A player's deal as the row builder keeps it until the game ends: (deal index, seat, the row's fields up to
``completed``, the facts of a discard made or None)."""


def deal_player_rows(
    facts: list[PlayerFacts], variant: Variant, values: DiscardQueue
) -> DealPlayers:
    """Each player's row of each deal (deal index, seat, row), the value of each discard made left to
    ``values`` to fill in (:data:`NOT_VALUED` until then, and for good when none was made)."""
    out: DealPlayers = []
    make = DealPlayerRow._make
    for index, seat, own, p in facts:
        if p is not None:
            values.add(out, len(out), own, (p.dealt, p.discards, variant, p.role))
        out.append((index, seat, make(own + NOT_VALUED)))
    return out


class DiscardQueue:
    """The discards of the games prepared, valued together when :meth:`fill` is called (many at once cost a
    third of what they cost one by one, :func:`cribstats.discards.values.many_discard_values`): each written
    into its player's row. Cards that cannot be judged (not dealt, the wrong number of them: the audit reports
    it) leave the value :data:`NOT_VALUED`."""

    def __init__(self) -> None:
        self._rows: list[tuple[DealPlayers, int, tuple[Any, ...]]] = []
        self._discards: list[Discard] = []

    def __len__(self) -> int:
        return len(self._discards)

    def add(self, rows: DealPlayers, at: int, own: tuple[Any, ...], discard: Discard) -> None:
        """Value ``discard`` into ``rows[at]``, a row whose fields before the values are ``own``."""
        self._rows.append((rows, at, own))
        self._discards.append(discard)

    def fill(self) -> None:
        """Value every discard queued, and forget them."""
        if not self._discards:
            return
        make = DealPlayerRow._make
        for (rows, at, own), v in zip(self._rows, many_discard_values(self._discards), strict=True):
            if not isinstance(v, DiscardError):
                index, seat, _ = rows[at]
                rows[at] = (index, seat, make((*own, int(v[0]), *v[1:])))
        self._rows, self._discards = [], []


def prepare_game(
    game: AnyGame, file: str, place: str | None, values: DiscardQueue | None = None, written: AnyGame | None = None
) -> PreparedGame:
    """Replay ``game``, building the rows that store it as the replay goes (:class:`RowBuilder`). Its discards
    are valued at once, or, given a ``values`` queue, when that is filled (before the rows are written).
    ``written``: the game as a match record writes it, without the match id or number the record gives it
    (:attr:`cribstats.formats.sources.SourceGame.written`); its hash goes with the rows.

    :raises GameRefused: for a game the store cannot hold; errors of the replay propagate.
    """
    twice = one_player_twice(game.players)
    if twice is not None:
        raise GameRefused(twice)
    log, digest = canonical_log(game)
    key_of: dict[str, str] = {}
    seat_of: dict[str, int] = {}
    names: dict[str, str] = {}
    for seat, name in enumerate(game.players):
        trimmed = name.strip()
        k = name_key(trimmed)
        if not k:
            raise GameRefused(f"player name {quoted(name)} is blank")
        names[k] = trimmed
        key_of[name] = k
        seat_of[name] = seat
    queue = DiscardQueue() if values is None else values
    rows = RowBuilder(seat_of, queue, judged=not game.giveaway_rule)
    outcome = replay(game, rows, key=game_key(game, digest))
    if values is None:
        queue.fill()
    recorded = game.result
    winner_key = key_of.get(recorded.winner) if recorded is not None and recorded.winner else None
    event = stored_event(game.event)
    game_row = (  # GAME_OWN_COLUMNS
        game.id, digest, outcome.key, outcome.variant.name, outcome.target, game.muggins_rule, game.giveaway_rule,
        len(game.players),
        Date.fromisoformat(game.date) if game.date else None, game.site, game.round, storable_path(file), place,
        outcome.ended_in_deal, outcome.skunk_level, len(outcome.deals), len(outcome.findings), log,
    )  # fmt: skip
    return PreparedGame(
        file, place, digest, outcome.key, game.id, event, winner_key, names, game_row, rows.game_players,
        rows.deals, rows.deal_players, rows.findings, None if written is None else canonical_log(written)[1],
    )  # fmt: skip


def failure_reason(err: Exception) -> str:
    if isinstance(err, CribstatsError | ValueError):
        return str(err)
    LOGGER.debug("the replay failed", exc_info=err)  # debug: a library logs, the CLI decides what is shown
    return f"the replay failed ({type(err).__name__}: {err})"
