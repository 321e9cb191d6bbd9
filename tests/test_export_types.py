"""Parquet has typed columns and every time is said in UTC (docs/exports.md): a game's ``date`` is a Parquet date,
an import's ``started_at`` and ``finished_at`` a UTC timestamp in Parquet and, in the table, JSON and CSV, the
same text with its offset (``2026-12-06 13:30:08+00:00``). The store keeps UTC without a zone, so a reader in
another time zone must be told: these hold whatever the zone of the process that writes them."""

from __future__ import annotations

import csv
import io
import os
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import polars as pl
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

NIGHT = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"
UTC_TEXT = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00:00")


def run(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(params=[None, "Asia/Tokyo"], ids=["process-zone", "tokyo"])
def zone(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The process's time zone for the test: as it is, or Tokyo (nine hours ahead of UTC); restored after."""
    before = os.environ.get("TZ")
    if request.param is not None:
        os.environ["TZ"] = request.param
        time.tzset()
        assert time.localtime().tm_gmtoff == 9 * 3600
    yield request.param
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def second(moment: datetime) -> datetime:
    return moment.replace(microsecond=0)


@pytest.fixture
def stored(tmp_path: Path, zone: str | None) -> tuple[str, datetime, datetime]:
    """A store holding the club night, with the UTC times taken just before and just after its import."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    before = second(datetime.now(UTC))
    run("import", "-q", "--db", url, str(NIGHT))
    after = datetime.now(UTC)
    return url, before, after


def test_a_game_date_is_a_parquet_date(stored: tuple[str, datetime, datetime], tmp_path: Path) -> None:
    url = stored[0]
    out = tmp_path / "games.parquet"
    run("games", "--db", url, "--format", "parquet", "--out", str(out))
    frame = pl.read_parquet(out)
    assert frame.schema["date"] == pl.Date
    listed = orjson.loads(run("games", "--db", url, "--format", "json").stdout)
    assert listed and all(isinstance(r["date"], str) for r in listed)
    assert [d.isoformat() for d in frame["date"].to_list()] == [r["date"] for r in listed]
    rows = list(csv.DictReader(io.StringIO(run("games", "--db", url, "--format", "csv").stdout)))
    assert [r["date"] for r in rows] == [r["date"] for r in listed]  # CSV text as before: 2026-11-03


def test_import_times_are_utc_everywhere(stored: tuple[str, datetime, datetime], tmp_path: Path) -> None:
    url, before, after = stored
    out = tmp_path / "imports.parquet"
    run("imports", "--db", url, "--format", "parquet", "--out", str(out))
    frame = pl.read_parquet(out)
    for column in ("started_at", "finished_at"):
        assert frame.schema[column] == pl.Datetime("us", "UTC")
    [started], [finished] = frame["started_at"].to_list(), frame["finished_at"].to_list()
    assert started.utcoffset() == timedelta(0) and finished.utcoffset() == timedelta(0)
    assert before <= started <= finished <= after
    assert started.microsecond == 0 and finished.microsecond == 0  # exact to the second, as the text

    [as_json] = orjson.loads(run("imports", "--db", url, "--format", "json").stdout)
    [as_csv] = list(csv.DictReader(io.StringIO(run("imports", "--db", url, "--format", "csv").stdout)))
    for column, instant in (("started_at", started), ("finished_at", finished)):
        assert as_json[column] == as_csv[column]
        assert UTC_TEXT.fullmatch(as_json[column]), as_json[column]
        said = datetime.fromisoformat(as_json[column])
        assert said.utcoffset() == timedelta(0) and said == instant
    assert as_json["started_at"] in run("imports", "--db", url).stdout  # the table says it the same way


def test_key_times_are_utc(tmp_path: Path, zone: str | None) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    before = second(datetime.now(UTC))
    run("keys", "add", "ann", "--db", url)
    run("keys", "add", "bob", "--db", url)
    run("keys", "revoke", "bob", "--db", url)
    after = datetime.now(UTC)
    ann, bob = (line.split("\t") for line in run("keys", "list", "--db", url).stdout.splitlines())
    assert ann[0] == "ann" and ann[3] == "in use" and bob[0] == "bob"
    for text in (ann[2], bob[2], bob[3]):
        assert UTC_TEXT.fullmatch(text), text
        said = datetime.fromisoformat(text)
        assert said.utcoffset() == timedelta(0) and before <= said <= after
