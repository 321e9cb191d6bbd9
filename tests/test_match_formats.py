"""Reading matches: match records in JSON and JSON Lines, match columns on tally sheets, and scorecard sheets
cross-checked card against card (docs/match.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from cribstats.formats import SourceFinding, SourceMatch, read_paths
from cribstats.formats.scorecard import read_sheet
from cribstats.formats.sources import SourceAgreement

MATCH = {"format": "cribstats/match/1", "id": "final", "players": ["Alice", "Bob"], "rules": "best-of-3",
         "games": [{"format": "cribstats/game/1", "players": ["Alice", "Bob"],
                    "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 80}}}, "g2"]}


def read(path: Path) -> tuple[list[Any], list[Any], list[str]]:
    """The games, the records (match records and findings: cards that agree are said in :func:`agreed`) and the
    errors read from ``path``."""
    records: list[Any] = []
    errors: list[str] = []
    games = list(read_paths([str(path)], on_error=lambda e: errors.append(str(e)), on_record=records.append))
    return games, [r for r in records if not isinstance(r, SourceAgreement)], errors


def agreed(path: Path) -> list[tuple[str, str | None, tuple[str, ...]]]:
    """The games whose two cards agree, as the reader says it: (place, round, the players' name keys)."""
    records: list[Any] = []
    list(read_paths([str(path)], on_error=lambda e: None, on_record=records.append))
    return [(r.place, r.round, r.pair) for r in records if isinstance(r, SourceAgreement)]


def test_a_match_record_on_a_line_gives_its_games_and_itself(tmp_path: Path) -> None:
    path = tmp_path / "night.jsonl"
    broken = dict(MATCH, id="broken", players=["Alice"])
    path.write_bytes(b"\n".join(orjson.dumps(r) for r in (MATCH, broken)) + b"\n")
    games, records, errors = read(path)
    # the broken record is refused; its game is still a game, numbered as the record has it (docs/match.md)
    assert [(g.place, g.game.match, g.game.match_game) for g in games] == [("line 1: games[0]", "final", 1),
                                                                           ("line 2: games[0]", "broken", 1)]
    assert [(type(r), r.place, r.record.id) for r in records] == [(SourceMatch, "line 1", "final")]
    assert errors == [f"{path}:line 2: players: a match has two sides: write two names, or two partnerships "
                      "of two"]


def test_a_match_record_in_a_json_array(tmp_path: Path) -> None:
    path = tmp_path / "final.json"
    bad_card = dict(MATCH, games=[{"format": "cribstats/game/1", "players": ["Alice", "Bob"],
                                   "deals": [{"dealer": "Alice", "hands": {}, "discards": {}, "starter": "1H"}]}])
    path.write_bytes(orjson.dumps([MATCH, bad_card]))
    games, records, errors = read(path)
    assert [g.place for g in games] == ["[0].games[0]"]
    assert [r.place for r in records] == ["[0]"]
    assert errors == [f"{path}:[1].games[0].deals[0].starter: '1H' is not a card: ranks are A 2-9 T J Q K, "
                      "suits C D H S"]


def test_tally_sheets_carry_the_match_and_the_game_number(tmp_path: Path) -> None:
    path = tmp_path / "playoffs.csv"
    path.write_text("date,event,round,player1,player2,score1,score2,match,match_game\n"
                    "2026-11-03,Cup,final,Alice,Bob,121,100,cup-final,1\n"
                    "2026-11-03,Cup,final,Alice,Bob,99,121,cup-final,\n"
                    "2026-11-03,Cup,final,Alice,Bob,121,99,cup-final,0\n", encoding="utf-8")
    games, _records, errors = read(path)
    assert [(g.game.match, g.game.match_game) for g in games] == [("cup-final", 1), ("cup-final", None)]
    assert errors == [f"{path}:line 4: match_game: must be 1 or more, not 0"]


HEADER = "date,event,round,player,opponent,game_points,spread"


def cards(tmp_path: Path, *rows: str) -> tuple[list[Any], list[Any], list[str]]:
    path = tmp_path / "scorecards.csv"
    path.write_text("\n".join((HEADER, *rows)) + "\n", encoding="utf-8")
    return read(path)


def test_cards_that_agree_become_a_result_only_game(tmp_path: Path) -> None:
    # Alice wins by 71 (Bob at 50: a double skunk, 3 game points on the cards as clubs score them)
    games, records, errors = cards(tmp_path, "2026-11-03,Club,1,Alice,Bob,3,71",
                                   "2026-11-03,Club,1,Bob,Alice,0,-71")
    assert (records, errors) == ([], [])
    [g] = games
    assert (g.place, g.game.players, g.game.result.winner, g.game.result.scores, g.game.round) == (
        "lines 2, 3", ["Alice", "Bob"], "Alice", {"Alice": 121, "Bob": 50}, "1")
    assert agreed(tmp_path / "scorecards.csv") == [("lines 2, 3", "1", ("alice", "bob"))]


def test_a_card_whose_game_points_its_spread_does_not_give(tmp_path: Path) -> None:
    # Carol claims 3 with a spread of 25 (Dave at 96: no skunk, 2 due); Erin claims 2 with 40 (Fred at 81: 3 due)
    games, records, _errors = cards(tmp_path, "2026-11-03,Club,1,Carol,Dave,3,25",
                                    "2026-11-03,Club,1,Dave,Carol,0,-25",
                                    "2026-11-03,Club,1,Erin,Fred,2,40", "2026-11-03,Club,1,Fred,Erin,0,-40")
    assert games == []
    assert [(r.place, r.finding.kind, r.finding.phase, r.finding.player, r.finding.claimed, r.finding.due)
            for r in records] == [("lines 2, 3", "scorecard", "result", "Carol", 3, 2),
                                  ("lines 4, 5", "scorecard", "result", "Erin", 2, 3)]
    assert all(isinstance(r, SourceFinding) and (r.date, r.event, r.round) == ("2026-11-03", "Club", "1")
               for r in records)


def test_cards_that_cannot_tell_which_is_wrong(tmp_path: Path) -> None:
    games, records, _errors = cards(
        tmp_path,
        "2026-11-03,Club,2,Alice,Bob,2,10", "2026-11-03,Club,2,Bob,Alice,2,12",  # both claim the win
        "2026-11-03,Club,2,Carol,Dave,2,10", "2026-11-03,Club,2,Dave,Carol,0,-12",  # spreads not opposite
        "2026-11-03,Club,2,Erin,Fred,2,10",  # Fred's card is missing
    )
    assert games == []
    assert [(r.finding.player, r.finding.claimed, r.finding.due, r.finding.message) for r in records] == [
        (None, None, None, "the cards of Alice against Bob in round 2 disagree: both cards claim the win"),
        (None, None, None, "the cards of Carol against Dave in round 2 disagree: Carol's spread is +10 but Dave's "
                           "is -12, not -10"),
        ("Fred", None, None, "only Erin's card was handed in for Erin against Fred in round 2: Fred's is missing"),
    ]


def test_rows_that_are_not_cards_are_refused_and_the_rest_is_read(tmp_path: Path) -> None:
    games, _records, errors = cards(tmp_path, "2026-11-03,Club,1,Alice,Bob,1,10",
                                    "2026-11-03,Club,1,Alice,Bob,2,x",
                                    "2026-11-03,Club,1,Carol,Dave,2,5", "2026-11-03,Club,1,Dave,Carol,0,-5",
                                    "2026-11-03,Club,1,Carol,Dave,2,5")
    path = tmp_path / "scorecards.csv"
    assert errors == [
        f"{path}:line 2: game_points: '1' is not game points: a card gives 0, 2 or 3",
        f"{path}:line 3: spread: 'x' is not a spread: write a whole number such as +17 or -17",
        f"{path}:line 6: player: 'Carol' has a card for this game already (line 4)",
    ]
    assert [g.place for g in games] == ["lines 4, 5"]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 120), st.booleans(), st.booleans())
