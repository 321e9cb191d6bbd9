"""Five rules of docs/rules.md pinned through the real command, ``cribstats audit --json``, on small hand logs
(``tests/data/rules_by_hand/``, written and worked through by hand). Elsewhere these rules are tested by
comparing the program with itself (the simulator against the replay) or by reading a log back:

1. five-card: the pone of the first deal pegs 3 ("three for last"), in that deal only; the one series ends when
   neither player can lay a card, the go to whoever laid the last, and what is left stays in hand (no `unplayed`);
2. bidding: the deal passes from the dealer after a bid deal, not from the bid winner, and a dealer who wins his
   own bid deals as usual (the pone leads and shows first);
3. four-player: the show goes from the pone round the table, the dealer last, then the crib, and the game ends
   mid-show or mid-play on a partner's points, with an `after-end` finding on what follows;
4. giveaway, with partners and with three players: the side that reaches the target loses, and a result naming
   it is a `result` finding;
5. muggins with three and four players: the missed points go to the caller, or the caller's side.

Every expected value is worked out by hand from the rules (the working is in the comments), never from the
program. The boards are the audit's own: ``boards`` moves each recorded board far off and reads, from the `board`
findings that gives, what the claims add up to after each deal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cribstats.cli.app import app

DATA = Path(__file__).parent / "data" / "rules_by_hand"
FIVE_CARD = DATA / "five_card.json"
BIDDING = DATA / "bidding.json"
FOUR_PLAYER = DATA / "four_player_end.json"
GIVEAWAY = DATA / "giveaway.json"
MUGGINS = DATA / "muggins.json"

Games = list[dict[str, Any]]
Row = tuple[Any, ...]  # game, deal, event, kind, phase, player, claimed, due


def audit(*args: str) -> Any:
    return CliRunner().invoke(app, ["audit", *args], env={"COLUMNS": "200"})


def findings(path: Path) -> tuple[int, list[Row]]:
    """The exit status and the findings of ``cribstats audit --json PATH``, a row each."""
    done = audit("--json", str(path))
    assert done.exit_code in (0, 1), done.output
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    keys = ("game", "deal", "event", "kind", "phase", "player", "claimed", "due")
    return done.exit_code, [tuple(line[k] for k in keys) for line in lines]


def messages(path: Path, kind: str) -> list[str]:
    return [json.loads(line)["message"] for line in audit("--json", str(path)).stdout.splitlines()
            if json.loads(line)["kind"] == kind]


def summary(path: Path) -> dict[str, tuple[str, ...]]:
    """The summary of the table view, from its title on: each row's first cell and the cells after it."""
    out = audit(str(path)).stdout
    rows = {}
    for line in out[out.index("Summary"):].splitlines():
        cells = [cell.strip() for cell in re.split("[│┃]", line) if cell.strip()]
        if len(cells) > 1:
            rows[cells[0]] = tuple(cells[1:])
    return rows


def edited(tmp_path: Path, path: Path, change: Callable[[Games], None]) -> Path:
    """A copy of the log at ``path`` (a game or an array of games) with ``change`` made to its games."""
    games = json.loads(path.read_text(encoding="utf-8"))
    games = games if isinstance(games, list) else [games]
    change(games)
    copy = tmp_path / f"{len(list(tmp_path.iterdir()))}-{path.name}"
    copy.write_text(json.dumps(games), encoding="utf-8")
    return copy


def boards(tmp_path: Path, path: Path) -> dict[str, list[dict[str, int]]]:
    """Each game's board after each deal as the audit adds up the claims (muggins takings and three for last
    included): the recorded board of deal k is moved 1000 * k up, so that every entry of every deal is a `board`
    finding whose `due` is the audit's figure."""
    def move(games: Games) -> None:
        for game in games:
            for k, deal in enumerate(game["deals"], 1):
                deal["scores"] = {name: score + 1000 * k for name, score in deal["scores"].items()}

    found: dict[str, dict[int, dict[str, int]]] = {}
    for game, deal, _, kind, _, player, claimed, due in findings(edited(tmp_path, path, move))[1]:
        if kind == "board":
            assert claimed - due == 1000 * deal  # only the moved board is wrong
            found.setdefault(game, {}).setdefault(deal, {})[player] = due
    return {game: [deals[k] for k in sorted(deals)] for game, deals in found.items()}


