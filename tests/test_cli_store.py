"""``cribstats import``, ``db upgrade``, ``games`` and ``show`` through the command line (CliRunner), against an
SQLite file and a PostgreSQL database. What was stored is read back with SQL, not from the command's output."""

from __future__ import annotations

import copy
import csv
import io
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from rich.console import Console
from test_store_import import ONE_DEAL, write_jsonl
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.cli.games import games_table
from cribstats.simulate import simulate_games
from cribstats.store.db import head_revision, make_engine


def run(*args: str, input: str | bytes | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "200"})


def summary_rows(stdout: str) -> dict[str, int]:
    """The import summary table as {what: number}."""
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in stdout.splitlines() if line.count("│") == 3]
    return {what: int(value) for what, value in cells}


def scalar(url: str, sql: str) -> Any:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql)).scalar_one()
    finally:
        engine.dispose()


@pytest.fixture
def night(tmp_path: Path) -> Path:
    """Four games of a club night: three dated, two events, and the hand-worked game."""
    logs = [
        g.log
        for g in simulate_games(
            3,
            seed=51,
            events=["Tuesday League", "Open"],
            start_date="2026-03-03",
            games_per_night=1,
            players=["Ann", "Bo", "Cy"],
        )
    ]
    return write_jsonl(tmp_path / "night.jsonl", [*logs, ONE_DEAL])


def test_import_reports_and_stores(db_url: str, night: Path) -> None:
    result = run("import", "--db", db_url, "--quiet", str(night))
    assert result.exit_code == 0, result.output
    assert summary_rows(result.stdout) == {
        "files read": 1,
        "games imported": 4,
        "already stored": 0,
        "conflicts (not stored)": 0,
        "refused": 0,
        "deals stored": scalar(db_url, "SELECT count(*) FROM deal"),
        "findings stored": 1,
    }
    assert result.stderr == ""
    assert scalar(db_url, "SELECT count(*) FROM game") == 4

    again = run("import", "--db", db_url, "-q", str(night))
    assert again.exit_code == 0
    assert (summary_rows(again.stdout)["games imported"], summary_rows(again.stdout)["already stored"]) == (0, 4)
    assert scalar(db_url, "SELECT count(*) FROM game") == 4
    assert scalar(db_url, "SELECT sum(games_present) FROM import_run") == 4


def test_import_exit_2_names_the_refused_game_and_stores_the_rest(db_url: str, tmp_path: Path) -> None:
    bad = copy.deepcopy(ONE_DEAL)
    bad["id"] = "bad"
    bad["players"] = ["Alice"]
    path = tmp_path / "mixed.jsonl"
    good = next(simulate_games(1, seed=52)).log
    path.write_bytes(orjson.dumps(good) + b"\n" + orjson.dumps(bad) + b"\n" + orjson.dumps(ONE_DEAL) + b"\n")
    result = run("import", "--db", db_url, "-q", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}:line 2")
    assert scalar(db_url, "SELECT count(*) FROM game") == 2


def test_import_conflict_exit_2_and_replace(db_url: str, tmp_path: Path) -> None:
    run("import", "--db", db_url, "-q", str(write_jsonl(tmp_path / "a.jsonl", [ONE_DEAL])))
    changed = copy.deepcopy(ONE_DEAL)
    changed["site"] = "The Crown"
    path = write_jsonl(tmp_path / "b.jsonl", [changed])
    result = run("import", "--db", db_url, "-q", str(path))
    assert result.exit_code == 2
    assert f"{path}:line 1: game 'tuesday-r2-t4' is already stored with different content" in result.stderr
    assert scalar(db_url, "SELECT site FROM game") == "Elks Lodge"
    replaced = run("import", "--db", db_url, "-q", "--replace", str(path))
    assert replaced.exit_code == 0, replaced.output
    assert scalar(db_url, "SELECT site FROM game") == "The Crown"


