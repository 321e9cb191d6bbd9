"""cribbage-zero records (.pgn) read into game logs; the two real records checked deal by deal by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribstats.errors import LogError
from cribstats.formats import SourceGame, read_games

RECORDS = Path(__file__).parent / "data" / "cribbage-zero"
CARD_RULE = "ranks are A 2-9 T J Q K, suits C D H S"


def read_all(path: Path) -> tuple[list[SourceGame], list[str]]:
    errors: list[LogError] = []
    games = list(read_games(str(path), on_error=errors.append))
    return games, [str(e) for e in errors]


@pytest.fixture(scope="module")
def game1() -> SourceGame:
    (game,) = read_games(str(RECORDS / "game.pgn"))
    return game


@pytest.fixture(scope="module")
def game2() -> SourceGame:
    (game,) = read_games(str(RECORDS / "game2.pgn"))
    return game


def test_the_records_read_whole(game1: SourceGame, game2: SourceGame) -> None:
    assert (game1.file, game1.place) == (str(RECORDS / "game.pgn"), "game 1")
    staples, stanley = "Staples", "Stanley"
    dealers = {7: [staples, stanley, staples, stanley, staples, stanley, staples],
               6: [staples, stanley, staples, stanley, staples, stanley]}
    for record, rounds in ((game1, 7), (game2, 6)):
        game = record.game
        assert game.players == ["Staples", "Stanley"]  # FirstDealer, FirstPone
        assert (game.variant, game.target, game.muggins, game.id) == (None, None, None, None)
        assert len(game.deals) == rounds
        # [Result "1-0"]: the first dealer won (no scores are recorded)
        assert (game.result.winner, game.result.scores) == ("Staples", None)
        # the deal alternates, player 1 dealing the odd rounds
        assert [d.dealer for d in game.deals] == dealers[rounds]
        assert all(d.heels is None for d in game.deals)  # SH is never given in these records


def test_game1_round1_by_hand(game1: SourceGame) -> None:
    """H1 3D 9S TC TH TD JH D1 3D TD; H2 AD AS 4C 8C 9H QS D2 8C 9H; C 5H.
    The play: Stanley (pone) leads 4C, TH 14, AD 15 (2), TC 25, AS 26 (Staples cannot play 9S or JH, Stanley
    holds QS: go, 1), then JH 10, QS 20, 9S 29 (last card, 1): SP 0 0 2 0 1 0 0 1."""
    deal = game1.game.deals[0]
    assert deal.dealer == "Staples"
    assert deal.hands == {"Staples": ["3D", "9S", "TC", "TH", "TD", "JH"],
                          "Stanley": ["AD", "AS", "4C", "8C", "9H", "QS"]}
    assert deal.discards == {"Staples": ["3D", "TD"], "Stanley": ["8C", "9H"]}
    assert deal.starter == "5H"
    assert deal.play == [("Stanley", "4C", 0), ("Staples", "TH", 0), ("Stanley", "AD", 2), ("Staples", "TC", 0),
                         ("Stanley", "AS", 1), ("Staples", "JH", 0), ("Stanley", "QS", 0), ("Staples", "9S", 1)]
    # Stanley AD AS 4C QS + 5H: three fifteens and a pair, 8; Staples 9S TC TH JH + 5H: fifteens 6, pair 2,
    # two runs 6, nobs 1 = 15; the crib 3D TD 8C 9H + 5H: fifteen 2, run 8-9-T 3 = 5
    assert deal.show == {"Stanley": 8, "Staples": 15, "crib": 5}
    assert list(deal.show) == ["Stanley", "Staples", "crib"]  # counting order: pone, dealer, crib


def test_game1_round2_a_thirty_one_and_a_pair(game1: SourceGame) -> None:
    """Stanley deals. Staples (pone) keeps 2H 6H 8H TH, Stanley 5C 5D TD KD; 8H KD 2H 5C, 6H makes 31 (2);
    then Stanley leads 5D, TH 15 (2), TD pairs it at 25 and is the last card (2 + 1)."""
    deal = game1.game.deals[1]
    assert (deal.dealer, deal.starter) == ("Stanley", "6D")
    assert deal.discards == {"Staples": ["3D", "8C"], "Stanley": ["AD", "AC"]}
    assert deal.play == [("Staples", "8H", 0), ("Stanley", "KD", 0), ("Staples", "2H", 0), ("Stanley", "5C", 0),
                         ("Staples", "6H", 2), ("Stanley", "5D", 0), ("Staples", "TH", 2), ("Stanley", "TD", 3)]
    assert deal.show == {"Staples": 6, "Stanley": 10, "crib": 6}


def test_game1_round7_runs_in_the_second_series(game1: SourceGame) -> None:
    """Staples deals, keeps 6H 6S 9D 9H; Stanley keeps 7D 7C 7H 8H. 7C 6S 7D, 9D at 29 takes the go (1);
    then 7H, 9H, 8H (run 7-8-9, 3), 6H (run 6-7-8-9, 4, and the last card, 1): 5."""
    deal = game1.game.deals[6]
    assert (deal.dealer, deal.starter) == ("Staples", "5D")
    assert deal.play == [("Stanley", "7C", 0), ("Staples", "6S", 0), ("Stanley", "7D", 0), ("Staples", "9D", 1),
                         ("Stanley", "7H", 0), ("Staples", "9H", 0), ("Stanley", "8H", 3), ("Staples", "6H", 5)]
    assert deal.show == {"Stanley": 12, "Staples": 12, "crib": 4}


def test_game2_round1(game2: SourceGame) -> None:
    """Staples keeps TS JS JD QS, Stanley 4D 5C 5H 5D, cut TC: 5C, JD 15 (2), 4D, JS 29 (go, 1); then Stanley
    leads 5H, QS 15 (2), 5D, TS 30 (last card, 1)."""
    deal = game2.game.deals[0]
    assert deal.hands["Stanley"] == ["2D", "4D", "4C", "5C", "5H", "5D"]
    assert (deal.starter, deal.discards["Stanley"]) == ("TC", ["2D", "4C"])
    assert deal.play == [("Stanley", "5C", 0), ("Staples", "JD", 2), ("Stanley", "4D", 0), ("Staples", "JS", 1),
                         ("Stanley", "5H", 0), ("Staples", "QS", 2), ("Stanley", "5D", 0), ("Staples", "TS", 1)]
    assert deal.show == {"Stanley": 14, "Staples": 16, "crib": 2}


def test_game2_round4_one_player_lays_twice_running(game2: SourceGame) -> None:
    """Stanley deals; Staples keeps AH 9C TS QD, Stanley 6S 9S JC JH. QD 6S 9C, Stanley cannot go on (9S, JC
    over 31), Staples lays AH at 26 for the go (1); JH TS 9S (run 3, and the go at 29, 1: 4); JC last card (1)."""
    deal = game2.game.deals[3]
    assert (deal.dealer, deal.starter) == ("Stanley", "5C")
    assert deal.play == [("Staples", "QD", 0), ("Stanley", "6S", 0), ("Staples", "9C", 0), ("Staples", "AH", 1),
                         ("Stanley", "JH", 0), ("Staples", "TS", 0), ("Stanley", "9S", 4), ("Stanley", "JC", 1)]


# --- notation that cannot be read --------------------------------------------------------------------------------

TAGS = '[FirstDealer "Ann"]\n[FirstPone "Bo"]\n[Result "0-1"]\n\n'
ROUND = """1.
  H1 3D 9S TC TH TD JH  D1 3D TD  S1 15
  H2 AD AS 4C 8C 9H QS  D2 8C 9H  S2 8
  SC 5
  C 5H
  P 4C TH AD TC AS | JH QS 9S
  SP 0 0 2 0 1 0 0 1
