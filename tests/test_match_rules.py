"""The match contract (docs/match.md): records, rules and their shorthands, the writer, and the judgment of a
match from its games, with values worked out by hand.

In a 121 game the loser is skunked under 91, double skunked under 61 and triple skunked under 31.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribstats.gamelog import validate_game
from cribstats.match.audit import MatchCollector
from cribstats.match.judge import MatchGame, judge_match
from cribstats.match.model import (
    MatchError,
    MatchResult,
    MatchRules,
    dump_match,
    inline_games,
    listed_games,
    match_hash,
    validate_match,
)
from cribstats.replay import replay

AB = (("Alice",), ("Bob",))


def won(number: int, winner: str, loser_score: int, first_dealer: str | None = None) -> MatchGame:
    """Game ``number`` of Alice against Bob, won by ``winner`` with the loser at ``loser_score``."""
    level = sum(loser_score < line for line in (91, 61, 31))
    return MatchGame(number, f"g{number}", ("Alice", "Bob"), "six-card", (winner,), level, first_dealer)


def record(**fields: Any) -> dict[str, Any]:
    return {"format": "cribstats/match/1", "id": "m", "players": ["Alice", "Bob"], **fields}


# --- rules -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shorthand", "first_to", "count"), [
    ("best-of-3", 2, "games"), ("best-of-5", 3, "games"), ("best-of-7", 4, "games"), ("points-7", 7, "points"),
    ("points-121", 121, "points"),
])
def test_shorthands_stand_for_their_object_form(shorthand: str, first_to: int, count: str) -> None:
    rules = validate_match(record(rules=shorthand)).rules
    assert (rules.first_to, rules.count, rules.points, rules.triple_skunk_wins, rules.first_dealer) == (
        first_to, count, [1, 2, 3], False, "loser")


def test_the_default_is_best_of_three_and_the_writer_writes_the_object_form() -> None:
    match = validate_match(record())
    assert dump_match(match)["rules"] == {"first_to": 2, "count": "games", "points": [1, 2, 3],
                                          "triple_skunk_wins": False, "first_dealer": "loser"}
    assert match_hash(validate_match(record(rules="best-of-3"))) == match_hash(
        validate_match(record(rules={"count": "games", "first_to": 2})))


@pytest.mark.parametrize(("fields", "place", "message"), [
    ({"rules": "best-of-4"}, "rules", "'best-of-4' is not a match rule: write best-of-3, best-of-5, best-of-7 or "
     "points-N, or the rules as an object"),
    ({"rules": {"first_to": 0}}, "rules.first_to", "must be 1 or more, not 0"),
    ({"rules": {"first_dealer": "winner"}}, "rules.first_dealer",
     "'winner' is not a first_dealer: use one of loser, alternate, cut"),  # match.md's three, not a card's rule
    ({"rules": {"count": "sets"}}, "rules.count", "'sets' is not a count: use one of games, points"),
    ({"rules": {"points": [1, 2]}}, "rules.points",
     "match points are three numbers, for a win, a skunk win and a double-skunk win: not 2"),
    ({"rules": {"points": [1, 2, 3, 4]}}, "rules.points",
     "match points are three numbers, for a win, a skunk win and a double-skunk win: not 4"),
    ({"format": "cribstats/match/2"}, "format",
     "'cribstats/match/2' is not a format cribstats reads: expected 'cribstats/game/1' (a game) or "
     "'cribstats/match/1' (a match record)"),
    ({"players": ["Alice", "Alice"]}, "players", "'Alice' is named twice: the two sides are different players"),
    ({"players": [["Alice", "Carol"], "Bob"]}, "players", None),
    ({"result": {"winner": "Carol"}}, "result.winner", "'Carol' is not a player of this match"),
    ({"result": {"points": {"Alice": 1, "Bob": 2, "Carol": 0}}}, "result.points",
     "'Carol' is not a player of this match"),
    ({"games": [5]}, "games[0]", "a game of a match is a game log (an object) or a game id (a string)"),
    ({"games": [{"format": "cribstats/game/1", "players": ["Alice", "Carol"]}]}, "games[0].players",
     "this game is between Alice and Carol, not the match's two sides: every game of a match has the same sides"),
    ({"games": [{"format": "cribstats/game/1", "players": ["Alice", "Bob"], "match": "other"}]}, "games[0].match",
     "this game names match 'other', not 'm'"),
    ({"games": [{"format": "cribstats/game/1", "players": ["Alice", "Bob"], "match_game": 2}]},
     "games[0].match_game", "this is game 1 of the match, not 2"),
    ({"id": ""}, "id", "must not be empty"),
    # partners sit opposite: N, S, E, W in seat order is N and E against S and W, not the record's N-S against E-W
    ({"players": [["N", "S"], ["E", "W"]],
      "games": [{"format": "cribstats/game/1", "variant": "four-player", "players": ["N", "S", "E", "W"]}]},
     "games[0].players", "this game is between N and E against S and W, not the match's two sides: every game of "
     "a match has the same sides"),
])
def test_records_that_break_the_contract_are_refused_with_their_place(
    fields: dict[str, Any], place: str, message: str | None
) -> None:
    with pytest.raises(MatchError) as caught:
        validate_match(record(**fields))
    assert caught.value.place == place
    if message is not None:
        assert caught.value.message == message


def test_whole_games_take_the_match_id_and_their_number() -> None:
    g = {"format": "cribstats/game/1", "players": ["Bob", "Alice"], "result": {"winner": "Bob"}}
    match = validate_match(record(games=["first", g]))
    [(number, game)] = inline_games(match)
    assert (number, game.match, game.match_game) == (2, "m", 2)
    from cribstats.gamelog import dump_game, game_key
    assert dump_game(game)["match"] == "m"  # so that the stored game carries it
    assert listed_games(match) == [(1, "first", "games[0]"), (2, game_key(game), "games[1]")]


def test_a_records_names_and_text_follow_the_name_rule() -> None:
    """The sides are names like a game's players: an NFD spelling is the NFC player of the games, and a name or a
    free-text field the rule refuses is refused at its place (cribstats.names)."""
    nfd, nfc = "Zoe\u0308", "Zo\u00eb"
    g = {"format": "cribstats/game/1", "players": [nfc, "Bob"], "result": {"winner": nfc}}
    match = validate_match(record(players=[nfd, "Bob"], games=[g], result={"winner": nfd, "points": {nfd: 1}}))
    assert match.sides == ((nfc,), ("Bob",))
    assert match.result is not None and match.result.winner == nfc and match.result.points == {nfc: 1}
    refusals = [
        (record(players=["Alice", "Bob\u200b"]), "players[1]"),
        (record(players=[["Alice", "Carol"], ["Bob", "Dave\tX"]]), "players[1][1]"),
        (record(event="Club\x1b[31m"), "event"),
        (record(site="x" * 201), "site"),
        (record(round="\u202eR"), "round"),
    ]
    for data, place in refusals:
        with pytest.raises(MatchError) as caught:
            validate_match(data)
        assert caught.value.place == place, (data, caught.value)


# --- the writer round-trips every record ------------------------------------------------------------------------

names = st.sampled_from(["Alice", "Bob", "Carol", "Dave", "Mary Ann", "Zoë"])
# ids under the name and text rule (cribstats.names): no control, format, private-use or unassigned characters
id_text = st.text(alphabet=st.characters(exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")),
                  min_size=1, max_size=8)
# free text under the same rule, already in NFC (the reader puts text in NFC, so a round trip keeps only that)
free_text = st.text(alphabet=st.characters(exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")),
                    max_size=10).filter(lambda s: unicodedata.normalize("NFC", s) == s)


def _each_id_once(games: list[Any]) -> bool:
    ids = [g for g in games if isinstance(g, str)]
    return len(ids) == len(set(ids))


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    four = draw(st.booleans())
    people = draw(st.lists(names, min_size=4 if four else 2, max_size=4 if four else 2, unique=True))
    players: list[Any] = [people[:2], people[2:]] if four else people
    seats = [people[0], people[2], people[1], people[3]] if four else people
    data: dict[str, Any] = {"format": "cribstats/match/1", "id": draw(id_text),
                            "players": players}
    for field in ("event", "site", "round"):
        if draw(st.booleans()):
            data[field] = draw(free_text)
    if draw(st.booleans()):
        data["date"] = draw(st.dates()).isoformat()
    rules = draw(st.one_of(
        st.none(), st.sampled_from(["best-of-3", "best-of-5", "best-of-7", "points-7"]),
        st.fixed_dictionaries({}, optional={
            "first_to": st.integers(1, 9), "count": st.sampled_from(["games", "points"]),
            "points": st.lists(st.integers(0, 5), min_size=3, max_size=3), "triple_skunk_wins": st.booleans(),
            "first_dealer": st.sampled_from(["loser", "alternate", "cut"])})))
    if rules is not None:
        data["rules"] = rules
    if draw(st.booleans()):
        variant = "four-player" if four else "six-card"
        game = {"format": "cribstats/game/1", "variant": variant, "players": seats,
                "result": {"winner": seats[draw(st.integers(0, len(seats) - 1))]}}
        listed = st.lists(st.one_of(st.just(game), id_text), max_size=3)
        data["games"] = draw(listed.filter(_each_id_once))  # a record lists a game once
    if draw(st.booleans()):
        data["result"] = {"winner": draw(st.sampled_from(people)),
                          "points": {people[0]: draw(st.integers(0, 4)), people[-1]: draw(st.integers(0, 4))}}
    return data


@settings(max_examples=150, deadline=None)
@given(records())
def test_the_writer_round_trips_every_record(data: dict[str, Any]) -> None:
    from cribstats.formats.export import write_match_json

    match = validate_match(data)
    written = dump_match(match)
    again = validate_match(written)
    assert again == match
    assert dump_match(again) == written
    assert validate_match(orjson.loads(write_match_json(match))) == match
    assert match_hash(again) == match_hash(match)
    assert isinstance(written["rules"], dict)


# --- the judgment: values worked out by hand -------------------------------------------------------------------


def test_a_points_match_is_won_on_a_skunk() -> None:
    # points-3: game 1 Alice 121-85 (skunk, 85 < 91): 2 points; game 2 Bob 121-100: 1; game 3 Alice 121-95: 1.
    # Alice reaches 3 in game 3.
    outcome = judge_match("m", AB, MatchRules(first_to=3, count="points"),
                          [won(1, "Alice", 85), won(2, "Bob", 100), won(3, "Alice", 95)])
    assert (outcome.points, outcome.winner_side, outcome.ended_after_game) == ([3, 1], 0, 3)
    assert [(g.winner_side, g.match_points, g.counted) for g in outcome.games] == [(0, 2, True), (1, 1, True),
                                                                                  (0, 1, True)]
    assert outcome.findings == []


def test_a_double_skunk_gives_three_points_and_a_games_match_counts_it_once() -> None:
    # Bob at 55 (< 61): a double skunk, 3 match points under points rules (a points-3 match over at once); in a
    # best of three it is one game won, like any other.
    assert judge_match("m", AB, MatchRules(first_to=3, count="points"), [won(1, "Alice", 55)]).points == [3, 0]
    games = judge_match("m", AB, MatchRules(), [won(1, "Alice", 55), won(2, "Bob", 120)])
    assert (games.points, games.winner_side) == ([1, 1], None)


def test_a_triple_skunk_ends_the_match_when_the_rules_say_so() -> None:
    # points-7 with triple skunks winning: game 1 Alice 121-110 (1 point), game 2 Bob 121-25 (25 < 31, triple):
    # Bob wins the match at once with 3 points (a triple counts as a double: points[2]); game 3 is after the end.
    rules = MatchRules(first_to=7, count="points", triple_skunk_wins=True)
    games = [won(1, "Alice", 110), won(2, "Bob", 25), won(3, "Alice", 100)]
    outcome = judge_match("m", AB, rules, games)
    assert (outcome.points, outcome.winner_side, outcome.ended_after_game) == ([1, 3], 1, 2)
    assert [(f.kind, f.game, f.match) for f in outcome.findings] == [("match-after-end", "g3", "m")]
    assert [g.counted for g in outcome.games] == [True, True, False]
    plain = judge_match("m", AB, MatchRules(first_to=7, count="points"), games)
    assert (plain.points, plain.winner_side, plain.findings) == ([2, 3], None, [])


def test_the_loser_deals_first_in_the_next_game() -> None:
    # Alice wins game 1, so Bob deals first in game 2; Alice is listed: one match-dealer, for Alice. Bob wins
    # game 2, so Alice deals first in game 3, as listed.
    games = [won(1, "Alice", 100, "Alice"), won(2, "Bob", 100, "Alice"), won(3, "Bob", 100, "Alice")]
    outcome = judge_match("m", AB, MatchRules(), games)
    assert [(f.kind, f.game, f.player, f.claimed, f.due) for f in outcome.findings] == [
        ("match-dealer", "g2", "Alice", None, None)]
    assert (outcome.points, outcome.winner_side) == ([1, 2], 1)


def test_alternate_and_cut_first_dealers() -> None:
    # alternate: each game's first dealer is the other side from the game before's (as it was dealt):
    # g2 after Alice should be Bob (Alice listed: wrong); g3 after Alice, Bob (right); g4 after Bob, Alice (wrong)
    games = [won(1, "Alice", 100, "Alice"), won(2, "Alice", 100, "Alice"), won(3, "Bob", 100, "Bob"),
             won(4, "Bob", 100, "Bob")]
    alternate = judge_match("m", AB, MatchRules(first_to=3, first_dealer="alternate"), games)
    assert [(f.game, f.player) for f in alternate.findings] == [("g2", "Alice"), ("g4", "Bob")]
    assert judge_match("m", AB, MatchRules(first_to=3, first_dealer="cut"), games).findings == []


def test_partners_lose_and_either_of_them_deals() -> None:
    sides = (("Alice", "Carol"), ("Bob", "Dave"))

    def four(number: int, winners: tuple[str, str], dealer: str) -> MatchGame:
        seats = ("Alice", "Bob", "Carol", "Dave")
        return MatchGame(number, f"p{number}", seats, "four-player", winners, 0, dealer)

    outcome = judge_match("m", sides, MatchRules(), [four(1, ("Alice", "Carol"), "Alice"),
                                                     four(2, ("Bob", "Dave"), "Dave"),
                                                     four(3, ("Alice", "Carol"), "Bob")])
    # game 2: Dave (of the losing side) deals, right; game 3: Bob deals, but Bob's side won game 2
    assert [(f.game, f.player) for f in outcome.findings] == [("p3", "Bob")]
    assert (outcome.points, outcome.winner_side) == ([2, 1], 0)


def test_a_recorded_result_that_disagrees() -> None:
    games = [won(1, "Alice", 100), won(2, "Alice", 100)]
    outcome = judge_match("m", AB, MatchRules(), games,
                          MatchResult(winner="Bob", points={"Alice": 2, "Bob": 1}))
    assert [(f.kind, f.player, f.claimed, f.due) for f in outcome.findings] == [
        ("match-result", None, None, None), ("match-result", "Bob", 1, 0)]
    unfinished = judge_match("m", AB, MatchRules(), games[:1], MatchResult(winner="Alice"))
    assert [(f.kind, f.player) for f in unfinished.findings] == [("match-result", None)]
    agreeing = judge_match("m", AB, MatchRules(), games, MatchResult(winner="Alice", points={"Alice": 2}))
    assert agreeing.findings == []


def test_a_game_nobody_finished_counts_for_no_one() -> None:
    unfinished = MatchGame(2, "g2", ("Alice", "Bob"), "six-card", (), 0, "Bob")
    outcome = judge_match("m", AB, MatchRules(), [won(1, "Alice", 100, "Alice"), unfinished,
                                                  won(3, "Alice", 100, "Alice")])
    # no loser of game 2, so game 3's first dealer is not judged
    assert (outcome.points, outcome.winner_side, outcome.findings) == ([2, 0], 0, [])


# --- the audit's collector: matches put together from files ----------------------------------------------------


def result_game(gid: str, one: str, two: str, s1: int, s2: int, **extra: Any) -> Any:
    winner = one if s1 > s2 else two
    return validate_game({"format": "cribstats/game/1", "id": gid, **extra, "players": [one, two],
                          "result": {"winner": winner, "scores": {one: s1, two: s2}}})


def test_games_in_the_wrong_match_are_input_errors() -> None:
    collector = MatchCollector()
    games = [result_game("a", "Alice", "Bob", 121, 90, match="m"),
             result_game("b", "Alice", "Carol", 121, 90, match="m"),
             result_game("c", "Alice", "Bob", 121, 90, match="m", match_game=1),
             result_game("d", "Bob", "Alice", 121, 90, match="m", variant="seven-card")]
    for n, g in enumerate(games, 1):
        collector.game(g, replay(g), f"f.jsonl:line {n}")
    [(outcome, _where)] = list(collector.judged())
    assert [g.key for g in outcome.games] == ["a"]
    assert collector.errors == [
        "f.jsonl:line 2: this game is between Alice and Carol, not Alice against Bob: every game of match 'm' has "
        "the same sides",
        "f.jsonl:line 3: game 1 of match 'm' is already game 'a'",
        "f.jsonl:line 4: this game is seven-card, but the match's games before it are six-card: a match is played "
        "in one variant",  # the import's words for it
    ]


def test_a_record_names_games_given_elsewhere_in_the_input() -> None:
    collector = MatchCollector()
    for n, g in enumerate([result_game("one", "Alice", "Bob", 121, 100),
                           result_game("two", "Bob", "Alice", 121, 100)], 1):
        collector.game(g, replay(g), f"f.jsonl:line {n}")
    collector.record(validate_match(record(games=["one", "two"], result={"winner": "Alice"})), "m.json")
    collector.record(validate_match(dict(record(games=["three"]), id="n")), "n.json")
    [(outcome, where)] = list(collector.judged())
    assert (outcome.points, outcome.winner_side, where) == ([1, 1], None, "m.json")
    assert [f.kind for f in outcome.findings] == ["match-result"]  # Alice recorded as the winner of 1-1
    assert collector.errors == ["n.json:games[0]: no game 'three' in the input"]  # file:place, as the import


def test_a_records_inline_game_of_another_variant_is_one_input_error(tmp_path: Path) -> None:
    """match.md: a game of another variant is an input error. The record is refused at the game's place; the
    games it held still carry its id, so they make a match of their own, and the refused game is not told
    twice (the import tells it once too)."""
    from typer.testing import CliRunner

    from cribstats.cli.app import app

    games = [{"format": "cribstats/game/1", "id": "one", "players": ["Alice", "Bob"],
              "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 100}}},
             {"format": "cribstats/game/1", "id": "two", "variant": "five-card", "players": ["Alice", "Bob"],
              "result": {"winner": "Alice", "scores": {"Alice": 61, "Bob": 40}}}]
    path = tmp_path / "final.json"
    path.write_bytes(orjson.dumps(record(games=games)))
    result = CliRunner().invoke(app, ["audit", "--json", str(path)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{path}:games[1]: this game is five-card, but the match's games before it are six-card: a match is "
        "played in one variant",
    ]


def test_first_dealers_that_cannot_be_judged() -> None:
    # a result-only game has no first deal; a game after the end is no part of the match
    result_only = [won(1, "Alice", 100, "Alice"), won(2, "Bob", 100, None), won(3, "Bob", 100, "Alice")]
    assert judge_match("m", AB, MatchRules(), result_only).findings == []  # game 3: Alice lost game 2, right
    after_end = [won(1, "Alice", 100, "Alice"), won(2, "Alice", 100, "Bob"), won(3, "Bob", 100, "Alice")]
    outcome = judge_match("m", AB, MatchRules(), after_end)  # game 3 would be Alice's wrong deal, but it is after
    assert [(f.kind, f.game) for f in outcome.findings] == [("match-after-end", "g3")]


@st.composite
def played(draw: st.DrawFn) -> tuple[MatchRules, list[MatchGame]]:
    rules = MatchRules(first_to=draw(st.integers(1, 7)), count=draw(st.sampled_from(["games", "points"])),
                       points=draw(st.lists(st.integers(0, 4), min_size=3, max_size=3)),
                       triple_skunk_wins=draw(st.booleans()))
    games = []
    for number in range(1, draw(st.integers(0, 12)) + 1):
        winner = draw(st.sampled_from(["Alice", "Bob", None]))
        level = draw(st.integers(0, 3)) if winner else 0
        games.append(MatchGame(number, f"g{number}", ("Alice", "Bob"), "six-card",
                               (winner,) if winner else (), level, None))
    return rules, games


@settings(max_examples=300, deadline=None)
@given(played())
def test_the_judgment_agrees_with_a_plain_count(case: tuple[MatchRules, list[MatchGame]]) -> None:
    # the rules of docs/match.md, counted again the plainest way: add up until a side has enough (or a triple
    # skunk ends it when the rules say so); whatever comes after is after the end
    rules, games = case
    score = {"Alice": 0, "Bob": 0}
    winner = ended = None
    for g in games:
        if winner is not None:
            continue
        if not g.winners:
            continue
        side = g.winners[0]
        if rules.count == "games":
            score[side] += 1
        else:
            score[side] += rules.points[min(g.skunk_level, 2)]
        if score[side] >= rules.first_to or (rules.triple_skunk_wins and g.skunk_level == 3):
            winner, ended = side, g.number
    outcome = judge_match("m", AB, rules, games)
    assert outcome.points == [score["Alice"], score["Bob"]]
    assert outcome.winner_side == (None if winner is None else ["Alice", "Bob"].index(winner))
    assert outcome.ended_after_game == ended
    after = [g.key for g in games if ended is not None and g.number > ended]
    assert [f.game for f in outcome.findings if f.kind == "match-after-end"] == after
    assert [g.counted for g in outcome.games] == [ended is None or g.number <= ended for g in games]


def test_a_match_recorded_twice_is_refused_at_its_id() -> None:
    collector = MatchCollector()
    collector.record(validate_match(record()), "m.jsonl", "line 1")
    collector.record(validate_match(record()), "m.jsonl", "line 2")
    collector.record(validate_match(record()), "n.json")
    assert len(list(collector.judged())) == 1
    assert collector.errors == ["m.jsonl:line 2: id: match 'm' is recorded twice",
                                "n.json:id: match 'm' is recorded twice"]


def test_the_refusals_name_the_choices_the_model_has() -> None:
    """The readers' messages spell out the rules' choices and the match format: the same as the model's."""
    from typing import get_args

    from cribstats.gamelog import messages
    from cribstats.match.model import MATCH_FORMAT, MatchRecord, MatchRules

    fields = MatchRules.model_fields
    for name in ("count", "first_dealer"):
        assert messages._LITERAL_CHOICES[name] == "use one of " + ", ".join(get_args(fields[name].annotation))
    assert get_args(MatchRecord.model_fields["format"].annotation) == (MATCH_FORMAT,)
    assert f"or {MATCH_FORMAT!r} (a match record)" in messages._LITERAL_CHOICES["format"]


def test_a_partnership_game_with_other_partners_names_who_played_with_whom() -> None:
    collector = MatchCollector()
    for n, seats in enumerate([["N", "E", "S", "W"], ["N", "S", "E", "W"]], 1):
        g = validate_game({"format": "cribstats/game/1", "id": f"p{n}", "match": "m", "variant": "four-player",
                           "players": seats, "result": {"winner": "N"}})
        collector.game(g, replay(g), f"f.jsonl:line {n}")
    list(collector.judged())
    assert collector.errors == ["f.jsonl:line 2: this game is between N and E against S and W, not N and S "
                                "against E and W: every game of match 'm' has the same sides"]
