"""Imports point down the data flow: rules core, then formats and the simulator, the store, statistics, output,
and the command line on top. The rules core uses no storage, analytics, plotting or terminal library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cribstats"

LAYERS: dict[str, int] = {
    "errors": 0, "cards": 0, "variants": 0, "scoring": 0, "findings": 0, "gamelog": 0, "play": 0, "replay": 0,
    "scoring_many": 0, "audit": 0, "textview": 0, "enumerate": 0, "data": 0, "lazy": 0, "match": 0, "discards": 0,
    "safetext": 0, "atomicfile": 0, "show_table": 0, "pegging": 0,
    "formats": 1, "simulate": 1, "schemas": 1,
    "store": 2,
    "stats": 3,
    "charts": 4, "chart_text": 4, "report": 4, "exports": 4, "club_charts": 4, "club_report": 4,
    "discard_report": 4, "chart_figures": 4,
    "cli": 5, "service": 5,
    "names": 0,  # the name and text rule, which the readers apply
}
CORE_FORBIDDEN = {
    "sqlalchemy", "sqlmodel", "alembic", "psycopg", "polars", "matplotlib", "typer", "rich", "jinja2",
}


def top_module(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def test_every_module_has_a_layer() -> None:
    unknown = {top_module(p) for p in MODULES} - set(LAYERS) - {"__init__", "__main__"}
    assert not unknown, f"modules with no layer in this test: {sorted(unknown)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    here = top_module(path)
    level = LAYERS.get(here, 1)  # the package's __init__ is a facade over the core and the readers
    for name in imports_of(path):
        root = name.split(".")[0]
        if root == "cribstats":
            parts = name.split(".")
            target = LAYERS[parts[1]] if len(parts) > 1 else 1  # the package itself: the facade
            assert target <= level, f"{path.name} ({here}) imports {name}, which sits above it"
        elif level == 0:
            assert root not in CORE_FORBIDDEN, f"the rules core module {path.name} imports {name}"


def modules_loaded_by(statement: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``statement``."""
    code = f"import sys\n{statement}\nprint('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return set(out.split())


HEAVY = {"numpy", "polars", "sqlalchemy", "alembic", "matplotlib", "cribstats.replay", "cribstats.gamelog"}


def test_the_command_line_loads_what_a_command_needs_when_it_runs() -> None:
    """Start-up: building the ``cribstats`` command loads no analytics, database or replay module."""
    assert not modules_loaded_by("import cribstats.cli.app") & HEAVY


def test_the_package_names_load_on_first_use() -> None:
    import cribstats

    assert sorted(cribstats.__all__) == sorted(n for names in cribstats._MODULES.values() for n in names)
    assert not modules_loaded_by("import cribstats") & HEAVY
    loaded = modules_loaded_by("from cribstats import replay, read_paths, score_show")
    assert {"cribstats.replay", "cribstats.formats", "cribstats.scoring"} <= loaded
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cribstats.nothing  # noqa: B018


def test_the_audit_command_loads_no_numpy_or_sql() -> None:
    """Start-up: ``cribstats audit`` of a game loads neither numpy nor the SQL layer (the show's totals and the
    play come from the pure Python rules core; numpy is for scoring hands in bulk)."""
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"
    run = (
        "import contextlib, os, sys\n"
        f"sys.argv = ['cribstats', 'audit', '--json', {str(sample)!r}]\n"
        "from cribstats.cli.app import main\n"
        "sys.stdout = open(os.devnull, 'w')\n"
        "with contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "sys.stdout = sys.__stdout__"
    )
    loaded = modules_loaded_by(run)
    assert "cribstats.replay" in loaded  # the audit ran
    assert not loaded & {"numpy", "sqlalchemy", "polars", "cribstats.scoring_many", "cribstats.store"}


#: the game log's pydantic models, and what loads only with them: needed for a log the fast path leaves (a
#: refusal, a spelling it does not read), for the canonical form and a game's content hash, not for reading
THE_MODELS = {
    "pydantic", "cribstats.gamelog.model", "cribstats.gamelog.fields", "cribstats.gamelog.messages",
    "cribstats.gamelog.canonical",
}
#: what the audit of a plain game log leaves unloaded: the other commands' modules, the match models and judge
#: (for match records and games that carry a match id), the tally, scorecard and cribbage-zero readers, rich's
#: progress line (for a terminal) and tables (for findings shown as tables), and the game log's models
NOT_FOR_A_PLAIN_AUDIT = {
    "cribstats.cli.store", "cribstats.cli.stats", "cribstats.cli.serve", "cribstats.cli.simulate",
    "cribstats.cli.club_tables", "cribstats.cli.discards", "cribstats.cli.housekeeping", "cribstats.cli.rules",
    "cribstats.cli.tables",
    "cribstats.match.model", "cribstats.match.judge", "cribstats.formats.tally", "cribstats.formats.scorecard",
    "cribstats.formats.cribzero", "rich.progress", "rich.table", *THE_MODELS,
}


