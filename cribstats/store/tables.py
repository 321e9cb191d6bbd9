"""The relational store's tables (SQLModel on SQLAlchemy 2): one row per player, event, game, deal and fact.

``deal_player`` is the fact table: one row per player and deal, with the points due and claimed in the play, the
hand, the crib and his heels, and what his discard was worth; ``game_player_totals`` adds them up per game and
player, with the result and the findings, for ``stats`` and ``standings``. Cards are stored in canonical
spelling (``"5H"``); a list of cards is the canonical spellings joined by one space (``"5S 4S 2S 8D 6H 8C"``).
Every table of facts has a plain integer ``id`` (the totals are keyed by player and game); names are
lower_snake. ``metadata`` is what the migrations and ``make_engine`` build from.

>>> sorted(t for t in metadata.tables if t.startswith("d"))
['deal', 'deal_player']
>>> name_key("  Mary   ANN ") == name_key("mary ann")
True
"""

from datetime import date as Date
from datetime import datetime as DateTime

import sqlalchemy as sa
from sqlmodel import Field

import cribstats.store.ended_sessions  # noqa: F401  (the service's signed-out sessions: on the same metadata)
from cribstats import names
from cribstats.store.match_tables import (
    ApiKey,
    Match,
    MatchFinding,
    MatchGame,
    MatchPlayer,
    api_key_table,
    match_finding_table,
    match_game_table,
    match_player_table,
    match_table,
)
from cribstats.store.table_base import NAMING_CONVENTION, StoreTable, count_column, fk, metadata

__all__ = [  # the tables of matches and keys are defined beside, and named here with the rest
    "DERIVED_TABLES",
    "NAMING_CONVENTION",
    "TABLES",
    "ApiKey",
    "Deal",
    "DealPlayer",
    "Event",
    "FindingRow",
    "Game",
    "GamePlayer",
    "GamePlayerTotals",
    "ImportRun",
    "Match",
    "MatchFinding",
    "MatchGame",
    "MatchPlayer",
    "Player",
    "PlayerAlias",
    "StoreTable",
    "api_key_table",
    "deal_player_table",
    "deal_table",
    "event_table",
    "finding_table",
    "game_player_table",
    "game_player_totals_table",
    "game_table",
    "import_run_table",
    "match_finding_table",
    "match_game_table",
    "match_player_table",
    "match_table",
    "metadata",
    "name_key",
    "player_alias_table",
    "player_table",
]  # fmt: skip

def name_key(name: str) -> str:
    """The key that makes two spellings of a name one player: NFC, case folded, inner whitespace collapsed
    (:func:`cribstats.names.name_key`).

    >>> name_key(" Bob  Smith ")
    'bob smith'
    """
    return names.name_key(name)


class Player(StoreTable, table=True):
    """A player, known across games by ``name_key``; ``name`` is the first spelling seen, trimmed."""

    __tablename__ = "player"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    name_key: str = Field(sa_column=sa.Column(sa.Text, nullable=False, unique=True))


class PlayerAlias(StoreTable, table=True):
    """Another spelling of a player, made by ``cribstats players merge``: a later game naming ``name`` (any
    spelling with the same ``name_key``) is stored on ``player_id``."""

    __tablename__ = "player_alias"
    __table_args__ = (sa.Index("ix_player_alias_player_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    name_key: str = Field(sa_column=sa.Column(sa.Text, nullable=False, unique=True))
    player_id: int = Field(sa_column=fk("player.id"))


class Event(StoreTable, table=True):
    """An event (league night, tournament) named in the logs: its ``name`` as first spelt, and ``name_key``, what
    an ``--event`` filter is compared with (:func:`cribstats.names.event_key`: trimmed, NFC, lower case), worked
    out in Python so that every letter's case folds alike on SQLite and PostgreSQL."""

    __tablename__ = "event"
    __table_args__ = (sa.Index("ix_event_name_key", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=sa.Column(sa.Text, nullable=False, unique=True))
    name_key: str = Field(sa_column=sa.Column(sa.Text, nullable=False, server_default=""))  # see migration 0013


class ImportRun(StoreTable, table=True):
    """One file read by ``cribstats import``: when, and what became of its games.

    ``finished_at`` stays null when the import was interrupted; the games it committed remain, whole.
    """

    __tablename__ = "import_run"

    id: int | None = Field(default=None, primary_key=True)
    file: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    file_hash: str | None = Field(default=None, sa_column=sa.Column(sa.String(64), nullable=True))
    started_at: DateTime = Field(sa_column=sa.Column(sa.DateTime, nullable=False))
    finished_at: DateTime | None = Field(default=None, sa_column=sa.Column(sa.DateTime, nullable=True))
    games_imported: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    games_present: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    games_conflicting: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    games_refused: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))
    findings: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False, server_default="0"))