def test_two_cards_of_one_game_agree_unless_one_is_changed(spread: int, swap: bool, corrupt: bool) -> None:
    # The game points a spread gives, computed here the simple way: the loser is at 121 - spread; under 91 is a
    # skunk.
    loser_score = 121 - spread
    points = 3 if loser_score < 91 else 2
    winner_card = f"2026-11-03,Club,1,Ann,Bo,{points},{spread}"
    loser_card = f"2026-11-03,Club,1,Bo,Ann,0,{-spread}"
    if corrupt:
        winner_card = f"2026-11-03,Club,1,Ann,Bo,{5 - points},{spread}"
    rows = [loser_card, winner_card] if swap else [winner_card, loser_card]
    found: list[Any] = []
    games = list(read_sheet([HEADER, *rows], "cards.csv", on_record=found.append))
    if corrupt:
        assert games == []
        found_cards = [(f.finding.player, f.finding.claimed, f.finding.due) for f in found]
        assert found_cards == [("Ann", 5 - points, points)]
    else:
        assert [(type(f), f.pair) for f in found] == [(SourceAgreement, ("ann", "bo"))]
        [g] = games
        assert g.game.result.winner == "Ann" and g.game.result.scores == {"Ann": 121, "Bo": loser_score}


def test_a_spread_of_nothing_and_a_spread_beyond_the_target(tmp_path: Path) -> None:
    games, records, errors = cards(tmp_path, "2026-11-03,Club,1,Alice,Bob,2,0", "2026-11-03,Club,1,Bob,Alice,0,0",
                                   "2026-11-03,Club,1,Carol,Dave,2,+130")
    assert games == []
    assert [(r.finding.player, r.finding.claimed, r.finding.due) for r in records] == [
        ("Alice", 2, None), ("Bob", 0, None)]  # a spread of 0 gives no game points to either card
    path = tmp_path / "scorecards.csv"
    assert errors == [f"{path}:line 4: spread: a spread of +130 is more than the target, 121"]