def test_import_from_standard_input(sqlite_url: str) -> None:
    result = run("import", "--db", sqlite_url, "-q", "-", input=orjson.dumps(ONE_DEAL) + b"\n")
    assert result.exit_code == 0, result.output
    assert scalar(sqlite_url, "SELECT source_file FROM game") == "<stdin>"


def test_db_upgrade_creates_the_schema_and_is_safe_twice(db_url: str) -> None:
    for _ in range(2):
        result = run("db", "upgrade", "--db", db_url)
        assert result.exit_code == 0, result.output
    assert scalar(db_url, "SELECT version_num FROM alembic_version") == head_revision()
    assert scalar(db_url, "SELECT count(*) FROM deal_player") == 0


def test_games_filters(db_url: str, night: Path) -> None:
    run("import", "--db", db_url, "-q", str(night))

    def keys(*args: str) -> list[str]:
        result = run("games", "--db", db_url, "--format", "json", *args)
        assert result.exit_code == 0, result.output
        return [g["game"] for g in orjson.loads(result.stdout)]

    sims = ["six-card-s51-g000001", "six-card-s51-g000002", "six-card-s51-g000003"]
    # nights are a week apart per event, events alternate: 03-03 Tuesday League, 03-04 Open, 03-10 Tuesday League
    assert keys() == [sims[0], sims[1], sims[2], "tuesday-r2-t4"]  # by date; 2026-11-03 is the latest
    assert keys("--event", "tuesday league") == [sims[0], sims[2], "tuesday-r2-t4"]
    assert keys("--since", "2026-03-04", "--until", "2026-03-10") == [sims[1], sims[2]]
    assert keys("--player", "  ALICE ") == ["tuesday-r2-t4"]
    assert keys("--player", "nobody") == []

    table = run("games", "--db", db_url, "--player", "alice")
    assert table.exit_code == 0 and "tuesday-r2-t4" in table.stdout and "1 game" in table.stdout
    rows = list(csv.DictReader(io.StringIO(run("games", "--db", db_url, "-f", "csv", "--event", "Open").stdout)))
    assert [(r["game"], r["date"], r["event"], r["variant"]) for r in rows] == [
        (sims[1], "2026-03-04", "Open", "six-card")
    ]
    (one,) = [
        r for r in orjson.loads(run("games", "--db", db_url, "-f", "json").stdout) if r["game"] == ONE_DEAL["id"]
    ]
    assert (one["players"], one["scores"], one["winners"], one["deals"]) == (["Alice", "Bob"], [22, 12], [], 1)


def test_show_replays_a_stored_game_with_findings_inline(db_url: str, night: Path) -> None:
    run("import", "--db", db_url, "-q", str(night))
    result = run("show", "--db", db_url, "tuesday-r2-t4")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Game tuesday-r2-t4: six-card, to 121, Alice v Bob")
    assert any(line.strip().startswith("Deal 1: Alice deals, starter 5H") for line in lines)
    play = [line.split() for line in lines if "count" in line]
    assert play[1] == ["Alice", "5S", "count", "15", "2"]
    assert play[4] == ["Bob", "go", "count", "28"]
    hand = next(i for i, line in enumerate(lines) if line.strip().startswith("Alice  hand 5S 4S 2S 6H"))
    assert "12 (claimed 10)" in lines[hand]
    assert lines[hand + 1].strip().startswith("! missed (hand): Alice claimed 10")

    game_id = scalar(db_url, "SELECT id FROM game WHERE game_key = 'tuesday-r2-t4'")
    by_id = run("show", "--db", db_url, str(game_id))
    assert by_id.exit_code == 0 and by_id.stdout == result.stdout


def test_show_an_unknown_game_exit_2_without_traceback(sqlite_url: str, night: Path) -> None:
    run("import", "--db", sqlite_url, "-q", str(night))
    result = run("show", "--db", sqlite_url, "no-such-game")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: no stored game 'no-such-game': `cribstats games` lists them"
    assert result.stdout == ""