def clean_summary(games: int, deals: int) -> dict[str, tuple[str, ...]]:
    return {"games audited": (str(games),), "deals": (str(deals),), "games with findings": ("0",),
            "findings": ("0",), "inputs refused": ("0",)}


# --- 1. five-card: three for last to the first pone only; one series, ended when no card fits ------------------


def test_five_card_three_for_last_goes_to_the_first_pone_only_and_the_one_series_leaves_cards_in_hand(
    tmp_path: Path,
) -> None:
    # Deal 1, Alice deals: Bob, the first pone, pegs 3 for last before the deal. Alice keeps 5S 4S 9S, Bob 6D JH
    # 4H, starter 5H. Play: JH 10, 5S 15 (fifteen 2, Alice), 6D 21, 4S 25 (run 4-5-6: 3, Alice), 4H 29 (pair 2;
    # Alice's 9S makes 38 and Bob has no card left: the series is over, go 1: 3, Bob). Shows: Bob 6D JH 4H + 5H:
    # fifteens 6-4-5 and J-5: 4, run 4-5-6: 3, nobs (JH, a heart cut): 1 = 8; Alice 5S 4S 9S + 5H: no fifteen
    # (5+4+5 = 14, 9+5 = 14, 9+4 = 13), pair of fives 2, three-card spade flush 3 (the 5H no spade) = 5; her crib
    # 8D 8C TS KC + 5H: T-5, K-5: 4, pair of eights 2 = 6. Alice 5 + 5 + 6 = 16; Bob 3 + 3 + 8 = 14.
    # Deal 2, Bob deals, the same cards the other way round: no three for last now. Alice pegs 3 (4H: pair 2, go
    # 1), Bob 5; Alice shows 8, Bob 5 and his crib 6. Alice 16 + 3 + 8 = 27 (30 with a second three), Bob 14 + 5 +
    # 5 + 6 = 30.
    # Deal 3, Alice deals: Bob keeps TD KD 9C, Alice QH 5C 8S; starter AD. TD 10, QH 20, KD 30 (T-Q-K is no run,
    # the J is missing); Alice's 5C (35) and 8S (38) and Bob's 9C (39) do not fit: the series, and the play, are
    # over, the go to Bob: 1, and three cards stay in hand with no `unplayed`. Shows: Bob TD KD 9C + AD: no fifteen
    # (T+A 11, 9+A 10, T+9 19), no pair, run, flush or jack = 0; Alice QH 5C 8S + AD: Q-5: 2 (8+5+A = 14) = 2; her
    # crib 2H 3H 7C 6S + AD: 2-6-7: 2 (the only fifteen: the five cards make 19 and only 3+A make the 4 left over),
    # run A-2-3: 3 = 5. Alice 27 + 0 + 2 + 5 = 34; Bob 30 + 1 + 0 = 31.
    assert findings(FIVE_CARD) == (0, [])
    assert boards(tmp_path, FIVE_CARD) == {"five-three-deals": [
        {"Alice": 16, "Bob": 14}, {"Alice": 27, "Bob": 30}, {"Alice": 34, "Bob": 31}]}
    assert summary(FIVE_CARD) == clean_summary(1, 3)

    # Bob claiming 0 for KD misses the go: event 2, 0 claimed, 1 due; his board of 31 is then 1 above his claims
    def no_go(games: Games) -> None:
        games[0]["deals"][2]["play"][2] = ["Bob", "KD", 0]

    assert findings(edited(tmp_path, FIVE_CARD, no_go)) == (1, [
        ("five-three-deals", 3, 2, "missed", "play", "Bob", 0, 1),
        ("five-three-deals", 3, None, "board", "deal", "Bob", 31, 30)])


# --- 2. bidding: the deal passes from the dealer; a dealer who wins his own bid deals as usual ----------------


