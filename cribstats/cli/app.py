"""The ``cribstats`` command: a thin layer over the library. Each command group lives in its own module.

``app`` is the whole command, every group registered. :func:`main` builds only the group of the command it is
given (``cribstats audit ...`` loads the audit's module and no other, and typer builds one command, not
thirty): the command runs, and prints its help and its errors, exactly as it does in the whole ``app``.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Iterable
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

START = (
    "A club night, start to finish: [bold]cribstats audit night.jsonl[/bold] (who counted wrong), "
    "[bold]cribstats import night.jsonl[/bold] (store it), [bold]cribstats standings --date 2026-11-03[/bold], "
    "[bold]cribstats report --out report.html[/bold]. Each command's --help has examples."
)
#: the command groups (modules of ``cribstats.cli``), in the order the root help lists their commands
GROUPS = ("rules", "audit", "simulate", "store", "stats", "club", "club_tables", "housekeeping", "serve",
          "discards")
#: the group that registers each command (a test holds this equal to what the groups register)
COMMANDS: dict[str, str] = {
    "score": "rules", "peg": "rules",
    "audit": "audit",
    "simulate": "simulate",
    "import": "store", "db": "store", "games": "store", "show": "store",
    "stats": "stats", "standings": "stats", "chart": "stats", "report": "stats",
    "simulate-matches": "club", "simulate-nights": "club",
    "night": "club_tables", "season": "club_tables", "head-to-head": "club_tables", "bracket": "club_tables",
    "rating": "club_tables", "matches": "club_tables",
    "delete": "housekeeping", "imports": "housekeeping", "players": "housekeeping",
    "serve": "serve", "keys": "serve",
    "analyse": "discards", "discards": "discards", "discard-table": "discards",
}


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"cribstats {version('cribstats')}")
        raise typer.Exit()


def root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version of cribstats and exit."
        ),
    ] = False,
) -> None:
    """Cribbage game logs in: a muggins audit of every deal, a store, player statistics, charts and reports."""


class _FlagsWithoutType:
    """Help that shows no type beside a flag: typer writes ``--json <bool>``, which reads as if the flag took a
    value (``--json true``); a flag takes none."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


class Command(_FlagsWithoutType, TyperCommand):
    """A ``cribstats`` command."""


class Group(_FlagsWithoutType, TyperGroup):
    """The ``cribstats`` command itself, and each of its groups (``db``, ``keys``, ``players``)."""


def build_app(groups: Iterable[str] = GROUPS) -> typer.Typer:
    """The ``cribstats`` command with the commands of ``groups`` (by default all of them)."""
    command = typer.Typer(
        name="cribstats",
        help="Cribbage game logs in: a muggins audit of every deal, a store, player statistics, charts and "
        "reports.",
        epilog=START,
        no_args_is_help=True,
        pretty_exceptions_show_locals=False,
        rich_markup_mode="rich",
        add_completion=False,
        cls=Group,
    )
    command.callback()(root)
    for group in groups:
        importlib.import_module(f"cribstats.cli.{group}").register(command)
    _settle_help(command)
    return command


def _settle_help(app: typer.Typer) -> None:
    """Every command of ``app`` and of its groups a :class:`Command` (groups a :class:`Group`), with its line
    in the list of commands on one line."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = Command
        if info.callback is not None:
            doc = info.help or info.callback.__doc__ or ""
            if info.short_help is None:
                info.short_help = short_help(doc)
            info.help = flowing_help(doc)
    for group in app.registered_groups:
        if group.typer_instance is not None:  # a group's class is typer's placeholder until given
            group.cls = Group
            _settle_help(group.typer_instance)


def short_help(doc: str) -> str:
    """A command's line in the root help: the first paragraph of its help, on one line (rich markup keeps the
    docstring's own line breaks, which cut the line short in a narrow column).

    >>> short_help("Replay every deal and report points missed; judge\\n    every match.\\n\\n    Examples: ...")
    'Replay every deal and report points missed; judge every match.'
    """
    return " ".join(doc.strip().split("\n\n", 1)[0].split())


def flowing_help(doc: str) -> str:
    """A command's help with each paragraph of prose on one line, so that the help wraps it to the terminal's
    width (rich markup keeps a docstring's own line breaks, which leave ragged lines in any other width); an
    indented paragraph (the examples) is kept as written.

    >>> print(flowing_help("Read logs and\\n    store them.\\n\\n    Examples:\\n\\n        cribstats import a"))
    Read logs and store them.
    <BLANKLINE>
    Examples:
    <BLANKLINE>
        cribstats import a
    """
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(p if p.startswith(" ") else " ".join(p.split()) for p in paragraphs)


def __getattr__(name: str) -> Any:
    """``app``, the whole command, built on first use."""
    if name == "app":
        whole = globals()["app"] = build_app()
        return whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the console script: the named command's group alone, or the whole command (for the root's
    help, ``--version``, or a name that is no command, which it explains)."""
    group = COMMANDS.get(sys.argv[1]) if len(sys.argv) > 1 else None
    build_app((group,) if group is not None else GROUPS)()
