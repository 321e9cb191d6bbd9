"""The club tables on small inputs worked out by hand: a night's placings and cards, the Grand Slam, the special
hands, season rating points, the bracket's qualifiers and byes, head-to-head in partner and three-player games,
and the commands' options, help and exports (on SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.stats.bracket import draw, draw_size, seed_order
from cribstats.stats.season import rating_points
from cribstats.store.importer import import_paths

# A night of five players, scored by hand (121-point games; a loser under 91 is skunked, under 61 double skunked):
#   Ann beats Bob 121-100 (Ann +21), Ann beats Cat 121-85 (a skunk: 3 game points, +36), Dan beats Ann 121-119 (+2)
#   Bob beats Cat 121-110 (+11), Dan beats Bob 121-60 (a double skunk: 3 game points, +61), Cat beats Dan 121-101
#   (+20), Eve beats Dan 121-111 (+10), Eve beats Cat 121-117 (+4); a week later Bob beats Ann 121-100.
# Ann: 2 wins, 2 + 3 = 5 game points, 21 + 36 - 2 = +55. Dan: 2 wins, 2 + 3 = 5, 2 + 61 - 20 - 10 = +33.
# Eve: 2 wins of 2 games, 4, +14: the Grand Slam. Cat: 1 win, 2, -36 - 11 + 20 - 4 = -31. Bob: 1 win, 2,
# -21 + 11 - 61 = -71. Places: Ann and Dan level on points and wins, Ann ahead on spread.
NIGHT = """date,event,round,player1,player2,score1,score2
2026-03-03,Grass Roots,1,Ann,Bob,121,100
2026-03-03,Grass Roots,2,Ann,Cat,121,85
2026-03-03,Grass Roots,3,Ann,Dan,119,121
2026-03-03,Grass Roots,1,Bob,Cat,121,110
2026-03-03,Grass Roots,2,Dan,Bob,121,60
2026-03-03,Grass Roots,3,Cat,Dan,121,101
2026-03-03,Grass Roots,4,Eve,Dan,121,111
2026-03-03,Grass Roots,4,Eve,Cat,121,117
2026-03-10,Grass Roots,1,Bob,Ann,121,100
"""
EXPECTED_NIGHT = [
    # place, player, games, wins, losses, game points, spread, card, given, taken, grand slam
    (1, "Ann", 3, 2, 1, 5, 55, "5/2 +55", 1, 0, False),
    (2, "Dan", 4, 2, 2, 5, 33, "5/2 +33", 1, 0, False),
    (3, "Eve", 2, 2, 0, 4, 14, "4/2 +14", 0, 0, True),
    (4, "Cat", 4, 1, 3, 2, -31, "2/1 -31", 0, 1, False),
    (5, "Bob", 3, 1, 2, 2, -71, "2/1 -71", 0, 1, False),
]

# Two deals without a logged play: Ann's 5C 5D 5H JS with the 5S cut is 29 (and four of a kind); Bob's four
# fives with the JD cut are 28 (four of a kind, no nobs). Nothing else reaches 24.
HANDS_GAME = {
    "format": "cribstats/game/1", "id": "side-pots", "event": "Grass Roots", "date": "2026-03-03", "round": "5",
    "players": ["Ann", "Bob"],
    "deals": [
        {"dealer": "Ann", "hands": {"Ann": ["5C", "5D", "5H", "JS", "KD", "QD"],
                                    "Bob": ["2C", "3C", "4C", "6H", "8S", "9S"]},
         "discards": {"Ann": ["KD", "QD"], "Bob": ["8S", "9S"]}, "starter": "5S",
         "show": {"Bob": 12, "Ann": 29, "crib": 4}},
        {"dealer": "Bob", "hands": {"Bob": ["5C", "5D", "5H", "5S", "2D", "3D"],
                                    "Ann": ["7C", "8C", "KH", "QS", "AH", "9D"]},
         "discards": {"Bob": ["2D", "3D"], "Ann": ["AH", "9D"]}, "starter": "JD",
         "show": {"Ann": 4, "Bob": 28, "crib": 4}},
    ],
}  # fmt: skip


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def night_db(db_url: str, store: sa.Engine, tmp_path: Path) -> str:
    (tmp_path / "night.csv").write_text(NIGHT)
    (tmp_path / "hands.json").write_text(json.dumps(HANDS_GAME))
    summary = import_paths([tmp_path / "night.csv", tmp_path / "hands.json"], store)
    assert summary.complete, summary.refused
    return db_url


def test_night_placings_and_cards_by_hand(night_db: str) -> None:
    code, out, err = _run("night", "--db", night_db, "--event", "grass roots", "--date", "2026-03-03", "-fjson")
    assert code == 0, err
    rows = [tuple(r.values()) for r in json.loads(out)]
    assert rows == EXPECTED_NIGHT
    assert "Grand Slam: Eve" in err


def test_night_special_hands_by_hand(night_db: str) -> None:
    code, out, err = _run("night", "--db", night_db, "--event", "Grass Roots", "--date", "2026-03-03", "--hands",
                          "-f", "json")  # fmt: skip
    assert code == 0, err
    got = [(r["player"], r["deal"], r["what"], r["cards"], r["starter"], r["points"], r["special"],
            r["four_of_a_kind"]) for r in json.loads(out)]  # fmt: skip
    assert got == [
        ("Ann", 1, "hand", "5C 5D 5H JS", "5S", 29, "29", True),
        ("Bob", 2, "hand", "5C 5D 5H 5S", "JD", 28, "28", True),
    ]
    code, table, _ = _run("night", "--db", night_db, "--event", "Grass Roots", "--date", "2026-03-03")
    assert "Special hands" in table and "5/2 +55" in table


def test_a_night_with_no_games_says_so(night_db: str) -> None:
    code, out, err = _run("night", "--db", night_db, "--event", "Grass Roots", "--date", "2026-03-04", "-fjson")
    assert code == 0 and json.loads(out) == []
    assert "no finished games stored for Grass Roots on 2026-03-04" in err


def test_bad_dates_and_options_are_usage_errors(night_db: str) -> None:
    code, _, err = _run("night", "--db", night_db, "--event", "Grass Roots", "--date", "03/03/2026")
    assert code == 2 and "error: --date '03/03/2026' is not a date" in err
    code, _, err = _run("season", "--db", night_db, "--since", "2026-04-01", "--until", "2026-03-01")
    assert code == 2 and "after --until" in err
    code, _, err = _run("rating", "--db", night_db, "--chart", "ratings.gif")
    assert code == 2 and "write a .png or .svg" in err
    code, _, err = _run("season", "--db", night_db, "-f", "parquet")
    assert code == 2 and "needs --out" in err


def test_rating_points_by_hand() -> None:
    """ACC internet rating points, nine-game nights: g >= 12 earns g + 2(g - 11)."""
    assert [rating_points(g, 9) for g in (11, 12, 13, 18, 27)] == [0, 14, 17, 32, 59]
    assert rating_points(14, 8) == 0 and rating_points(14, 10) == 0


def test_season_drops_the_lowest_night_by_hand(night_db: str) -> None:
    """Ann: 3 March 5 game points (+55), 10 March 0 (-21); Bob: 2 (-71), then 2 (+21).
    Dropping the lowest: Ann keeps 3 March; Bob keeps 10 March (same points, the better spread)."""
    code, out, err = _run("season", "--db", night_db, "--drop-lowest", "-f", "json")
    assert code == 0, err
    rows = {r["player"]: r for r in json.loads(out)}
    assert (rows["Ann"]["nights"], rows["Ann"]["game_points"], rows["Ann"]["spread"], rows["Ann"]["dropped"]) == (
        1, 5, 55, 1)  # fmt: skip
    assert (rows["Bob"]["nights"], rows["Bob"]["game_points"], rows["Bob"]["spread"], rows["Bob"]["dropped"]) == (
        1, 2, 21, 1)  # fmt: skip
    assert rows["Eve"]["dropped"] == 0 and rows["Eve"]["nights"] == 1  # a single night is kept
    code, out, _ = _run("season", "--db", night_db, "-f", "json")
    whole = {r["player"]: r for r in json.loads(out)}
    assert (whole["Ann"]["nights"], whole["Ann"]["game_points"], whole["Ann"]["average"]) == (2, 5, 2.5)
    assert whole["Bob"]["win_rate"] == pytest.approx(2 / 4)


@pytest.mark.parametrize(("entrants", "qualifiers", "byes", "first_round", "second_round"),
                         [(108, 27, 5, 11, 16), (121, 31, 1, 15, 16), (132, 33, 31, 1, 32)])  # fmt: skip
def test_bracket_sizes(entrants: int, qualifiers: int, byes: int, first_round: int, second_round: int) -> None:
    assert draw_size(entrants) == (qualifiers, byes)
    names = [f"P{i:03d}" for i in range(1, entrants + 1)]
    bracket = draw(entrants, names)
    per_round = dict.fromkeys(range(1, 8), 0)
    for s in bracket.slots:
        per_round[s.round] += 1
    assert per_round[1] == first_round and per_round[2] == second_round // 2
    assert bracket.qualifiers == names[:qualifiers]
    # the byes are the top seeds: none of them plays in the first round
    first = {seed for s in bracket.slots if s.round == 1 for seed in (s.seed1, s.seed2)}
    assert first == set(range(byes + 1, qualifiers + 1))
    assert sum(per_round.values()) == qualifiers - 1  # every qualifier but the champion loses once


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2000))
def test_any_bracket_is_one_in_four_with_a_power_of_two_second_round(entrants: int) -> None:
    """For any field: ceil(entrants / 4) qualifiers; the byes and the first round's winners make a power of two;
    every qualifier enters once; each round halves the field; the byes are the best seeds."""
    q, free = draw_size(entrants)
    assert q == (entrants + 3) // 4 and q * 4 >= entrants > (q - 1) * 4
    bracket = draw(entrants, [f"P{i}" for i in range(entrants)])
    first = [s for s in bracket.slots if s.round == 1]
    if q >= 2:
        second = free + len(first) if free else 2 * len(first)
        assert second & (second - 1) == 0 and second >= 2
        entered = [seed for s in bracket.slots for seed in (s.seed1, s.seed2) if s.round == (2 if free else 1)]
        if free:
            entered += [seed for s in first for seed in (s.seed1, s.seed2)]
            assert all(s.seed1 is not None and s.seed1 > free for s in first)  # no bye-holder plays round 1
        assert sorted(set(entered)) == list(range(1, q + 1))
        assert len(bracket.slots) == q - 1
    else:
        assert bracket.slots == []


def test_bracket_pairs_seeds_and_fills_in_results() -> None:
    """Ten qualifiers (40 entrants): 6 byes, seeds 7-10 and 8-9 play first; seed 1 meets the 8-9 winner."""
    names = [f"S{i}" for i in range(1, 11)]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    results = {frozenset(p): w for p, w in [(("S7", "S10"), "S10"), (("S8", "S9"), "S8"), (("S1", "S8"), "S1"),
                                            (("S4", "S5"), "S5")]}  # fmt: skip
    bracket = draw(40, names, lambda a, b: results.get(frozenset((a, b))))
    assert bracket.byes == 6
    slots = [(s.round, s.slot, s.seed1, s.side1, s.seed2, s.side2, s.winner) for s in bracket.slots]
    assert slots[:2] == [(1, 1, 7, "S7", 10, "S10", "S10"), (1, 2, 8, "S8", 9, "S9", "S8")]
    assert slots[2:6] == [(2, 1, 1, "S1", 8, "S8", "S1"), (2, 2, 4, "S4", 5, "S5", "S5"),
                          (2, 3, 2, "S2", 7, "S10", None), (2, 4, 3, "S3", 6, "S6", None)]  # fmt: skip
    assert slots[6] == (3, 1, 1, "S1", 4, "S5", None)  # the winner of 4-5 keeps seed 4's place
    assert bracket.champion is None


def test_bracket_command_from_the_event_standings(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    """108 entrants of one qualifying round (54 games): the 54 winners lead the standings, so the 27 qualifiers
    are winners, by game points then spread."""
    rows = ["date,event,round,player1,player2,score1,score2"]
    for i in range(54):
        rows.append(f"2026-05-02,Spring Classic,1,W{i:02d},L{i:02d},121,{120 - i}")
    (tmp_path / "q.csv").write_text("\n".join(rows) + "\n")
    assert import_paths([tmp_path / "q.csv"], store).complete
    code, out, err = _run("bracket", "--db", db_url, "--event", "spring classic", "-f", "json")
    assert code == 0, err
    slots = json.loads(out)
    first = [s for s in slots if s["round"] == 1]
    assert len(first) == 11 and len([s for s in slots if s["round"] == 2]) == 8
    # W30..W53 won on a skunk (3 game points, spread i + 1): W53 is seed 1, W30 seed 24; then W29, W28, W27
    assert first[0] == {"round": 1, "slot": 1, "seed1": 6, "side1": "W48", "seed2": 27, "side2": "W27",
                        "winner": None}  # fmt: skip
    second = [s for s in slots if s["round"] == 2]
    assert second[0]["side1"] == "W53" and second[0]["seed2"] == 16
    code, table, err = _run("bracket", "--db", db_url, "--event", "spring classic", "--entrants", "121")
    assert code == 0, err
    assert "121 entrants, 31 qualifiers, 1 bye" in " ".join(table.split())


# Partners and cutthroat: Ann and Cat beat Bob and Dan 121-95 (+26 each over each opponent); in three-player,
# Eve wins 121 to Ann's 100 and Bob's 80 (Bob skunked): Eve +21 over Ann and +41 over Bob; Ann and Bob have no
# result between them.
MIXED = [
    {"format": "cribstats/game/1", "id": "four", "variant": "four-player", "players": ["Ann", "Bob", "Cat", "Dan"],
     "result": {"winner": "Cat", "scores": {"Ann": 121, "Bob": 95, "Cat": 121, "Dan": 95}}},
    {"format": "cribstats/game/1", "id": "three", "variant": "three-player", "players": ["Eve", "Ann", "Bob"],
     "result": {"winner": "Eve", "scores": {"Eve": 121, "Ann": 100, "Bob": 80}}},
]  # fmt: skip


def test_head_to_head_partners_and_three_players_by_hand(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    (tmp_path / "mixed.json").write_text(json.dumps(MIXED))
    assert import_paths([tmp_path / "mixed.json"], store).complete
    code, out, err = _run("head-to-head", "--db", db_url, "-f", "json")
    assert code == 0, err
    got = {(r["player"], r["opponent"]): (r["games"], r["wins"], r["spread"], r["skunks_given"], r["skunks_taken"])
           for r in json.loads(out)}  # fmt: skip
    assert got == {
        ("Ann", "Bob"): (1, 1, 26, 0, 0), ("Ann", "Dan"): (1, 1, 26, 0, 0),
        ("Cat", "Bob"): (1, 1, 26, 0, 0), ("Cat", "Dan"): (1, 1, 26, 0, 0),
        ("Bob", "Ann"): (1, 0, -26, 0, 0), ("Bob", "Cat"): (1, 0, -26, 0, 0),
        ("Dan", "Ann"): (1, 0, -26, 0, 0), ("Dan", "Cat"): (1, 0, -26, 0, 0),
        ("Eve", "Ann"): (1, 1, 21, 0, 0), ("Eve", "Bob"): (1, 1, 41, 1, 0),
        ("Ann", "Eve"): (1, 0, -21, 0, 0), ("Bob", "Eve"): (1, 0, -41, 0, 1),
    }  # fmt: skip


def test_rating_ranks_a_three_player_game(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    (tmp_path / "mixed.json").write_text(json.dumps(MIXED[1:]))
    assert import_paths([tmp_path / "mixed.json"], store).complete
    code, out, err = _run("rating", "--db", db_url, "-f", "json")
    assert code == 0, err
    assert [r["player"] for r in json.loads(out)] == ["Eve", "Ann", "Bob"]  # winner, then by score
    chart = tmp_path / "ratings.png"
    code, _, err = _run("rating", "--db", db_url, "--chart", str(chart))
    assert code == 0, err
    assert chart.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("command", ["night", "season", "head-to-head", "bracket", "rating", "matches"])
def test_every_command_has_help_with_examples(command: str) -> None:
    code, out, _ = _run(command, "--help")
    assert code == 0
    assert "Examples" in out and f"cribstats {command}" in out and "--format" in out and "--out" in out


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_tables_export(night_db: str, tmp_path: Path, fmt: str) -> None:
    for args in (["season"], ["head-to-head"], ["rating"], ["bracket", "--event", "Grass Roots"],
                 ["night", "--event", "Grass Roots", "--date", "2026-03-03"]):  # fmt: skip
        out = tmp_path / f"{args[0]}.{fmt}"
        code, _, err = _run(*args, "--db", night_db, "-f", fmt, "--out", str(out))
        assert code == 0, err
        frame = {"csv": pl.read_csv, "json": pl.read_json, "parquet": pl.read_parquet}[fmt](out)
        assert frame.height > 0


# --- matches ----------------------------------------------------------------------------------------------------


def _game(one: str, two: str, s1: int, s2: int, **meta: str) -> dict[str, object]:
    winner = one if s1 > s2 else two
    return {"format": "cribstats/game/1", "players": [one, two], **meta,
            "result": {"winner": winner, "scores": {one: s1, two: s2}}}  # fmt: skip


def _match(match_id: str, one: str, two: str, rules: object, games: list[dict[str, object]],
           **meta: str) -> dict[str, object]:  # fmt: skip
    return {"format": "cribstats/match/1", "id": match_id, **meta, "players": [one, two], "rules": rules,
            "games": [dict(g, id=f"{match_id}-g{i}", **meta) for i, g in enumerate(games, start=1)]}  # fmt: skip


# Best of three: Ann 121-100, Bob 121-90 (a skunk, still one game), Ann 121-80: Ann 2-1.
# First to 7 points, a triple skunk winning: Cat 121-85 (a skunk: 2 points), Dan 121-20 (a triple skunk: 3 points,
# and the match at once), then Cat 121-100 after the end (no match points): Dan wins 3-2.
MATCHES = [
    _match("final", "Ann", "Bob", "best-of-3", [_game("Ann", "Bob", 121, 100), _game("Ann", "Bob", 90, 121),
                                                _game("Ann", "Bob", 121, 80)],
           event="Tuesday League", date="2026-04-07", round="final"),
    _match("sevens", "Cat", "Dan", {"first_to": 7, "count": "points", "triple_skunk_wins": True},
           [_game("Cat", "Dan", 121, 85), _game("Cat", "Dan", 20, 121), _game("Cat", "Dan", 121, 100)],
           event="Tuesday League", date="2026-04-14"),
]  # fmt: skip


@pytest.fixture
def match_db(db_url: str, store: sa.Engine, tmp_path: Path) -> str:
    (tmp_path / "matches.jsonl").write_text("\n".join(json.dumps(m) for m in MATCHES) + "\n")
    summary = import_paths([tmp_path / "matches.jsonl"], store)
    assert summary.complete, summary.refused
    return db_url


def test_matches_by_hand(match_db: str) -> None:
    code, out, err = _run("matches", "--db", match_db, "--event", "TUESDAY league", "-f", "json")
    assert code == 0, err
    got = [(r["match"], r["rules"], r["side1"], r["side2"], r["score"], r["winner"], r["games"],
            r["games_after_end"], r["finding_kinds"]) for r in json.loads(out)]  # fmt: skip
    assert got == [
        ("final", "first to 2 games", "Ann", "Bob", "2-1", "Ann", 3, 0, ""),
        ("sevens", "first to 7 points (1/2/3), a triple skunk wins", "Cat", "Dan", "2-3", "Dan", 3, 1,
         "match-after-end"),
    ]  # fmt: skip
    code, out, _ = _run("matches", "--db", match_db, "--player", "dan", "--games", "-f", "json")
    assert [(r["number"], r["winner"], r["match_points"], r["counted"]) for r in json.loads(out)] == [
        (1, "Cat", 2, True), (2, "Dan", 3, True), (3, "Cat", 0, False)]  # fmt: skip
    code, table, _ = _run("matches", "--db", match_db)
    assert code == 0 and "Findings" in table and "match-after-end" in table


def test_match_columns_in_stats_by_hand(match_db: str) -> None:
    code, out, err = _run("stats", "--db", match_db, "-f", "json")
    assert code == 0, err
    got = {r["player"]: (r["matches"], r["matches_won"], r["matches_lost"], r["match_win_rate"], r["match_points"],
                         r["games"]) for r in json.loads(out)}  # fmt: skip
    # the game after the end still counts as a game (Cat and Dan: 3 games each)
    assert got == {"Ann": (1, 1, 0, 1.0, 2, 3), "Bob": (1, 0, 1, 0.0, 1, 3), "Cat": (1, 0, 1, 0.0, 2, 3),
                   "Dan": (1, 1, 0, 1.0, 3, 3)}  # fmt: skip
    code, out, _ = _run("head-to-head", "--db", match_db, "dan", "-f", "json")
    assert [(r["opponent"], r["games"], r["wins"], r["matches"], r["matches_won"]) for r in json.loads(out)] == [
        ("Cat", 3, 1, 1, 1)]  # fmt: skip


def test_show_a_match(match_db: str) -> None:
    code, out, err = _run("show", "--db", match_db, "sevens")
    assert code == 0, err
    assert "Match sevens (Tuesday League, 2026-04-14)" in out
    assert "Cat 2 - 3 Dan" in out and "winner: Dan" in out
    assert "game 2: sevens-g2: Dan, 3 match points" in out
    assert "game 3: sevens-g3: Cat, 0 match points (after the match was decided)" in out
    code, _, err = _run("show", "--db", match_db, "no-such-thing")
    assert code == 2 and "no stored game 'no-such-thing'" in err


def test_bracket_filled_in_from_the_matches(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    """Twenty entrants, five qualifiers: seeds 1-3 have byes, 4 plays 5. W09 (the best qualifying record) is
    seed 1, then W08, W07, W06, W05. Stored matches: W05 beats W06, W09 beats W05, W07 beats W08, W09 beats W07."""
    rows = ["date,event,round,player1,player2,score1,score2"]
    rows += [f"2026-05-02,Spring Classic,1,W{i:02d},L{i:02d},121,{110 - i}" for i in range(10)]
    (tmp_path / "qualifying.csv").write_text("\n".join(rows) + "\n")
    playoffs = [
        _match("r1", "W06", "W05", "best-of-3", [_game("W06", "W05", 100, 121), _game("W06", "W05", 110, 121)]),
        _match("sf1", "W09", "W05", "best-of-3", [_game("W09", "W05", 121, 100), _game("W09", "W05", 121, 99)]),
        _match("sf2", "W08", "W07", "best-of-3", [_game("W08", "W07", 121, 100), _game("W08", "W07", 99, 121),
                                                  _game("W08", "W07", 98, 121)]),
        _match("final", "W07", "W09", "best-of-3", [_game("W07", "W09", 100, 121), _game("W07", "W09", 101, 121)]),
    ]  # fmt: skip
    meta = {"event": "Spring Classic", "date": "2026-05-03"}
    (tmp_path / "playoffs.jsonl").write_text("\n".join(
        json.dumps(dict(m, **meta, games=[dict(g, **meta) for g in m["games"]])) for m in playoffs) + "\n")  # type: ignore[arg-type]  # fmt: skip
    assert import_paths([tmp_path / "qualifying.csv", tmp_path / "playoffs.jsonl"], store).complete
    code, out, err = _run("bracket", "--db", db_url, "--event", "Spring Classic", "-f", "json")
    assert code == 0, err
    got = [(r["round"], r["seed1"], r["side1"], r["seed2"], r["side2"], r["winner"]) for r in json.loads(out)]
    assert got == [
        (1, 4, "W06", 5, "W05", "W05"),
        (2, 1, "W09", 4, "W05", "W09"), (2, 2, "W08", 3, "W07", "W07"),
        (3, 1, "W09", 2, "W07", "W09"),
    ]  # fmt: skip
    assert "Champion: W09" in err


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_match_tables_export(match_db: str, tmp_path: Path, fmt: str) -> None:
    for args in (["matches"], ["matches", "--games"]):
        out = tmp_path / f"{'-'.join(args)}.{fmt}"
        code, _, err = _run(*args, "--db", match_db, "-f", fmt, "--out", str(out))
        assert code == 0, err
        frame = {"csv": pl.read_csv, "json": pl.read_json, "parquet": pl.read_parquet}[fmt](out)
        assert frame.height > 0


SCORECARDS = """date,event,round,player,opponent,game_points,spread
2026-06-02,Club Night,1,Ann,Bob,2,15
2026-06-02,Club Night,1,Bob,Ann,0,-15
2026-06-02,Club Night,2,Cat,Dan,3,20
2026-06-02,Club Night,2,Dan,Cat,0,-20
"""


def test_night_lists_the_scorecards_that_disagree(db_url: str, store: sa.Engine, tmp_path: Path) -> None:
    """Ann and Bob's cards agree (a game: Ann by 15); Cat's card claims 3 game points with a spread of 20, under
    the 31 a skunk needs: a scorecard finding, and no game."""
    (tmp_path / "cards.csv").write_text(SCORECARDS)
    import_paths([tmp_path / "cards.csv"], store)
    code, out, err = _run("night", "--db", db_url, "--event", "club night", "--date", "2026-06-02", "-fjson")
    assert code == 0, err
    assert [(r["player"], r["card"]) for r in json.loads(out)] == [("Ann", "2/1 +15"), ("Bob", "0/0 -15")]
    code, table, _ = _run("night", "--db", db_url, "--event", "club night", "--date", "2026-06-02")
    assert "Scorecards that disagree" in table and "Cat" in table
