"""Inputs this user may not read (a file or a folder of mode 000): refused with their name, the other inputs read
and stored, exit 2; never taken for a database failure nor passed over in silence.

File modes do not stop root, so run as root the commands run as nobody (``setpriv``), as in
``tests/test_store_read_only.py``, whose fixtures these are.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_store_import import write_jsonl
from test_store_read_only import as_reader, base, cribstats, logs

__all__ = ["as_reader", "base"]


def stored_ids(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return sorted(row[0] for row in conn.execute("SELECT source_id FROM game"))


def test_an_unreadable_file_is_refused_by_name_and_the_other_files_are_imported(
    base: Path, as_reader: list[str]
) -> None:
    """It was taken for the database failing: "sqlite:///club.db: Permission denied; 0 games of this import were
    stored", exit 1, and the readable file after it not imported."""
    work = base / "work"
    work.mkdir()
    work.chmod(0o777)
    secret = write_jsonl(work / "secret.jsonl", logs(2, seed=11))
    secret.chmod(0o000)
    night = logs(3, seed=12)
    write_jsonl(work / "night.jsonl", night).chmod(0o644)
    done = cribstats(as_reader, work, "import", "-q", "--db", "sqlite:///club.db", "secret.jsonl", "night.jsonl")
    assert done.returncode == 2, done.stderr
    assert "secret.jsonl: cannot be read: permission denied" in done.stderr
    assert "Traceback" not in done.stderr and "club.db" not in done.stderr
    assert stored_ids(work / "club.db") == sorted(g["id"] for g in night)


def test_a_folder_that_cannot_be_listed_is_refused_by_name_where_it_is_met(
    base: Path, as_reader: list[str]
) -> None:
    """A folder of mode 000 inside the folder imported was passed over in silence (exit 0, its games neither read
    nor named); named alone it was "no game logs in this folder"."""
    work = base / "work"
    (work / "logs" / "closed").mkdir(parents=True)
    work.chmod(0o777)
    (work / "logs").chmod(0o755)
    night = logs(3, seed=12)
    write_jsonl(work / "logs" / "night.jsonl", night).chmod(0o644)
    write_jsonl(work / "logs" / "closed" / "hidden.jsonl", logs(2, seed=11))
    (work / "logs" / "closed").chmod(0o000)
    closed = str(Path("logs") / "closed")

    done = cribstats(as_reader, work, "import", "-q", "-j", "1", "--db", "sqlite:///club.db", "logs")
    assert done.returncode == 2, done.stderr
    assert f"{closed}: cannot be read: permission denied" in done.stderr
    assert stored_ids(work / "club.db") == sorted(g["id"] for g in night)

    audited = cribstats(as_reader, work, "audit", "--json", "logs")
    assert audited.returncode == 2, audited.stderr
    assert f"{closed}: cannot be read: permission denied" in audited.stderr

    alone = cribstats(as_reader, work, "audit", closed)
    assert alone.returncode == 2
    assert alone.stderr.splitlines() == [f"{closed}: cannot be read: permission denied"]
