"""One whole simulated game, played deal by deal into a game log (docs/game-log.md) and its findings.

The table's score follows the claims (with muggins takings and five-card's three for last), as the audit's
does: the game ends the moment a side's claimed score reaches the target, mid-play, on his heels or mid-show,
and the log stops there.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, field
from typing import Any, Literal

from cribstats.cards import CARD_TEXT, DECK, Card
from cribstats.gamelog import FORMAT, GO
from cribstats.pegging import PegScore
from cribstats.play import VALUE, PlayState, peg_score
from cribstats.scoring import THIRTY_ONE, heels_points, score_show_total
from cribstats.simulate import mistakes as mk
from cribstats.simulate.mistakes import Mistakes
from cribstats.simulate.players import Player, choose_discards, choose_play, random_discard
from cribstats.variants import Variant, seat_after, seats_from

MAX_DEALS = 500  # a game that has not ended by then is a bug
TEXT = CARD_TEXT  # canonical spelling by card


class SimulationError(RuntimeError):
    """The simulator broke its own invariants (never expected)."""


@dataclass(slots=True)
class Step:
    """One event of the play as it happened: a card laid or a go said."""

    seat: int
    card: Card | None  # None for a go
    count: int  # the count after a card laid; before a card past 31; at the moment of a go
    points: int | None = None  # the card's own points (None for a go and for a card past 31)
    start: int = 0  # index of the first event of its series
    go: int = 0  # go or last-card point this card took when its series closed
    last: bool = False  # that point was for the last card of the play
    closes: int | None = None  # on the last event of a series: the index of the card taking the go point, or -1
    over: bool = False  # laid past 31
    false_go: bool = False
    fit: Card | None = None  # for a false go: a card that fitted


@dataclass(slots=True)
class GameSetup:
    """What a game is played with."""

    game_id: str
    variant: Variant
    players: list[Player]  # seat order
    target: int
    muggins: bool = False
    meta: dict[str, str] = field(default_factory=dict)  # event, date, site, round
    random_players: bool = False  # the benchmark's baseline: any discard, any card that fits
    method: str = "table"  # how discards are valued (see players.hand_values)


class _GameEnded(Exception):
    """Unwinds the deal when a side reaches the target."""


class GameRun:
    """Plays one game. ``rng`` makes every choice of cards and play; ``mistakes`` every error."""

    def __init__(self, setup: GameSetup, rng: random.Random, mistakes: Mistakes) -> None:
        self.setup = setup
        self.v = setup.variant
        self.rng = rng
        self.mistakes = mistakes
        self.names = [p.name for p in setup.players]
        self.n = len(self.names)
        self.side = [self.v.side_of(s) for s in range(self.n)]
        self.score = [0] * self.v.sides
        self.findings: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.offsets: dict[str, int] = {}  # how far each board position was off after the deal before
        self.number = 0
        self.opponents = [[o for o in range(self.n) if self.side[o] != self.side[s]] for s in range(self.n)]

    # --- the board ----------------------------------------------------------------------------------------

    def add(self, seat: int, points: int) -> None:
        """Peg ``points`` for ``seat``'s side; raises :class:`_GameEnded` when that reaches the target."""
        side = self.side[seat]
        self.score[side] += points
        if self.score[side] >= self.setup.target:
            self.winner = seat
            raise _GameEnded

    def board(self) -> dict[str, int]:
        return {self.names[s]: self.score[self.side[s]] for s in range(self.n)}

    def fits_no_end(self, extra: int) -> bool:
        """True when no side can reach the target even with ``extra`` more points."""
        return max(self.score) + extra < self.setup.target

    # --- the game -----------------------------------------------------------------------------------------

    def play(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The game log and its expected findings."""
        setup = self.setup
        log: dict[str, Any] = {"format": FORMAT, "id": setup.game_id}
        log.update(setup.meta)
        log["variant"] = self.v.name
        log["target"] = setup.target
        if setup.muggins:
            log["muggins"] = True
        log["players"] = list(self.names)
        deals: list[dict[str, Any]] = []
        log["deals"] = deals
        dealer = self.rng.randrange(self.n)
        if self.v.first_deal_bonus:
            self.add(seat_after(dealer, self.n), self.v.first_deal_bonus)
        while self.winner is None:
            self.number += 1
            if self.number > MAX_DEALS:
                raise SimulationError(f"game {setup.game_id} did not end in {MAX_DEALS} deals")
            deal: dict[str, Any] = {}
            deals.append(deal)
            with contextlib.suppress(_GameEnded):
                self.deal(deal, dealer)
            self.record_board(deal)
            dealer = seat_after(dealer, self.n)
        log["result"] = self.result()
        return log, self.findings

    def record_board(self, deal: dict[str, Any]) -> None:
        scores = self.board()
        offsets = dict.fromkeys(scores, 0)
        if self.mistakes.happens("board"):
            name = self.names[self.mistakes.rng.randrange(self.n)]
            recorded = self.mistakes.slip(scores[name], self.offsets.get(name, 0))
            found = mk.board_finding(self.setup.game_id, self.number, name, recorded, scores[name])
            self.findings.append(found)
            offsets[name] = recorded - scores[name]
            scores[name] = recorded
        self.offsets = offsets
        deal["scores"] = scores

    def result(self) -> dict[str, Any]:
        assert self.winner is not None
        winner = self.names[self.winner]
        scores = self.board()
        if self.mistakes.happens("result"):
            game_id = self.setup.game_id
            losers = [s for s in range(self.n) if self.side[s] != self.side[self.winner]]
            if self.mistakes.rng.random() < 0.3:
                wrong = self.names[self.mistakes.rng.choice(losers)]
                first = next(self.names[s] for s in range(self.n) if self.side[s] == self.side[self.winner])
                self.findings.append(mk.result_winner_finding(game_id, wrong, first, self.setup.target))
                winner = wrong
            else:
                name = self.names[self.mistakes.rng.randrange(self.n)]
                recorded = self.mistakes.slip(scores[name])
                if recorded != scores[name]:
                    self.findings.append(mk.result_score_finding(game_id, name, recorded, scores[name]))
                    scores[name] = recorded
        return {"winner": winner, "scores": scores}

    def cut_deck(self, k: int) -> list[Card]:
        """The first ``k`` cards of a shuffled deck (a partial Fisher-Yates shuffle)."""
        deck = list(DECK)
        random = self.rng.random
        for i in range(k):
            j = i + int(random() * (52 - i))
            deck[i], deck[j] = deck[j], deck[i]
        return deck[:k]

    # --- one deal ----------------------------------------------------------------------------------------

    def deal(self, deal: dict[str, Any], dealer: int) -> None:
        v, n, names = self.v, self.n, self.names
        deck = self.cut_deck(n * v.dealt + v.crib_from_deck + 1)
        order = seats_from(dealer, n)  # pone first, the dealer last
        dealt: list[list[Card]] = [[] for _ in range(n)]
        pos = 0
        for seat in order:
            dealt[seat] = deck[pos : pos + v.dealt]
            pos += v.dealt
        crib_card = deck[pos] if v.crib_from_deck else None
        pos += v.crib_from_deck
        starter = deck[pos]
        if self.setup.random_players:
            chosen = [random_discard(self.rng, dealt[seat], v.to_crib) for seat in range(n)]
        else:
            signs = [1 if self.side[seat] == self.side[dealer] else -1 for seat in range(n)]
            strengths = [p.strength for p in self.setup.players]
            chosen = choose_discards(self.rng, dealt, v.to_crib, signs, strengths, method=self.setup.method)
        kept = [c[0] for c in chosen]
        thrown = [c[1] for c in chosen]
        deal["dealer"] = names[dealer]
        deal["hands"] = {names[s]: [TEXT[c] for c in dealt[s]] for s in range(n)}
        if crib_card is not None:
            deal["crib_card"] = TEXT[crib_card]
        deal["discards"] = {names[s]: [TEXT[c] for c in thrown[s]] for s in range(n)}
        deal["starter"] = TEXT[starter]
        if heels_points(starter):
            claim = heels_points(starter)
            if self.mistakes.happens("heels"):
                claim = 0
                self.findings.append(mk.heels_finding(self.setup.game_id, self.number, names[dealer], 0, starter))
            deal["heels"] = claim
            self.add(dealer, claim)
        calls: list[dict[str, Any]] = []
        try:
            self.play_deal(deal, [list(k) for k in kept], dealer, calls)
            self.show(deal, kept, thrown, crib_card, starter, order, dealer, calls)
        finally:
            if calls:
                deal["muggins"] = calls

    # --- the play -------------------------------------------------------------------------------------------

    def play_out(self, held: list[list[Card]], dealer: int) -> list[Step]:
        """Every event of the play, with the points due; errors of play (false go, past 31) included.

        The rules (whose turn, what fits, when a series is over, the go point) are the :class:`PlayState`'s;
        this chooses the cards, says go when another player can still act, and makes the mistakes.
        """
        state = PlayState(held, dealer, single_series=self.v.single_series)
        steps: list[Step] = []
        players = self.setup.players
        erring = self.mistakes.rate > 0.0
        happens = self.mistakes.happens
        while not state.over:
            last_card: int | None = None
            over = False
            start = len(steps)
            while state.count < THIRTY_ONE:
                p = state.turn()
                if p is None:
                    break  # no one can act: the series is over
                hand = state.held[p]
                count = state.count
                fits = state.legal_cards(p)
                if fits:
                    if erring and count > 0 and happens("false-go"):
                        steps.append(Step(p, None, count, false_go=True, fit=fits[0]))
                        state.go(p)
                        continue
                    if erring and len(fits) < len(hand) and happens("over-31"):
                        over = True  # a card that does not fit, laid instead of one that does
                    elif self.setup.random_players:
                        card = fits[self.rng.randrange(len(fits))]
                    else:
                        gone = state.gone
                        answer = any(state.held[s] and s not in gone for s in self.opponents[p])
                        card = choose_play(self.rng, fits, hand, count, state.series, answer, players[p].strength)
                elif erring and happens("over-31") and self.others_fit(state, p):
                    over = True  # laid instead of a go while another can still play
                elif state.others_in(p):
                    steps.append(Step(p, None, count))
                    state.go(p)
                    continue
                else:
                    break  # the last to lay cannot go on: the series is over (the layer does not say go)
                if over:
                    card = min((c for c in hand if not state.fits(c)), key=VALUE.__getitem__)
                    state.lay_over(p, card)
                    steps.append(Step(p, card, count, over=True))
                    break
                points = state.lay(p, card)
                steps.append(Step(p, card, state.count, points=points, start=start))
                last_card = len(steps) - 1
            if not steps:
                raise SimulationError("a play with no events")
            point, _ = state.close_series(point=not over and last_card is not None)
            if over or last_card is None:
                steps[-1].closes = -1
            else:
                steps[-1].closes = last_card
                closer = steps[last_card]
                if point:
                    closer.go = point
                    closer.last = state.all_laid  # else a go (in five-card, cards may stay in hand)
        return steps

    def play_deal(
        self, deal: dict[str, Any], held: list[list[Card]], dealer: int, calls: list[dict[str, Any]]
    ) -> None:
        """Lay the play into ``deal["play"]``, pegging claims (and muggins calls) as the table made them."""
        steps = self.play_out(held, dealer)
        game_id, number, names = self.setup.game_id, self.number, self.names
        claims = [(s.points + s.go) if s.points is not None else 0 for s in steps]
        # Claim errors and play muggins calls are made only when no side can reach the target in this play
        # whatever they are, so that the end of the game never hangs on how a claim splits into its parts.
        errors: list[dict[str, Any]] = []
        taken: list[tuple[int, int, int]] = []  # (event, caller seat, points)
        wrong = list(claims)
        for i, s in enumerate(steps):
            if s.points is None or s.card is None or not self.mistakes.rate:
                continue
            laid, due = s.card, claims[i]
            claim = self.mistakes.wrong_claim(due)
            if claim != due:
                go, last = (0, s.go) if s.last else (s.go, 0)
                what = mk.peg_what(laid, self.peg_score(steps, i), go, last)
                errors.append(mk.claim_finding(game_id, number, i, "play", names[s.seat], claim, due, what))
            wrong[i] = claim
            if self.setup.muggins and claim <= due:
                caller = self.opponent(s.seat)
                points = self.muggins_points(due - claim)
                if points > due - claim:
                    go, last = (0, s.go) if s.last else (s.go, 0)
                    what = mk.peg_what(laid, self.peg_score(steps, i), go, last)
                    errors.append(mk.muggins_finding(game_id, number, i, "play", names[caller], names[s.seat],
                                                     points, due - claim, what))
                if points:
                    taken.append((i, caller, points))
        extra = sum(max(0, w - c) for w, c in zip(wrong, claims, strict=True)) + sum(t[2] for t in taken)
        end = len(steps)
        ended = False
        if (errors or taken) and self.fits_no_end(sum(claims) + extra):
            for i, s in enumerate(steps):
                if s.card is not None:
                    self.score[self.side[s.seat]] += wrong[i]
            claims = wrong
            for i, caller, points in taken:
                self.score[self.side[caller]] += points
                calls.append({"by": names[caller], "from": names[steps[i].seat], "phase": "play", "points": points,
                              "event": i})
            play_findings = errors
        else:
            play_findings = []
            for i, s in enumerate(steps):
                try:
                    if s.points is not None:
                        try:
                            self.add(s.seat, s.points)
                        except _GameEnded:
                            claims[i] = s.points  # the game ends on the card: no go point for it
                            raise
                    if s.closes is not None and s.closes >= 0 and steps[s.closes].go:
                        self.add(steps[s.closes].seat, steps[s.closes].go)
                except _GameEnded:
                    end = i + 1
                    ended = True
                    break
        for i, s in enumerate(steps[:end]):
            if s.false_go and s.fit is not None:
                play_findings.append(mk.false_go_finding(game_id, number, i, names[s.seat], s.count, s.fit))
            elif s.over and s.card is not None:
                play_findings.append(mk.over_31_finding(game_id, number, i, names[s.seat], s.card, s.count))
        play_findings.sort(key=lambda f: f["event"])  # stable: a claim's finding before its muggins call's
        self.findings.extend(play_findings)
        deal["play"] = [
            [names[s.seat], GO] if s.card is None else [names[s.seat], TEXT[s.card], claims[i]]
            for i, s in enumerate(steps[:end])
        ]
        if ended:
            raise _GameEnded

    def others_fit(self, state: PlayState, seat: int) -> bool:
        """Whether a player other than ``seat`` who has not said go holds a card that fits."""
        gone = state.gone
        return any(s != seat and s not in gone and state.can_lay(s) for s in range(self.n))

    @staticmethod
    def peg_score(steps: list[Step], i: int) -> PegScore:
        """The breakdown of a card's own points, for the message of a wrong claim."""
        series = tuple(s.card >> 2 for s in steps[steps[i].start : i + 1] if s.card is not None)
        return peg_score(series, steps[i].count)

    def opponent(self, seat: int) -> int:
        """The next seat after ``seat`` on another side: who calls muggins on ``seat``'s claims."""
        for k in range(1, self.n):
            other = (seat + k) % self.n
            if self.side[other] != self.side[seat]:
                return other
        raise SimulationError("no opponent")

    def muggins_points(self, missed: int) -> int:
        """What an opponent takes by muggins from a claim ``missed`` short: usually all of it when it is short,
        now and then more than was missed."""
        rng = self.mistakes.rng
        if self.mistakes.happens("muggins-call"):
            return missed + self.mistakes.extra_taken()
        if missed and rng.random() < 0.6:
            return missed
        return 0

    # --- the show -------------------------------------------------------------------------------------------

    def show(
        self, deal: dict[str, Any], kept: list[list[Card]], thrown: list[list[Card]], crib_card: Card | None,
        starter: Card, order: tuple[int, ...], dealer: int, calls: list[dict[str, Any]],
    ) -> None:
        shown: dict[str, int] = {}
        deal["show"] = shown
        crib = [c for t in thrown for c in t] + ([crib_card] if crib_card is not None else [])
        shows: list[tuple[int, Literal["hand", "crib"], list[Card]]] = [(s, "hand", kept[s]) for s in order]
        for seat, phase, cards in [*shows, (dealer, "crib", crib)]:
            name = self.names[seat]
            due = score_show_total(cards, starter, crib=phase == "crib")
            claim = self.mistakes.wrong_claim(due)
            shown["crib" if phase == "crib" else name] = claim
            game_id, number = self.setup.game_id, self.number
            if claim != due:
                what = mk.hand_what(phase, cards, starter)
                self.findings.append(mk.claim_finding(game_id, number, None, phase, name, claim, due, what))
            self.add(seat, claim)
            if self.setup.muggins and claim <= due:
                caller = self.opponent(seat)
                points = self.muggins_points(due - claim)
                if points > due - claim:
                    what = mk.hand_what(phase, cards, starter)
                    self.findings.append(mk.muggins_finding(game_id, number, None, phase, self.names[caller], name,
                                                            points, due - claim, what))
                if points:
                    calls.append({"by": self.names[caller], "from": name, "phase": phase, "points": points})
                    self.add(caller, points)
