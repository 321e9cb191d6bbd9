"""``cribstats audit``: exit codes, ``--json`` lines, standard input, folders, bad input beside good input.

The logs are in ``tests/data/audit/`` (its README lists the findings each must give).
"""

from __future__ import annotations

import gc
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
import typer
from typer.testing import CliRunner

from cribstats.cli.audit import register
from cribstats.errors import LogError

DATA = Path(__file__).parent / "data" / "audit"
CLEAN = DATA / "clean.json"
ROUND1 = DATA / "night" / "round1.jsonl"
ROUND2 = DATA / "night" / "late" / "round2.json"

KEYS = ["game", "deal", "event", "kind", "phase", "player", "claimed", "due", "message"]
NIGHT_2 = ("night-2", 1, 1, "missed", "play", "Alice", 0, 2)
NIGHT_4 = [
    ("night-4", 1, None, "overclaim", "hand", "Bob", 10, 9),
    ("night-4", 1, None, "board", "deal", "Bob", 14, 13),
]


@pytest.fixture
def app() -> typer.Typer:
    """The audit group on an app of its own (a callback keeps ``audit`` a subcommand)."""
    root = typer.Typer()

    @root.callback()
    def main() -> None:
        """cribstats"""

    register(root)
    return root


def run(app: typer.Typer, *args: str, input: str | bytes | None = None) -> Any:
    return CliRunner().invoke(app, ["audit", *args], input=input, env={"COLUMNS": "200"})


def json_rows(stdout: str) -> list[tuple[Any, ...]]:
    """Parse --json output: every line one object with the spec's keys in order, a message naming the player."""
    rows = []
    for line in stdout.splitlines():
        obj = orjson.loads(line)
        assert list(obj) == KEYS
        assert obj["message"].strip()
        if obj["player"] is not None:
            assert obj["player"] in obj["message"]
        rows.append(tuple(obj[k] for k in KEYS[:-1]))
    return rows


def test_clean_game_exit_0(app: typer.Typer) -> None:
    result = run(app, str(CLEAN))
    assert result.exit_code == 0, result.output
    assert "games audited" in result.stdout
    assert result.stderr == ""


def test_clean_game_json_prints_nothing(app: typer.Typer) -> None:
    result = run(app, "--json", str(CLEAN))
    assert result.exit_code == 0
    assert result.stdout == ""


def test_findings_json_lines_and_exit_1(app: typer.Typer) -> None:
    result = run(app, "--json", str(ROUND1), str(ROUND2))
    assert result.exit_code == 1
    assert json_rows(result.stdout) == [NIGHT_2, *NIGHT_4]
    assert result.stderr == ""


def test_objects_alive_at_the_start_frozen_while_auditing_and_thawed_after(
    app: typer.Typer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cribstats.audit import AuditCollector

    assert gc.get_freeze_count() == 0
    frozen: list[int] = []
    add = AuditCollector.add

    def add_and_look(self: AuditCollector, outcome: Any) -> Any:
        frozen.append(gc.get_freeze_count())
        return add(self, outcome)

    monkeypatch.setattr(AuditCollector, "add", add_and_look)
    result = run(app, "--json", str(ROUND1), str(DATA / "no-such-file.jsonl"))
    assert result.exit_code == 2
    assert json_rows(result.stdout) == [NIGHT_2]  # the game read is audited as before
    assert len(frozen) == 2 and min(frozen) > 0  # round 1 has two games
    assert gc.get_freeze_count() == 0


def test_standard_input(app: typer.Typer) -> None:
    result = run(app, "--json", "-", input=ROUND1.read_bytes())
    assert result.exit_code == 1
    assert json_rows(result.stdout) == [NIGHT_2]
    result = run(app, "-", input=CLEAN.read_bytes())
    assert result.exit_code == 0


def test_folder_searched_recursively(app: typer.Typer) -> None:
    # sorted by path: clean.json, night/late/round2.json, night/round1.jsonl
    result = run(app, "--json", str(DATA))
    assert result.exit_code == 1
    assert json_rows(result.stdout) == [*NIGHT_4, NIGHT_2]


def summary_value(stdout: str, label: str) -> str:
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.replace("│", "|").split("|") if c.strip()]
        if cells and cells[0] == label:
            return cells[-1]
    raise AssertionError(f"no {label!r} in the summary:\n{stdout}")