def test_the_deal_passes_from_the_dealer_after_a_bid_and_a_dealer_who_wins_his_own_bid_deals_as_usual(
    tmp_path: Path,
) -> None:
    # Deal 1, Alice deals and Bob bids 2: Bob goes to -2 at once and takes the crib and the last show; Alice leads
    # and shows first. Alice keeps 5S 4S 2S 6H, Bob 6D JH 4H 7C; starter 5H. Play: 5S 5, JH 15 (2, Bob), 6H 21, 7C
    # 28, 2S 30 (Bob's 6D and 4H and Alice's 4S do not fit: go 1, Alice), Bob's go; 6D 6, 4S 10, 4H 14 (pair 2 and
    # last card 1: 3, Bob). Pegged: Alice 1, Bob 5. Shows: Alice 5S 4S 2S 6H + 5H: fifteens 5S-4S-6H and 5H-4S-6H:
    # 4 (the five make 22, and only 5S+2S and 5H+2S make the 7 left over), pair of fives 2, runs 4-5-6 twice 6 =
    # 12; Bob 6D JH 4H 7C + 5H: fifteens 6-4-5 and J-5: 4, run 4-5-6-7: 4, nobs 1 = 9; Bob's crib 8D 8C TS KC + 5H:
    # T-5, K-5: 4, pair 2 = 6. Alice 1 + 12 = 13; Bob -2 + 5 + 9 + 6 = 18.
    # Deal 2 is Bob's, the seat after the dealer Alice (from the bid winner, Bob, it would pass to Alice). Bob bids
    # 1 for his own crib: -1, and he deals as usual: Alice leads and shows first. Alice keeps 6D JH 4H 7C, Bob 5S
    # 4S 2S 6H. JH 10, 5S 15 (2, Bob), 7C 22, 6H 28 (run 5-6-7: 3, Bob), Alice's go (6D 34, 4H 32), 2S 30 (go 1,
    # Bob: his 4S makes 34); 6D 6, 4S 10, 4H 14 (pair and last card: 3, Alice). Pegged: Alice 3, Bob 6. Shows as in
    # deal 1, the other way round: Alice 9, Bob 12, his crib 6.
    # Alice 13 + 3 + 9 = 25; Bob 18 - 1 + 6 + 12 + 6 = 41.
    assert findings(BIDDING) == (0, [])
    assert boards(tmp_path, BIDDING) == {"bid-rotation": [{"Alice": 13, "Bob": 18}, {"Alice": 25, "Bob": 41}]}
    assert summary(BIDDING) == clean_summary(1, 2)

    # deal 2 dealt by Alice, as if the deal passed on from the bid winner: a dealer out of rotation, and nothing
    # more (Bob, who won the bid, still has the crib, and Alice still leads)
    def passed_from_the_bid_winner(games: Games) -> None:
        games[0]["deals"][1]["dealer"] = "Alice"

    assert findings(edited(tmp_path, BIDDING, passed_from_the_bid_winner)) == (1, [
        ("bid-rotation", 2, None, "bad-deal", "deal", "Alice", None, None)])

    # to 25 the show of deal 2 decides the game: after the play Alice is at 13 + 3 = 16 and Bob at 18 - 1 + 6 = 23;
    # Alice, the pone, shows first and her 9 takes her to 25; Bob's 12 (to 35) comes after the end
    def to_25(games: Games) -> None:
        games[0]["target"] = 25
        games[0]["deals"][1]["scores"] = {"Alice": 25, "Bob": 23}

    assert findings(edited(tmp_path, BIDDING, to_25)) == (1, [
        ("bid-rotation", 2, None, "after-end", "hand", "Bob", None, None)])


# --- 3. four-player: the show round the table, dealer last, then the crib; the end on a partner's points -------

# The deal of every four-player game here: Alice deals; Alice and Carol (seats 0 and 2) play against Bob and Dave
# (seats 1 and 3); starter 5H. Kept: Alice 5S 4S 2S 6H, Bob 6D JH 4H 7C, Carol 3C 9C QH 8H, Dave AD 2D 3H 9D; the
# crib 8D TS KS 8C.
# Play, Bob leading: [0] JH 10, [1] 3C 13, [2] AD 14, [3] 2S 16 (run A-2-3: 3, A/C), [4] 4H 20 (run A-2-3-4: 4,
# B/D), [5] 8H 28, [6] 3H 31 (2, B/D); [7] 4S 4, [8] 7C 11, [9] 9C 20, [10] 2D 22, [11] 5S 27 (6D, QH, 9D and 6H do
# not fit: go 1, A/C); [12] 6D 6, [13] QH 16, [14] 9D 25, [15] 6H 31 (2, the last card's point not besides: A/C).
# After the play: A/C 3 + 1 + 2 = 6, B/D 4 + 2 = 6.
# Shows: Bob 6D JH 4H 7C + 5H = 9 (as in the bidding deal); Carol 3C 9C QH 8H + 5H: Q-5: 2 (no other fifteen), no
# run (8-9 and no ten) = 2; Dave AD 2D 3H 9D + 5H: 9-5-A and 9-3-2-A: 4, run A-2-3: 3 = 7; Alice 5S 4S 2S 6H + 5H =
# 12; the crib 8D 8C TS KS + 5H: T-5, K-5: 4, pair of eights 2 = 6.


