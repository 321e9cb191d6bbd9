"""One game, replayed and turned into the rows that store it (no database yet)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

import orjson

from cribstats.cards import format_card
from cribstats.errors import CribstatsError
from cribstats.gamelog import GameLog, content_hash, dump_game, game_key
from cribstats.replay import GameOutcome, replay
from cribstats.store.tables import name_key

LOGGER = logging.getLogger(__name__)


@dataclass(slots=True)
class PreparedGame:
    """A replayed game as rows, ready for the writer but for the ids a batch gives out.

    Rows hold players by seat (an index into ``names``) and deals by their index in ``deals``; each constant
    below gives a table's column order and the layout of its prepared rows. Booleans are 0/1.
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
    game_players: list[tuple[Any, ...]]  # GAME_PLAYER_COLUMNS[2:]; the player is the seat, the first of them
    deals: list[tuple[Any, ...]]  # (dealer seat, *DEAL_COLUMNS[3:])
    deal_players: list[tuple[int, int, tuple[Any, ...]]]  # (deal index, seat, DEAL_PLAYER_COLUMNS[3:])
    plays: list[tuple[int, int, tuple[Any, ...]]]  # (deal index, seat, PLAY_COLUMNS[2:])
    findings: list[tuple[int | None, tuple[Any, ...]]]  # (seat or None, FINDING_COLUMNS[2:])


# Column orders of the tables the writer fills in bulk; the ids come first, the prepared values after them.
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
GAME_PLAYER_COLUMNS = (
    "game_id",
    "player_id",
    "seat",
    "team",
    "final_score_claimed",
    "final_score_due",
    "won",
    "won_due",
    "skunk_level",
    "recorded_score",
)
DEAL_COLUMNS = ("id", "game_id", "dealer_id", "number", "starter", "crib_card", "completed", "after_end")
DEAL_PLAYER_COLUMNS = (
    "deal_id",
    "game_id",
    "player_id",
    "seat",
    "role",
    "dealt",
    "discards",
    "pegged_due",
    "pegged_claimed",
    "hand_due",
    "hand_claimed",
    "crib_due",
    "crib_claimed",
    "heels_due",
    "heels_claimed",
    "muggins_gained",
    "muggins_lost",
    "completed",
)
PLAY_COLUMNS = ("deal_id", "player_id", "seq", "card", "count", "due", "claimed", "after_end")
FINDING_COLUMNS = (
    "game_id",
    "player_id",
    "seq",
    "deal_number",
    "event",
    "kind",
    "phase",
    "claimed",
    "due",
    "message",
)
_CARD_TEXT: tuple[str, ...] = tuple(format_card(c) for c in range(52))


class GameRefused(CribstatsError):
    """A game that reads but cannot be stored (e.g. two of its players are one player once names are folded)."""


def canonical_log(game: GameLog) -> tuple[str, str]:
    """The canonical game log JSON (fields in the spec's order) and its content hash.

    The hash is :func:`cribstats.gamelog.content_hash`, computed from the same dump to spare a second one.
    """
    dumped = dump_game(game)
    return orjson.dumps(dumped).decode(), content_hash(game, dumped)


def prepare_game(
    game: GameLog, file: str, place: str | None, *, outcome: GameOutcome | None = None
) -> PreparedGame:
    """Replay ``game`` (unless its ``outcome`` is given) and build the rows that store it.

    :raises GameRefused: for a game the store cannot hold; errors of the replay propagate.
    """
    log, digest = canonical_log(game)
    if outcome is None:
        outcome = replay(game, key=game_key(game, digest))
    variant = outcome.variant
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
    recorded = game.result
    winner_key = key_of.get(recorded.winner) if recorded is not None and recorded.winner else None
    event = game.event.strip() if game.event and game.event.strip() else None
    game_row: dict[str, Any] = {
        "source_id": game.id,
        "content_hash": digest,
        "game_key": outcome.key,
        "variant": variant.name,
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
    winners = set(outcome.winners)
    winners_due = set(outcome.winners_due)
    recorded_scores = (recorded.scores if recorded is not None else None) or {}
    game_players = []
    for seat, name in enumerate(game.players):
        claimed = outcome.scores_claimed.get(name)
        won = name in winners
        skunk = 0
        if winners and not won and claimed is not None:
            skunk = variant.skunk_level(claimed, outcome.target)
        game_players.append(
            (
                seat,
                variant.side_of(seat),
                claimed,
                outcome.scores_due.get(name),
                int(won),
                int(name in winners_due),
                skunk,
                recorded_scores.get(name),
            )
        )
    card = _CARD_TEXT
    deals: list[tuple[Any, ...]] = []
    deal_players: list[tuple[int, int, tuple[Any, ...]]] = []
    plays: list[tuple[int, int, tuple[Any, ...]]] = []
    logged_deals = game.deals or []
    for index, facts in enumerate(outcome.deals):
        number = facts.number
        completed = int(facts.completed)
        logged = logged_deals[number - 1] if 0 < number <= len(logged_deals) else None
        deals.append(
            (
                seat_of[facts.dealer],
                number,
                card[facts.starter],
                logged.crib_card if logged is not None else None,
                completed,
                int(facts.after_end),
            )
        )
        for p in facts.players:
            deal_players.append(
                (
                    index,
                    seat_of[p.player],
                    (
                        p.seat,
                        p.role,
                        " ".join([card[c] for c in p.dealt]),
                        " ".join([card[c] for c in p.discards]),
                        p.pegged_due,
                        p.pegged_claimed,
                        p.hand_due,
                        p.hand_claimed,
                        p.crib_due,
                        p.crib_claimed,
                        p.heels_due,
                        p.heels_claimed,
                        p.muggins_gained,
                        p.muggins_lost,
                        completed,
                    ),
                )
            )
        plays += [
            (
                index,
                seat_of[e.player],
                (
                    e.index,
                    None if e.card is None else card[e.card],
                    e.count,
                    e.due,
                    e.claimed,
                    1 if e.after_end else 0,
                ),
            )
            for e in facts.plays
        ]
    findings = [
        (
            None if f.player is None else seat_of.get(f.player),
            (i, f.deal, f.event, f.kind, f.phase, f.claimed, f.due, f.message),
        )
        for i, f in enumerate(outcome.findings)
    ]
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
        game_players=game_players,
        deals=deals,
        deal_players=deal_players,
        plays=plays,
        findings=findings,
    )


def failure_reason(err: Exception) -> str:
    if isinstance(err, CribstatsError | ValueError):
        return str(err)
    LOGGER.debug("the replay failed", exc_info=err)  # debug: a library logs, the CLI decides what is shown
    return f"the replay failed ({type(err).__name__}: {err})"
