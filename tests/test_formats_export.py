"""Writing canonical logs: a log read and written back is the same log, field for field, cards canonical."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribstats.formats import read_games
from cribstats.formats.export import write_game_json, write_games_jsonl
from cribstats.gamelog import validate_game
from cribstats.gamelog.fast import game_model

ROOT = Path(__file__).parent.parent
TEST_LOGS = Path(__file__).parent / "data" / "formats" / "logs"
RECORDS = Path(__file__).parent / "data" / "cribbage-zero"
GAME_FIELDS = ["format", "id", "event", "date", "site", "round", "match", "match_game", "variant", "target",
               "muggins", "giveaway", "bidding", "players", "deals", "result"]
DEAL_FIELDS = ["dealer", "hands", "crib_card", "discards", "bid", "starter", "heels", "play", "pegged", "show",
               "muggins", "scores"]


def log_files() -> list[Path]:
    """Every JSON log in sample_logs/ (however many there are) and in this suite's own data."""
    found = [p for folder in (ROOT / "sample_logs", TEST_LOGS) for suffix in ("*.json", "*.jsonl")
             for p in sorted(folder.rglob(suffix))]
    return found


def raw_games(path: Path) -> list[Any]:
    """The games of a file as plain JSON, read without cribstats; a match record's whole games carry its id and
    their number in it (docs/match.md)."""
    if path.suffix == ".jsonl":
        records = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    else:
        data = orjson.loads(path.read_bytes())
        records = data if isinstance(data, list) else [data]
    games = []
    for record in records:
        if record.get("format") != "cribstats/match/1":
            games.append(record)
            continue
        for number, game in enumerate(record.get("games", []), 1):
            if isinstance(game, dict):
                games.append({"match": record["id"], "match_game": number, **game})
    return games


SUIT_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def canonical(card: str) -> str:
    """A card in the contract's canonical spelling, worked out here without cribstats' tables."""
    if card.lower() == "go":
        return "go"
    rank, suit = card[:-1].upper(), card[-1]
    return ("T" if rank == "10" else rank) + SUIT_LETTERS.get(suit, suit.upper())


def canonical_log(raw: dict[str, Any]) -> dict[str, Any]:
    out = dict(raw)
    if raw.get("deals"):
        out["deals"] = []
        for deal in raw["deals"]:
            deal = dict(deal)
            for field in ("hands", "discards"):
                deal[field] = {name: [canonical(c) for c in cards] for name, cards in deal[field].items()}
            for field in ("starter", "crib_card"):
                if isinstance(deal.get(field), str):
                    deal[field] = canonical(deal[field])
            if deal.get("play"):
                deal["play"] = [[event[0], canonical(event[1]), *event[2:]] for event in deal["play"]]
            out["deals"].append(deal)
    return out


def test_there_are_logs_to_round_trip() -> None:
    assert len(log_files()) >= 2