def test_four_player_shows_from_the_pone_round_to_the_dealer_then_the_crib_and_ends_on_a_partners_points(
    tmp_path: Path,
) -> None:
    # 4p-show-end, to 21: Bob 9 (B/D 15), Carol 2 (A/C 8), Dave 7 (B/D 22): the game ends on Dave's hand, for his
    # partner Bob too; Alice's hand is the first claim after the end. Boards: A/C 8, B/D 22; the winner Dave.
    # 4p-show-end-14, to 14: Bob's 9, the first hand shown, ends it (B/D 15); Carol's hand comes after the end;
    # A/C 6.
    # Together they pin the order: Carol before Bob would end the game to 14 on Bob and put the after-end on Dave,
    # with A/C at 8; Dave before Carol would end it to 21 with the after-end on Carol; the dealer first would end
    # it to 14 on Alice (A/C 18); the crib before Alice's hand would put the after-end on the crib.
    # 4p-play-end, to 5: [6] Dave's 31 takes B/D from 4 to 6 mid-play, so Alice's 4S, [7], is laid after the end.
    assert findings(FOUR_PLAYER) == (1, [
        ("4p-show-end", 1, None, "after-end", "hand", "Alice", None, None),
        ("4p-show-end-14", 1, None, "after-end", "hand", "Carol", None, None),
        ("4p-play-end", 1, 7, "after-end", "play", "Alice", None, None)])
    assert boards(tmp_path, FOUR_PLAYER) == {
        "4p-show-end": [{"Alice": 8, "Bob": 22, "Carol": 8, "Dave": 22}],
        "4p-show-end-14": [{"Alice": 6, "Bob": 15, "Carol": 6, "Dave": 15}],
        "4p-play-end": [{"Alice": 3, "Bob": 6, "Carol": 3, "Dave": 6}]}
    assert summary(FOUR_PLAYER) == {"games audited": ("3",), "deals": ("3",), "games with findings": ("3",),
                                    "findings": ("3",), "after-end": ("3",), "inputs refused": ("0",)}


# --- 4. giveaway: the side that reaches the target loses --------------------------------------------------------


def test_in_giveaway_the_side_that_reaches_the_target_loses_with_partners_and_with_three_players(
    tmp_path: Path,
) -> None:
    # 4p-giveaway and 4p-giveaway-wrong: the four-player deal above, to 21. Dave's hand takes Bob and Dave to 22:
    # they lose, and Alice and Carol, at 8, win. A result naming Carol is right; naming Bob, a `result` finding.
    # The three-player games, to 9: Ann deals; Ben keeps TC 9C 8C 3D, Cat 5H 2C AS 7S, Ann KS QS JS 2H; the crib 9D
    # 4D 6C and 5D from the pack; starter 4S. Play, Ben leading: TC 10, 5H 15 (2, Cat), KS 25, 3D 28, 2C 30, Ann
    # (QS JS 2H) and Ben (9C 8C) go, AS 31 (run 3-2-A 3 and 31 2: 5, Cat); Ann leads: QS 10, 9C 19, 7S 26, 2H 28
    # (Ben's 8C and Ann's JS do not fit, Cat is out: go 1, Ann); 8C 8, JS 18 (last card 1, Ann). Pegged: Ann 2, Ben
    # 0, Cat 7. Shows from Ben: TC 9C 8C 3D + 4S: 8-3-4: 2, run 8-9-T: 3 = 5 (Ben 5); Cat 5H 2C AS 7S + 4S:
    # 7-5-2-A: 2 (no run: no 3, no 6) = 2: Cat reaches 9 and loses; Ann's hand (4: J-Q-K 3, nobs 1) is after the
    # end. Ann (2) and Ben (5) both win: a result naming either is right; one naming Cat is a `result` finding.
    assert findings(GIVEAWAY) == (1, [
        ("4p-giveaway", 1, None, "after-end", "hand", "Alice", None, None),
        ("4p-giveaway-wrong", 1, None, "after-end", "hand", "Alice", None, None),
        ("4p-giveaway-wrong", None, None, "result", "result", None, None, None),
        ("3p-give-ann", 1, None, "after-end", "hand", "Ann", None, None),
        ("3p-give-ben", 1, None, "after-end", "hand", "Ann", None, None),
        ("3p-give-cat", 1, None, "after-end", "hand", "Ann", None, None),
        ("3p-give-cat", None, None, "result", "result", None, None, None)])
    assert messages(GIVEAWAY, "result") == [
        "the log records Bob as the winner, but Bob reached 21 first, which loses a giveaway game",
        "the log records Cat as the winner, but Cat reached 9 first, which loses a giveaway game"]
    partners, three = {"Alice": 8, "Bob": 22, "Carol": 8, "Dave": 22}, {"Ann": 2, "Ben": 5, "Cat": 9}
    assert boards(tmp_path, GIVEAWAY) == {"4p-giveaway": [partners], "4p-giveaway-wrong": [partners],
                                          "3p-give-ann": [three], "3p-give-ben": [three], "3p-give-cat": [three]}
    assert summary(GIVEAWAY) == {
        "games audited": ("5",), "deals": ("5",), "games with findings": ("5",), "findings": ("7",),
        "after-end": ("5",), "result": ("2",), "inputs refused": ("0",)}

    # the same games played plainly: the side that reached the target wins, so the results turn round
    def plain(games: Games) -> None:
        for game in games:
            del game["giveaway"]

    assert [row[0] for row in findings(edited(tmp_path, GIVEAWAY, plain))[1] if row[3] == "result"] == [
        "4p-giveaway", "3p-give-ann", "3p-give-ben"]


