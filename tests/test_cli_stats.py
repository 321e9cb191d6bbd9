"""``cribstats stats``, ``standings``, ``chart`` and ``report`` from the command line: outputs, files, errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.stats.measures import STANDINGS_COLUMNS, STATS_COLUMNS
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

# A tally sheet worked out by hand. Night of 3 March: Ann beats Ben 121-100 (spread 21) and Cy 121-85 (a skunk:
# 3 points, spread 36); Cy beats Ben 121-119 (spread 2). Ann: 5 points; Cy: 2 points, 1 win, spread 2-36 = -34;
# Ben: 0 points, spread -23. 10 March: Ben beats Ann 121-60 (a double skunk: 60 < 61).
TALLY = """date,event,round,player1,player2,score1,score2
2026-03-03,Club,1,Ann,Ben,121,100
2026-03-03,Club,2,Ann,Cy,121,85
2026-03-03,Club,3,Cy,Ben,121,119
2026-03-10,Club,1,Ben,Ann,121,60
2026-03-10,Other,1,Cy,Dee,121,120
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("cli")
    (folder / "club.csv").write_text(TALLY)
    url = f"sqlite:///{folder / 'club.db'}"
    engine = make_engine(url)
    assert import_paths([folder / "club.csv"], engine).imported == 5
    return url


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_standings_of_a_club_night(db: str) -> None:
    code, out, _ = run("standings", "--db", db, "--event", "club", "--date", "2026-03-03", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [tuple(r[c] for c in ("rank", "player", "games", "wins", "game_points", "spread")) for r in rows] == [
        (1, "Ann", 2, 2, 5, 57), (2, "Cy", 2, 1, 2, -34), (3, "Ben", 2, 0, 0, -23),
    ]  # fmt: skip
    assert list(rows[0]) == list(STANDINGS_COLUMNS)


def test_standings_table_and_csv(db: str, tmp_path: Path) -> None:
    code, out, _ = run("standings", "--db", db, "--event", "Club")
    assert code == 0 and "Standings (event Club)" in out and "Ann" in out
    code, out, _ = run("standings", "--db", db, "--format", "csv", "--out", str(tmp_path / "s.csv"))
    assert code == 0 and out == ""
    rows = list(csv.DictReader(io.StringIO((tmp_path / "s.csv").read_text())))
    # all games: Ann 5 points; Cy two plain wins, 4; Ben one double-skunk win, 3; Dee none
    got = [(r["player"], r["game_points"]) for r in rows]
    assert got == [("Ann", "5"), ("Cy", "4"), ("Ben", "3"), ("Dee", "0")]


def test_stats_formats(db: str, tmp_path: Path) -> None:
    code, out, _ = run("stats", "--db", db, "--format", "json", "--player", "ann")
    assert code == 0
    (ann,) = json.loads(out)
    assert list(ann) == list(STATS_COLUMNS)
    assert (ann["games"], ann["wins"], ann["double_skunks_lost"], ann["spread"], ann["deals"]) == (3, 2, 1, -4, 0)
    code, out, _ = run("stats", "--db", db, "--format", "csv")
    assert code == 0 and out.splitlines()[0] == ",".join(STATS_COLUMNS)
    code, _, _ = run("stats", "--db", db, "--format", "parquet", "--out", str(tmp_path / "s.parquet"))
    assert code == 0
    frame = pl.read_parquet(tmp_path / "s.parquet")
    assert frame.columns == list(STATS_COLUMNS) and frame["player"].to_list() == ["Ann", "Ben", "Cy", "Dee"]
    code, out, _ = run("stats", "--db", db)
    assert code == 0 and "Results (all games)" in out and "Counting accuracy" in out


def test_chart_command(db: str, tmp_path: Path) -> None:
    out = tmp_path / "skunks.svg"
    code, _, err = run("chart", "skunks", "--db", db, "--out", str(out))
    assert code == 0 and out.read_text().lstrip().startswith("<?xml")
    assert err.strip() == f"wrote {out}"


def test_report_command(db: str, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    code, _, _ = run("report", "--db", db, "--out", str(out), "--since", "2026-03-10")
    assert code == 0
    text = out.read_text()
    assert 'id="standings"' in text and "Since 2026-03-10" in text


PARQUET_NEEDS_A_FILE = "error: --format parquet needs --out FILE, not standard output (Parquet is binary)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["stats", "--format", "parquet"], PARQUET_NEEDS_A_FILE),
        (["stats", "--format", "parquet", "--out", "-"], PARQUET_NEEDS_A_FILE),  # it wrote to standard output
        (["stats", "--since", "March"], "error: --since 'March' is not a date: write YYYY-MM-DD"),
        (["stats", "--variant", "nine-card"], "error: unknown variant 'nine-card': use one of six-card, "
         "five-card, seven-card, three-player, four-player"),
        (["chart", "hands", "--out", "hands.jpg"], "error: --out 'hands.jpg': write a .png or .svg file"),
        (["standings", "--date", "2026-03-03", "--since", "2026-03-01"],
         "error: use --date for one day, or --since/--until for a range, not both"),
        (["stats", "--since", "2026-03-10", "--until", "2026-03-03"],
         "error: --since 2026-03-10 is after --until 2026-03-03: no game can match"),
    ],
)  # fmt: skip
def test_usage_errors(db: str, args: list[str], message: str) -> None:
    code, out, err = run(*args, "--db", db)
    assert (code, out) == (2, "")
    assert err.strip() == message


