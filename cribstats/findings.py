"""Audit findings: the contract of findings version 1 (docs/findings.md), one value per thing the audit found.

>>> f = Finding("g1", 3, 5, "missed", "play", "Alice", 0, 2, "Alice pegged 0 for 5S (fifteen 2) but 2 was due")
>>> f.to_dict()["kind"]
'missed'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal, get_args

FindingKind = Literal[
    "missed",
    "overclaim",
    "muggins-call",
    "illegal-card",
    "over-31",
    "false-go",
    "out-of-turn",
    "unplayed",
    "bad-deal",
    "bad-discard",
    "after-end",
    "board",
    "result",
    "match-result",
    "match-dealer",
    "match-after-end",
    "scorecard",
]
Phase = Literal["deal", "play", "heels", "hand", "crib", "result", "match"]
FINDING_KINDS: tuple[str, ...] = get_args(FindingKind)
PHASES: tuple[str, ...] = get_args(Phase)
OVERCLAIM_KINDS: tuple[FindingKind, ...] = ("overclaim", "muggins-call")
"""The kinds whose ``claimed - due`` is points over-claimed by their player: a claim above the points due, and a
muggins call taking more than its victim missed there (the rules: "itself an over-claim by the caller")."""

_CLAIMS: tuple[Phase, ...] = ("play", "heels", "hand", "crib")
_AFTER: tuple[Phase, ...] = ("deal", "play", "heels", "hand", "crib")
#: each kind's phases, and whether it carries points in ``claimed`` and ``due`` (the kinds' table of
#: docs/findings.md; the match kinds and ``scorecard`` as docs/match.md gives them)
KIND_RULES: dict[FindingKind, tuple[tuple[Phase, ...], bool]] = {
    "missed": (_CLAIMS, True), "overclaim": (_CLAIMS, True), "muggins-call": (_CLAIMS, True),
    "illegal-card": (("play",), False), "over-31": (("play",), False), "false-go": (("play",), False),
    "out-of-turn": (("play",), False), "unplayed": (("play",), False),
    "bad-deal": (("deal",), False), "bad-discard": (("deal",), False), "after-end": (_AFTER, False),
    "board": (("deal",), True), "result": (("result",), True),
    "match-result": (("match",), True), "match-dealer": (("match",), False),
    "match-after-end": (("match",), False),
    "scorecard": (("result",), True),
}


@dataclass(slots=True)
class Finding:
    """One finding, with the fields of the contract in its order; ``match`` is set on match findings only."""

    game: str | None
    deal: int | None
    event: int | None
    kind: FindingKind
    phase: Phase
    player: str | None
    claimed: int | None
    due: int | None
    message: str
    match: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The contract's fields; ``match`` only on a match finding."""
        data = asdict(self)
        if data["match"] is None:
            del data["match"]
        return data


# --- messages: one sentence a player can act on; the replay and the simulator word findings alike ---------------

def play_detail(fifteen: int, thirty_one: int, pairs: int, run: int, go: int, last: int) -> str:
    """What a card earned in the play, in words; ``'nothing'`` when it earned 0.

    >>> play_detail(2, 0, 0, 3, 0, 0)
    'fifteen for 2, run of 3 for 3'
    """
    parts = []
    if fifteen:
        parts.append(f"fifteen for {fifteen}")
    if thirty_one:
        parts.append(f"thirty-one for {thirty_one}")
    if pairs:
        parts.append({2: "pair for 2", 6: "pair royal for 6", 12: "double pair royal for 12"}[pairs])
    if run:
        parts.append(f"run of {run} for {run}")
    if go:
        parts.append(f"go for {go}")
    if last:
        parts.append(f"last card for {last}")
    return ", ".join(parts) or "nothing"


def claim_message(player: str, phase: str, claimed: int, due: int, what: str) -> str:
    """For ``missed`` and ``overclaim``: ``what`` names the thing counted (``'5S'``, ``'the hand 5H 5C 5S JD'``).

    >>> claim_message("Alice", "play", 0, 2, "5S (fifteen for 2)")
    'Alice pegged 0 for 5S (fifteen for 2) but 2 was due: 2 missed'
    """
    verb = "pegged" if phase == "play" else "claimed"
    return f"{player} {verb} {claimed} for {what} but {due} was due: {_claim_gap(claimed, due)}"