def _audit_run(*args: str) -> str:
    return (
        "import contextlib, os, sys\n"
        f"sys.argv = ['cribstats', 'audit', *{list(args)!r}]\n"
        "from cribstats.cli.app import main\n"
        "sys.stdout = open(os.devnull, 'w')\n"
        "with contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "sys.stdout = sys.__stdout__"
    )


@pytest.mark.parametrize("name", ["one.jsonl", "array.json", "one.json"])
def test_the_audit_of_a_plain_game_log_loads_only_what_it_uses(tmp_path: Path, name: str) -> None:
    """Start-up: the audit of a game with no match id (a line of JSON lines, an array, a game alone) loads none
    of NOT_FOR_A_PLAIN_AUDIT."""
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"
    game = orjson.loads(sample.read_bytes().splitlines()[0])
    game.pop("match", None)
    game.pop("match_game", None)
    log = tmp_path / name
    texts = {"one.jsonl": orjson.dumps(game) + b"\n", "array.json": orjson.dumps([game]),
             "one.json": orjson.dumps(game)}
    log.write_bytes(texts[name])
    loaded = modules_loaded_by(_audit_run("--json", str(log)))
    assert {"cribstats.replay", "cribstats.cli.audit", "cribstats.formats.jsonlog"} <= loaded  # the audit ran
    assert not loaded & NOT_FOR_A_PLAIN_AUDIT


def test_reading_and_replaying_logs_the_fast_path_settles_loads_no_model(tmp_path: Path) -> None:
    """The library's audit of a clean file (every sample log with an id) loads neither pydantic nor the models;
    a game without an id loads them for its content hash, and a refusal for its message."""
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"
    lines = sample.read_bytes().splitlines()
    assert all(orjson.loads(line).get("id") for line in lines)
    without_id = orjson.loads(lines[0])
    del without_id["id"]
    refused = b'{"format": "cribstats/game/1", "players": ["Ann", "Ann"]}'
    logs = {"clean": sample, "no id": tmp_path / "no-id.jsonl", "refused": tmp_path / "refused.jsonl"}
    logs["no id"].write_bytes(orjson.dumps(without_id) + b"\n")
    logs["refused"].write_bytes(refused + b"\n")
    loads = {}
    for name, log in logs.items():
        loads[name] = modules_loaded_by(
            "from cribstats.audit import AuditCollector\nfrom cribstats.formats import read_paths\n"
            "collector = AuditCollector(keep=False)\n"
            f"sources = read_paths([{str(log)!r}], on_error=collector.refuse)\n"
            "for _ in collector.audit_sources(sources): pass\n"
            "assert collector.result().games + collector.result().refused"
        )
        assert "cribstats.replay" in loads[name]
    assert not loads["clean"] & THE_MODELS
    assert loads["no id"] >= {"pydantic", "cribstats.gamelog.model", "cribstats.gamelog.canonical"}
    assert loads["refused"] >= {"pydantic", "cribstats.gamelog.model", "cribstats.gamelog.messages"}


def test_the_audit_of_logs_read_whole_builds_no_game_log_model(tmp_path: Path) -> None:
    """Start-up: the models' validators are built when one first validates, so the audit of logs the fast path
    reads whole builds none; a log only the model can refuse builds them, and is refused as always."""
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "club-night.jsonl"
    good, broken = tmp_path / "good.jsonl", tmp_path / "broken.jsonl"
    good.write_bytes(sample.read_bytes())
    broken.write_bytes(b'{"format": "cribstats/game/1", "players": ["Ann", "Ann"]}\n')
    built = "\nfrom cribstats.gamelog import GameLog\nprint(GameLog.__pydantic_complete__)"
    for log, expected in ((good, "False"), (broken, "True")):
        code = _audit_run("--json", str(log)) + built
        run = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
        assert run.stdout.split() == [expected], run.stderr
        if log is broken:
            refusal = "broken.jsonl:line 1: players: 'Ann' is named twice: player names must be distinct\n"
            assert run.stderr.endswith(refusal)


def test_the_audit_loads_the_match_judge_and_the_readers_for_what_needs_them() -> None:
    """The same audit of a tally sheet and a file of match records loads the tally reader and the judge."""
    root = Path(__file__).resolve().parent.parent
    sheet = root / "tests" / "data" / "formats" / "tally.csv"
    records = root / "sample_logs" / "matches" / "points-to-7.jsonl"
    assert b'"cribstats/match/1"' in records.read_bytes()
    loaded = modules_loaded_by(_audit_run("--json", str(sheet), str(records)))
    assert {"cribstats.formats.tally", "cribstats.match.model", "cribstats.match.judge"} <= loaded
