"""`cribstats analyse --format json` carries the columns of its CSV and Parquet (rank among them) and every value
exactly as they do (docs/exports.md: "JSON ... every value exactly as stored"); only the table rounds, for people.
The values are checked against the independent valuer of tests/discard_brute.py."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import polars as pl
import pytest
from discard_brute import hand_value, table_value
from typer.testing import CliRunner

from cribstats.cli.app import app

COLUMNS = ["rank", "keep", "throw", "hand", "crib", "expected"]


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize(
    ("dealt", "role"),
    [(["5H", "5C", "JD", "6S", "2C", "9D"], "--dealer"), (["5H", "5C", "JD", "4S", "6H", "KC"], "--pone")],
)
def test_json_has_the_csv_columns_and_exact_values(tmp_path: Path, dealt: list[str], role: str) -> None:
    rows = json.loads(run("analyse", *dealt, role, "--format", "json"))
    table = list(csv.DictReader(io.StringIO(run("analyse", *dealt, role, "--format", "csv"))))
    parquet = tmp_path / "a.parquet"
    run("analyse", *dealt, role, "--out", str(parquet))
    frame = pl.read_parquet(parquet)
    assert frame.columns == COLUMNS and all(list(row) == COLUMNS for row in rows) and len(rows) == 15
    for row, line, stored in zip(rows, table, frame.iter_rows(named=True), strict=True):
        assert row["rank"] == int(line["rank"]) == stored["rank"]
        assert " ".join(row["keep"]) == line["keep"] == stored["keep"]
        assert " ".join(row["throw"]) == line["throw"] == stored["throw"]
        for column in ("hand", "crib", "expected"):  # the same float, to its last digit
            assert row[column] == float(line[column]) == stored[column], column
    worth = []
    for row in rows:  # worked out afresh: every starter counted, the crib from the shipped table's row
        hand = hand_value(dealt, row["keep"])
        crib = table_value(row["throw"], role[2:])
        expected = hand + crib if role == "--dealer" else hand - crib
        assert abs(row["hand"] - hand) < 1e-12 and row["crib"] == crib and abs(row["expected"] - expected) < 1e-12
        worth.append(expected)
    for row, value in zip(rows, worth, strict=True):  # one more than the number of discards worth more
        assert row["rank"] == 1 + sum(1 for other in worth if other > value + 1e-9)


def test_a_hand_valued_alone_has_a_null_crib_and_exact_hand_values() -> None:
    dealt = ["5H", "5C", "JD", "4S", "6H"]
    rows = json.loads(run("analyse", *dealt, "--variant", "three-player", "--format", "json"))
    assert len(rows) == 5 and all(list(row) == COLUMNS and row["crib"] is None for row in rows)
    for row in rows:
        hand = hand_value(dealt, row["keep"])
        assert abs(row["hand"] - hand) < 1e-12 and row["expected"] == row["hand"]
    assert [row["rank"] for row in rows] == [1 + sum(1 for o in rows if o["hand"] > row["hand"] + 1e-9)
                                             for row in rows]  # fmt: skip
