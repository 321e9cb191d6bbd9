"""Every reader (match records too), given a good file with one mutation (cut short, bytes dropped, inserted or
changed, a line doubled, line endings made CRLF, a byte-order mark), either reads it or refuses it with a message
naming the file (and the place, where the file has more than one): never another exception. Each game it reads is
audited, again without any exception but a refusal with its place, and the scorecards and matches are judged."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribstats.audit import AuditCollector
from cribstats.errors import LogError
from cribstats.formats import read_games

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {
    "jsonl": b"".join((ROOT / "sample_logs" / "club-night.jsonl").read_bytes().splitlines(keepends=True)[:3]),
    "json": (ROOT / "sample_logs" / "options" / "bidding.json").read_bytes(),
    "csv": b"".join((ROOT / "sample_logs" / "tally" / "autumn-ladder.csv").read_bytes().splitlines(True)[:5]),
    "scorecard.csv": b"".join(
        (ROOT / "sample_logs" / "nights" / "grass-roots-2026-11-05.csv").read_bytes().splitlines(True)[:7]
    ),
    "match.jsonl": (ROOT / "sample_logs" / "matches" / "points-to-7.jsonl").read_bytes(),
    "pgn": (ROOT / "tests" / "data" / "cribbage-zero" / "game.pgn").read_bytes(),
}


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(sorted(SAMPLES)))
    data = SAMPLES[kind]
    at = draw(st.integers(0, len(data)))
    how = draw(st.sampled_from(["cut", "drop", "insert", "change", "double", "crlf", "bom"]))
    if how == "cut":
        data = data[:at]
    elif how == "drop":
        data = data[:at] + data[at + draw(st.integers(1, 40)):]
    elif how == "insert":
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    elif how == "change" and at < len(data):
        data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
    elif how == "double":
        lines = data.splitlines(keepends=True)
        i = draw(st.integers(0, len(lines) - 1))
        data = b"".join(lines[:i + 1] + lines[i:])
    elif how == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif how == "bom":
        data = b"\xef\xbb\xbf" + data
    return kind, data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=mutated())
def test_a_mutated_file_is_read_or_refused_with_its_name(drawn: tuple[str, bytes]) -> None:
    kind, data = drawn
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / f"mutated.{kind}")
        Path(path).write_bytes(data)
        errors: list[LogError] = []
        collector = AuditCollector()
        sources = list(read_games(path, on_error=errors.append, on_record=collector.add_record))
        for error in errors:
            assert error.file == path and error.message
            assert str(error).startswith(f"{path}:")
        refused: list[str] = []
        audits = list(collector.audit_sources(sources, on_error=refused.append))
        assert len(audits) + len(refused) == len(sources)
        list(collector.finish(on_error=refused.append))  # the scorecards and matches, judged
        for message in refused:
            assert message.startswith(f"{path}")