def test_show_an_ambiguous_hash_prefix_names_the_games(sqlite_url: str, night: Path) -> None:
    run("import", "--db", sqlite_url, "-q", str(night))
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as conn:  # two stored games whose content hashes begin alike
        keys = conn.exec_driver_sql("SELECT game_key FROM game ORDER BY id LIMIT 2").scalars().all()
        for n, key in enumerate(keys):
            conn.exec_driver_sql(
                "UPDATE game SET content_hash = ? WHERE game_key = ?", (f"abcdef{n}" + "0" * 57, key)
            )
    engine.dispose()
    result = run("show", "--db", sqlite_url, "abcdef")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: 'abcdef' begins the content hash of several stored games ({keys[0]}, {keys[1]}): "
        "give more of the hash, or the game's key"
    )
    assert run("show", "--db", sqlite_url, "abcdef1").stdout.startswith(f"Game {keys[1]}:")


def test_show_a_tally_result_lists_the_players_in_one_order(sqlite_url: str, tmp_path: Path) -> None:
    sheet = tmp_path / "ladder.csv"
    sheet.write_text("date,event,round,player1,player2,score1,score2,first_dealer\n"
                     "2026-09-29,Autumn Ladder,2,Grace,Bob,72,121,Bob\n")  # fmt: skip
    run("import", "--db", sqlite_url, "-q", str(sheet))
    lines = run("show", "--db", sqlite_url, "1").stdout.splitlines()
    assert " to 121, Bob v Grace (Autumn Ladder, round 2, 2026-09-29)" in lines[0]
    assert "Final: Bob 121, Grace 72" in lines
    assert "Won by Bob, a skunk" in lines


def test_a_store_in_a_folder_that_is_not_there_is_refused_naming_the_folder(tmp_path: Path) -> None:
    # SQLite said "unable to open database file", and the import added "run the same import again to complete
    # it", which could not help
    folder = tmp_path / "no" / "such"
    url = f"sqlite:///{folder / 'club.db'}"
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"
    expected = (f"error: no folder {folder} for the database {folder / 'club.db'}: make the folder first, or "
                "name a file in one that exists")
    for args in (["import", "-q", str(sample)], ["db", "upgrade"], ["keys", "add", "Ann"]):
        result = run(*args, "--db", url)
        assert (result.exit_code, result.stderr.strip()) == (1, expected), args
    assert not (tmp_path / "no").exists()


def test_database_errors_are_one_line(tmp_path: Path) -> None:
    missing = run("games", "--db", f"sqlite:///{tmp_path / 'none.db'}")
    assert missing.exit_code == 1
    assert missing.stderr.strip() == (
        f"error: no database at {tmp_path / 'none.db'}: import games first (`cribstats import PATH`)"
    )
    assert not (tmp_path / "none.db").exists()
    bad_url = run("games", "--db", "not a url")
    assert (bad_url.exit_code, bad_url.stderr.strip()) == (
        1,
        "error: 'not a url' is not a database URL: write e.g. sqlite:///cribstats.db",
    )
    refused = run("import", "--db", "postgresql://someone:secret@127.0.0.1:1/nothing", "-q", "x.jsonl")
    assert refused.exit_code == 1
    assert "Traceback" not in refused.output and "secret" not in refused.stderr
    assert refused.stderr.startswith("error: postgresql+psycopg://someone:***@127.0.0.1:1/nothing: ")


