"""A blank player or event (a script's empty variable) is refused with the option it came from, exit 2: read as a
filter it found nothing in a full store and said "no games stored yet"."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cribstats.cli.app import app

# Ann beats Ben 121-100 at the club night of 3 March.
TALLY = "date,event,round,player1,player2,score1,score2\n2026-03-03,Club,1,Ann,Ben,121,100\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("blank")
    sheet = folder / "night.csv"
    sheet.write_text(TALLY)
    db = f"sqlite:///{folder / 'club.db'}"
    assert run("import", "--db", db, str(sheet))[0] == 0
    return db


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["stats", "--player", ""], "--player"),
        (["stats", "--event", "  "], "--event"),
        (["standings", "--event", ""], "--event"),
        (["season", "--event", ""], "--event"),
        (["discards", "--player", " "], "--player"),
        (["matches", "--player", ""], "--player"),
        (["head-to-head", ""], "PLAYER"),
        (["rating", " "], "PLAYER"),
        (["night", "--event", "", "--date", "2026-03-03"], "--event"),
        (["bracket", "--event", ""], "--event"),
        (["games", "--player", ""], "--player"),
        (["games", "--event", " "], "--event"),
    ],
)
def test_a_blank_name_is_refused_with_its_option(url: str, args: list[str], option: str) -> None:
    code, out, err = run(*args, "--db", url, "--format", "csv")
    assert (code, out) == (2, "")
    assert err.strip() == f"error: {option} is blank: give a name, or leave the option out"


def test_the_names_themselves_still_find_the_night(url: str) -> None:
    code, out, _ = run("stats", "--player", " ann ", "--event", "CLUB", "--db", url, "--format", "csv")
    assert code == 0
    assert [line.split(",")[:3] for line in out.splitlines()[1:]] == [["Ann", "1", "1"]]
