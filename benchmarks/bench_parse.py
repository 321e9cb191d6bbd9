"""How fast game logs are read: JSON Lines of six-card games, parsed and validated into GameLog models.

Run: ``.venv/bin/python benchmarks/bench_parse.py [GAMES] [--simulated]`` (default 10,000 games of the shape
below; ``--simulated``: games of the simulator, every card with its claim, as ``bench_audit.py`` reads). It prints
games per CPU second for each stage, measured in the same run, each stage's time as a ratio of ``orjson.loads``
alone (the floor), and the fast path and the canonical form beside the pydantic model's:

- ``orjson.loads``: decoding the JSON only;
- ``msgspec Structs``: decoding into the fast path's Structs, with the types and ranges it checks in C;
- ``model_validate``: decoding, then ``GameLog.model_validate`` (no cross-field checks);
- ``pydantic path``: decoding, the model and the contract's checks (``validate_game_model``);
- ``fast path``: the same verdict by msgspec (``decode_game_json``: Structs, checks, the same models built);
- ``validate_game``: the fast path on a decoded value (``msgspec.convert``), as the other readers call it;
- ``read_games``: the whole reader on the file (lines, errors, places);
- the canonical text and content hash of every game, by pydantic's ``model_dump`` (before) and by
  ``canonical_json`` (now), as the import writes them.

The games are random but shaped like real ones: nine deals, six cards each, the play laid out card by card
within 31 with points on about a third of the cards, a show and the board after every deal.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

import msgspec
import orjson

from cribstats.cards import DECK, format_card, value
from cribstats.formats import read_games
from cribstats.gamelog import GameLog, canonical_json, content_hash, validate_game, validate_game_model
from cribstats.gamelog.fast import GameStruct, decode_game_json

REPEATS = 5


def make_game(rng: random.Random, number: int) -> dict[str, object]:
    """One six-card game log of nine deals (the points are not the true ones: speed only)."""
    players = ["Alice", "Bob"]
    deals = []
    scores = {"Alice": 0, "Bob": 0}
    for d in range(9):
        dealer, pone = players[d % 2], players[1 - d % 2]
        cards = rng.sample(DECK, 13)
        hands = {dealer: cards[:6], pone: cards[6:12]}
        discards = {p: rng.sample(hands[p], 2) for p in players}
        held = {p: [c for c in hands[p] if c not in discards[p]] for p in players}
        play: list[list[object]] = []
        count, turn = 0, pone
        while held[dealer] or held[pone]:
            fits = [c for c in held[turn] if count + value(c) <= 31]
            if fits:
                card = fits[0]
                held[turn].remove(card)
                count += value(card)
                event: list[object] = [turn, format_card(card)]
                if rng.random() < 0.35:
                    event.append(rng.randint(0, 3))
                play.append(event)
            elif not any(count + value(c) <= 31 for p in players for c in held[p]):
                count = 0
            turn = dealer if turn == pone else pone
        show = {pone: rng.randint(0, 16), dealer: rng.randint(0, 16), "crib": rng.randint(0, 12)}
        for p in players:
            scores[p] += show[p]
        deals.append({
            "dealer": dealer,
            "hands": {p: [format_card(c) for c in hands[p]] for p in players},
            "discards": {p: [format_card(c) for c in discards[p]] for p in players},
            "starter": format_card(cards[12]),
            "play": play,
            "show": show,
            "scores": dict(scores),
        })
    return {
        "format": "cribstats/game/1", "id": f"bench-{number}", "event": "Benchmark", "date": "2026-11-03",
        "variant": "six-card", "players": players, "deals": deals,
        "result": {"winner": "Alice", "scores": dict(scores)},
    }


T = TypeVar("T")


def each(items: Iterable[T], work: Callable[[T], object]) -> None:
    """Run ``work`` on every item, keeping nothing (as a streaming reader's consumer does)."""
    for item in items:
        work(item)


def timed(label: str, games: int, run: Callable[[], object], floor: float | None) -> float:
    seconds = float("inf")
    for _ in range(REPEATS):  # the best of a few runs: the machine may be busy with other work
        start = time.process_time()
        run()
        seconds = min(seconds, time.process_time() - start)
    ratio = f"{seconds / floor:5.2f}x floor" if floor else "floor"
    print(f"{label:>22}: {games / seconds:10,.0f} games/s  {seconds / games * 1e6:6.1f} us a game  {ratio}")
    return seconds


def canonical_before(game: GameLog) -> tuple[bytes, str]:
    """The canonical text and hash as they were made before: pydantic's dump, then orjson twice."""
    dumped = game.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return orjson.dumps(dumped), content_hash(game, dumped)


def canonical_now(game: GameLog) -> tuple[bytes, str]:
    return canonical_json(game)


def simulated_lines(count: int) -> list[bytes]:
    from cribstats.simulate import simulate_games

    return [orjson.dumps(sim.log) for sim in simulate_games(count, variant="six-card", seed=1)]


def main(argv: list[str]) -> None:
    args = [a for a in argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 10_000
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        if "--simulated" in argv:
            lines = simulated_lines(count)
        else:
            lines = [orjson.dumps(make_game(rng, n)) for n in range(count)]
        path.write_bytes(b"\n".join(lines) + b"\n")
        print(f"{count:,} six-card games, {path.stat().st_size / 1e6:.1f} MB of JSON Lines; CPU time, best of "
              f"{REPEATS}")

        floor = timed("orjson.loads", count, lambda: each(lines, orjson.loads), None)
        structs = msgspec.json.Decoder(GameStruct).decode
        timed("msgspec Structs", count, lambda: each(lines, structs), floor)
        model = GameLog.model_validate
        timed("model_validate", count, lambda: each(lines, lambda b: model(orjson.loads(b))), floor)
        slow = timed("pydantic path", count, lambda: each(lines, lambda b: validate_game_model(orjson.loads(b))),
                     floor)
        fast = timed("fast path", count, lambda: each(lines, decode_game_json), floor)
        timed("validate_game", count, lambda: each(lines, lambda b: validate_game(orjson.loads(b))), floor)
        timed("read_games", count, lambda: each(read_games(str(path)), lambda g: g), floor)
        games = [validate_game_model(orjson.loads(line)) for line in lines]
        if any(canonical_before(g) != canonical_now(g) for g in games):
            raise SystemExit("the canonical text or hash differs from pydantic's")
        before = timed("canonical+hash before", count, lambda: each(games, canonical_before), None)
        now = timed("canonical+hash now", count, lambda: each(games, canonical_now), None)
    print(f"fast path: {fast / slow:.2f}x the pydantic path's CPU ({slow / fast:.1f}x as fast); canonical text "
          f"and hash: {now / before:.2f}x the time before, byte-identical on all {count:,} games")


if __name__ == "__main__":
    main(sys.argv)
