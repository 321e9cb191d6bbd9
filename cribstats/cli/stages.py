"""The stage a long command is working on, shown on standard error while it works: a spinner, the stage's name
(``reading games``, ``head-to-head``, ``writing report.html``) and the time spent; a stage named ``charts 3/5``
is step 3 of 5 and shows a bar too. The line is transient (gone when the work is done), and drawn only when
standard error is a terminal and ``--quiet`` was not given: scripts and pipes see nothing new.

Standard output never meets the line: what a command prints there is got ready inside the stages (a long table
is laid out as stage ``table``) and written once the line is gone (:func:`output`).

The library functions the commands call take the stage as an optional callback, ``on_stage(name)``, and import
nothing from here.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from cribstats.atomicfile import STDOUT
from cribstats.cli.options import OutputFormat, err_console
from cribstats.safetext import visible

if TYPE_CHECKING:
    import polars as pl
    from rich.console import Console
    from rich.table import Table

Stage = Callable[[str], None]
"""Told the name of each stage as the work comes to it."""

QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress line on standard error.")]
STEP = re.compile(r"(.*\S) (\d+)/(\d+)")  # "charts 3/5": step 3 of 5


def no_stage(name: str) -> None:
    """The stage where nothing is shown."""


def shown_on(console: Console) -> bool:
    """Whether a progress line can be drawn on ``console``: it writes to a terminal (a real one: ``FORCE_COLOR``
    in a CI job's log is none) that can move its cursor."""
    isatty = getattr(console.file, "isatty", None)
    try:
        tty = bool(isatty is not None and isatty())
    except (OSError, ValueError):  # closed
        tty = False
    return tty and console.is_terminal and not console.is_dumb_terminal


@contextmanager
def stages(console: Console | None = None, *, quiet: bool = False) -> Iterator[Stage]:
    """A transient progress line on ``console`` (standard error) for the ``with`` block; yields the function to
    call with each stage's name. Nothing is drawn (and rich's progress module is not loaded) with ``quiet`` or
    when the console is no terminal. What is written to ``sys.stderr`` meanwhile (a library's warning) shows
    above the line; a rich console writes past it, so the commands print their messages after the block."""
    console = console or err_console()
    if quiet or not shown_on(console):
        yield no_stage
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, Task, TaskID, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class StepBar(BarColumn):
        """A bar for a stage of known steps; nothing for the others."""

        def render(self, task: Task) -> Text:  # type: ignore[override]
            return super().render(task) if task.fields.get("steps") else Text("")  # type: ignore[return-value]

    progress = Progress(
        SpinnerColumn(), TextColumn("{task.description}", markup=False), StepBar(bar_width=20),
        TimeElapsedColumn(), console=console, transient=True, redirect_stdout=False, redirect_stderr=True,
    )  # fmt: skip
    with progress:
        tasks: list[TaskID] = []  # the one line, from the first stage on (its clock counts the whole work)

        def stage(name: str) -> None:
            step = STEP.fullmatch(name)
            done, total = (int(step[2]) - 1, int(step[3])) if step else (0, 1)
            # drawn at once (adding the task draws it too): a stage shorter than a refresh is still named
            if not tasks:
                tasks.append(progress.add_task(visible(name), total=total, completed=done, steps=bool(step)))
            else:
                progress.update(tasks[0], description=visible(name), completed=done, total=total, steps=bool(step),
                                refresh=True)  # fmt: skip

        yield stage


def writing(path: str) -> str:
    """The stage of writing a file: ``writing`` and its name (the message after it names the whole path)."""
    return f"writing {os.path.basename(path) or path}"


def rendered(tables: list[Table]) -> str:
    """The tables as :func:`cribstats.cli.output.emit` prints them to standard output, as text (rich lays out a
    table of many rows slowly: done inside the stages, written after them)."""
    from cribstats.cli.terminal import out_console

    console = out_console()
    with console.capture() as captured:
        for table in tables:
            console.print(table)
    return captured.get()


def _print(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def output(
    stage: Stage, frame: pl.DataFrame, fmt: OutputFormat, out: str | None, tables: Callable[[], list[Table]]
) -> Callable[[], None]:
    """:func:`cribstats.cli.output.emit` of ``frame`` in the stages: a file is written now (stage ``writing
    FILE``); what goes to standard output is got ready now (a table laid out as stage ``table``) and written
    by the function returned, as is the ``wrote FILE`` that follows a file, to be called once the stages are
    over. ``tables`` makes the tables, only for the table format (building a table of many rows is slow too).

    :raises OutputUsageError: for Parquet without ``out``.
    :raises WriteError: naming ``out`` when it cannot be written (the old file is left as it was).
    """
    from cribstats.cli.output import check_output, emit, say_written

    check_output(fmt, out)
    table = fmt is OutputFormat.table
    if out is not None and out != STDOUT:  # the file written now; its message after the line is gone (a rich
        stage(writing(out))  # console writes past the line: rich hands it standard error itself, not the proxy)
        emit(frame, fmt, out, tables() if table else [], announce=False)
        return lambda: say_written(out)
    if not table:
        return lambda: emit(frame, fmt, out, [])
    stage("table")
    if out is None:
        text = rendered(tables())
        return lambda: _print(text)
    made = tables()
    return lambda: emit(frame, fmt, out, made)
