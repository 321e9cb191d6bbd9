"""A log whose file name is not UTF-8 (a name in Latin-1 bytes, as an old share or stick gives them) is imported,
its name stored with the bytes that are not UTF-8 as escapes (``caf\\xe9.jsonl``). It was a traceback
(``UnicodeEncodeError``: the name's lone surrogate cannot be stored) and nothing imported."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from test_store_import import sim_logs, write_jsonl

ROOT = Path(__file__).resolve().parent.parent
MATCHES = ROOT / "sample_logs" / "matches" / "points-to-7.jsonl"


def test_a_file_name_in_latin1_bytes_is_imported_and_named_with_escapes(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    night = sim_logs(3, seed=4)
    write_jsonl(Path(os.fsdecode(bytes(logs) + b"/caf\xe9.jsonl")), night)
    Path(os.fsdecode(bytes(logs) + b"/p\xe9.jsonl")).write_bytes(MATCHES.read_bytes())
    db = tmp_path / "club.db"
    command = [sys.executable, "-c", "from cribstats.cli.app import main; main()", "import", "-q", "--db",
               f"sqlite:///{db}", "logs"]  # fmt: skip
    done = subprocess.run(command, cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    cafe, match_file = "logs/caf" + "\\" + "xe9.jsonl", "logs/p" + "\\" + "xe9.jsonl"  # the byte E9, escaped
    with sqlite3.connect(db) as conn:
        assert sorted(r[0] for r in conn.execute("SELECT file FROM import_run")) == [cafe, match_file]
        by_file = dict(conn.execute("SELECT source_file, count(*) FROM game GROUP BY source_file").fetchall())
        assert by_file[cafe] == len(night)
        assert [r[0] for r in conn.execute('SELECT source_file FROM "match"')] == [match_file]
