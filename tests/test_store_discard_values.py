"""What a discard was worth, kept in ``deal_player`` (migration 0011): a store at 0010 with its ``deal_discard``
rows is migrated with the values moved over, and back, on a real SQLite file and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from databases import copy_rows, migrate, new_pg_database

from cribstats.cards import parse_cards
from cribstats.discards.analysis import DiscardError, judge_discard
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine, upgrade
from cribstats.store.importer import import_paths

COPIED = ("player", "event", "import_run", "game", "game_player", "deal", "deal_player")  # what deal_discard needs
VALUES = ("hand_only", "kept", "thrown", "hand_value", "crib_value", "expected", "best_kept", "best_thrown",
          "best_expected", "loss")  # fmt: skip


def write_jsonl(path: Path, logs: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(log) + b"\n" for log in logs))
    return path


def judged_rows(conn: sa.Connection) -> list[tuple[Any, ...]]:
    """The ``deal_discard`` rows a store at 0010 held, worked out afresh with :func:`judge_discard` from each
    stored player's deal: ``(deal_id, game_id, player_id, seat, role, hand_only, kept, ..., loss)``."""
    found = conn.execute(sa.text(
        "SELECT dp.deal_id, dp.game_id, dp.player_id, dp.seat, dp.role, dp.dealt, dp.discards, g.variant "
        "FROM deal_player dp JOIN game g ON g.id = dp.game_id WHERE dp.discards != ''"
    ))  # fmt: skip
    out = []
    for deal_id, game_id, player_id, seat, role, dealt, discards, variant in found:
        try:
            c = judge_discard(parse_cards(dealt), parse_cards(discards), variant, role)
        except DiscardError:
            continue
        chosen, best = c.chosen, c.best
        out.append((
            deal_id, game_id, player_id, seat, role, c.hand_only, " ".join(chosen.keep_text),
            " ".join(chosen.throw_text), chosen.hand, chosen.crib, chosen.expected, " ".join(best.keep_text),
            " ".join(best.throw_text), best.expected, c.loss,
        ))  # fmt: skip
    return sorted(out)


def stored_values(conn: sa.Connection) -> dict[tuple[int, int], tuple[Any, ...]]:
    """Each ``deal_player`` row's value columns, by (deal id, seat)."""
    rows = conn.execute(sa.text(f"SELECT deal_id, seat, {', '.join(VALUES)} FROM deal_player"))
    return {(r[0], r[1]): (None if r[2] is None else bool(r[2]), *r[3:]) for r in rows}


@pytest.fixture
def imported(db_url: str, tmp_path: Path, sample_logs_dir: Path) -> Iterator[sa.Engine]:
    """A store at the newest revision: simulated two- and four-player games and the variants' samples."""
    engine = make_engine(db_url)
    logs = [s.log for s in simulate_games(20, seed=5, mistake_rate=0.1)]
    logs += [s.log for s in simulate_games(6, variant="four-player", seed=6, mistake_rate=0.1)]
    summary = import_paths([write_jsonl(tmp_path / "games.jsonl", logs), sample_logs_dir / "variants"], engine)
    assert summary.imported > 26
    yield engine
    engine.dispose()


def test_the_import_keeps_judge_discards_values(imported: sa.Engine) -> None:
    """Every discard that can be judged has its values in its player's row, those :func:`judge_discard` gives."""
    with imported.connect() as conn:
        values = stored_values(conn)
        judged = judged_rows(conn)
    by_seat = {(r[0], r[3]): r[5:] for r in judged}
    assert by_seat and by_seat == {k: v for k, v in values.items() if v[0] is not None}
    assert all(set(v) == {None} for k, v in values.items() if k not in by_seat)  # no discard judged: all null
    assert {v[0] for v in values.values()} >= {True, False}  # four-player deals by the hand alone, two-player not


@pytest.fixture
def second_url(db_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A second empty database of the same kind as ``db_url`` (PostgreSQL: on the same server, dropped after)."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'at-0010.db'}"
        return
    with new_pg_database(request.getfixturevalue("pg_server")) as url:
        yield url


def test_a_store_at_0010_is_migrated_with_its_discard_values(imported: sa.Engine, second_url: str) -> None:
    """A store at 0010 holding ``deal_discard`` rows (made here with :func:`judge_discard`) is upgraded: each
    player's row holds what the importer now writes there, ``deal_discard`` is gone; and back again."""
    old = make_engine(second_url)
    upgrade(old, "0010")
    with imported.connect() as conn:
        copies = {name: [tuple(r) for r in conn.execute(sa.text(f'SELECT * FROM "{name}"'))] for name in COPIED}
        columns = {name: list(conn.execute(sa.text(f'SELECT * FROM "{name}"')).keys()) for name in COPIED}
        expected_values = stored_values(conn)
        discards = judged_rows(conn)
    copy_rows(old, copies, columns)  # the value columns of deal_player (0011), and later ones, left out
    with old.begin() as conn:
        head = ("deal_id", "game_id", "player_id", "seat", "role", *VALUES)
        conn.execute(
            sa.text(f"INSERT INTO deal_discard ({', '.join(head)}) VALUES ({', '.join(':' + n for n in head)})"),
            [dict(zip(head, row, strict=True)) for row in discards],
        )
    assert discards
    upgrade(old)
    with old.connect() as conn:
        assert "deal_discard" not in sa.inspect(conn).get_table_names()
        assert stored_values(conn) == expected_values
    migrate(old, "downgrade", "0010")  # and back: the rows again, as they were
    with old.connect() as conn:
        back = conn.execute(sa.text(f"SELECT {', '.join(head)} FROM deal_discard")).all()
        assert not set(VALUES) & {c["name"] for c in sa.inspect(conn).get_columns("deal_player")}
    assert sorted((*r[:5], bool(r[5]), *r[6:]) for r in back) == discards
    old.dispose()
