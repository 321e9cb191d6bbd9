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