"""


def record(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "record.pgn"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_small_record_with_heels_and_tags(tmp_path: Path) -> None:
    text = ('[Event "Engine match"]\n[Site "?"]\n[Date "2023.05.01"]\n[Round "3"]\n' + TAGS
            + ROUND.replace("  C 5H", "  C JH\n  SH 2"))
    (game,) = read_games(str(record(tmp_path, text)))
    log = game.game
    assert (log.event, log.site, log.date, log.round) == ("Engine match", None, "2023-05-01", "3")
    assert (log.players, log.result.winner) == (["Ann", "Bo"], "Bo")
    # a jack cut that Ann also holds: a rule break (a card dealt twice) the replay reports, not a notation error
    assert (log.deals[0].starter, log.deals[0].heels) == ("JH", 2)
    assert log.deals[0].play[5] == ("Ann", "JH", 0)


def test_unknown_dates_and_results_are_left_out(tmp_path: Path) -> None:
    text = '[Date "2023.??.??"]\n[Event "?"]\n' + TAGS.replace("0-1", "*") + ROUND
    (game,) = read_games(str(record(tmp_path, text)))
    assert (game.game.date, game.game.event, game.game.result) == (None, None, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[FirstDealer "Ann"]\n\n' + ROUND, 'line 1: the record has no [FirstPone "..."] tag'),
        (TAGS + ROUND.replace("AD AS 4C", "AD 1H 4C"), f"line 7: H2: '1H' is not a card: {CARD_RULE}"),
        (TAGS + ROUND.replace("SP 0 0 2 0 1 0 0 1", "SP 0 0 2 0 1 0 0"),
         "line 11: round 1: P lays 8 cards but SP gives 7 points"),
        (TAGS + ROUND.replace("JH QS 9S", "JH QS 2C"),
         "line 10: round 1: P lays 2C, which was dealt to neither player"),
        (TAGS + ROUND.replace("SC 5", "SC five"), "line 8: SC: 'five' is not a whole number of points"),
        (TAGS + ROUND.replace("  C 5H\n", ""), "line 5: round 1 has no C"),
        (TAGS + ROUND.replace("  C 5H\n", "  C 5H 6H\n"), "line 9: round 1: C is one card, found 2"),
        (TAGS + ROUND.replace("SC 5", "SC 5 H1 2C"), "line 8: round 1 gives H1 twice"),
        (TAGS + "  H1 3D\n", "line 5: expected a round number such as '1.', found 'H1 3D'"),
        (TAGS + "1.\n  3D H1\n", "line 6: '3D' comes before any key (H1, H2, D1, D2, C, P, ...)"),
        ("hello\n", "line 1: expected a tag line such as [FirstDealer \"...\"], found 'hello'"),
        ('[FirstDealer "Ann"]\n[FirstPone "Ann"]\n' + ROUND,
         "line 1: FirstDealer and FirstPone are both 'Ann'"),
        ('[FirstDealer "Ann"]\n[FirstPone "crib"]\n' + ROUND,
         "game 1: players: 'crib' cannot be a player's name: show uses it for the crib"),
    ],
)
def test_notation_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = record(tmp_path, text)
    assert read_all(path) == ([], [f"{path}:{message}"])


def test_a_bad_record_is_skipped_and_the_next_one_read(tmp_path: Path) -> None:
    bad = TAGS + ROUND.replace("AD AS 4C", "AD 1H 4C")
    path = record(tmp_path, bad + "\n" + TAGS + ROUND)
    games, errors = read_all(path)
    assert [g.place for g in games] == ["game 2"]
    assert errors == [f"{path}:line 7: H2: '1H' is not a card: {CARD_RULE}"]
    with pytest.raises(LogError):
        list(read_games(str(path)))


def test_a_discarded_card_laid_is_the_replay_s_business(tmp_path: Path) -> None:
    """Laying a discarded card breaks the rules, not the notation: it is read, laid by the one dealt it."""
    (game,) = read_games(str(record(tmp_path, TAGS + ROUND.replace("JH QS 9S", "JH QS 8C"))))
    assert game.game.deals[0].play[-1] == ("Bo", "8C", 1)


def test_an_empty_record_file(tmp_path: Path) -> None:
    path = record(tmp_path, "\n\n")
    assert read_all(path) == ([], [f"{path}: the file is empty"])