@pytest.mark.postgres
def test_a_database_not_encoded_in_utf8_is_refused_without_a_traceback(pg_server: sa.URL, tmp_path: Path) -> None:
    """A league database made in LATIN1 cannot hold every name: the first import says so and stores nothing, where
    a name outside LATIN1 used to end it in a traceback."""
    from databases import new_pg_database

    log = copy.deepcopy(ONE_DEAL)
    text = orjson.dumps(log).decode().replace('"Alice"', '"\u0141ucja"')
    assert "\u0141ucja" in text  # the escape is kept for JSON: the name is Łucja
    (tmp_path / "night.jsonl").write_text(text + "\n")
    with new_pg_database(pg_server, "ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'") as url:
        for command in (["import", "-q", str(tmp_path / "night.jsonl")], ["db", "upgrade"]):
            result = run(*command, "--db", url)
            assert (result.exit_code, result.stdout) == (1, ""), result.output
            assert "Traceback" not in result.output
            assert "is encoded in LATIN1" in result.stderr and "UTF8" in result.stderr
        engine = make_engine(url)
        with engine.connect() as conn:
            assert sa.inspect(conn).get_table_names() == []
        engine.dispose()


@pytest.mark.parametrize("command", [["import", "-q", "x.jsonl"], ["stats"], ["db", "upgrade"], ["serve"]])
@pytest.mark.parametrize("url", ["postgresql://league:se@cret@127.0.0.1:1/league",
                                 "postgres://league:p@ss%w/rd:x@127.0.0.1:1/league"])  # fmt: skip
def test_an_unencoded_at_sign_in_a_password_is_told_and_not_shown(command: list[str], url: str) -> None:
    """An '@' in a password must be written %40: the URL is refused saying so, and no part of the password is
    shown (it used to be read as the host, and printed as one)."""
    result = run(*command, "--db", url)
    assert (result.exit_code, result.stdout) == (1, "")
    told = "error: the database URL has an '@' in its user name or password: write it as %40"
    assert result.stderr.startswith(told)
    assert "cret" not in result.stderr and "ss%w" not in result.stderr and "rd:x" not in result.stderr


@pytest.mark.parametrize("command", [["import", "-q", "x.jsonl"], ["stats"], ["db", "upgrade"], ["players"]])
def test_a_password_given_as_a_url_parameter_is_not_shown(command: list[str]) -> None:
    """A unix-socket URL carries its password as ``?password=``: messages hide it as they hide user:password@."""
    url = "postgresql:///nothing?host=127.0.0.1&port=1&user=someone&password=s3cr%40t"
    result = run(*command, "--db", url)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "s3cr" not in result.stderr and "password=***" in result.stderr


def test_cribstats_db_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    result = CliRunner().invoke(
        app, ["import", "-q", str(write_jsonl(tmp_path / "a.jsonl", [ONE_DEAL]))], env={"CRIBSTATS_DB": url}
    )
    assert result.exit_code == 0, result.output
    assert scalar(url, "SELECT game_key FROM game") == "tuesday-r2-t4"