@pytest.mark.parametrize("path", log_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_read_then_written_is_the_same_log(path: Path) -> None:
    raws = raw_games(path)
    games = list(read_games(str(path)))
    assert len(games) == len(raws)
    for raw, source in zip(raws, games, strict=True):
        written = write_game_json(source.game)
        assert orjson.loads(written) == canonical_log(raw)
        assert list(orjson.loads(written)) == [f for f in GAME_FIELDS if f in raw]
        for deal in orjson.loads(written).get("deals") or []:
            assert list(deal) == [f for f in DEAL_FIELDS if f in deal]
        # and written again, it does not change
        assert write_game_json(validate_game(orjson.loads(written))) == written


def test_canonical_json_exactly() -> None:
    game = validate_game({
        "result": {"winner": "Bob"}, "players": ["Alice", "Bob"], "format": "cribstats/game/1", "id": "g1",
        "deals": [{"starter": "10♠", "play": [["Bob", "j♥", 2], ["Alice", "GO"]], "dealer": "Alice",
                   "hands": {"Alice": ["5s"], "Bob": ["jh"]}, "discards": {"Alice": [], "Bob": []},
                   "muggins": [{"points": 2, "phase": "play", "from": "Bob", "by": "Alice", "event": 0}]}],
    })
    assert write_game_json(game) == (
        b'{"format":"cribstats/game/1","id":"g1","players":["Alice","Bob"],"deals":[{"dealer":"Alice",'
        b'"hands":{"Alice":["5S"],"Bob":["JH"]},"discards":{"Alice":[],"Bob":[]},"starter":"TS",'
        b'"play":[["Bob","JH",2],["Alice","go"]],'
        b'"muggins":[{"by":"Alice","from":"Bob","phase":"play","points":2,"event":0}]}],'
        b'"result":{"winner":"Bob"}}'
    )
    assert write_game_json(game, indent=True).startswith(b'{\n  "format": "cribstats/game/1",\n  "id": "g1",\n')


def test_json_lines_to_binary_and_text_handles(tmp_path: Path) -> None:
    games = [game_model(g.game) for g in read_games(str(TEST_LOGS / "variants.jsonl"))]
    binary = io.BytesIO()
    assert write_games_jsonl(games, binary) == len(games) == 7
    text = io.StringIO()
    assert write_games_jsonl(games, text) == 7
    assert text.getvalue().encode() == binary.getvalue()
    path = tmp_path / "out.jsonl"
    path.write_bytes(binary.getvalue())
    assert [game_model(g.game) for g in read_games(str(path))] == games
    assert binary.getvalue().count(b"\n") == 7


@pytest.mark.parametrize("path", [RECORDS / "game.pgn", RECORDS / "game2.pgn",
                                  TEST_LOGS.parent / "tally.csv"], ids=lambda p: p.name)
def test_other_notations_written_as_json_read_back_the_same(path: Path, tmp_path: Path) -> None:
    games = [g.game for g in read_games(str(path))]
    out = tmp_path / "out.jsonl"
    with out.open("wb") as handle:
        write_games_jsonl(games, handle)
    assert [game_model(g.game) for g in read_games(str(out))] == games  # read back as Structs: as models


# --- any log, in any spelling, round-trips ---------------------------------------------------------------------

RANK_SPELLINGS = ["A", "a", "2", "3", "4", "5", "6", "7", "8", "9", "T", "t", "10", "J", "j", "Q", "q", "K", "k"]
SUIT_SPELLINGS = ["C", "D", "H", "S", "c", "d", "h", "s", "♣", "♦", "♥", "♠"]
cards = st.builds(lambda r, s: r + s, st.sampled_from(RANK_SPELLINGS), st.sampled_from(SUIT_SPELLINGS))
names = st.sampled_from(["Alice", "Bob"])
play_events = st.one_of(
    st.tuples(names, cards).map(list),
    st.tuples(names, cards, st.integers(0, 12)).map(list),
    st.tuples(names, st.sampled_from(["go", "GO", "Go"])).map(list),
)


@st.composite
def logs(draw: st.DrawFn) -> dict[str, Any]:
    deals = []
    for _ in range(draw(st.integers(0, 3))):
        deal: dict[str, Any] = {
            "dealer": draw(names),
            "hands": {"Alice": draw(st.lists(cards, max_size=7)), "Bob": draw(st.lists(cards, max_size=7))},
            "discards": {"Bob": draw(st.lists(cards, max_size=3)), "Alice": draw(st.lists(cards, max_size=3))},
            "starter": draw(cards),
        }
        if draw(st.booleans()):
            deal["heels"] = draw(st.sampled_from([0, 2]))
        if draw(st.booleans()):
            deal["play"] = draw(st.lists(play_events, max_size=10))
        if draw(st.booleans()):
            deal["show"] = {"Bob": draw(st.integers(0, 29)), "crib": draw(st.integers(0, 29))}
        if draw(st.booleans()):
            deal["scores"] = {"Alice": draw(st.integers(0, 121)), "Bob": draw(st.integers(0, 121))}
        deals.append(deal)
    log: dict[str, Any] = {"format": "cribstats/game/1", "players": ["Alice", "Bob"]}
    if draw(st.booleans()):
        log["muggins"] = draw(st.booleans())
    if deals or draw(st.booleans()):
        log["deals"] = deals
    if draw(st.booleans()):
        log["result"] = {"winner": draw(names)}
    return log


@settings(max_examples=150, deadline=None)
@given(raw=logs())
def test_any_log_round_trips(raw: dict[str, Any]) -> None:
    written = write_game_json(validate_game(raw))
    assert orjson.loads(written) == canonical_log(raw)
    assert write_game_json(validate_game(orjson.loads(written))) == written