def _claim_gap(claimed: int, due: int) -> str:
    return f"{due - claimed} missed" if claimed < due else f"{claimed - due} too many"


def unknown_go_claim_message(player: str, claimed: int, due: int, what: str) -> str:
    """For a claim on the last card laid when the play stops with a card still to lay: whether it earned a go is
    not known, so ``due`` is the least (a claim below it) or the most (a claim above it) that could be due.

    >>> unknown_go_claim_message("Bob", 3, 1, "4H (nothing)")[:60]
    'Bob pegged 3 for 4H (nothing) but at most 1 was due (a go fo'
    """
    bound = "at least" if claimed < due else "at most"
    return (f"{player} pegged {claimed} for {what} but {bound} {due} was due (a go for 1 or not: the play stops "
            f"while a player still had a card to lay, so whether this card earned one is not known): at least "
            f"{_claim_gap(claimed, due)}")


def play_what(card: str, detail: str) -> str:
    """What a play claim counts: ``'5S (fifteen 2)'``."""
    return f"{card} ({detail})"


def show_what(phase: str, cards: list[str], starter: str) -> str:
    """What a show claim counts: ``'the hand 5S 4S 2S 6H with starter 5H'``.

    >>> show_what("crib", ["TS", "8D", "KC", "8C"], "5H")
    'the crib TS 8D KC 8C with starter 5H'
    """
    return f"the {phase} {' '.join(cards)} with starter {starter}"


def unjudged_show_message(player: str, claimed: int, what: str, why: str) -> str:
    """A show claim that a bad deal makes impossible to judge, and why: it is credited as claimed.

    >>> unjudged_show_message("Ann", 10, show_what("hand", ["5S", "4S", "2S", "6H"], "5S"), "5S is in it twice")
    "Ann's claim of 10 for the hand 5S 4S 2S 6H with starter 5S is not judged: 5S is in it twice"
    """
    return f"{player}'s claim of {claimed} for {what} is not judged: {why}"


def heels_what(starter: str) -> str:
    return f"his heels (starter {starter})"


def pegged_what() -> str:
    return "the play"


def muggins_message(by: str, victim: str, taken: int, missed: int, what: str, *, taken_before: int = 0) -> str:
    """A muggins call that takes more than was missed (``missed``: what was left to take after the calls before
    on the same claim, which took ``taken_before``).

    >>> muggins_message("Bob", "Alice", 4, 2, "the hand 5S 4S 2S 6H with starter 5H")
    'Bob took 4 from Alice by muggins on the hand 5S 4S 2S 6H with starter 5H, but only 2 was missed there'
    >>> print(muggins_message("Cy", "Al", 4, 0, "the crib", taken_before=4))
    Cy took 4 from Al by muggins on the crib, but nothing was left to take there: an earlier call took the 4 missed
    >>> print(muggins_message("Cy", "Al", 4, 1, "it", taken_before=3))
    Cy took 4 from Al by muggins on it, but only 1 was left to take there: an earlier call took 3 of the 4 missed
    """
    took = f"{by} took {taken} from {victim} by muggins on {what}"
    if not taken_before:
        return f"{took}, but only {missed} was missed there"
    if not missed:
        return f"{took}, but nothing was left to take there: an earlier call took the {taken_before} missed"
    return (f"{took}, but only {missed} was left to take there: an earlier call took {taken_before} of the "
            f"{taken_before + missed} missed")


def muggins_heels_message(by: str, victim: str, taken: int) -> str:
    return f"{by} took {taken} from {victim} by muggins on his heels, but muggins does not apply to his heels"


def muggins_off_message(by: str, victim: str, taken: int) -> str:
    return f"{by} took {taken} from {victim} by muggins, but this game is not played with muggins"


def illegal_card_message(player: str, card: str, reason: str) -> str:
    """``reason``: 'was never dealt to Bob', 'was discarded to the crib', 'was already laid'."""
    return f"{player} laid {card}, which {reason}"


def over_31_message(player: str, card: str, count: int) -> str:
    return f"{player} laid {card} at {count}, taking the count past 31"