class Game(StoreTable, table=True):
    """A stored game: where and when, the rules it was played by, and its result as claimed and as due.

    ``game_key`` is the key findings use (the log's ``id``, else its content hash). ``log`` is the canonical game
    log JSON, so ``cribstats show`` and later audits replay from it. ``recorded_winner`` is the player id of the
    winner the log's ``result`` names (null when it names none). ``skunk_level`` (0..3) is the losing side's, from
    the claimed scores. ``ended_in_deal`` is the 1-based deal in which a side reached the target.
    """

    __tablename__ = "game"
    __table_args__ = (
        sa.Index("ix_game_date", "date"),
        sa.Index("ix_game_event_id", "event_id"),
        sa.Index("ix_game_import_id", "import_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    source_id: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True, unique=True))
    content_hash: str = Field(sa_column=sa.Column(sa.String(64), nullable=False, unique=True))
    game_key: str = Field(sa_column=sa.Column(sa.Text, nullable=False, unique=True))
    variant: str = Field(sa_column=sa.Column(sa.String(20), nullable=False))
    target: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    muggins: bool = Field(sa_column=sa.Column(sa.Boolean, nullable=False))
    giveaway: bool = Field(
        default=False, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.false())
    )
    player_count: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    date: Date | None = Field(default=None, sa_column=sa.Column(sa.Date, nullable=True))
    site: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    round: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    event_id: int | None = Field(default=None, sa_column=fk("event.id", nullable=True, ondelete="SET NULL"))
    source_file: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    source_place: str | None = Field(default=None, sa_column=sa.Column(sa.Text, nullable=True))
    recorded_winner: int | None = Field(
        default=None, sa_column=fk("player.id", nullable=True, ondelete="SET NULL")
    )
    ended_in_deal: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    skunk_level: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    deal_count: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    finding_count: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    log: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    imported_at: DateTime = Field(sa_column=sa.Column(sa.DateTime, nullable=False))
    import_id: int | None = Field(default=None, sa_column=fk("import_run.id", nullable=True, ondelete="SET NULL"))


class GamePlayer(StoreTable, table=True):
    """A player's seat in a game and their result.

    ``team`` is 0/1 in four-player games (partners share a team), else the seat. ``won`` follows the claimed
    scores (the result at the table), ``won_due`` the points due. ``skunk_level`` is the level of this player's
    loss (0 for a winner). ``recorded_score`` is the final score the log's ``result`` gives (team score in
    four-player games), null when it gives none.
    """

    __tablename__ = "game_player"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "seat", name="uq_game_player_seat"),
        sa.UniqueConstraint("game_id", "player_id", name="uq_game_player_player"),
        sa.Index("ix_game_player_player_id", "player_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(sa_column=fk("game.id"))
    player_id: int = Field(sa_column=fk("player.id", ondelete=None))
    seat: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    team: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    final_score_claimed: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    final_score_due: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    won: bool = Field(sa_column=sa.Column(sa.Boolean, nullable=False))
    won_due: bool = Field(sa_column=sa.Column(sa.Boolean, nullable=False))
    skunk_level: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    recorded_score: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))


class Deal(StoreTable, table=True):
    """One deal of a game. ``completed`` is false for the deal the game ended in and any after the end.

    ``play`` is the deal's play as one value: a JSON array with one array per event of the log's ``play`` list,
    in its order, ``[seat, card, count, due, claimed, after_end]``: the seat of the player (as in
    ``deal_player``), the card laid (null for a go), the count after it, the points due for it (go or last card
    included), the points claimed (null when the deal does not claim card by card) and 1 for an event after the
    game had ended (it counts for nothing), else 0. ``[]`` for a deal without play.
    """

    __tablename__ = "deal"
    __table_args__ = (sa.UniqueConstraint("game_id", "number", name="uq_deal_game_number"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(sa_column=fk("game.id"))
    number: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    dealer_id: int = Field(sa_column=fk("player.id", ondelete=None))
    starter: str = Field(sa_column=sa.Column(sa.String(2), nullable=False))
    crib_card: str | None = Field(default=None, sa_column=sa.Column(sa.String(2), nullable=True))
    completed: bool = Field(sa_column=sa.Column(sa.Boolean, nullable=False))
    after_end: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False))
    play: str = Field(default="[]", sa_column=sa.Column(sa.Text, nullable=False, server_default="[]"))