def test_missing_database(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    code, _, err = run("stats", "--db", f"sqlite:///{missing}")
    assert code == 1
    assert err.strip() == f"error: no database at {missing}: import games first (`cribstats import PATH`)"
    assert not missing.exists()


def test_no_matching_games_is_not_an_error(db: str) -> None:
    code, out, err = run("stats", "--db", db, "--player", "Nobody", "--format", "json")
    assert (code, json.loads(out)) == (0, [])
    assert "no games stored match the filters (player Nobody)" in err


def test_a_date_alone_that_finds_nothing_is_named_in_words_that_read(db: str) -> None:
    code, _, err = run("stats", "--db", db, "--since", "2999-01-01")
    assert code == 0
    assert err.strip() == "no games stored match the filters (since 2999-01-01)"


def test_unreachable_server_is_a_message_not_a_traceback() -> None:
    code, _, err = run("standings", "--db", "postgresql://club:secret@127.0.0.1:1/club")
    assert code == 1
    assert err.startswith("error: cannot open the database postgresql+psycopg://club:***@127.0.0.1:1/club: ")
    assert "secret" not in err


@pytest.mark.parametrize("command", [["chart", "skunks"], ["report"]])
def test_a_chart_or_report_of_no_games_warns(db: str, tmp_path: Path, command: list[str]) -> None:
    out = tmp_path / ("empty.svg" if command[0] == "chart" else "empty.html")
    code, stdout, err = run(*command, "--db", db, "--event", "Nowhere", "--out", str(out))
    assert (code, stdout) == (0, "")
    what = "chart" if command[0] == "chart" else "report"
    warning = f"warning: no stored games match event Nowhere: the {what} is empty"
    assert err.splitlines() == [warning, f"wrote {out}"]
    assert out.exists()


@pytest.mark.parametrize("command", [["chart", "skunks"], ["report"]])
def test_a_chart_or_report_of_an_empty_store_says_none_is_stored(tmp_path: Path, command: list[str]) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    assert run("db", "upgrade", "--db", url)[0] == 0
    out = tmp_path / ("empty.svg" if command[0] == "chart" else "empty.html")
    code, _, err = run(*command, "--db", url, "--out", str(out))
    what = "chart" if command[0] == "chart" else "report"
    assert code == 0 and err.splitlines() == [f"warning: no games stored yet: the {what} is empty", f"wrote {out}"]


def test_stats_out_says_what_it_wrote(db: str, tmp_path: Path) -> None:
    out = tmp_path / "stats.json"
    code, stdout, err = run("stats", "--db", db, "--format", "json", "--out", str(out))
    assert (code, stdout, err.strip()) == (0, "", f"wrote {out}")
    assert {r["player"] for r in json.loads(out.read_text())} == {"Ann", "Ben", "Cy", "Dee"}


def test_stats_tables_fit_80_columns_without_breaking_words(db: str) -> None:
    from rich.console import Console

    from cribstats.cli.tables import rich_table
    from cribstats.stats import compute_stats
    from cribstats.stats.measures import DEAL_COLUMNS

    frame = compute_stats(make_engine(db))
    terminal = Console(width=80, file=io.StringIO(), color_system=None)
    terminal.print(rich_table(frame, ("player", *DEAL_COLUMNS), "Deals"))
    lines = terminal.file.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    words = {w for line in lines for w in line.split()}
    assert {"player", "pegging", "dealer", "pone", "heels", "Ann", "Ben", "Dee"} <= words


def test_an_empty_store_says_how_to_fill_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    assert run("db", "upgrade", "--db", url)[0] == 0
    code, out, err = run("stats", "--db", url, "--format", "csv")
    assert (code, out.splitlines()[0].split(",")) == (0, list(STATS_COLUMNS))
    assert err.strip() == "no games stored yet: `cribstats import PATH` stores them"


@pytest.mark.parametrize("command", [["stats"], ["standings"], ["chart", "hands", "--out", "h.png"], ["report"]])
def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path, command: list[str]) -> None:
    not_db = tmp_path / "club.db"
    not_db.write_text("<html>this is a report, not a database</html>\n" * 20)
    code, out, err = run(*command, "--db", f"sqlite:///{not_db}")
    assert (code, out) == (1, "")
    assert err.strip() == f"error: cannot open the database sqlite:///{not_db}: file is not a database"


