"""Commands of the simulate group: ``cribstats simulate``."""

from __future__ import annotations

import os
import sys
import time
from contextlib import ExitStack
from datetime import date as Date
from enum import StrEnum
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from cribstats.atomicfile import AtomicOutput, WriteError, atomic_output, sync_all, write_atomic
from cribstats.cli.options import err_console, fail, named_path, player_names
from cribstats.cli.terminal import message
from cribstats.errors import CribstatsError
from cribstats.findings import counted
from cribstats.names import quoted
from cribstats.variants import VARIANT_NAMES

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from cribstats.simulate import SimulatedGame

PANEL_TABLE = "Who plays, when and where"
PANEL_OUT = "Output"
PROGRESS_FROM = 200  # games: fewer finish too soon for a progress bar to help
LOG_SUFFIXES = (".jsonl", ".ndjson")
STDOUT = "-"


class VariantName(StrEnum):
    """The variants, as choices for ``--variant``."""

    six_card = "six-card"
    five_card = "five-card"
    seven_card = "seven-card"
    three_player = "three-player"
    four_player = "four-player"


assert tuple(v.value for v in VariantName) == VARIANT_NAMES


def simulate(
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="How many games to play.", show_default=False)
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", parser=named_path("--out"),
            help="A .jsonl file (one game a line), a .json file (a JSON array), a folder (a .json file a "
            "game), or - for standard output (JSON Lines).",
            show_default=False, rich_help_panel=PANEL_OUT,
        ),
    ],
    variant: Annotated[
        VariantName, typer.Option("--variant", help="The variant played.", case_sensitive=False)
    ] = VariantName.six_card,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help="Names, comma-separated, in seat order. With more names than seats each round of a club night "
            "seats the whole pool at random tables. Default: as many of Alice, Bob, Carol, Dave as seats.",
            show_default=False, rich_help_panel=PANEL_TABLE,
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The same seed plays the same games.")] = 0,
    mistakes: Annotated[
        float,
        typer.Option(
            "--mistakes", min=0.0, max=1.0,
            help="Chance of a mistake at each opportunity (a claim, a turn, a board position...), e.g. 0.02.",
        ),
    ] = 0.0,
    expected: Annotated[
        Path | None,
        typer.Option(
            "--expected", parser=named_path("--expected"),
            help="Write the findings the audit must give (one JSON object a line, as `audit --json` prints). "
            "Name it so that log readers skip it, e.g. night.expected-findings.txt.",
            show_default=False, rich_help_panel=PANEL_OUT,
        ),
    ] = None,
    muggins: Annotated[
        bool, typer.Option("--muggins", help="Play with muggins: opponents take points a player misses.")
    ] = False,
    event: Annotated[
        list[str] | None,
        typer.Option(
            "--event", help="Event name; repeat for several events, which take turns night by night.",
            show_default=False, rich_help_panel=PANEL_TABLE,
        ),
    ] = None,
    start_date: Annotated[
        str | None,
        typer.Option(
            "--start-date", help="Date of the first night (YYYY-MM-DD); each event then meets weekly.",
            show_default=False, rich_help_panel=PANEL_TABLE,
        ),
    ] = None,
    games_per_night: Annotated[
        int, typer.Option("--games-per-night", min=1, help="Games in one night.", rich_help_panel=PANEL_TABLE)
    ] = 40,
    site: Annotated[
        str | None, typer.Option("--site", help="Where the games are played.", rich_help_panel=PANEL_TABLE)
    ] = None,
) -> None:
    """Play whole games between sensible simulated players and write them as game logs.

    The same seed plays the same games. Games are written as they are played: memory does not grow with --games.

    With --mistakes players err now and then: a claim short or long, his heels forgotten, a false go, a card
    past 31, a greedy muggins call (with --muggins), a wrong board position or result.

    --expected then gets every finding `cribstats audit --json` must give for those games, and nothing else.

    Examples:

        cribstats simulate --games 40 --players "Ann,Ben,Cat,Dan,Eve,Fay" --seed 7 --out night.jsonl

        cribstats simulate -n 500 --variant three-player --mistakes 0.02 --out 3p.jsonl --expected 3p.txt

        cribstats simulate -n 20 --mistakes 0.05 --out - | cribstats audit -
    """
    from cribstats.simulate import simulate_games

    console = err_console()
    names = player_names(players) if players is not None else None
    try:
        first_date = Date.fromisoformat(start_date) if start_date is not None else None
    except ValueError:
        raise fail(f"--start-date {quoted(str(start_date))} is not a date: write YYYY-MM-DD", 2) from None
    problem = _out_problem(out)
    if problem is None and expected is not None and str(out) != STDOUT and expected.resolve() == out.resolve():
        problem = "--expected names the same file: the games and their findings need a file each"
    if problem is not None:
        raise fail(f"--out {quoted(str(out))}: {problem}", 2)
    try:
        stream = simulate_games(
            games, variant=variant.value, players=names, seed=seed, mistake_rate=mistakes,
            muggins=muggins, events=event or (), start_date=first_date, games_per_night=games_per_night,
            site=site,
        )
        started = time.perf_counter()
        written, deals, found = _write(stream, games, out, expected, show_progress=console.is_terminal)
    except WriteError as err:  # names the file; what was there before is left as it was
        raise fail(str(err), 1) from None
    except (CribstatsError, ValueError) as err:
        raise fail(str(err), 2) from None
    except BrokenPipeError:  # the reader of --out - went away (`| head`): cribstats.cli.app.run ends it, exit 141
        raise
    except OSError as err:
        raise fail(f"cannot write {_os_problem(err)}", 1) from None
    elapsed = time.perf_counter() - started
    where = "standard output" if str(out) == STDOUT else str(out)
    games_written = counted(written, f"{variant.value} game")
    summary = f"{games_written} ({counted(deals, 'deal')}) written to {where} in {elapsed:.1f} s"
    if expected is not None:
        summary += f"; {found} expected findings written to {expected}"
    console.print(message(summary), soft_wrap=True)