def test_games_as_parquet(sqlite_url: str, night: Path, tmp_path: Path) -> None:
    import polars as pl

    run("import", "--db", sqlite_url, "-q", str(night))
    result = CliRunner().invoke(app, ["games", "--db", sqlite_url, "-f", "parquet", "--player", "alice"])
    assert (result.exit_code, result.stdout) == (2, "")  # binary: never to standard output, as for stats
    assert result.stderr == "error: --format parquet needs --out FILE, not standard output (Parquet is binary)\n"
    out = tmp_path / "g.parquet"
    args = ["games", "--db", sqlite_url, "-f", "parquet", "--player", "alice", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", f"wrote {out}\n")
    frame = pl.read_parquet(out)
    assert frame.select("game", "players", "scores").rows() == [("tuesday-r2-t4", ["Alice", "Bob"], [22, 12])]


def test_import_a_folder_without_logs_says_so_exit_2(sqlite_url: str, tmp_path: Path) -> None:
    empty = tmp_path / "logs"
    empty.mkdir()
    (empty / "notes.txt").write_text("the scores are on the fridge")
    good = write_jsonl(tmp_path / "a.jsonl", [ONE_DEAL])
    result = run("import", "--db", sqlite_url, str(empty), str(good))  # no --quiet: progress must stay quiet
    assert result.exit_code == 2
    assert result.stderr == (
        f"{empty}: no game logs in this folder (looked for .json, .jsonl, .ndjson, .csv, .pgn files)\n"
    )
    assert summary_rows(result.stdout)["games imported"] == 1


def test_games_table_keeps_ids_whole_in_80_columns(sqlite_url: str, night: Path) -> None:
    run("import", "--db", sqlite_url, "-q", str(night))
    long_event = copy.deepcopy(ONE_DEAL)
    long_event["id"] = "elks-lodge-club-night-s101-g000015"
    long_event["event"] = "Elks Lodge Club Night"
    run("import", "--db", sqlite_url, "-q", str(write_jsonl(night.parent / "long.jsonl", [long_event])))
    listed = orjson.loads(run("games", "--db", sqlite_url, "--format", "json").stdout)
    terminal = Console(width=80, file=io.StringIO(), color_system=None)  # a person's terminal, 80 wide
    terminal.print(games_table(listed))
    text = terminal.file.getvalue()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    # every game's row starts with its whole id (what `show` takes), and no name is broken inside a word
    rows = [line.split() for line in lines[3:]]  # after the title, a blank line and the heading
    starts = [cells[0] for cells in rows if len(cells) >= 6 and cells[0].isdigit()]
    assert sorted(int(s) for s in starts) == sorted(g["id"] for g in listed) and len(listed) == 5
    words = {w.strip(",") for line in lines for w in line.split()}
    assert {"Alice", "Bob", "Elks", "Lodge", "Club", "Night", "Tuesday", "League"} <= words


def test_games_matching_nothing_say_so_on_stderr(sqlite_url: str, night: Path) -> None:
    run("import", "--db", sqlite_url, "-q", str(night))
    result = run("games", "--db", sqlite_url, "--player", "Nobody", "--format", "csv")
    assert result.exit_code == 0
    assert result.stdout == ",".join(
        ("id", "game", "date", "event", "round", "variant", "players", "scores", "winners", "deals", "findings",
         "source")
    ) + "\n"
    assert result.stderr == "no stored games match\n"


def test_games_have_the_same_columns_in_every_format(sqlite_url: str, night: Path, tmp_path: Path) -> None:
    """JSON had ``source`` (where the game was imported from) and CSV and Parquet did not."""
    import polars as pl

    run("import", "--db", sqlite_url, "-q", str(night))
    as_json = orjson.loads(run("games", "--db", sqlite_url, "--format", "json").stdout)
    header = run("games", "--db", sqlite_url, "--format", "csv").stdout.splitlines()[0].split(",")
    run("games", "--db", sqlite_url, "--out", str(tmp_path / "g.parquet"))
    frame = pl.read_parquet(tmp_path / "g.parquet")
    assert list(as_json[0]) == header == frame.columns
    assert frame["source"].to_list() == [g["source"] for g in as_json]
    assert all(g["source"].startswith(f"{night}:") or g["source"] == str(night) for g in as_json)


def test_games_since_after_until_is_a_usage_error(sqlite_url: str, night: Path) -> None:
    run("import", "--db", sqlite_url, "-q", str(night))
    result = run("games", "--db", sqlite_url, "--since", "2026-03-10", "--until", "2026-03-03")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.strip() == "error: --since 2026-03-10 is after --until 2026-03-03: no game can match"


@pytest.mark.parametrize(("date", "why"), [
    ("2026-02-30", "is not a date of the calendar"),
    ("2026-13-01", "is not a date of the calendar"),
    ("2026-2-3", "is not a date: write YYYY-MM-DD"),
    ("03/03/2026", "is not a date: write YYYY-MM-DD"),
    ("20260303", "is not a date: write YYYY-MM-DD"),
])  # fmt: skip
@pytest.mark.parametrize("option", ["--since", "--until"])
@pytest.mark.parametrize("command", ["games", "stats", "standings", "season", "discards"])
def test_a_bad_date_is_told_alike_by_every_command(sqlite_url: str, night: Path, command: str, option: str,
                                                   date: str, why: str) -> None:  # fmt: skip
    run("import", "--db", sqlite_url, "-q", str(night))
    result = run(command, "--db", sqlite_url, option, date)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {option} {date!r} {why}\n"  # one line, no usage box


@pytest.mark.parametrize(("command", "option"), [(["simulate-matches", "-n", "1"], "--date"),
                                                 (["simulate-nights", "--nights", "1"], "--start-date")])
@pytest.mark.parametrize(("date", "why"), [("2026-02-30", "is not a date of the calendar"),
                                           ("3/3/2026", "is not a date: write YYYY-MM-DD")])
def test_the_simulators_tell_a_bad_date_alike(tmp_path: Path, command: list[str], option: str, date: str,
                                              why: str) -> None:
    out = tmp_path / "out.jsonl"
    result = run(*command, option, date, "--out", str(out))
    assert (result.exit_code, result.stdout, out.exists()) == (2, "", False)
    assert result.stderr == f"error: {option} {date!r} {why}\n"


def test_games_dates_are_days(sqlite_url: str, night: Path) -> None:
    run("import", "--db", sqlite_url, "-q", str(night))
    result = run("games", "--db", sqlite_url, "--since", "2026-03-04", "--until", "2026-03-04", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert [g["date"] for g in orjson.loads(result.stdout)] == ["2026-03-04"]


@pytest.mark.parametrize("command", [["games"], ["show", "1"]])
def test_reading_a_database_that_is_not_a_store(tmp_path: Path, command: list[str]) -> None:
    other = tmp_path / "other.db"
    engine = make_engine(f"sqlite:///{other}")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE recipes (name TEXT)"))
    engine.dispose()
    result = run(*command, "--db", f"sqlite:///{other}")
    assert (result.exit_code, result.stdout) == (1, "")
    message = "error: the database is not a cribstats store of a version this cribstats knows"
    assert result.stderr.strip() == message


def test_an_interrupted_import_says_how_to_finish(
    sqlite_url: str, night: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cribstats.store.importer as importer

    def interrupted(*args: object, **kwargs: object) -> None:  # Ctrl-C while the games are being written
        raise KeyboardInterrupt

    monkeypatch.setattr(importer, "import_paths", interrupted)
    result = run("import", "--db", sqlite_url, str(night))
    assert (result.exit_code, result.stdout) == (130, "")
    assert result.stderr.strip().startswith("error: interrupted: the games of finished batches are stored")
    assert "run the same import again" in result.stderr and "Traceback" not in result.output


@pytest.mark.slow
def test_import_with_worker_processes_stores_what_one_process_stores(tmp_path: Path) -> None:
    logs = [g.log for g in simulate_games(70, seed=53, mistake_rate=0.05)]
    path = tmp_path / "club.jsonl"
    path.write_bytes(
        b"".join(orjson.dumps(log) + b"\n" for log in logs[:30]) + b"[1, 2]\n"
        + b"".join(orjson.dumps(log) + b"\n" for log in logs[30:])
    )
    outputs = {}
    stored = {}
    for workers in ("1", "2"):
        url = f"sqlite:///{tmp_path / f'j{workers}.db'}"
        result = run("import", "--db", url, "-q", "-j", workers, str(path))
        assert result.exit_code == 2  # one line refused
        assert result.stderr.startswith(f"{path}:line 31: a line holds one game, a JSON object, not an array")
        outputs[workers] = result.stdout
        engine = make_engine(url)
        with engine.connect() as conn:
            stored[workers] = conn.execute(
                sa.text(
                    "SELECT g.id, g.game_key, g.source_place, count(dp.id) FROM game g"
                    " JOIN deal_player dp ON dp.game_id = g.id GROUP BY g.id ORDER BY g.id"
                )
            ).all()
        engine.dispose()
    assert summary_rows(outputs["2"])["games imported"] == 70
    assert outputs["1"] == outputs["2"]
    assert stored["1"] == stored["2"]
    assert sorted(r.game_key for r in stored["2"]) == sorted(log["id"] for log in logs)
