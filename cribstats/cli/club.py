"""Commands that simulate club play: ``cribstats simulate-matches`` and ``cribstats simulate-nights``."""

from __future__ import annotations

from datetime import date as Date
from pathlib import Path
from typing import Annotated

import typer

from cribstats.atomicfile import WriteError
from cribstats.cli.options import err_console, fail, named_path, player_names
from cribstats.findings import counted
from cribstats.names import quoted

PANEL_OUT = "Output"


def _date(text: str | None, option: str) -> Date | None:
    """:func:`~cribstats.cli.stats.date_option`, a refusal as a usage error (exit 2)."""
    from cribstats.cli.options import UsageError
    from cribstats.cli.stats import date_option

    try:
        return date_option(text, option)
    except UsageError as err:
        raise fail(str(err), 2) from None


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (:mod:`cribstats.atomicfile`), making its folder first.

    :raises WriteError: naming ``path`` when it cannot be written.
    """
    from cribstats.atomicfile import write_atomic

    folder = path.parent if str(path.parent) else Path()
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def simulate_matches(
    matches: Annotated[int, typer.Option("--matches", "-n", min=1, help="How many matches to play.")],
    out: Annotated[Path, typer.Option("--out", "-o", parser=named_path("--out"),
                                      help="A .jsonl file: one match record a line, its games inline.",
                                      show_default=False, rich_help_panel=PANEL_OUT)],
    players: Annotated[str, typer.Option("--players", help="Names, comma-separated; each match draws two of "
                                         "them.")] = "Alice,Bob",
    rules: Annotated[str, typer.Option("--rules", help="best-of-3, best-of-5, best-of-7 or points-N (first to N "
                                       "match points: 1 a win, 2 a skunk, 3 a double).")] = "best-of-3",
    triple_skunk_wins: Annotated[bool, typer.Option("--triple-skunk-wins", help="A triple skunk wins the match "
                                                    "at once.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="The same seed plays the same matches.")] = 0,
    event: Annotated[str | None, typer.Option("--event", help="Event name.", show_default=False)] = None,
    date: Annotated[str | None, typer.Option("--date", help="Date of the matches (YYYY-MM-DD).",
                                             show_default=False)] = None,
    site: Annotated[str | None, typer.Option("--site", help="Where they are played.", show_default=False)] = None,
) -> None:
    """Play whole matches between simulated players and write them as match records (docs/match.md).

    Each game is a simulated six-card game; the loser of a game deals first in the next, as the rules say.

    Examples:

        cribstats simulate-matches -n 8 --players "Ann,Ben,Cat,Dan" --rules best-of-3 --out playoffs.jsonl

        cribstats simulate-matches -n 3 --rules points-7 --triple-skunk-wins --seed 9 --out cup.jsonl
    """
    import orjson

    from cribstats.match.model import MatchRules, rules_from_shorthand
    from cribstats.simulate.club import simulate_matches as play

    if out.suffix.lower() != ".jsonl":
        raise fail(f"--out {quoted(str(out))}: match records are written as JSON Lines: name a .jsonl file", 2)
    try:
        shape = rules_from_shorthand(rules)
        match_rules = MatchRules.model_validate({**shape, "triple_skunk_wins": triple_skunk_wins})  # type: ignore[dict-item]
        records = list(play(matches, player_names(players), match_rules, seed=seed, event=event,
                            date=_date(date, "--date"), site=site))
    except ValueError as err:
        raise fail(f"{err}", 2) from None
    try:
        _write_whole(out, b"".join(orjson.dumps(r) + b"\n" for r in records))
    except WriteError as err:
        raise fail(str(err), 1) from None
    except OSError as err:
        raise fail(f"cannot write {out}: {err.strerror or err}", 1) from None
    games = sum(len(r["games"]) for r in records)
    played = counted(len(records), "match", "matches")
    err_console().print(f"{played} ({counted(games, 'game')}) written to {out}", markup=False, highlight=False)


def simulate_nights(
    nights: Annotated[int, typer.Option("--nights", "-n", min=1, help="How many club nights, one a week.")],
    out: Annotated[Path, typer.Option("--out", "-o", parser=named_path("--out"),
                                      help="A .jsonl file: the games, one a line.", show_default=False,
                                      rich_help_panel=PANEL_OUT)],
    players: Annotated[str, typer.Option("--players", help="Names, comma-separated: an even number, every one "
                                         "playing a game each round.")] = "Alice,Bob,Carol,Dave,Erin,Frank",
    games_each: Annotated[int, typer.Option("--games-each", min=1, help="Games a player plays a night.")] = 9,
    scorecards: Annotated[Path | None, typer.Option(
        "--scorecards", parser=named_path("--scorecards"),
        help="Also write both players' scorecards of every game (a .csv scorecard sheet).",
        show_default=False, rich_help_panel=PANEL_OUT)] = None,
    disagree: Annotated[int, typer.Option("--disagree", min=0, help="Games whose two cards disagree (the "
                                          "loser's spread written 2 short), spread evenly.")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="The same seed plays the same nights.")] = 0,
    event: Annotated[str, typer.Option("--event", help="Event name.")] = "Club Night",
    start_date: Annotated[str, typer.Option("--start-date", help="Date of the first night.")] = "2026-01-06",
    site: Annotated[str | None, typer.Option("--site", help="Where they are played.", show_default=False)] = None,
) -> None:
    """Play club nights (Grass Roots style: every player a game a round) and write the games, and the players'
    scorecards when asked.

    Examples:

        cribstats simulate-nights -n 1 --players "Ann,Ben,Cat,Dan" --out night.jsonl --scorecards cards.csv

        cribstats simulate-nights -n 36 --seed 5 --event "Grass Roots" --out season.jsonl
    """
    import csv
    import io

    import orjson

    from cribstats.simulate.club import scorecard_rows
    from cribstats.simulate.club import simulate_nights as play

    if out.suffix.lower() != ".jsonl":
        raise fail(f"--out {quoted(str(out))}: the games are written as JSON Lines: name a .jsonl file", 2)
    if scorecards is not None and scorecards.suffix.lower() != ".csv":
        raise fail(f"--scorecards {quoted(str(scorecards))}: a scorecard sheet is a .csv file", 2)
    first = _date(start_date, "--start-date")
    try:
        logs = [g.log for g in play(nights, player_names(players), games_each=games_each, seed=seed, event=event,
                                    start_date=first or "2026-01-06", site=site)]
    except ValueError as err:
        raise fail(f"{err}", 2) from None
    step = max(1, len(logs) // disagree) if disagree else 0
    wrong = sorted(range(step // 2, len(logs), step))[:disagree] if disagree else []
    try:
        _write_whole(out, b"".join(orjson.dumps(log) + b"\n" for log in logs))
        if scorecards is not None:
            text = io.StringIO()
            csv.writer(text, lineterminator="\n").writerows(scorecard_rows(logs, disagree=wrong))
            _write_whole(scorecards, text.getvalue().encode("utf-8"))
    except WriteError as err:
        raise fail(str(err), 1) from None
    except OSError as err:
        raise fail(f"cannot write {err.filename or out}: {err.strerror or err}", 1) from None
    written = f"{counted(nights, 'night')} ({counted(len(logs), 'game')}) written to {out}"
    err_console().print(written, markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("simulate-matches")(simulate_matches)
    app.command("simulate-nights")(simulate_nights)