def _out_problem(out: Path) -> str | None:
    """Why ``--out`` cannot be used, or None: a name with a suffix cribstats does not write is refused rather
    than made into a folder (``--out games.csv`` would otherwise become a folder called games.csv)."""
    suffix = out.suffix.lower()
    if str(out) == STDOUT:
        return None
    blocked = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        return f"{blocked} is a file, not a folder"
    if suffix in (*LOG_SUFFIXES, ".json") or out.is_dir():
        return None
    if out.exists():
        return "it is a file that is not a .jsonl or .json log; name a .jsonl or .json file, or a folder"
    if suffix:
        return (f"cribstats writes .jsonl or .json logs, not {suffix} files; for a folder of games use a name "
                "without a dot, or create the folder first; - writes to standard output")
    return None


def _os_problem(err: OSError) -> str:
    """``/x/y.jsonl: No such file or directory`` from an OSError, without the errno noise."""
    if err.filename is not None and err.strerror:
        return f"{os.fsdecode(err.filename)}: {err.strerror}"
    return str(err)


def _write(
    stream: Iterator[SimulatedGame], total: int, out: Path, expected: Path | None, *, show_progress: bool
) -> tuple[int, int, int]:
    """Write games as they come; returns games, deals and findings written."""
    import orjson

    written = deals = found = 0
    to_stdout = str(out) == STDOUT
    suffix = ".jsonl" if to_stdout else out.suffix.lower()
    folder = suffix not in (*LOG_SUFFIXES, ".json")
    with ExitStack() as stack:
        log_file: IO[bytes] | AtomicOutput | None = None
        if to_stdout:
            log_file = sys.stdout.buffer
        elif folder:
            out.mkdir(parents=True, exist_ok=True)
        else:
            if out.parent != Path():
                out.parent.mkdir(parents=True, exist_ok=True)
            log_file = stack.enter_context(atomic_output(out))  # whole or not at all
            if suffix == ".json":
                log_file.write(b"[\n")
        expected_file = stack.enter_context(atomic_output(expected)) if expected is not None else None
        advance = _progress(stack, total) if show_progress and total >= PROGRESS_FROM else None
        for game in stream:
            data = orjson.dumps(game.log)
            if log_file is None:
                # each game whole; one sync for the folder at the end rather than one a file
                write_atomic(out / f"{game.log['id']}.json", orjson.dumps(game.log, option=orjson.OPT_INDENT_2),
                             durable=False)
            elif suffix == ".json":
                log_file.write((b",\n" if written else b"") + data)
            else:
                log_file.write(data + b"\n")
            if expected_file is not None:
                for finding in game.findings:
                    expected_file.write(orjson.dumps(finding) + b"\n")
            written += 1
            deals += len(game.log["deals"])
            found += len(game.findings)
            if advance is not None:
                advance()
        if log_file is not None and suffix == ".json":
            log_file.write(b"\n]\n")
        if log_file is None:
            sync_all()
        if to_stdout:
            sys.stdout.buffer.flush()
    return written, deals, found


def _progress(stack: ExitStack, total: int) -> Callable[[], None]:
    """A progress bar on standard error; returns the function that advances it by one game."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = stack.enter_context(
        Progress(
            TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=err_console(), transient=True,
        )
    )
    task = progress.add_task("games", total=total)
    return lambda: progress.advance(task)


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("simulate")(simulate)
