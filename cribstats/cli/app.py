"""The ``cribstats`` command: a thin layer over the library. Each command group lives in its own module.

``app`` is the whole command, every group registered. :func:`main` builds only the group of the command it is
given (``cribstats audit ...`` loads the audit's module and no other, and typer builds one command, not
thirty): the command runs, and prints its help and its errors, exactly as it does in the whole ``app``.

Run as a program (:func:`main`, or ``app()``), every command ends by one rule (:func:`run`): a usage error is one
line, ``error: `` and click's message, exit 2; a closed standard output ends it quietly, exit 141.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import sys
from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeVar

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
#: the exit status of a command whose standard output was closed before it was done (``cribstats games | head``):
#: 128 + SIGPIPE (13), what a shell reports of a Unix command that the closed pipe's SIGPIPE ended
CLOSED_OUTPUT = 141
#: the exit status of a command interrupted by Ctrl-C (128 + SIGINT), as typer gives it
INTERRUPTED = 130
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


class App(typer.Typer):
    """The ``cribstats`` command. Called as a program, with no arguments (``app()``), it runs the command of the
    command line and exits as :func:`run` says; with click's arguments, as typer runs it."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:
            return super().__call__(*args, **kwargs)
        sys.exit(run(functools.partial(super().__call__, standalone_mode=False)))


def run(command: Callable[[], Any]) -> int:
    """Run ``command`` (a click command run with ``standalone_mode=False``: it returns the exit status asked for
    with ``typer.Exit``, and raises click's errors) and give its exit status:

    * a usage error (an unknown option, a value click refuses) is one line on standard error, ``error: `` and
      click's message, which names the option and the value; exit 2 (typer prints a panel of five lines);
    * standard output that cannot be written (a full disk behind ``> file``) is one line, ``error:``, exit 1;
    * a closed standard output (``cribstats games | head -1``) ends the command quietly, exit
      :data:`CLOSED_OUTPUT`, nothing printed (click and rich end it with exit status 1, the status of a database
      that cannot be used), and standard output is pointed at the null device so that the interpreter's last
      flush does not complain;
    * anything else as the command ended: its status, ``sys.exit``, Ctrl-C's 130, or a traceback for a bug.
    """
    try:
        status = command()
        sys.stdout.flush()  # what is still buffered: a closed output is met here, not in the interpreter's exit
    except BaseException as err:
        if _closed_output(err):
            return _quietly_closed()
        failed = _output_failed(err)
        if failed is not None:  # a full disk behind ``> file``: one line, as for --out
            _quietly_closed()
            return _said(str(failed), 1)
        if isinstance(err, KeyboardInterrupt):
            return INTERRUPTED
        if isinstance(err, typer.Abort):
            return _said("aborted", 1)
        if not isinstance(err, typer.TyperException):  # SystemExit, and bugs: as they are
            raise
        if type(err).__name__ == "NoArgsIsHelpError":  # no command: typer has printed the help (as typer tells it)
            return err.exit_code
        return _said(" ".join(err.format_message().splitlines()), err.exit_code)
    return status if isinstance(status, int) else 0


def _said(message: str, status: int) -> int:
    from cribstats.cli.options import fail

    return fail(message, status).exit_code


E = TypeVar("E", bound=BaseException)


def _in_chain(err: BaseException, kind: type[E]) -> E | None:
    """The first exception of ``kind`` that ``err`` is, or was raised handling (its causes and contexts)."""
    seen: set[int] = set()
    cause: BaseException | None = err
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, kind):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def _closed_output(err: BaseException) -> bool:
    """Whether ``err`` is a write to a closed pipe or was raised handling one: click ends the command then with
    ``sys.exit(1)``, and rich (printing a table) with ``SystemExit(1)``, both while handling the
    ``BrokenPipeError``."""
    return _in_chain(err, BrokenPipeError) is not None


def _output_failed(err: BaseException) -> OSError | None:
    """The failure of standard output (:class:`cribstats.cli.stdout.OutputFailed`) that ``err`` is or was raised
    handling, if any."""
    from cribstats.cli.stdout import OutputFailed

    return _in_chain(err, OutputFailed)


def _quietly_closed() -> int:
    """The end of a command whose standard output was closed: nothing more is written to it (the null device
    takes what is still buffered), nothing said."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(null)
    except (OSError, ValueError):
        pass
    return CLOSED_OUTPUT


def build_app(groups: Iterable[str] = GROUPS) -> typer.Typer:
    """The ``cribstats`` command with the commands of ``groups`` (by default all of them)."""
    command = App(
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
    from cribstats.cli.stdout import write_whole

    write_whole()
    group = COMMANDS.get(sys.argv[1]) if len(sys.argv) > 1 else None
    build_app((group,) if group is not None else GROUPS)()
