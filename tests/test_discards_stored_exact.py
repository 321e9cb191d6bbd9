"""The discard values the import stores, set beside brute force (tests/discard_brute.py) worked out from the log
itself: the first deals of one game of each variant, each player's dealt cards and throw, the dealer's crib his."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
import sqlalchemy as sa
from discard_brute import hand_value, table_value

from cribstats.store.importer import import_paths

FILES = ["club-night.jsonl", "variants/five-card.jsonl", "variants/seven-card.jsonl",
         "variants/three-player.jsonl", "variants/four-player/partners-cup-s4-g000001.json"]  # fmt: skip
PLAYERS = {"six-card": 2, "five-card": 2, "seven-card": 2, "three-player": 3, "four-player": 4}


def first_game(path: Path) -> dict:  # type: ignore[type-arg]
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else json.loads(text.splitlines()[0])


def brute_loss(variant: str, dealt: list[str], thrown: list[str], role: str) -> tuple[float, float]:
    """(expected value of the throw, its loss against the best throw)."""
    values = {}
    for throw in combinations(dealt, len(thrown)):
        hand = hand_value(dealt, [c for c in dealt if c not in throw])
        if PLAYERS[variant] == 2:
            crib = table_value(list(throw), role, variant)
            hand = hand + crib if role == "dealer" else hand - crib
        values[frozenset(throw)] = hand
    mine = values[frozenset(thrown)]
    return mine, max(values.values()) - mine


def test_the_stored_discards_are_the_brute_force_values(store: sa.Engine, sample_logs_dir: Path) -> None:
    import_paths([sample_logs_dir / f for f in FILES], store)
    checked = 0
    with store.connect() as conn:
        for name in FILES:
            game = first_game(sample_logs_dir / name)
            variant = game.get("variant", "six-card")
            for number, deal in enumerate(game["deals"][:2], start=1):
                for player, dealt in deal["hands"].items():
                    thrown = deal["discards"][player]
                    role = "dealer" if player == deal["dealer"] else "pone"
                    expected, loss = brute_loss(variant, dealt, thrown, role)
                    row = conn.execute(sa.text(
                        "SELECT dp.expected, dp.loss, dp.hand_only FROM deal_player dp "
                        "JOIN game g ON g.id = dp.game_id "
                        "JOIN deal d ON d.id = dp.deal_id JOIN player p ON p.id = dp.player_id "
                        "WHERE g.game_key = :game AND d.number = :number AND p.name = :player"),
                        {"game": game["id"], "number": number, "player": player},
                    ).one()  # fmt: skip
                    assert row.expected == pytest.approx(expected, abs=1e-12), (name, number, player)
                    assert row.loss == pytest.approx(loss if loss > 1e-9 else 0.0, abs=1e-12)
                    assert bool(row.hand_only) == (PLAYERS[variant] > 2)
                    checked += 1
    assert checked == 2 * sum(PLAYERS.values())


def test_a_bidding_deals_discards_are_valued_for_the_crib_holder(store: sa.Engine, sample_logs_dir: Path) -> None:
    # Bob deals, Alice buys the crib: her throw goes to her own crib, Bob's to his opponent's
    path = sample_logs_dir / "options" / "bidding.json"
    import_paths([path], store)
    deal = json.loads(path.read_text(encoding="utf-8"))["deals"][0]
    assert deal["dealer"] == "Bob" and deal["bid"]["player"] == "Alice"
    with store.connect() as conn:
        rows = dict(conn.execute(sa.text(
            "SELECT p.name, dp.expected FROM deal_player dp JOIN deal d ON d.id = dp.deal_id "
            "JOIN player p ON p.id = dp.player_id WHERE d.number = 1")).all())  # fmt: skip
    for player, role in (("Alice", "dealer"), ("Bob", "pone")):
        expected, _ = brute_loss("six-card", deal["hands"][player], deal["discards"][player], role)
        assert rows[player] == pytest.approx(expected, abs=1e-12)
