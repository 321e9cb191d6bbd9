"""Every command has help that teaches and appears in the README."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from cribstats.cli.app import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def command_paths() -> list[tuple[str, ...]]:
    root = typer.main.get_command(app)
    paths: list[tuple[str, ...]] = []
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        if hasattr(command, "commands"):
            paths.extend((name, sub) for sub in command.commands)
        else:
            paths.append((name,))
    return paths


def test_the_app_has_the_commands_of_the_readme() -> None:
    names = {" ".join(p) for p in command_paths()}
    expected = {"score", "peg", "audit", "simulate", "import", "db upgrade", "games", "show", "stats", "standings",
                "chart", "report"}
    assert expected <= names


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_command_has_help_and_is_in_the_readme(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output
    assert f"`cribstats {' '.join(path)}" in README, f"cribstats {' '.join(path)} is not in the README"


def test_readme_gives_the_two_commands_first() -> None:
    blocks = README.split("```sh")[1:3]
    assert "cribstats import sample_logs" in blocks[0] and "cribstats report" in blocks[0]
    assert "pytest" in blocks[1]
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    test_command = blocks[1].split("```")[0].strip()
    assert test_command in ci, ".ci/run must run the README's test command"


def test_the_docs_send_the_reader_nowhere_outside_the_project() -> None:
    root = Path(__file__).resolve().parent.parent
    skip = {".venv", ".git", "node_modules", "build", "dist"}
    pages = [p for p in root.rglob("*.md") if not skip & set(p.relative_to(root).parts)]
    assert root / "README.md" in pages and root / "docs" / "match.md" in pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for outside in ("](../", "shared/", "spec/", "/work/"):
            assert outside not in text, f"{page.relative_to(root)} names {outside!r}, outside the project"


def test_the_crib_table_figures_the_readme_quotes_are_the_shipped_tables() -> None:
    import json
    import re

    data = Path(__file__).resolve().parent.parent / "cribstats" / "data"
    rows = json.loads((data / "crib-table.json").read_text(encoding="utf-8"))
    published = json.loads((data / "published-crib-tables.json").read_text(encoding="utf-8"))["tables"]
    # a pair of two ranks is suited in 4 of its 16 ways: off-suit and suited rows combined three to one
    combined: dict[tuple[str, str], float] = {}
    offsuit: dict[tuple[str, str], float] = {}
    for row in rows["rows"]:
        share = {None: 1.0, False: 0.75, True: 0.25}[row["suited"]]
        for role in ("dealer", "pone"):
            combined[row["pair"], role] = combined.get((row["pair"], role), 0.0) + share * row[role]
            if row["suited"] is not True:
                offsuit[row["pair"], role] = row[role]

    def against(table: dict[str, dict[str, float]]) -> dict[tuple[str, str], float]:
        return {(pair, role): abs(combined[pair, role] - v[role]) for pair, v in table.items() for role in v
                if role in ("dealer", "pone")}

    hessel, schell = published["hessel"]["pairs"], published["schell"]["pairs"]
    from_hessel, from_schell = against(hessel), against(schell)
    worst = max(from_hessel, key=from_hessel.__getitem__)
    between = [abs(hessel[p][r] - schell[p][r]) for p in hessel for r in ("dealer", "pone")]
    text = " ".join(README.split())
    assert worst == ("45", "pone")
    assert (f"**largest difference {from_hessel[worst]:.2f}** (4-5 to the opponent's crib: "
            f"{combined[worst]:.2f} against {hessel['45']['pone']:.2f}), **mean difference "
            f"{sum(from_hessel.values()) / len(from_hessel):.3f}**") in text
    assert (f"against Schell's, largest {max(from_schell.values()):.2f}, mean "
            f"{sum(from_schell.values()) / len(from_schell):.3f} (Hessel and Schell differ from each other by up "
            f"to {max(between):.2f}, {sum(between) / len(between):.3f} on average)") in text
    assert (f"5-5 is {combined['55', 'dealer']:.2f} to your own crib and {combined['55', 'pone']:.2f} to the "
            f"opponent's; 10-K off-suit {offsuit['TK', 'dealer']:.2f} and {offsuit['TK', 'pone']:.2f}") in text
    assert re.search(rf"until the discards no longer change \({rows['iterations']} rounds\)", text)


# the commands that only read the store, whose examples a new user runs against a store of the sample logs
READING = ("games", "show", "stats", "standings", "night", "season", "matches", "head-to-head", "bracket",
           "rating", "chart", "report", "discards")
# what a command says on standard error when its example found nothing in the store
NOTHING = ("no finished", "no matches stored", "no stored", "is empty", "nobody qualifies", "no games")


def help_examples() -> list[str]:
    root = typer.main.get_command(app)
    examples = []
    for name in READING:
        text = root.commands[name].help or ""  # type: ignore[attr-defined]
        examples += [line.strip() for line in text.splitlines()
                     if line.strip().startswith(f"cribstats {name} ") and "&&" not in line]
    return examples


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    logs = Path(__file__).resolve().parent.parent / "sample_logs"
    url = f"sqlite:///{tmp_path_factory.mktemp('sample') / 'club.db'}"
    parts = [logs / "club-night.jsonl", logs / "nights", logs / "matches", logs / "variants" / "four-player"]
    result = CliRunner().invoke(app, ["import", "-q", "-j", "1", "--db", url, *map(str, parts)])
    assert result.exit_code == 0, result.output
    return url


@pytest.mark.parametrize("example", help_examples())
def test_each_example_of_the_help_finds_something_in_the_sample_logs(
    example: str, sample_store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    monkeypatch.chdir(tmp_path)
    args = shlex.split(example)[1:]
    if "Tuesday League" in args:  # the sample season's events, too large to import here, over all its dates
        assert not {"--date", "--since", "--until"} & set(args)
        season = Path(__file__).resolve().parent.parent / "sample_logs" / "season-2026.jsonl"
        with season.open(encoding="utf-8") as lines:
            assert '"Tuesday League"' in next(lines)
        return
    result = CliRunner().invoke(app, args, env={"CRIBSTATS_DB": sample_store, "COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert not [n for n in NOTHING if n in result.stderr], result.stderr
    out = [a for a in args if a.startswith("--out")]
    assert result.stdout.strip() or (out and any(p.stat().st_size for p in tmp_path.iterdir()))


def test_the_modules_the_docs_name_are_there() -> None:
    import re

    root = Path(__file__).resolve().parent.parent
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for name in set(re.findall(r"[\w/]+\.py\b", page.read_text(encoding="utf-8"))):
            if name.startswith("typer/"):  # a module of the command-line library, not of cribstats
                continue
            places = (root / name, root / "cribstats" / name, root / "tests" / name, root / "benchmarks" / name)
            assert any(p.exists() for p in places), f"{page.name} names {name}, which is not in the project"


# the commands docs/exports.md gives the columns of, with the arguments that make each table
EXPORTS = {
    "games": [], "stats": [], "standings": [], "season": [], "matches": [], "matches --games": ["--games"],
    "head-to-head": [], "rating": [], "rating --history": ["--history"], "discards": [], "discard-table": [],
    "players": [], "imports": [], "bracket": ["--event", "Elks Lodge Club Night"],
    "night": ["--event", "Elks Lodge Club Night", "--date", "2026-11-03"],
    "night --hands": ["--event", "Elks Lodge Club Night", "--date", "2026-11-03", "--hands"],
    "analyse": ["5H", "5C", "JD", "6S", "2C", "9D"],
}


def documented_columns() -> dict[str, list[str]]:
    """Each command's columns as docs/exports.md lists them: the first cell of its tables' rows, in order (a
    command's second table belongs to the option its introduction names)."""
    import re

    text = (Path(__file__).resolve().parent.parent / "docs" / "exports.md").read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    for command, body in re.findall(r"^## `cribstats ([a-z-]+)`\n(.*?)(?=^## |\Z)", text, re.S | re.M):
        tables = re.split(r"^With `(--[a-z]+)`[^\n]*\n", body, flags=re.M)
        names = [command] + [f"{command} {option}" for option in tables[1::2]]
        for name, table in zip(names, tables[::2], strict=True):
            cells = re.findall(r"^\| (`[^|]*`) \|", table, flags=re.M)
            found[name] = [c for cell in cells for c in re.findall(r"`([a-z0-9_]+)`", cell)]
    return found


@pytest.mark.parametrize("command", sorted(EXPORTS))
def test_every_column_an_export_writes_is_described(command: str, sample_store: str) -> None:
    import csv

    name = command.split()[0]
    args = [name, *EXPORTS[command], "--format", "csv"]
    result = CliRunner().invoke(app, args, env={"CRIBSTATS_DB": sample_store})
    assert result.exit_code == 0, result.output
    header = next(csv.reader(result.stdout.splitlines()))
    assert documented_columns().get(command) == header