class DealPlayer(StoreTable, table=True):
    """The fact table: what one player was dealt, laid away, pegged and counted in one deal, due and claimed.

    ``role`` is ``'dealer'`` or ``'pone'`` (every non-dealer is a pone). ``dealt`` and ``discards`` are card
    lists. ``pegged_*`` are null when the log leaves the play out; ``hand_*`` null when the hand was never shown
    (the game ended first); ``crib_*`` are the dealer's only. ``completed`` is copied from the deal.

    The discard's value (filled where the game is replayed, or by :mod:`cribstats.store.discards`): the cards
    ``kept`` and ``thrown``, their ``hand_value``, ``crib_value`` (null for a three- or four-player deal, judged
    by the hand alone: ``hand_only``) and ``expected`` value; the best discard of the dealt cards
    (``best_kept``, ``best_thrown``) and its ``best_expected`` value; the ``loss`` (best less chosen, 0 for a
    best discard). Definitions: :mod:`cribstats.discards.analysis`. All null for a discard not valued: none
    made, cards that cannot be judged (the audit reports them), or a store imported before values were kept
    (``cribstats analyse --store`` fills them).
    """

    __tablename__ = "deal_player"
    __table_args__ = (
        sa.UniqueConstraint("deal_id", "seat", name="uq_deal_player_seat"),
        sa.Index("ix_deal_player_game_id", "game_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    deal_id: int = Field(sa_column=fk("deal.id"))
    game_id: int = Field(sa_column=fk("game.id"))
    player_id: int = Field(sa_column=fk("player.id", ondelete=None))
    seat: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    role: str = Field(sa_column=sa.Column(sa.String(6), nullable=False))
    dealt: str = Field(sa_column=sa.Column(sa.String(30), nullable=False))
    discards: str = Field(sa_column=sa.Column(sa.String(30), nullable=False))
    pegged_due: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    pegged_claimed: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    hand_due: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    hand_claimed: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    crib_due: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    crib_claimed: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    heels_due: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    heels_claimed: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    muggins_gained: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    muggins_lost: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    completed: bool = Field(sa_column=sa.Column(sa.Boolean, nullable=False))
    hand_only: bool | None = Field(default=None, sa_column=sa.Column(sa.Boolean, nullable=True))
    kept: str | None = Field(default=None, sa_column=sa.Column(sa.String(30), nullable=True))
    thrown: str | None = Field(default=None, sa_column=sa.Column(sa.String(30), nullable=True))
    hand_value: float | None = Field(default=None, sa_column=sa.Column(sa.Float, nullable=True))
    crib_value: float | None = Field(default=None, sa_column=sa.Column(sa.Float, nullable=True))
    expected: float | None = Field(default=None, sa_column=sa.Column(sa.Float, nullable=True))
    best_kept: str | None = Field(default=None, sa_column=sa.Column(sa.String(30), nullable=True))
    best_thrown: str | None = Field(default=None, sa_column=sa.Column(sa.String(30), nullable=True))
    best_expected: float | None = Field(default=None, sa_column=sa.Column(sa.Float, nullable=True))
    loss: float | None = Field(default=None, sa_column=sa.Column(sa.Float, nullable=True))


class FindingRow(StoreTable, table=True):
    """One audit finding (docs/findings.md): ``deal_number`` and ``event`` are the contract's ``deal``
    (1-based, null for a game-level finding) and ``event`` (0-based play index, null when not about one event).
    """

    __tablename__ = "finding"
    __table_args__ = (
        sa.Index("ix_finding_game_id", "game_id"),
        sa.Index("ix_finding_kind", "kind"),
        sa.Index("ix_finding_player_id", "player_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(sa_column=fk("game.id"))
    seq: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    deal_number: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    event: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    kind: str = Field(sa_column=sa.Column(sa.String(20), nullable=False))
    phase: str = Field(sa_column=sa.Column(sa.String(10), nullable=False))
    player_id: int | None = Field(default=None, sa_column=fk("player.id", nullable=True, ondelete="SET NULL"))
    claimed: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    due: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    message: str = Field(sa_column=sa.Column(sa.Text, nullable=False))


class GamePlayerTotals(StoreTable, table=True):
    """What one player's game adds to ``cribstats stats`` and ``standings``: one row per (game, player), filled
    from the game's other rows by :func:`cribstats.store.totals.add_game_totals` (definitions: the notes of
    :mod:`cribstats.stats.measures`).

    Result: ``won`` (null when no side reached the target: the game counts for no one's results),
    ``skunk_level`` as the game counts for this player (a winner: the highest among the losers; a loser: their
    own), ``game_points`` and ``spread``. Deal facts over completed deals: ``deals``, ``deals_as_dealer``,
    ``deals_as_pone``, and per role the points due with the number of deals where they are known
    (``pegged_due_dealer``/``pegged_deals_dealer``, ...; ``crib_*`` as dealer); ``heels_due`` over every deal.
    Findings over every deal: ``points_missed``, ``points_overclaimed``, ``illegal_plays``; ``missed_completed``
    is the points missed in completed deals. ``first_dealer``: 1 for the player who dealt the game's first deal,
    else 0 (everyone's 0 in a game stored without its deals). A replaced game takes its totals with it (the key
    to ``game`` cascades).
    """

    __tablename__ = "game_player_totals"
    # Keyed by player, then game, and on SQLite stored in that order (no rowid): the statistics add the rows
    # up per player in the table's own order, with no sort. Filling, replacing and deleting a game go by game.
    __table_args__ = (sa.Index("ix_game_player_totals_game_id", "game_id"), {"sqlite_with_rowid": False})

    player_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("player.id"), primary_key=True, autoincrement=False)
    )
    game_id: int = Field(
        sa_column=sa.Column(
            sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
        )
    )
    won: bool | None = Field(default=None, sa_column=sa.Column(sa.Boolean, nullable=True))
    skunk_level: int = Field(default=0, sa_column=count_column())
    game_points: int = Field(default=0, sa_column=count_column())
    spread: int = Field(default=0, sa_column=count_column())
    deals: int = Field(default=0, sa_column=count_column())
    deals_as_dealer: int = Field(default=0, sa_column=count_column())
    deals_as_pone: int = Field(default=0, sa_column=count_column())
    pegged_due_dealer: int = Field(default=0, sa_column=count_column())
    pegged_deals_dealer: int = Field(default=0, sa_column=count_column())
    pegged_due_pone: int = Field(default=0, sa_column=count_column())
    pegged_deals_pone: int = Field(default=0, sa_column=count_column())
    hand_due_dealer: int = Field(default=0, sa_column=count_column())
    hand_deals_dealer: int = Field(default=0, sa_column=count_column())
    hand_due_pone: int = Field(default=0, sa_column=count_column())
    hand_deals_pone: int = Field(default=0, sa_column=count_column())
    crib_due: int = Field(default=0, sa_column=count_column())
    crib_deals: int = Field(default=0, sa_column=count_column())
    heels_due: int = Field(default=0, sa_column=count_column())
    points_missed: int = Field(default=0, sa_column=count_column())
    points_overclaimed: int = Field(default=0, sa_column=count_column())
    missed_completed: int = Field(default=0, sa_column=count_column())
    illegal_plays: int = Field(default=0, sa_column=count_column())
    first_dealer: int = Field(default=0, sa_column=count_column())


player_table: sa.Table = Player.__table__  # type: ignore[attr-defined]
player_alias_table: sa.Table = PlayerAlias.__table__  # type: ignore[attr-defined]
event_table: sa.Table = Event.__table__  # type: ignore[attr-defined]
import_run_table: sa.Table = ImportRun.__table__  # type: ignore[attr-defined]
game_table: sa.Table = Game.__table__  # type: ignore[attr-defined]
game_player_table: sa.Table = GamePlayer.__table__  # type: ignore[attr-defined]
deal_table: sa.Table = Deal.__table__  # type: ignore[attr-defined]
deal_player_table: sa.Table = DealPlayer.__table__  # type: ignore[attr-defined]
finding_table: sa.Table = FindingRow.__table__  # type: ignore[attr-defined]
game_player_totals_table: sa.Table = GamePlayerTotals.__table__  # type: ignore[attr-defined]



def is_giveaway(games: sa.Table) -> sa.ColumnElement[bool]:
    """Whether a stored game is played giveaway (the side that reaches the target loses)."""
    return games.c.giveaway == sa.true()


TABLES: tuple[sa.Table, ...] = (
    player_table,
    player_alias_table,
    event_table,
    import_run_table,
    game_table,
    game_player_table,
    deal_table,
    deal_player_table,
    finding_table,
    match_table,
    match_player_table,
    match_game_table,
    match_finding_table,
)
"""The tables of stored facts, each with a plain integer ``id``."""
DERIVED_TABLES: tuple[sa.Table, ...] = (game_player_totals_table,)
"""Tables worked out from the facts (:mod:`cribstats.store.totals`), keyed by what they total."""