def false_go_message(player: str, count: int, card: str, new_count: int) -> str:
    """A go while holding a card that fits.

    >>> false_go_message("Bob", 24, "7C", 31)
    'Bob said go at 24 holding 7C (31)'
    """
    return f"{player} said go at {count} holding {card} ({new_count})"


def out_of_turn_message(player: str, act: str, in_turn: str) -> str:
    """``act`` is ``'laid 5S'`` or ``'said go holding 7C (31)'``."""
    return f"{player} {act} out of turn: it was {in_turn}'s turn"


def unplayed_message(player: str, cards: list[str]) -> str:
    return f"the play ended with {player} still holding {' '.join(cards)}, which the rules make {player} play"


def counted(n: int, word: str, plural: str = "") -> str:
    """A number with its noun in agreement: ``'1 card'``, ``'2 cards'``, ``'0 cards'``; ``plural`` for a noun
    that does not take an s (``'2 matches'``)."""
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def dealt_count_message(player: str, dealt: int, expected: int) -> str:
    """A hand dealt the wrong size.

    >>> dealt_count_message("Ann", 1, 6)
    'Ann was dealt 1 card, not 6'
    """
    return f"{player} was dealt {counted(dealt, 'card')}, not {expected}"


def duplicate_card_message(card: str, holder: str) -> str:
    return f"{card} appears twice in the deal (again {holder})"


def dealer_rotation_message(listed: str, expected: str) -> str:
    return f"{listed} is listed as dealer, but the deal passes to {expected}"


def crib_card_message(missing: bool) -> str:
    if missing:
        return "no card was dealt to the crib from the deck"
    return "a crib card from the deck is not part of this variant"


def discard_not_dealt_message(player: str, card: str) -> str:
    return f"{player} discarded {card}, which was not dealt to {player}"


def discard_count_message(player: str, count: int, expected: int) -> str:
    """Too few or too many cards laid away.

    >>> discard_count_message("P0", 1, 2), discard_count_message("P0", 3, 1)
    ('P0 discarded 1 card, not 2', 'P0 discarded 3 cards, not 1')
    """
    return f"{player} discarded {counted(count, 'card')}, not {expected}"


def after_end_message(target: int, what: str) -> str:
    """``what``: 'Bob laid 5S', 'Alice claimed her hand', 'the whole deal'."""
    return f"the game had already ended at {target}, but the log goes on: {what}"


def board_message(player: str, deal: int, recorded: int, claimed: int) -> str:
    return f"the board had {player} at {recorded} after deal {deal}, but the claims add up to {claimed}"


def result_winner_message(recorded: str, replayed: str | None, target: int) -> str:
    if replayed is None:
        return f"the log records {recorded} as the winner, but no side reached {target}"
    return f"the log records {recorded} as the winner, but {replayed} reached {target} first"


def result_reached_twice_message(reached: list[tuple[str, int]], target: int) -> str:
    """A result-only record with more than one side at the target: the game ended when the first reached it.

    >>> result_reached_twice_message([("Ann", 130), ("Cy", 121)], 121)[:50]
    'the log records Ann at 130 and Cy at 121, but the '
    """
    scores = " and ".join(f"{player} at {score}" for player, score in reached)
    return f"the log records {scores}, but the game ends the moment one side reaches {target}: only one side can"


def giveaway_winner_message(recorded: str, reached: str, target: int) -> str:
    """A giveaway game's recorded winner who reached the target: that side lost.

    >>> giveaway_winner_message("Bob", "Bob", 121)
    'the log records Bob as the winner, but Bob reached 121 first, which loses a giveaway game'
    """
    return (f"the log records {recorded} as the winner, but {reached} reached {target} first, which loses a "
            "giveaway game")


def partner_score_message(player: str, recorded: int, partner: str, partner_recorded: int) -> str:
    """A result-only record's partners at two scores: partners peg one score.

    >>> partner_score_message("S", 100, "N", 121)
    "the log records S's final score as 100, but S's partner N is recorded at 121"
    """
    return (f"the log records {player}'s final score as {recorded}, but {player}'s partner {partner} is recorded "
            f"at {partner_recorded}")


def result_score_message(player: str, recorded: int, replayed: int) -> str:
    return f"the log records {player}'s final score as {recorded}, but the claims add up to {replayed}"