def test_a_store_with_broken_tables_is_one_line(tmp_path: Path) -> None:
    import sqlite3

    broken = tmp_path / "broken.db"
    with sqlite3.connect(broken) as conn:  # the tables' names, none of their columns
        conn.executescript("CREATE TABLE game(x); CREATE TABLE player(y); CREATE TABLE deal_player(z);")
    code, out, err = run("stats", "--db", f"sqlite:///{broken}")
    assert (code, out) == (1, "")
    assert err.startswith("error: the database failed: no such ") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", ["averages", "accuracy"])
def test_a_per_deal_chart_of_results_only_games_says_why_it_is_empty(db: str, tmp_path: Path, kind: str) -> None:
    out = tmp_path / f"{kind}.png"
    code, stdout, err = run("chart", kind, "--db", db, "--event", "Club", "--out", str(out))  # a tally: no deals
    assert (code, stdout) == (0, "")
    assert err.splitlines() == [
        "warning: the 4 games matching event Club have no completed deals to average (results-only games record "
        f"none): the {kind} chart is empty",
        f"wrote {out}",
    ]
    assert "no stored games match" not in err


def test_a_table_shows_a_flag_as_yes_or_no() -> None:
    # a secretary reads "yes" and "no" in a table, not Python's True and False (CSV and JSON keep the booleans)
    import polars as pl
    from rich.console import Console

    from cribstats.cli.tables import rich_table

    frame = pl.DataFrame({"player": ["Ann", "Ben"], "grand_slam": [True, False], "games": [3, 3]})
    terminal = Console(width=80, file=io.StringIO(), color_system=None)
    terminal.print(rich_table(frame, list(frame.columns), "Placings"))
    lines = terminal.file.getvalue().splitlines()
    rows = [line.split() for line in lines if line.strip().startswith(("Ann", "Ben"))]
    assert rows == [["Ann", "yes", "3"], ["Ben", "no", "3"]]


def test_a_narrow_tables_title_stands_on_one_line_where_the_terminal_has_room() -> None:
    # a bracket or a night with a long event name and few columns: the title is not folded to the table's width
    import polars as pl
    from rich.console import Console

    from cribstats.cli.tables import rich_table

    title = "Bracket: Tuesday Evening League Playoffs: 5 entrants, 2 qualifiers, 0 byes"
    frame = pl.DataFrame({"round": [1], "winner": ["Ann"]})
    for width, lines_of_title in ((100, 1), (40, 3)):  # a terminal narrower than the title still folds it
        terminal = Console(width=width, file=io.StringIO(), color_system=None)
        terminal.print(rich_table(frame, list(frame.columns), title))
        lines = [line.rstrip() for line in terminal.file.getvalue().splitlines()]
        assert " ".join(lines[:lines_of_title]).split() == title.split() and not lines[lines_of_title]
        assert max(len(line) for line in lines) <= width