# --- 5. muggins with three and four players ---------------------------------------------------------------------


def test_muggins_with_three_and_four_players_gives_the_missed_points_to_the_caller_or_the_callers_side(
    tmp_path: Path,
) -> None:
    # The three-player deal above, to 121 with muggins: Ben claims 3 for TC 9C 8C 3D + 4S, which is 5: 2 missed.
    # 3p-muggins: Cat takes the 2 (a call taking what was missed is no finding of its own). Ann 2 pegged + 4 hand +
    # 14 crib (9D 4D 6C 5D + 4S: 9-6, 6-5-4D, 6-5-4S: 6, pair of fours 2, runs 4-5-6 twice 6) = 20; Ben 0 + 3 = 3;
    # Cat 7 + 2 + 2 = 11.
    # 3p-muggins-ann: Ann, the other opponent, takes 3, 1 more than Ben missed: a `muggins-call` finding, 3 taken
    # and 2 missed; the board counts what she took: Ann 20 + 3 = 23, Ben 3, Cat 7 + 2 = 9.
    # 4p-muggins, the four-player deal above with muggins: Dave claims 5 for AD 2D 3H 9D + 5H, which is 7: 2
    # missed; Carol takes them for her side: A/C 6 + 2 (Carol) + 12 (Alice) + 6 (crib) + 2 = 28, B/D 6 + 9 + 5
    # = 20.
    assert findings(MUGGINS) == (1, [
        ("3p-muggins", 1, None, "missed", "hand", "Ben", 3, 5),
        ("3p-muggins-ann", 1, None, "missed", "hand", "Ben", 3, 5),
        ("3p-muggins-ann", 1, None, "muggins-call", "hand", "Ann", 3, 2),
        ("4p-muggins", 1, None, "missed", "hand", "Dave", 5, 7)])
    assert boards(tmp_path, MUGGINS) == {
        "3p-muggins": [{"Ann": 20, "Ben": 3, "Cat": 11}],
        "3p-muggins-ann": [{"Ann": 23, "Ben": 3, "Cat": 9}],
        "4p-muggins": [{"Alice": 28, "Bob": 20, "Carol": 28, "Dave": 20}]}
    # the summary: Ben missed 2 in each three-player game, Dave 2; Ann's taking beyond the 2 missed, 1, is hers
    # over-claimed
    assert summary(MUGGINS) == {
        "games audited": ("3",), "deals": ("3",), "games with findings": ("3",), "findings": ("4",),
        "missed": ("3",), "muggins-call": ("1",), "inputs refused": ("0",),
        "player": ("missed", "over-claimed"), "Ben": ("4", "0"), "Dave": ("2", "0"), "Ann": ("0", "1")}
