"""A field a game log or a match record writes as ``null`` is the field left out: the same game (or record) written
both ways is one, stored once; a store that kept a game's nulls (before migration 0016) finds the game stored when
it is read again, and a record whose hash counted its nulls is found stored too.

The game is the first of ``sample_logs/club-night.jsonl``; "with nulls" writes ``site``, ``round`` and the first
deal's ``pegged`` as ``null`` (the three left out of the other form). The record is the first of
``sample_logs/matches/playoffs-best-of-3.jsonl``, with ``site`` and ``round`` written as null or left out.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from databases import migrate

from cribstats.gamelog import canonical_json, validate_game
from cribstats.store.db import make_engine, upgrade
from cribstats.store.importer import import_paths

NIGHT = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"


def _game(number: int = 0, **changes: Any) -> dict[str, Any]:
    game: dict[str, Any] = orjson.loads(NIGHT.read_bytes().splitlines()[number])
    game.pop("site", None)
    game.pop("round", None)
    return game | changes


def _with_nulls(game: dict[str, Any]) -> dict[str, Any]:
    """``game`` with ``site``, ``round`` and the first deal's ``pegged`` written as null, in the spec's places."""
    out: dict[str, Any] = {}
    for key, value in game.items():
        out[key] = value
        if key == "date":
            out |= {"site": None, "round": None}
    out["deals"] = [{**out["deals"][0], "pegged": None}, *out["deals"][1:]]
    return out


def _write(path: Path, *games: dict[str, Any]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(game) + b"\n" for game in games))
    return path


def test_a_game_written_with_nulls_and_without_is_stored_once(tmp_path: Path, db_url: str) -> None:
    id_less = {k: v for k, v in _game(0).items() if k != "id"}
    with_id = _game(1)
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        nulls = _write(tmp_path / "nulls.jsonl", _with_nulls(id_less), _with_nulls(with_id))
        assert import_paths([nulls], engine).imported == 2
        again = import_paths([_write(tmp_path / "plain.jsonl", id_less, with_id)], engine)
        assert (again.imported, again.present, again.conflicts) == (0, 2, [])
    finally:
        engine.dispose()


def _old_form(game: dict[str, Any]) -> tuple[str, str]:
    """The stored text and hash of ``game`` as the store kept them before: its fields as given, nulls included."""
    data = orjson.loads(canonical_json(validate_game(game))[0])  # the spec's order and spellings ...
    data = _with_nulls(data)  # ... with the nulls where the log gave them
    return orjson.dumps(data).decode(), hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


def test_migration_0016_gives_stored_games_the_form_without_their_nulls(tmp_path: Path, db_url: str) -> None:
    id_less = {k: v for k, v in _game(0).items() if k != "id"}
    with_id = _game(1)
    twice = {k: v for k, v in _game(2).items() if k != "id"}  # stored as given both ways: ...
    copy = twice | {"event": "the copy"}  # ... the copy is stored as a game of its own, then made the null form
    engine = make_engine(db_url)
    game = sa.table("game", *(sa.column(c) for c in ("id", "game_key", "content_hash", "log", "source_id")))
    try:
        upgrade(engine)
        plain = _write(tmp_path / "plain.jsonl", id_less, with_id, twice, copy)
        assert import_paths([plain], engine).imported == 4
        migrate(engine, "downgrade", "0015")
        keys = {}
        with engine.begin() as conn:  # the rows as the store wrote them before: the nulls kept
            for name, data in (("id_less", id_less), ("with_id", with_id), ("copy", twice)):
                digest_now = canonical_json(validate_game(copy if name == "copy" else data))[1]
                text, digest = _old_form(data)
                key = data.get("id") or digest[:16]
                conn.execute(sa.update(game).where(game.c.content_hash == digest_now)
                             .values(log=text, content_hash=digest, game_key=key))
                keys[name] = (key, text, digest)
        migrate(engine, "upgrade", "head")
        with engine.connect() as conn:
            rows = {r.game_key: r for r in conn.execute(sa.select(game))}
        for name, data in (("id_less", id_less), ("with_id", with_id)):
            key = keys[name][0]
            text, digest = canonical_json(validate_game(data))
            assert (rows[key].log, rows[key].content_hash) == (text.decode(), digest), name  # the key kept
        left = rows[keys["copy"][0]]
        assert (left.log, left.content_hash) == keys["copy"][1:]  # its form without nulls is stored: as it was
        nulls = [_with_nulls(data) for data in (id_less, with_id, twice)]
        again = import_paths([_write(tmp_path / "nulls.jsonl", *nulls)], engine)
        assert (again.imported, again.present, again.conflicts) == (0, 3, [])
    finally:
        engine.dispose()


# --- match records: the same rule, and a record stored while a null still counted in its hash -----------------

RECORDS = Path(__file__).resolve().parent.parent / "sample_logs" / "matches" / "playoffs-best-of-3.jsonl"


def _record() -> dict[str, Any]:
    record: dict[str, Any] = orjson.loads(RECORDS.read_bytes().splitlines()[0])
    record.pop("site")
    record.pop("round")
    return record


def _record_with_nulls(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``site`` and ``round`` written as null."""
    return {**record, "site": None, "round": None}


def test_a_match_record_written_with_nulls_and_without_is_one_record(tmp_path: Path, db_url: str) -> None:
    record = _record()
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        nulls = _write(tmp_path / "nulls.jsonl", _record_with_nulls(record))
        assert import_paths([nulls], engine).matches.imported == 1
        again = import_paths([_write(tmp_path / "plain.jsonl", record)], engine).matches
        assert (again.imported, again.present, again.conflicting) == (0, 1, 0)
    finally:
        engine.dispose()


def test_a_record_stored_with_its_nulls_in_its_hash_is_found_stored(tmp_path: Path, db_url: str) -> None:
    from cribstats.match.model import dump_match, match_hash, validate_match

    record = _record()
    plain = validate_match(record)
    hashed = dump_match(plain) | {"games": [game["id"] for game in record["games"]]}  # games named by their keys
    digest = hashlib.sha256(orjson.dumps(hashed, option=orjson.OPT_SORT_KEYS)).hexdigest()
    assert digest == match_hash(plain)
    before = hashlib.sha256(orjson.dumps(_record_with_nulls(hashed), option=orjson.OPT_SORT_KEYS)).hexdigest()
    match = sa.table("match", sa.column("source_id"), sa.column("content_hash"))
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        assert import_paths([_write(tmp_path / "plain.jsonl", record)], engine).matches.imported == 1
        with engine.begin() as conn:  # the hash as the store made it of the record written with its nulls
            conn.execute(sa.update(match).values(content_hash=before))
        again = import_paths([_write(tmp_path / "nulls.jsonl", _record_with_nulls(record))], engine).matches
        assert (again.imported, again.present, again.conflicting) == (0, 1, 0)
        with engine.connect() as conn:
            assert conn.execute(sa.select(match.c.content_hash)).scalar_one() == digest
        other = {**record, "event": "Another event"}  # a record that is not the same is still a conflict
        assert import_paths([_write(tmp_path / "other.jsonl", other)], engine).matches.conflicting == 1
    finally:
        engine.dispose()