def test_tables_variants_and_targets_on_scorecards(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    # the same pair twice in one round at two tables; a five-card game to 61, where a spread of 31 is a skunk
    # (the loser at 30, under 31) and 30 is not
    path.write_text("date,event,round,table,player,opponent,game_points,spread,variant\n"
                    "2026-11-03,Club,1,1,Alice,Bob,2,10,\n2026-11-03,Club,1,1,Bob,Alice,0,-10,\n"
                    "2026-11-03,Club,1,2,Alice,Bob,0,-4,\n2026-11-03,Club,1,2,Bob,Alice,2,4,\n"
                    "2026-11-03,Club,2,1,Carol,Dave,3,31,five-card\n2026-11-03,Club,2,1,Dave,Carol,0,-31,five-card\n"
                    "2026-11-03,Club,2,2,Erin,Fred,3,30,five-card\n2026-11-03,Club,2,2,Fred,Erin,0,-30,five-card\n",
                    encoding="utf-8")
    games, records, errors = read(path)
    assert errors == []
    assert [(g.game.result.winner, g.game.result.scores, g.game.variant) for g in games] == [
        ("Alice", {"Alice": 121, "Bob": 111}, None), ("Bob", {"Alice": 117, "Bob": 121}, None),
        ("Carol", {"Carol": 61, "Dave": 30}, "five-card")]
    assert [(r.finding.player, r.finding.claimed, r.finding.due) for r in records] == [("Erin", 3, 2)]


def test_the_two_cards_of_a_game_pair_by_name_key_and_event_with_case_ignored(tmp_path: Path) -> None:
    # The second card of each game spells a name (or the event) otherwise: in case, or with other spacing. They
    # are still one player and one game; the game keeps the first card's names and the sheet's first event.
    games, records, errors = cards(tmp_path, "2026-12-01,Night,1,Alice,Bob,2,+18",
                                   "2026-12-01,Night,1,bob,alice,0,-18",
                                   "2026-12-01,Night,2,Mary  Ann,Carol,2,+10",
                                   "2026-12-01,Night,2,Carol,Mary Ann,0,-10",
                                   "2026-12-01,night,3,Bob,Carol,2,5",
                                   "2026-12-01,Night,3,carol, BOB,0,-5")
    assert (records, errors) == ([], [])
    assert [(g.place, g.game.event, g.game.players, g.game.result.scores) for g in games] == [
        ("lines 2, 3", "Night", ["Alice", "Bob"], {"Alice": 121, "Bob": 103}),
        ("lines 4, 5", "Night", ["Mary  Ann", "Carol"], {"Mary  Ann": 121, "Carol": 111}),
        ("lines 6, 7", "Night", ["Bob", "Carol"], {"Bob": 121, "Carol": 116}),
    ]


def test_a_card_naming_one_player_twice_in_two_spellings_is_refused(tmp_path: Path) -> None:
    games, _records, errors = cards(tmp_path, "2026-12-01,Night,1,Alice,ALICE,2,+18",
                                    "2026-12-01,Night,1,Bob,Carol,2,+5", "2026-12-01,Night,1,carol,bob,0,-5",
                                    "2026-12-01,Night,1,BOB,Carol,2,+5")
    path = tmp_path / "scorecards.csv"
    assert errors == [
        f"{path}:line 2: player 'Alice' and opponent 'ALICE' differ only in case or spacing: they would be one "
        "player",
        f"{path}:line 5: player: 'BOB' has a card for this game already (line 3)",
    ]
    assert [g.place for g in games] == ["lines 3, 4"]


def test_a_sheet_whose_cards_spell_names_otherwise_imports_every_game(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cribstats.cli.app import app

    sheet = tmp_path / "cards.csv"
    sheet.write_text("\n".join((HEADER, "2026-12-01,Night,1,Alice,Bob,2,+18", "2026-12-01,Night,1,bob,alice,0,-18",
                                "2026-12-01,Night,2,Mary  Ann,Carol,2,+10",
                                "2026-12-01,night,2,Carol,Mary Ann,0,-10")) + "\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'cards.db'}"
    runner = CliRunner()
    done = runner.invoke(app, ["import", "--db", db, "-q", str(sheet)])
    assert done.exit_code == 0, done.output
    listed = runner.invoke(app, ["games", "--db", db, "--format", "json"])
    assert [(g["event"], g["players"], g["winners"]) for g in orjson.loads(listed.stdout)] == [
        ("Night", ["Alice", "Bob"], ["Alice"]), ("Night", ["Mary  Ann", "Carol"], ["Mary  Ann"])]
    night = runner.invoke(app, ["night", "--db", db, "--event", "night", "--date", "2026-12-01", "-f", "json"])
    assert [r["player"] for r in orjson.loads(night.stdout)] == ["Alice", "Mary  Ann", "Carol", "Bob"]
    found = runner.invoke(app, ["audit", "--json", str(sheet)])
    assert (found.exit_code, found.stdout) == (0, "")  # no card is missing, none disagrees


def test_a_scorecard_of_a_variant_for_more_than_two_is_refused_in_a_scorecards_words(tmp_path: Path) -> None:
    # a card is one player against one opponent: three- and four-player games have no scorecard row
    path = tmp_path / "cards.csv"
    path.write_text("date,event,round,player,opponent,game_points,spread,variant\n"
                    "2026-11-03,Club,1,Alice,Bob,2,10,four-player\n", encoding="utf-8")
    games, records, errors = read(path)
    assert (games, records) == ([], [])
    assert errors == [f"{path}:line 2: variant: four-player is played by 4: a row of this sheet is a game "
                      "between two players"]


def test_two_cards_of_one_game_that_name_other_games_disagree(tmp_path: Path) -> None:
    # match.md: the two cards of a game must agree. Bob's card says five-card (to 61), Carol's says nothing
    # (six-card, to 121): they are not cards of one game, so neither is taken as the game. In round 2 both are
    # six-card, but the targets written differ (121 and 61).
    path = tmp_path / "cards.csv"
    path.write_text("date,event,round,player,opponent,game_points,spread,variant,target\n"
                    "2026-11-05,N,1,Bob,Carol,3,+31,five-card,\n2026-11-05,N,1,Carol,Bob,0,-31,,\n"
                    "2026-11-05,N,2,Bob,Carol,2,+20,,121\n2026-11-05,N,2,Carol,Bob,0,-20,,61\n", encoding="utf-8")
    games, records, errors = read(path)
    assert (games, errors) == ([], [])
    assert [(r.place, r.finding.kind, r.finding.player, r.finding.claimed, r.finding.due, r.finding.message)
            for r in records] == [
        ("lines 2, 3", "scorecard", None, None, None,
         "the cards of Bob against Carol in round 1 disagree: Bob's is a five-card game to 61 but Carol's a "
         "six-card game to 121"),
        ("lines 4, 5", "scorecard", None, None, None,
         "the cards of Bob against Carol in round 2 disagree: Bob's is a six-card game to 121 but Carol's a "
         "six-card game to 61"),
    ]


def test_a_card_naming_one_player_with_and_without_a_joiner_says_so(tmp_path: Path) -> None:
    # a family emoji written with its zero-width joiners and without them: one player by the name rule
    joined, unjoined = "Ann \U0001f468\u200d\U0001f469", "Ann \U0001f468\U0001f469"
    _games, _records, errors = cards(tmp_path, f"2026-12-01,Night,1,{joined},{unjoined},2,+18")
    assert errors == [
        f"{tmp_path / 'scorecards.csv'}:line 2: player '{joined}' and opponent '{unjoined}' differ only in case, "
        "spacing or joiners: they would be one player",
    ]
