"""Game references (``show``, ``delete``, the service's game lookups): a key names its game whatever else it could
be read as; a store number that also begins another game's content hash names neither and is refused, naming
both; a hash prefix too short is told how long it must be. The hashes are set by hand, as a real store could
have them (about one hash in sixteen begins with six decimal digits)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from test_store_import import write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.db import make_engine
from cribstats.store.queries import AmbiguousGameError, find_game, table_counts


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def game(key: str, one: str, two: str) -> dict[str, Any]:
    return {"format": "cribstats/game/1", "id": key, "players": [one, two],
            "result": {"winner": one, "scores": {one: 121, two: 100}}}


@pytest.fixture
def three(db_url: str, tmp_path: Path) -> tuple[str, dict[str, int]]:
    """A store of games k1, k2, k3 (key -> store number), k2's hash beginning with k1's number in six digits and
    k3's with its own number."""
    path = write_jsonl(tmp_path / "night.jsonl", [game("k1", "Ann", "Bo"), game("k2", "Cy", "Di"),
                                                   game("k3", "Ed", "Fay")])
    assert run("import", "-q", "--db", db_url, str(path)).exit_code == 0
    engine = make_engine(db_url)
    with engine.begin() as conn:
        ids = {r.game_key: r.id for r in conn.execute(sa.text("SELECT game_key, id FROM game"))}
        for key, digits, fill in (("k2", ids["k1"], "b"), ("k3", ids["k3"], "c")):
            conn.execute(sa.text("UPDATE game SET content_hash = :h WHERE game_key = :k"),
                         {"h": f"{digits:06d}" + fill * 58, "k": key})
    engine.dispose()
    return db_url, ids


def found(url: str, ref: str) -> str | None:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            stored = find_game(conn, ref)
            return None if stored is None else stored.key
    finally:
        engine.dispose()


def counts(url: str) -> dict[str, int]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return table_counts(conn)
    finally:
        engine.dispose()


def test_a_number_that_begins_another_game_s_hash_is_refused_naming_both(
    three: tuple[str, dict[str, int]],
) -> None:
    url, ids = three
    ref = f"{ids['k1']:06d}"  # game number ids["k1"] is k1; k2's hash begins with it
    engine = make_engine(url)
    with engine.connect() as conn, pytest.raises(AmbiguousGameError) as refused:
        find_game(conn, ref)
    engine.dispose()
    message = (f"'{ref}' names more than one stored game: game number {ids['k1']} is 'k1', and '{ref}' begins the "
               "content hash of 'k2': give the game's key, or more of the hash")
    assert str(refused.value) == message
    assert refused.value.keys == ["k1", "k2"]
    before = counts(url)
    deleted = run("delete", "--db", url, ref, "--yes")
    assert (deleted.exit_code, deleted.stderr.strip()) == (2, f"error: {message}")
    assert counts(url) == before  # nothing deleted
    shown = run("show", "--db", url, ref)
    assert (shown.exit_code, shown.stdout, shown.stderr.strip()) == (2, "", f"error: {message}")
    # each is named alone: by its key, by the number without the zeros, by more of the hash
    assert [found(url, r) for r in ("k1", str(ids["k1"]), "k2", ref + "b")] == ["k1", "k1", "k2", "k2"]


def test_a_number_and_a_hash_prefix_of_the_same_game_name_it(three: tuple[str, dict[str, int]]) -> None:
    url, ids = three
    assert found(url, f"{ids['k3']:06d}") == "k3"
    assert found(url, "c" * 6) is None  # k3's hash has the c's after its number: no game's hash begins so


def test_a_key_names_its_game_before_a_number_or_a_hash_prefix(three: tuple[str, dict[str, int]]) -> None:
    url, ids = three
    ref = f"{ids['k1']:06d}"
    engine = make_engine(url)
    with engine.begin() as conn:  # k3's key is now what was ambiguous: the number of k1, the hash of k2
        conn.execute(sa.text("UPDATE game SET game_key = :ref WHERE game_key = 'k3'"), {"ref": ref})
    engine.dispose()
    assert found(url, ref) == ref  # the game keyed so (k3's row)
    assert found(url, f"  {ref} ") == ref


def test_a_hash_prefix_too_short_says_how_long_it_must_be(three: tuple[str, dict[str, int]]) -> None:
    url, _ = three
    assert found(url, "b" * 5) is None  # k2's hash holds b's, but five characters are not looked up
    result = run("delete", "--db", url, "a1b2", "--yes")
    assert (result.exit_code, result.stderr.strip()) == (
        2, "error: no stored game 'a1b2' (to name a game by its content hash, give at least 6 characters of the "
           "hash): `cribstats games` lists them")
    unknown = run("delete", "--db", url, "no-such-game", "--yes")  # not hexadecimal: no word of hashes
    assert unknown.stderr.strip() == "error: no stored game 'no-such-game': `cribstats games` lists them"


def test_a_hash_prefix_of_several_games_says_it_matches_several(three: tuple[str, dict[str, int]]) -> None:
    url, ids = three
    engine = make_engine(url)
    with engine.begin() as conn:
        for key, n in (("k1", 0), ("k2", 1)):
            conn.execute(sa.text("UPDATE game SET content_hash = :h WHERE game_key = :k"),
                         {"h": f"abcdef{n}" + "0" * 57, "k": key})
    engine.dispose()
    result = run("delete", "--db", url, "ABCDEF", "--yes")
    named = ", ".join(sorted(("k1", "k2"), key=ids.__getitem__))  # in store order (games are numbered by hash)
    assert (result.exit_code, result.stderr.strip()) == (
        2, f"error: 'ABCDEF' begins the content hash of several stored games ({named}): give more of the hash, or "
           "the game's key")
    assert found(url, "abcdef1") == "k2"


def test_a_number_too_long_for_a_store_id_names_no_game(three: tuple[str, dict[str, int]]) -> None:
    url, _ = three
    assert found(url, "9" * 19) is None  # beyond a 64-bit id: not sent to the database as one
