"""``show`` says five-card's three for last, so that the board adds up; four-player games are two partnerships,
in ``show`` and in ``standings``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.simulate import simulate_games


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def stored(url: str, tmp_path: Path, logs: list[dict[str, Any]]) -> None:
    assert run("import", "--db", url, "-q", str(write_jsonl(tmp_path / "logs.jsonl", logs))).exit_code == 0


def test_show_gives_the_first_pone_three_for_last(sqlite_url: str, tmp_path: Path) -> None:
    log = next(g.log for g in simulate_games(1, seed=3, variant="five-card", players=["Ann", "Bo"]))
    stored(sqlite_url, tmp_path, [log])
    first = log["deals"][0]
    pone = next(p for p in log["players"] if p != first["dealer"])
    # the board after the first deal, from the log's own claims: the pone's pegging and hand, plus 3
    pegged = sum(e[2] for e in first["play"] if e[0] == pone and len(e) == 3)
    assert first["scores"][pone] == 3 + pegged + first["show"][pone]
    text = run("show", "--db", sqlite_url, log["id"]).stdout
    deal_one, deal_two = text.split("\nDeal 2:")[0], text.split("\nDeal 2:")[1]
    assert f"    {pone} three for last: 3" in deal_one.splitlines()
    assert f"Board by the claims: {pone} {first['scores'][pone]}" in deal_one or (
        f", {pone} {first['scores'][pone]}" in deal_one)
    assert "three for last" not in deal_two


def test_a_six_card_game_has_no_three_for_last(sqlite_url: str, tmp_path: Path) -> None:
    log = next(g.log for g in simulate_games(1, seed=4, players=["Ann", "Bo"]))
    stored(sqlite_url, tmp_path, [log])
    assert "for last" not in run("show", "--db", sqlite_url, log["id"]).stdout


def four_player(n: int, seed: int) -> list[dict[str, Any]]:
    return [g.log for g in simulate_games(n, seed=seed, variant="four-player", random_players=False,
                                          players=["Abe", "Bea", "Cal", "Dee"])]


def test_show_heads_a_four_player_game_as_two_partnerships(sqlite_url: str, tmp_path: Path) -> None:
    log = four_player(1, 5)[0]
    stored(sqlite_url, tmp_path, [log])
    a, b, c, d = log["players"]
    text = run("show", "--db", sqlite_url, log["id"]).stdout
    assert text.splitlines()[0].endswith(f"four-player, to 121, {a} and {c} v {b} and {d}")
    final = log["result"]["scores"]
    assert f"Final: {a} and {c} {final[a]}, {b} and {d} {final[b]}" in text


def test_standings_rank_partners_as_one_side(sqlite_url: str, tmp_path: Path) -> None:
    logs = four_player(6, 6)
    stored(sqlite_url, tmp_path, logs)
    # each side of each game, by the two partners' names, and its wins from the recorded winner
    # (a win is 2 game points, 3 when the losing side has 90 or fewer: a skunk)
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for log in logs:
        seats, result = log["players"], log["result"]
        for side, other in (((seats[0], seats[2]), seats[1]), ((seats[1], seats[3]), seats[0])):
            name = " & ".join(sorted(side, key=str.casefold))
            games[name] += 1
            if result["winner"] in side:
                wins[name] += 1
                points[name] += 3 if result["scores"][other] <= 90 else 2
    table = orjson.loads(run("standings", "--db", sqlite_url, "--format", "json").stdout)
    assert {r["player"]: (r["games"], r["wins"], r["game_points"]) for r in table} == {
        n: (games[n], wins[n], points[n]) for n in games}
    assert [r["rank"] for r in table] == sorted(r["rank"] for r in table)


def test_show_gives_the_bid_for_the_crib_so_that_the_board_adds_up(sqlite_url: str, tmp_path: Path) -> None:
    # sample_logs/options/bidding.json, worked by hand in sample_logs/README.md: Bob deals, Alice bids 3 for the
    # crib; her pegging 6, hand 12 and crib 6 make 24, and the board has her at 21: the bid is the 3 taken off
    log = orjson.loads((Path(__file__).parent.parent / "sample_logs" / "options" / "bidding.json").read_bytes())
    stored(sqlite_url, tmp_path, [log])
    lines = run("show", "--db", sqlite_url, log["id"]).stdout.splitlines()
    assert "    Alice bid 3 for the crib: 3 taken off Alice's score" in lines
    assert lines.index("    Alice bid 3 for the crib: 3 taken off Alice's score") < lines.index("    The play")
    assert "    Board by the claims: Alice 21, Bob 12" in lines
