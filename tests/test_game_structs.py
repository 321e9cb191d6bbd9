"""The audit reads a line of JSON Lines that the fast decoder settles as its checked Structs, without building the
model; the replay, the match collector and the game's key read either alike. So, on simulated games of every
variant (with mistakes, muggins calls, and one more thing broken by hand) and on every sample log, a game replayed
from its Structs gives every fact, finding, score and winner that the pydantic model of the same line gives.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_replay_short_way import BREAKS, broken, outcome_data, simulated

from cribstats.formats import read_paths
from cribstats.gamelog import GameLog, GameLogError, content_hash, dump_game, game_key, validate_game_model
from cribstats.gamelog.fast import GameStruct, decode_game_struct, game_model
from cribstats.match.audit import MatchCollector
from cribstats.replay import replay
from cribstats.variants import VARIANT_NAMES

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def both(data: dict[str, Any]) -> tuple[GameStruct, GameLog] | None:
    """The line's Structs by the fast decoder and its model by the pydantic path alone; None when either refuses
    it or the fast decoder leaves it to the model."""
    line = orjson.dumps(data)
    struct = decode_game_struct(line)
    try:
        model = validate_game_model(orjson.loads(line))
    except GameLogError:
        assert struct is None  # what the model refuses is never settled by the fast decoder
        return None
    return None if struct is None else (struct, model)


@given(
    variant=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 10_000),
    rate=st.sampled_from([0.0, 0.05, 0.2]),
    muggins=st.booleans(),
    what=st.sampled_from(BREAKS),
    deal=st.integers(0, 2),
    where=st.integers(0, 30),
    with_id=st.booleans(),
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_game_replayed_from_its_structs_is_the_game_replayed_from_its_model(
    variant: str, seed: int, rate: float, muggins: bool, what: str, deal: int, where: int, with_id: bool,
) -> None:
    log = broken(simulated(variant, seed, mistake_rate=rate, muggins=muggins), what, deal, where)
    if not with_id:
        log.pop("id", None)
    read = both(log)
    assume(read is not None)
    assert read is not None
    struct, model = read
    assert game_key(struct) == game_key(model)  # without an id: the content hash, of the model built for it
    assert outcome_data(replay(struct)) == outcome_data(replay(model))


def sample_lines() -> list[tuple[str, bytes]]:
    return [
        (f"{path.relative_to(SAMPLES)}:{number}", line)
        for path in sorted(SAMPLES.rglob("*.jsonl"))
        for number, line in enumerate(path.read_bytes().splitlines(), 1)
        if line.strip()
    ]


def test_every_sample_game_replays_alike_from_its_structs() -> None:
    structs = 0
    for where, line in sample_lines():
        data = orjson.loads(line)
        if data.get("format") != "cribstats/game/1":
            continue  # a match record: its games are read by the match reader, as models
        read = both(data)
        if read is None:
            continue
        structs += 1
        struct, model = read
        assert outcome_data(replay(struct)) == outcome_data(replay(model)), where
    assert structs >= 2_000  # the sample logs are nearly all read the fast way: the test compares them


def test_the_readers_hand_over_structs_and_the_models_are_built_from_them() -> None:
    """A JSON Lines game settled by the fast decoder comes as Structs; :func:`game_model` builds the model the
    pydantic path builds, field for field and byte for byte in its canonical form."""
    sources = list(read_paths([SAMPLES / "club-night.jsonl"]))
    assert sources and all(isinstance(s.game, GameStruct) for s in sources)
    lines = [line for line in (SAMPLES / "club-night.jsonl").read_bytes().splitlines() if line.strip()]
    for source, line in zip(sources, lines, strict=True):
        model = validate_game_model(orjson.loads(line))
        built = game_model(source.game)
        assert built == model
        assert content_hash(built) == content_hash(model)
        assert game_model(model) is model


def match_games() -> list[dict[str, Any]]:
    """The whole games of the sample match records, each as a game log carrying its match id and number."""
    from cribstats.match.model import inline_games, validate_match

    games = []
    for path in sorted((SAMPLES / "matches").glob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            if line.strip():
                games += [dump_game(game) for _, game in inline_games(validate_match(orjson.loads(line)))]
    return games


def test_a_structs_game_and_its_model_give_the_match_collector_the_same() -> None:
    """The match collector reads a game's id, players, match, number and first dealer from either."""
    games = match_games()
    assert len(games) >= 5 and all(g.get("match") for g in games)
    judged = []
    for side in (0, 1):  # the Structs, then the models
        collector = MatchCollector()
        for n, data in enumerate(games):
            read = both(data)
            assert read is not None
            game = read[side]
            collector.game(game, replay(game), f"line {n + 1}")
        judged.append(([asdict(o) for o, _ in collector.judged()],
                       collector.errors))
    assert judged[0] == judged[1]
    assert judged[0][0]  # matches were judged from the games alone
