"""Commands of the club tables: ``matches``, ``night``, ``season``, ``head-to-head``, ``bracket`` and ``rating``
(and the match view of ``show``). The club simulators are in :mod:`cribstats.cli.club`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer

from cribstats.cli.options import DbOption, FormatOption, OutOption, OutputFormat, UsageError, err_console
from cribstats.cli.output import emit as _emit
from cribstats.cli.stages import QuietOption, output, stages, writing
from cribstats.cli.stats import (
    EventOption,
    PlayerOption,
    SinceOption,
    UntilOption,
    _fail,
    _filters,
    _handled,
    _none_stored,
    _open_filtered,
    _open_store,
    date_option,
    name_option,
)
from cribstats.cli.tables import rich_table
from cribstats.cli.terminal import message
from cribstats.names import quoted

if TYPE_CHECKING:
    import polars as pl
    from rich.table import Table

DEFAULT_DB = "sqlite:///cribstats.db"


def _say(text: str) -> None:
    err_console().print(message(text), soft_wrap=True)


def _table(frame: pl.DataFrame, title: str) -> Table:
    return rich_table(frame, list(frame.columns), title)


def night(
    date: Annotated[str, typer.Option("--date", help="The night's date (YYYY-MM-DD).", show_default=False)],
    event: Annotated[str | None, typer.Option(
        "--event", help="The event (case ignored); without it, the night of the games of no event.",
        show_default=False)] = None,
    db: DbOption = DEFAULT_DB,
    hands: Annotated[
        bool, typer.Option("--hands", help="Write the special hands instead of the placings (for --format).")
    ] = False,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
) -> None:
    """One club night: the placings in the ACC order (game points, then games won, then spread), each player's
    card as clubs write it (13/6 +71: game points / games won, spread), the Grand Slam (every game of the night
    won) and the special hands from the deal logs (every hand or crib of 24 or more, 28s, 29s, four of a kind).

    The table view shows both; --format csv|json|parquet writes the placings, or with --hands the special hands.
    Without --event, the night of the games recorded on that date with no event.

    Examples:

        cribstats night --event "Elks Lodge Club Night" --date 2026-11-03

        cribstats night --event "Elks Lodge Club Night" --date 2026-11-03 --hands --format csv --out hands.csv
    """
    from cribstats.stats.night import load_night

    try:
        if event is not None:
            name_option(event, "--event")
        day = date_option(date, "--date")
        if day is None:  # typer requires --date: only a direct call can leave it out
            raise UsageError("--date is needed: the night's date, YYYY-MM-DD")
        with _open_store(db).connect() as conn:
            result = load_night(conn, event, day)
        title = f"{result.event or event or 'no event'}, {day.isoformat()}"
        tables = [_table(result.placings, f"Placings: {title}")]
        if result.special_hands.height:
            tables.append(_table(result.special_hands, "Special hands"))
        if result.scorecards.height:
            tables.append(_table(result.scorecards, "Scorecards that disagree"))
        frame = result.special_hands if hands else result.placings
        _emit(frame, format, out, tables)
    except _handled() as error:
        raise _fail(error) from None
    if result.placings.height == 0:
        _say(f"no finished games stored for {event or 'no event'} on {day.isoformat()}")
    elif result.grand_slams:
        _say(f"Grand Slam: {', '.join(result.grand_slams)}")


def season(
    db: DbOption = DEFAULT_DB,
    since: SinceOption = None,
    until: UntilOption = None,
    event: EventOption = None,
    quarters: Annotated[bool, typer.Option("--quarters", help="Standings for each calendar quarter.")] = False,
    drop_lowest: Annotated[
        bool, typer.Option("--drop-lowest", help="Leave out each player's lowest night of each period.")
    ] = False,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
) -> None:
    """Season standings from the club nights: nights played, game points, average a night, nights of 12 or more,
    win rate, spread, skunks given and taken, and ACC internet rating points for nine-game nights (a night of
    g >= 12 game points earns g + 2(g - 11)). A night is an event on a date.

    Examples:

        cribstats season --since 2026-01-01 --until 2026-12-31

        cribstats season --event "Grass Roots League" --quarters --drop-lowest

        cribstats season --format parquet --out season.parquet
    """
    from cribstats.stats.results import load_night_totals
    from cribstats.stats.season import season_standings

    try:
        filters = _filters(None, event, since, until)
        with _open_store(db).connect() as conn:
            nights = load_night_totals(conn, filters)
        frame = season_standings(nights, quarters=quarters, drop_lowest=drop_lowest)
        _emit(frame, format, out, [_table(frame, f"Season standings ({filters.describe()})")])
    except _handled() as error:
        raise _fail(error) from None
    if frame.height == 0:
        _say(_none_stored("finished, dated games", filters))


def head_to_head(
    player: Annotated[str | None, typer.Argument(help="Only this player's record (case ignored).")] = None,
    db: DbOption = DEFAULT_DB,
    event: EventOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    quiet: QuietOption = False,
) -> None:
    """Head-to-head records: games won and lost against each opponent, the spread between them, skunks given
    and taken (and matches, where match records are stored).

    Examples:

        cribstats head-to-head

        cribstats head-to-head Alice --since 2026-01-01 --format json
    """
    try:
        filters = _filters(None, event, since, until)
        name_option(player, "PLAYER")
        with stages(quiet=quiet) as stage:
            stage("head-to-head")
            from cribstats.stats.club import head_to_head_table  # loaded in the stage: polars and SQL take seconds

            engine, named = _open_filtered(db, replace(filters, player=player))  # the player as stored, for words
            frame = head_to_head_table(engine, filters, player, on_stage=stage)
            title = f"Head to head ({named.describe()})"
            shown = output(stage, frame, format, out, lambda: [_table(frame, title)])
        shown()
    except _handled() as error:
        raise _fail(error) from None
    if frame.height == 0:
        _say(_none_stored("finished games between players", named))


def bracket(
    event: Annotated[str, typer.Option("--event", help="The event (case ignored).", show_default=False)],
    db: DbOption = DEFAULT_DB,
    entrants: Annotated[
        int | None,
        typer.Option("--entrants", min=1, help="Entrants, when not every entrant's qualifying games are stored "
                     "(never fewer than the players whose games are)."),
    ] = None,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
) -> None:
    """The playoff bracket as ACC sanctioned events draw it: one qualifier in four entrants (rounded up) from the
    qualifying standings, byes to the top qualifiers so that the second round is a power of two, filled in with
    the stored match results of the event's later rounds.

    Examples:

        cribstats bracket --event "Elks Lodge Club Night"

        cribstats bracket --event "Elks Lodge Club Night" --entrants 40 --format csv --out bracket.csv
    """
    from cribstats.findings import counted
    from cribstats.stats.club import EntrantsError, event_bracket

    try:
        name_option(event, "--event")
        try:
            drawn = event_bracket(_open_store(db), event, entrants)
        except EntrantsError as error:
            raise UsageError(str(error)) from None
        frame = drawn.frame()
        title = (f"Bracket: {event}: {counted(drawn.entrants, 'entrant')}, "
                 f"{counted(len(drawn.qualifiers), 'qualifier')}, {counted(drawn.byes, 'bye')}")  # fmt: skip
        _emit(frame, format, out, [_table(frame, title)])
    except _handled() as error:
        raise _fail(error) from None
    if not drawn.qualifiers:
        _say(f"no finished games stored for {event}: nobody qualifies")
    elif drawn.champion:
        _say(f"Champion: {drawn.champion}" + (" (the one qualifier: no playoff)" if not drawn.slots else ""))


def rating(
    player: Annotated[str | None, typer.Argument(help="Only this player's rating (case ignored).")] = None,
    db: DbOption = DEFAULT_DB,
    event: EventOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    history: Annotated[
        bool, typer.Option("--history", help="The rating after every game instead of the latest.")
    ] = False,
    chart: Annotated[
        str | None, typer.Option("--chart", help="Also draw the rating history to this .png or .svg file.")
    ] = None,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    quiet: QuietOption = False,
) -> None:
    """Ratings (openskill's Plackett-Luce model), updated game by game in date order; partners and three-player
    games rated as sides. The rating is mu - 3 sigma: a level the player very likely plays at, at least.

    Examples:

        cribstats rating

        cribstats rating Alice --history --format csv --out alice.csv

        cribstats rating --chart ratings.png
    """
    try:
        if chart is not None and not chart.lower().endswith((".png", ".svg")):
            raise UsageError(f"--chart {quoted(chart)}: write a .png or .svg file")
        filters = _filters(None, event, since, until)
        name_option(player, "PLAYER")
        with stages(quiet=quiet) as stage:
            stage("ratings")
            from cribstats.stats.club import ratings_tables  # loaded in the stage: polars and SQL take seconds

            table, steps = ratings_tables(_open_store(db), filters, player, history=history or chart is not None)
            frame = steps if history and steps is not None else table
            shown = output(stage, frame, format, out, lambda: [_table(frame, f"Ratings ({filters.describe()})")])
        shown()
        if chart is not None and steps is not None:
            from cribstats.charts import save_figure
            from cribstats.club_charts import rating_chart

            with stages(quiet=quiet) as stage:
                stage(writing(chart))
                save_figure(rating_chart(steps), chart)
            _say(f"wrote {chart}")
    except _handled() as error:
        raise _fail(error) from None
    if frame.height == 0:
        _say(_none_stored("finished games", replace(filters, player=player or filters.player)))


def matches(
    db: DbOption = DEFAULT_DB,
    player: PlayerOption = None,
    event: EventOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    games: Annotated[
        bool, typer.Option("--games", help="Write the matches' games instead of the matches (for --format).")
    ] = False,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
) -> None:
    """The stored matches: each with its rules, sides, score and winner (replayed from the stored games under the
    match's rules), the recorded winner, its games and its findings.

    The table view shows the matches, their games and findings; --format csv|json|parquet writes the matches,
    or with --games one row per game of each match.

    Examples:

        cribstats matches --event "ACC Playoffs"

        cribstats matches --player Alice --since 2026-01-01 --format json

        cribstats matches --games --format csv --out match-games.csv
    """
    from cribstats.stats.club import stored_matches
    from cribstats.stats.matches import match_games_frame, matches_frame

    try:
        engine, filters = _open_filtered(db, _filters(player, event, since, until))
        found = stored_matches(engine, filters)
        listed, played = matches_frame(found), match_games_frame(found)
        scope = filters.describe().replace("all games", "all stored")
        tables = [_table(listed.drop("points1", "points2"), f"Matches ({scope})")]
        if played.height:
            tables.append(_table(played, "Games of the matches"))
        findings = [(m.source_id, f.game, f.kind, f.message) for m in found for f in m.findings]
        if findings:
            import polars as pl

            tables.append(_table(pl.DataFrame(findings, schema=["match", "game", "kind", "message"], orient="row"),
                                 "Findings"))  # fmt: skip
        _emit(played if games else listed, format, out, tables)
    except _handled() as error:
        raise _fail(error) from None
    if not found:
        _say(_none_stored("matches", filters))


def show_match(db: str, source_id: str) -> bool:
    """Print the stored match with this id, game by game (``cribstats show MATCH``); False when there is none."""
    from cribstats.stats.matches import match_text
    from cribstats.store.matches import load_match

    try:
        with _open_store(db).connect() as conn:
            found = load_match(conn, source_id)
    except _handled() as error:
        raise _fail(error) from None
    if found is None:
        return False
    from rich.text import Text

    from cribstats.cli.terminal import out_console
    from cribstats.safetext import visible

    shown = "\n".join(visible(line) for line in match_text(found).split("\n"))  # names are user text
    out_console(wide_when_redirected=False).print(Text(shown), soft_wrap=True)
    return True


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("night")(night)
    app.command("season")(season)
    app.command("head-to-head")(head_to_head)
    app.command("bracket")(bracket)
    app.command("rating")(rating)
    app.command("matches")(matches)