def row_cells(stdout: str, first: str) -> list[str]:
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.replace("│", "|").split("|") if c.strip()]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row for {first!r}:\n{stdout}")


def test_table_view_groups_findings_per_game_and_sums_up(app: typer.Typer) -> None:
    result = run(app, str(DATA))
    assert result.exit_code == 1
    out = result.stdout
    # a table for each game with findings, in order, none for the clean ones
    assert out.index("night-4") < out.index("night-2")
    assert "night-1" not in out and "night-3" not in out and "seed-example" not in out
    assert summary_value(out, "games audited") == "5"
    assert summary_value(out, "deals") == "5"
    assert summary_value(out, "games with findings") == "2"
    assert summary_value(out, "findings") == "3"
    assert summary_value(out, "missed") == "1"
    assert summary_value(out, "overclaim") == "1"
    assert summary_value(out, "board") == "1"
    assert summary_value(out, "inputs refused") == "0"
    assert row_cells(out, "Alice") == ["Alice", "2", "0"]  # player, points missed, over-claimed
    assert row_cells(out, "Bob") == ["Bob", "0", "1"]


def test_bad_file_beside_a_good_one(app: typer.Typer, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    good_line = ROUND1.read_text().splitlines()[1]  # night-2, with its missed fifteen
    bad.write_text(good_line + "\n" + '{"format": "cribstats/game/1", "players": ["Alice", "Bob"\n')
    result = run(app, "--json", str(bad), str(CLEAN))
    assert result.exit_code == 2  # 2 wins over the 1 of night-2's finding
    assert json_rows(result.stdout) == [NIGHT_2]  # the good game in the bad file is still audited
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{bad}:line 2")
    # the line is exactly the reader's error, file:place: message
    from cribstats.formats import read_paths

    errors: list[LogError] = []
    list(read_paths([str(bad)], on_error=errors.append))
    assert lines == [str(errors[0])]
    assert "Traceback" not in result.output


def test_missing_and_binary_files(app: typer.Typer, tmp_path: Path) -> None:
    binary = tmp_path / "photo.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    missing = tmp_path / "nope.json"
    result = run(app, str(missing), str(binary), str(CLEAN))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    assert lines[0] == f"{missing}: no such file"
    assert lines[1].startswith(f"{binary}:")
    assert summary_value(result.stdout, "games audited") == "1"
    assert summary_value(result.stdout, "inputs refused") == "2"
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_invalid_game_in_an_array_is_refused_and_the_rest_audited(app: typer.Typer, tmp_path: Path) -> None:
    text = ROUND2.read_text()
    games = orjson.loads(text)
    games[0]["deals"][0]["play"][5] = ["Alice", "1S", 1]  # not a card
    path = tmp_path / "array.json"
    path.write_bytes(orjson.dumps(games))
    result = run(app, "--json", str(path))
    assert result.exit_code == 2
    assert json_rows(result.stdout) == NIGHT_4
    [line] = result.stderr.splitlines()
    assert line.startswith(f"{path}:")
    assert "deals[0].play[5]" in line and "1S" in line


def test_no_path_is_a_usage_error(app: typer.Typer) -> None:
    result = run(app)
    assert result.exit_code == 2
    assert result.stdout == ""


def test_cribbage_zero_records(app: typer.Typer) -> None:
    """Both records: no play or show finding, but each names a winner though no one reached 121."""
    folder = Path(__file__).parent / "data" / "cribbage-zero"
    result = run(app, "--json", str(folder / "game.pgn"), str(folder / "game2.pgn"))
    assert result.exit_code == 1
    rows = json_rows(result.stdout)
    assert [r[1:] for r in rows] == [(None, None, "result", "result", None, None, None)] * 2
    assert rows[0][0] != rows[1][0]  # each game known by its own content hash


def test_a_folder_without_logs_is_an_input_not_read(app: typer.Typer, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a log")
    result = run(app, str(tmp_path), str(CLEAN))
    assert result.exit_code == 2
    assert result.stderr == (
        f"{tmp_path}: no game logs in this folder (looked for .json, .jsonl, .ndjson, .csv, .pgn files)\n"
    )
    assert "inputs refused      │ 1" in result.stdout  # the clean log beside it is still audited
    assert "games audited       │ 1" in result.stdout


def test_tables_sent_to_a_file_keep_each_finding_on_one_line(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["audit", str(DATA)], env={"COLUMNS": "80"})
    [line] = [line for line in result.stdout.splitlines() if "│ overclaim" in line]
    message = "Bob claimed 10 for the hand 6D JH 4H 7C with starter 5H but 9 was due: 1 too many"
    assert line.split("│")[-2].strip() == message


def _audit_with_a_terminal_for_messages(folder: Path, out: Path) -> tuple[int, bytes]:
    """``cribstats audit --json FOLDER > OUT`` in a new process whose standard error is a terminal (a pty)."""
    leader, follower = pty.openpty()
    with out.open("wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-c", "from cribstats.cli.app import main; main()", "audit", "--json", str(folder)],
            stdout=handle, stderr=follower, env={**os.environ, "COLUMNS": "80"})
    os.close(follower)
    shown = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the process closed its end
            break
        if not chunk:
            break
        shown.append(chunk)
    os.close(leader)
    return process.wait(), b"".join(shown)


def test_a_progress_line_on_a_terminal_leaves_the_findings_as_they_are(app: typer.Typer, tmp_path: Path) -> None:
    """With standard error a terminal and the findings going to a file, the progress line counts the games on
    standard error, and the findings are the same lines as with no terminal at all."""
    status, shown = _audit_with_a_terminal_for_messages(DATA / "night", tmp_path / "found.jsonl")
    plain = CliRunner().invoke(app, ["audit", "--json", str(DATA / "night")])
    assert status == plain.exit_code == 1
    assert (tmp_path / "found.jsonl").read_bytes() == plain.stdout_bytes
    assert b"auditing: " in shown and b" games" in shown


def test_a_game_naming_one_player_twice_in_two_spellings_is_refused_as_the_import_refuses_it(
    app: typer.Typer, tmp_path: Path
) -> None:
    # Names that differ only in case or spacing are one player, and a game cannot seat one player twice: the
    # import refuses such a game, and the audit refuses it too, with the import's line, beside the clean game.
    from cribstats.cli.app import app as cribstats

    def result_only(players: list[str]) -> bytes:
        return orjson.dumps({"format": "cribstats/game/1", "players": players,
                             "result": {"winner": players[0], "scores": {players[0]: 121, players[1]: 99}}})

    path = tmp_path / "night.jsonl"
    path.write_bytes(b"\n".join([result_only(["Alice", "ALICE"]), orjson.dumps(orjson.loads(CLEAN.read_bytes())),
                                 result_only(["Mary Ann", " mary  ann"])]) + b"\n")
    audited = run(app, "--json", str(path))
    assert (audited.exit_code, audited.stdout) == (2, "")  # the clean game has no finding; two games refused
    assert audited.stderr.splitlines() == [
        f"{path}:line 1: players 'Alice' and 'ALICE' differ only in case or spacing: they would be one player",
        f"{path}:line 3: players 'Mary Ann' and 'mary  ann' differ only in case or spacing: they would be one "
        "player",
    ]
    table = run(app, str(path))
    assert [summary_value(table.stdout, what) for what in ("games audited", "inputs refused")] == ["1", "2"]
    imported = CliRunner().invoke(cribstats, ["import", "--db", f"sqlite:///{tmp_path / 'club.db'}", "-q",
                                              str(path)], env={"COLUMNS": "200"})  # fmt: skip
    assert imported.exit_code == 2
    assert [line for line in imported.stderr.splitlines() if line.startswith(str(path))] == (
        audited.stderr.splitlines())


def test_a_game_id_met_twice_is_noted_and_the_status_stands(app: typer.Typer, tmp_path: Path) -> None:
    # the clean game, the same game with another event (the import would refuse it: a conflict), and a copy of the
    # first (the import would find it stored): both later ones audited, each noted with where the id first was
    game = orjson.loads(CLEAN.read_bytes())
    other = dict(game, event="Another night")
    path = tmp_path / "twice.jsonl"
    path.write_bytes(b"".join(orjson.dumps(g) + b"\n" for g in (game, other, game)))
    result = run(app, "--json", str(path))
    assert (result.exit_code, result.stdout) == (0, "")
    said = f": note: game {game['id']!r} is in this input already ({path}:line 1)"
    assert result.stderr.replace("\n", " ").count(said) == 2
    assert f"{path}:line 2{said}" in result.stderr and f"{path}:line 3{said}" in result.stderr
    summary = run(app, str(path))
    assert "games audited │ 3" in " ".join(summary.stdout.split())
