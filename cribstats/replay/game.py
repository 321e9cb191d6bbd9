"""One game's replay: the boards as claimed and as due, the end of the game, the findings in game order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from cribstats.findings import Finding, FindingKind, Phase, after_end_message
from cribstats.gamelog import game_key
from cribstats.replay.claims import NEVER
from cribstats.replay.clean import walk_deal
from cribstats.replay.deal import DealReplay
from cribstats.replay.facts import DealFacts, GameOutcome
from cribstats.replay.result import giveaway_winners, judge_record, judge_result, recorded_winners
from cribstats.replay.visitor import ReplayVisitor, overrides
from cribstats.variants import Variant, seats_from

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyGame

STAGE = {"deal": 0, "heels": 1, "play": 2, "hand": 3, "crib": 4, "board": 5}
PLAY_STAGE = STAGE["play"]


def replay(game: AnyGame, visitor: ReplayVisitor | None = None, *, key: str | None = None) -> GameOutcome:
    """Replay every deal of a game; return its facts and findings, telling ``visitor`` as it goes.

    ``key`` names the game in findings (default: its id, else its content hash).

    >>> from cribstats.gamelog import validate_game
    >>> game = validate_game({"format": "cribstats/game/1", "id": "g", "players": ["Alice", "Bob"],
    ...     "deals": [{"dealer": "Alice", "starter": "5H",
    ...         "hands": {"Alice": ["5S","4S","2S","8D","6H","8C"], "Bob": ["TS","6D","JH","4H","KC","7C"]},
    ...         "discards": {"Alice": ["8D","8C"], "Bob": ["TS","KC"]},
    ...         "play": [["Bob","JH"], ["Alice","5S",2], ["Bob","7C"], ["Alice","6H",3], ["Bob","go"],
    ...                  ["Alice","2S",1], ["Bob","6D"], ["Alice","4S"], ["Bob","4H",3]],
    ...         "show": {"Bob": 9, "Alice": 12, "crib": 6}, "scores": {"Alice": 24, "Bob": 12}}]})
    >>> outcome = replay(game)
    >>> outcome.findings, outcome.scores_claimed
    ([], {'Alice': 24, 'Bob': 12})
    """
    return GameReplay(game, visitor or ReplayVisitor(), key if key is not None else game_key(game)).run()


class GameReplay:
    """The state of one game's replay: the boards (as claimed and as due), the end, the findings."""

    def __init__(self, game: AnyGame, visitor: ReplayVisitor, key: str) -> None:
        self.game = game
        self.visitor = visitor
        self.key = key
        table = _table(game)
        self.rules = rules = table.rules
        self.target = game.target if game.target is not None else rules.target
        self.players = list(table.players)
        self.seat_of = table.seat_of
        self.side_of = table.side_of
        self.sides = table.sides
        self.player_sides = table.player_sides  # (name, side) in seat order
        self.side_of_seat = table.side_of_seat
        self.seat_is_side = table.seat_is_side  # no partners: each seat scores alone
        #: the seats and the players in counting order (from the pone round to the dealer), by the dealer's seat
        self.seat_order_from = table.seat_order_from
        self.order_from = table.order_from
        self.sides_of = table.sides_of  # the players of each side
        self.board = [0] * self.sides  # as the table had it: claims, muggins takings, bonus
        self.board_due = [0] * self.sides
        self.board_known = True
        #: the board as due is known: False from a deal without ``play`` to the end of the game, for nothing can
        #: say what its play was due (``pegged`` totals are claims)
        self.due_known = True
        self.over = False
        self.winner_side: int | None = None
        self.winner_due_side: int | None = None
        self.ended_in_deal: int | None = None
        self.findings: list[Finding] = []
        self.deal_findings: list[tuple[tuple[int, int], Finding]] = []
        self.deal_number = 0
        self.after_end_reported = False
        self.board_offsets: dict[str, int] = {}
        #: where a finding with no event of its own is placed in its stage (a show: its index in the deal's shows)
        self.place_at = NEVER
        # the visitor is told every play, show and finding (the play's facts are built only for one that asks for
        # plays), and of every deal; one that ignores them is not called for each
        self.tell_events, self.tell_plays, self.tell_deals = _tells(visitor)
        self.short_way = True  # a deal goes the short way while clean (replay.clean); False: all the full way

    # -- bookkeeping ------------------------------------------------------------------------------------------

    def side(self, player: str) -> int:
        return self.side_of[player]

    def find(self, kind: FindingKind, phase: Phase, player: str | None, message: str, *, event: int | None = None,
             claimed: int | None = None, due: int | None = None, stage: str | None = None,
             at: int | None = None) -> None:
        """Record a finding; within a deal findings come in game order: by stage, then at the event (``at``)."""
        finding = Finding(
            self.key, self.deal_number or None, event, kind, phase, player, claimed, due, message
        )
        if self.deal_number:
            if at is None:
                at = event if event is not None else self.place_at
            self.deal_findings.append(((STAGE[stage or phase], at), finding))
        else:
            self.findings.append(finding)

    def credit(self, side: int, claimed: int, due: int) -> None:
        """Move a side's pegs (as claimed) and its score due, and see whether the game has ended.

        The game's end rule lives here: the first side whose pegs reach ``target`` wins, the moment they do. (The
        short ways in :mod:`~cribstats.replay.play` and :mod:`~cribstats.replay.clean` peg in place only while
        ``< target`` holds, and call this or hand the deal over otherwise; another end rule changes this method,
        ``target`` and those checks.)
        """
        board_due = self.board_due
        board_due[side] += due
        if self.winner_due_side is None and board_due[side] >= self.target and self.due_known:
            self.winner_due_side = side
        board = self.board
        board[side] += claimed
        if not self.over and self.board_known and board[side] >= self.target:
            self.over = True
            self.winner_side = side
            self.ended_in_deal = self.deal_number

    def after_end(self, phase: Phase, player: str | None, what: str, *, event: int | None = None) -> None:
        """Something in a deal after the end: one finding per deal, for the first such thing."""
        if not self.after_end_reported:
            self.after_end_reported = True
            self.find("after-end", phase, player, after_end_message(self.target, what), event=event)

    def board_as_recorded(self, recorded: dict[str, int], scores: dict[str, int]) -> bool:
        """The recorded board is the board as claimed (by player, ``scores``) and no recorded score was ever off:
        nothing is off and nothing more is to be noted (the common case, ahead of :meth:`board_off`)."""
        return recorded == scores and not any(self.board_offsets.values())

    def board_off(self, recorded: dict[str, int], board: list[int]) -> list[str]:
        """The players, in seat order, whose recorded score is off ``board`` (the board as claimed) by other than
        it was off before: a board kept off by the same points all along (a peg set wrong once) is off once."""
        offsets = self.board_offsets
        return [
            p for p, side in self.player_sides
            if p in recorded and (offset := recorded[p] - board[side]) != 0 and offset != offsets.get(p, 0)
        ]  # fmt: skip

    def note_board(self, recorded: dict[str, int], board: list[int]) -> None:
        """Keep how far each recorded score is off ``board``, for :meth:`board_off` at the next deal."""
        offsets = self.board_offsets
        for p, side in self.player_sides:
            if p in recorded:
                offsets[p] = recorded[p] - board[side]

    def scores_due(self) -> dict[str, int]:
        """The board as due, by player; empty once it cannot be known (see ``due_known``)."""
        return self.scores_by_player(self.board_due) if self.due_known else {}

    def scores_by_player(self, board: list[int]) -> dict[str, int]:
        if self.seat_is_side:
            return dict(zip(self.players, board))  # noqa: B905 (one side a seat: as many as players; strict costs)
        return {name: board[side] for name, side in self.player_sides}

    # -- the game ---------------------------------------------------------------------------------------------

    def run(self) -> GameOutcome:
        visitor = self.visitor
        visitor.begin_game(self.game, self.key)
        deals: list[DealFacts] = []
        previous_dealer: str | None = None
        short_way, tell_deals, tell_events = self.short_way, self.tell_deals, self.tell_events
        number = 0
        for deal in self.game.deals or ():
            # a deal begins with no finding placed, and none after the end told (DealReplay leaves it so)
            self.deal_number = number = number + 1
            if tell_deals:
                visitor.begin_deal(number, deal)
            facts = (short_way and walk_deal(self, deal, number, previous_dealer)) or DealReplay(
                self, deal, number, previous_dealer
            ).run()
            previous_dealer = deal.dealer
            deals.append(facts)
            if self.deal_findings or tell_events or tell_deals:
                self.end_deal(facts)
        self.deal_number = 0
        before = len(self.findings)
        outcome = self.outcome(deals)
        for finding in self.findings[before:]:
            visitor.visit_finding(finding)
        visitor.end_game(outcome)
        return outcome

    def end_deal(self, facts: DealFacts) -> None:
        """The deal's findings into the game's, in game order; the visitor told of them, its events and its end."""
        found = self.deal_findings
        if found:
            found.sort(key=itemgetter(0))
            self.findings.extend(finding for _, finding in found)
        if self.tell_events:
            self.tell_deal(facts)  # the deal's findings among its events
        if found:
            self.deal_findings = []
        if self.tell_deals:
            self.visitor.end_deal(facts)

    def tell_deal(self, facts: DealFacts) -> None:
        """Tell the visitor a deal's plays, shows and findings in game order: by stage (the deal, his heels, the
        play, the hands, the crib, the board), each finding right after the event or show it is about."""
        visitor = self.visitor
        told: list[tuple[tuple[int, int, int], Callable[[Any], None], object]] = [
            ((PLAY_STAGE, fact.index, 0), visitor.visit_play, fact) for fact in facts.plays
        ] if self.tell_plays else []
        told += [((STAGE[fact.phase], i, 0), visitor.visit_show, fact) for i, fact in enumerate(facts.shows)]
        told += [((stage, at, 1), visitor.visit_finding, finding) for (stage, at), finding in self.deal_findings]
        told.sort(key=itemgetter(0))  # stable: findings at one place keep their order
        for _, tell, what in told:
            tell(what)

    def outcome(self, deals: list[DealFacts]) -> GameOutcome:
        game = self.game
        recorded, giveaway, sides_of = game.result, game.giveaway_rule, self.sides_of
        if deals and self.board_known:
            scores = self.scores_by_player(self.board)
            if giveaway:
                winners = giveaway_winners(sides_of, self.winner_side)
            else:
                winners = tuple(sides_of[self.winner_side]) if self.winner_side is not None else ()
            if recorded is not None:
                judge_result(self, scores, winners)
        else:
            if not deals:
                judge_record(self)
            scores = {}
            if recorded and recorded.scores:  # in seat order, as the board's are
                seat_of, last = self.seat_of, len(self.players)
                scores = dict(sorted(recorded.scores.items(), key=lambda item: seat_of.get(item[0], last)))
            winners = recorded_winners(self)
        if giveaway:
            winners_due = giveaway_winners(sides_of, self.winner_due_side)
        else:
            winners_due = tuple(sides_of[self.winner_due_side]) if self.winner_due_side is not None else ()
        levels = dict.fromkeys(self.players, 0)
        if winners and not giveaway:  # no skunks in a giveaway game
            skunk_level, target = self.rules.skunk_level, self.target
            for p in self.players:
                if p not in winners and p in scores:
                    levels[p] = skunk_level(scores[p], target)
        return GameOutcome(
            self.key, self.rules, self.target, deals, self.findings, scores,
            self.scores_due() if deals else {}, winners, winners_due,
            max(levels.values(), default=0), levels, self.ended_in_deal, recorded,
        )


