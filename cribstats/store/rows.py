"""One game, replayed and turned into the rows that store it (no database yet)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date as Date
from typing import Any, NamedTuple

from cribstats.cards import CARD_TEXT
from cribstats.errors import CribstatsError
from cribstats.gamelog import Deal, GameLog, canonical_json, game_key
from cribstats.replay import DealFacts, GameOutcome, ReplayVisitor, replay
from cribstats.store.tables import name_key

LOGGER = logging.getLogger(__name__)


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
    """A ``deal`` row but for its ids (``dealer`` is the dealer's seat)."""

    dealer: int
    number: int
    starter: str
    crib_card: str | None
    completed: int
    after_end: int


class DealPlayerRow(NamedTuple):
    """A ``deal_player`` row but for its ids: one player's facts in one deal."""

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


class PlayRow(NamedTuple):
    """A ``play_event`` row but for its ids: one event of a deal's play."""

    seq: int
    card: str | None
    count: int  # type: ignore[assignment]  # the column is named count, as tuple.count is
    due: int
    claimed: int | None
    after_end: int


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


@dataclass(slots=True)
class PreparedGame:
    """A replayed game as rows, ready for the writer but for the ids a batch gives out.

    Rows are named by column (the tuples above); they hold players by seat (an index into ``names``) and deals
    by their index in ``deals``. Booleans are 0/1.
    """

    file: str
    place: str | None
    content_hash: str
    key: str
    source_id: str | None
    event: str | None
    winner_key: str | None
    names: dict[str, str]  # name key -> trimmed spelling, in seat order
    game_row: dict[str, Any]  # the game's own columns (GAME_OWN_COLUMNS), as Python values
    game_players: list[GamePlayerRow]
    deals: list[DealRow]
    deal_players: list[tuple[int, int, DealPlayerRow]]  # (deal index, seat, row)
    plays: list[tuple[int, int, PlayRow]]  # (deal index, seat, row)
    findings: list[tuple[int | None, FindingRow]]  # (seat or None, row)


# Column orders of the tables the writer fills in bulk: the ids first, then the named rows' fields.
GAME_OWN_COLUMNS = (
    "source_id",
    "content_hash",
    "game_key",
    "variant",
    "target",
    "muggins",
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
GAME_COLUMNS = ("id", *GAME_OWN_COLUMNS, "event_id", "recorded_winner", "imported_at", "import_id")
MUGGINS_AT, DATE_AT = GAME_COLUMNS.index("muggins"), GAME_COLUMNS.index("date")
GAME_PLAYER_COLUMNS = ("game_id", "player_id", *GamePlayerRow._fields)
DEAL_COLUMNS = ("id", "game_id", "dealer_id", *DealRow._fields[1:])
DEAL_PLAYER_COLUMNS = ("deal_id", "game_id", "player_id", *DealPlayerRow._fields)
PLAY_COLUMNS = ("deal_id", "player_id", *PlayRow._fields)
FINDING_COLUMNS = ("game_id", "player_id", *FindingRow._fields)


class GameRefused(CribstatsError):
    """A game that reads but cannot be stored (e.g. two of its players are one player once names are folded)."""


def canonical_log(game: GameLog) -> tuple[str, str]:
    """The canonical game log JSON (fields in the spec's order) and its content hash.

    The hash is :func:`cribstats.gamelog.content_hash`, both from :func:`cribstats.gamelog.canonical_json`.
    """
    text, digest = canonical_json(game)
    return text.decode(), digest


class RowBuilder(ReplayVisitor):
    """Builds a game's rows as the replay tells it the game, so that the store's rows come from the one walk the
    audit makes too: each deal's rows (the deal, its players' facts, its play) as the deal ends, the players'
    results and the findings as the game ends. (Told a deal whole, it need not be told each event.)"""

    def __init__(self, seat_of: dict[str, int]) -> None:
        self.seat_of = seat_of
        self.deal_index = -1
        self.crib_card: str | None = None
        self.deals: list[DealRow] = []
        self.deal_players: list[tuple[int, int, DealPlayerRow]] = []
        self.plays: list[tuple[int, int, PlayRow]] = []
        self.findings: list[tuple[int | None, FindingRow]] = []
        self.game_players: list[GamePlayerRow] = []

    def begin_deal(self, number: int, deal: Deal) -> None:
        self.deal_index += 1
        self.crib_card = deal.crib_card

    def end_deal(self, facts: DealFacts) -> None:
        index, completed, card, seat_of = self.deal_index, int(facts.completed), CARD_TEXT, self.seat_of
        self.plays += [
            (index, seat_of[e.player], PlayRow(
                e.index, None if e.card is None else card[e.card], e.count, e.due, e.claimed, int(e.after_end)
            ))
            for e in facts.plays
        ]  # fmt: skip
        dealer = seat_of[facts.dealer]
        self.deals.append(
            DealRow(dealer, facts.number, card[facts.starter], self.crib_card, completed, int(facts.after_end))
        )
        for p in facts.players:
            row = DealPlayerRow(
                p.seat, p.role, " ".join([card[c] for c in p.dealt]), " ".join([card[c] for c in p.discards]),
                p.pegged_due, p.pegged_claimed, p.hand_due, p.hand_claimed, p.crib_due, p.crib_claimed,
                p.heels_due, p.heels_claimed, p.muggins_gained, p.muggins_lost, completed,
            )  # fmt: skip
            self.deal_players.append((index, self.seat_of[p.player], row))

    def end_game(self, outcome: GameOutcome) -> None:
        seat_of = self.seat_of
        self.findings = [
            (None if f.player is None else seat_of.get(f.player),
             FindingRow(i, f.deal, f.event, f.kind, f.phase, f.claimed, f.due, f.message))
            for i, f in enumerate(outcome.findings)
        ]  # fmt: skip
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


def prepare_game(game: GameLog, file: str, place: str | None) -> PreparedGame:
    """Replay ``game``, building the rows that store it as the replay goes (:class:`RowBuilder`).

    :raises GameRefused: for a game the store cannot hold; errors of the replay propagate.
    """
    log, digest = canonical_log(game)
    key_of: dict[str, str] = {}
    seat_of: dict[str, int] = {}
    names: dict[str, str] = {}
    for seat, name in enumerate(game.players):
        trimmed = name.strip()
        k = name_key(trimmed)
        if not k:
            raise GameRefused(f"player name {name!r} is blank")
        if k in names:
            raise GameRefused(
                f"players {names[k]!r} and {trimmed!r} differ only in case or spacing: they would be one player"
            )
        names[k] = trimmed
        key_of[name] = k
        seat_of[name] = seat
    rows = RowBuilder(seat_of)
    outcome = replay(game, rows, key=game_key(game, digest))
    recorded = game.result
    winner_key = key_of.get(recorded.winner) if recorded is not None and recorded.winner else None
    event = game.event.strip() if game.event and game.event.strip() else None
    game_row: dict[str, Any] = {
        "source_id": game.id,
        "content_hash": digest,
        "game_key": outcome.key,
        "variant": outcome.variant.name,
        "target": outcome.target,
        "muggins": game.muggins_rule,
        "player_count": len(game.players),
        "date": Date.fromisoformat(game.date) if game.date else None,
        "site": game.site,
        "round": game.round,
        "source_file": file,
        "source_place": place,
        "ended_in_deal": outcome.ended_in_deal,
        "skunk_level": outcome.skunk_level,
        "deal_count": len(outcome.deals),
        "finding_count": len(outcome.findings),
        "log": log,
    }
    return PreparedGame(
        file=file,
        place=place,
        content_hash=digest,
        key=outcome.key,
        source_id=game.id,
        event=event,
        winner_key=winner_key,
        names=names,
        game_row=game_row,
        game_players=rows.game_players,
        deals=rows.deals,
        deal_players=rows.deal_players,
        plays=rows.plays,
        findings=rows.findings,
    )


def failure_reason(err: Exception) -> str:
    if isinstance(err, CribstatsError | ValueError):
        return str(err)
    LOGGER.debug("the replay failed", exc_info=err)  # debug: a library logs, the CLI decides what is shown
    return f"the replay failed ({type(err).__name__}: {err})"
