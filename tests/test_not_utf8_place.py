"""A tally sheet saved in Windows-1252 (Excel's "CSV" in much of the world) is refused saying where its first byte
that is not UTF-8 is: the line, as every other error of a sheet names it, read from a file, from standard input
or uploaded (they share the reader)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HEADER = b"date,event,round,player1,player2,score1,score2"
BAD_LINE = 402  # the header, 400 results, then a row with "Caf\xe9": past the first 8 KiB read


def _sheet(tmp_path: Path) -> Path:
    rows = [HEADER] + [b"2026-11-22,Ladder,%d,Ann,Bob,121,100" % i for i in range(400)]
    rows.append(b"2026-11-22,Caf\xe9 Ladder,1,Ann,Bob,121,100")
    path = tmp_path / "ladder.csv"
    path.write_bytes(b"\n".join(rows) + b"\n")
    return path


def _audit(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "cribstats.cli", "audit", *args], input=stdin,
                          capture_output=True, check=False)  # fmt: skip




def test_a_sheet_file_names_the_line_of_its_first_byte_not_utf8(tmp_path: Path) -> None:
    done = _audit(str(_sheet(tmp_path)))
    assert done.returncode == 2
    assert f"ladder.csv:line {BAD_LINE}" in done.stderr.decode()


def test_a_sheet_on_standard_input_names_the_line_of_its_first_byte_not_utf8(tmp_path: Path) -> None:
    done = _audit("-", stdin=_sheet(tmp_path).read_bytes())
    assert done.returncode == 2
    assert f"line {BAD_LINE}" in done.stderr.decode()


def test_the_rows_around_a_row_not_utf8_are_imported(tmp_path: Path) -> None:
    # 400 results, the row that is not UTF-8, then 3 more: the 403 good rows are stored, the bad one refused at
    # its line, and an import of the same sheet from standard input does the same
    sheet = _sheet(tmp_path)
    sheet.write_bytes(sheet.read_bytes() + b"".join(b"2026-11-23,Ladder,%d,Cy,Di,121,95\n" % i for i in range(3)))
    for args, stdin in (([str(sheet)], None), (["-"], sheet.read_bytes())):
        db = tmp_path / "club.db"
        db.unlink(missing_ok=True)
        done = subprocess.run([sys.executable, "-m", "cribstats.cli", "import", *args, "--db", f"sqlite:///{db}"],
                              input=stdin, capture_output=True, check=False)  # fmt: skip
        assert done.returncode == 2, done.stderr
        said = " ".join(done.stdout.decode().split())
        assert "games imported │ 403" in said and "refused │ 1" in said, said
        assert f"line {BAD_LINE}, column 15: not UTF-8 text" in done.stderr.decode()


def test_a_header_not_utf8_is_refused_at_its_place(tmp_path: Path) -> None:
    sheet = tmp_path / "ladder.csv"
    sheet.write_bytes(b"date,\xe9vent,round,player1,player2,score1,score2\n2026-11-22,Ladder,1,Ann,Bob,121,100\n")
    done = _audit(str(sheet))
    assert done.returncode == 2
    assert done.stderr.decode().strip().endswith(
        "ladder.csv:line 1, column 6: not UTF-8 text (byte b'\\xe9'): save the file as UTF-8"
    )


def test_a_cribbage_zero_record_not_utf8_is_refused_at_its_line_and_column(tmp_path: Path) -> None:
    # the first dealer's name saved in Latin-1: "Stapl\xe9s" on line 1, the é its 20th character
    record = tmp_path / "game.pgn"
    record.write_bytes(b'[FirstDealer "Stapl\xe9s"]\n[FirstPone "Stanley"]\n[Result "1-0"]\n')
    said = ":line 1, column 20: not UTF-8 text (byte b'\\xe9'): save the file as UTF-8"
    for args, stdin, name in (([str(record)], None, str(record)), (["-"], record.read_bytes(), "<stdin>")):
        done = _audit(*args, stdin=stdin)
        assert done.returncode == 2
        assert done.stderr.decode().strip() == name + said