@dataclass(frozen=True, slots=True)
class _Table:
    """Who sits where, and on which side, under which rules: the same for every game of the same variant that the
    same players play in the same seats."""

    rules: Variant
    sides: int
    players: tuple[str, ...]
    seat_of: dict[str, int]
    side_of: dict[str, int]
    player_sides: tuple[tuple[str, int], ...]
    side_of_seat: list[int]
    seat_is_side: bool
    seat_order_from: list[tuple[int, ...]]
    order_from: list[tuple[str, ...]]
    sides_of: list[list[str]]


#: a memo, bounded, by the players in seat order and the variant's name as the log gives it: a club's tables recur
_TABLES: dict[tuple[tuple[str, ...], str | None], _Table] = {}


def _table(game: AnyGame) -> _Table:
    key = (tuple(game.players), game.variant)
    table = _TABLES.get(key)
    if table is not None:
        return table
    rules, players = game.variant_rules, key[0]
    n = len(players)
    side_of_seat = [rules.side_of(seat) for seat in range(n)]
    seat_order_from = [seats_from(dealer, n) for dealer in range(n)]
    table = _Table(
        rules,
        rules.sides,
        players,
        {name: seat for seat, name in enumerate(players)},
        {name: side_of_seat[seat] for seat, name in enumerate(players)},
        tuple((name, side_of_seat[seat]) for seat, name in enumerate(players)),
        side_of_seat,
        side_of_seat == list(range(rules.sides)),
        seat_order_from,
        [tuple(players[seat] for seat in seats) for seats in seat_order_from],
        [[p for seat, p in enumerate(players) if side_of_seat[seat] == s] for s in range(rules.sides)],
    )
    if len(_TABLES) >= 4096:
        _TABLES.clear()
    _TABLES[key] = table
    return table


#: what a kind of visitor is told (see :func:`_tells`), by its class
_TELLS: dict[type, tuple[bool, bool, bool]] = {}
_TOLD = ("visit_play", "visit_show", "visit_finding", "begin_deal", "end_deal")


def _tells(visitor: ReplayVisitor) -> tuple[bool, bool, bool]:
    """Whether ``visitor`` does anything with the events (plays, shows, findings), with the plays, and with the
    deals' beginnings and ends: asked of its class once (of the visitor itself when it sets one of them)."""
    kind = type(visitor)
    own = bool(getattr(visitor, "__dict__", None)) and any(m in vars(visitor) for m in _TOLD)
    tells = None if own else _TELLS.get(kind)
    if tells is None:
        tells = (
            any(overrides(visitor, m) for m in ("visit_play", "visit_show", "visit_finding")),
            overrides(visitor, "visit_play"),
            overrides(visitor, "begin_deal") or overrides(visitor, "end_deal"),
        )
        if not own:
            _TELLS[kind] = tells
    return tells
