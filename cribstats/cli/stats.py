"""Commands of the stats group: ``stats``, ``standings``, ``chart`` and ``report``."""

from __future__ import annotations

from datetime import date as Date
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from cribstats.cli.options import (
    DbOption,
    FormatOption,
    OutOption,
    OutputFormat,
    UsageError,
    err_console,
    fail,
    named_out,
)
from cribstats.cli.output import OutputUsageError, check_output, say_written
from cribstats.cli.stages import QuietOption, output, stages
from cribstats.cli.tables import rich_table, with_first_dealer_record, with_skunk_levels
from cribstats.cli.terminal import message
from cribstats.errors import CribstatsError, VariantError
from cribstats.names import quoted

if TYPE_CHECKING:
    import polars as pl
    from rich.table import Table
    from sqlalchemy.engine import Engine

    from cribstats.stats.frames import StatsFilter

PANEL = "Which games"
PlayerOption = Annotated[
    str | None,
    typer.Option("--player", help="Only this player (case and spacing ignored).", rich_help_panel=PANEL),
]
EventOption = Annotated[
    str | None, typer.Option("--event", help="Only games of this event (case ignored).", rich_help_panel=PANEL)
]
SinceOption = Annotated[
    str | None,
    typer.Option("--since", help="Only games on or after this date (YYYY-MM-DD).", rich_help_panel=PANEL),
]
UntilOption = Annotated[
    str | None,
    typer.Option("--until", help="Only games on or before this date (YYYY-MM-DD).", rich_help_panel=PANEL),
]
VariantOption = Annotated[
    str | None,
    typer.Option("--variant", help="Only games of this variant (six-card, five-card, ...).",
                 rich_help_panel=PANEL),
]


class ChartKind(StrEnum):
    skunks = "skunks"
    skunks_trend = "skunks-trend"
    averages = "averages"
    hands = "hands"
    accuracy = "accuracy"


def date_option(text: str | None, option: str) -> Date | None:
    """The day a date option names, or None; refused in the words the game log's dates are (``'2026-02-30' is
    not a date of the calendar``, ``'3/3/2026' is not a date: write YYYY-MM-DD``).

    :raises UsageError: naming the option.
    """
    if text is None:
        return None
    from cribstats.gamelog.contract import iso_date

    try:
        return Date.fromisoformat(iso_date(text))
    except ValueError as err:
        raise UsageError(f"{option} {err}") from None


def name_option(text: str | None, option: str) -> str | None:
    """A player or event an option names, or None; a blank one (``--player ""``, from a script's empty variable)
    names nobody and is refused rather than read as a filter that finds nothing in a full store.

    :raises UsageError: naming the option.
    """
    if text is not None and not text.strip():
        raise UsageError(f"{option} is blank: give a name, or leave the option out")
    return text


def _filters(
    player: str | None = None,
    event: str | None = None,
    since: str | None = None,
    until: str | None = None,
    variant: str | None = None,
) -> StatsFilter:
    from cribstats.stats.frames import StatsFilter
    from cribstats.variants import find_variant

    if variant is not None:
        variant = find_variant(variant).name
    first, last = date_option(since, "--since"), date_option(until, "--until")
    if first is not None and last is not None and first > last:
        raise UsageError(f"--since {first} is after --until {last}: no game can match")
    return StatsFilter(name_option(player, "--player"), name_option(event, "--event"), first, last, variant)


def _open_store(db: str) -> Engine:
    """The engine of a store that exists and is current."""
    import sqlalchemy as sa

    from cribstats.store.db import (
        StoreError,
        describe_db_error,
        make_engine,
        normalize_url,
        schema_state,
        shown_url,
    )
    from cribstats.store.store_file import check_store_exists

    url = normalize_url(db)
    check_store_exists(db)
    engine = make_engine(db)
    try:
        state = schema_state(engine)
    except sa.exc.SQLAlchemyError as err:  # not reachable, refused, or not a database at all
        raise StoreError(f"cannot open the database {shown_url(url)}: {describe_db_error(err)}") from None
    if state == "empty":
        raise StoreError("the database holds no cribstats store yet: store games with `cribstats import PATH`")
    if state == "behind":
        raise StoreError("the database schema is out of date: run `cribstats db upgrade`")
    if state == "unknown":
        raise StoreError("the database is not a cribstats store of a version this cribstats knows")
    return engine


def _open_filtered(db: str, filters: StatsFilter) -> tuple[Engine, StatsFilter]:
    """The store (:func:`_open_store`), and the filters naming their player as the store spells him, found by any
    spelling or alias (:meth:`StatsFilter.as_stored`): every title and message of a filtered command says so."""
    engine = _open_store(db)
    with engine.connect() as conn:
        return engine, filters.as_stored(conn)


def _games_matching(engine: Engine, filters: StatsFilter) -> int:
    """How many stored games the filters cover (a chart or report of none is written, with a warning)."""
    import sqlalchemy as sa

    from cribstats.stats.frames import games_query

    with engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(games_query(filters).subquery())).scalar_one()


def _warn_if_none(count: int, filters: StatsFilter, what: str) -> None:
    if count == 0:
        scope = filters.describe()
        none = "no games stored yet" if scope == "all games" else f"no stored games match {scope}"
        err_console().print(message(f"warning: {none}: the {what} is empty"), soft_wrap=True)


def _none_stored(what: str, filters: StatsFilter) -> str:
    """``no games stored match the filters (player Ann, since 2026-01-01)``, or when nothing was filtered, how to
    store some."""
    if filters.describe() == "all games":
        return f"no {what} stored yet: `cribstats import PATH` stores them"
    return f"no {what} stored match the filters ({filters.describe()})"


def _handled() -> tuple[type[BaseException], ...]:
    """The errors a command turns into a message (evaluated only when one is raised: sqlalchemy loads late)."""
    import sqlalchemy as sa

    return (CribstatsError, sa.exc.SQLAlchemyError)


def _fail(error: BaseException) -> typer.Exit:
    import sqlalchemy as sa

    if isinstance(error, sa.exc.SQLAlchemyError):  # one line, without the SQL and its parameters
        from cribstats.store.db import describe_db_error

        error = CribstatsError(f"the database failed: {describe_db_error(error)}")
    usage = isinstance(error, UsageError | VariantError | OutputUsageError)
    return fail(str(error), 2 if usage else 1)  # as the other commands do


def stats(
    db: DbOption = "sqlite:///cribstats.db",
    player: PlayerOption = None,
    event: EventOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    variant: VariantOption = None,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    quiet: QuietOption = False,
) -> None:
    """Player statistics: results, skunks, pegging, hand and crib per deal (as dealer and as pone), accuracy,
    and the rating (see `cribstats rating`).

    One row per player. Results follow the claims the table played to; per-deal figures are points due over
    completed deals (the deal the game ended in is left out).

    Examples:

        cribstats stats

        cribstats stats --player Alice --since 2026-01-01 --format json

        cribstats stats --event "Tuesday League" --format parquet --out stats.parquet
    """
    try:
        check_output(format, out)
        with stages(quiet=quiet) as stage:
            stage("statistics")
            from cribstats.stats import compute_stats  # loaded in the stage: polars and SQL take seconds to load

            engine, filters = _open_filtered(db, _filters(player, event, since, until, variant))
            frame = compute_stats(engine, filters)
            shown = output(stage, frame, format, out, lambda: _stats_tables(frame, filters.describe()))
        shown()
    except _handled() as error:
        raise _fail(error) from None
    if frame.height == 0:
        err_console().print(message(_none_stored("games", filters)), soft_wrap=True)


def _stats_tables(frame: pl.DataFrame, what: str) -> list[Table]:
    """The tables of ``stats`` for people."""
    from cribstats.stats.matches import PLAYER_MATCH_COLUMNS
    from cribstats.stats.measures import DEAL_COLUMNS, DISCARD_COLUMNS, FINDING_COLUMNS

    results = ("player", "games", "wins", "losses", "win_rate", "first_dealer_record", "game_points", "spread",
               "spread_per_game", "skunks_won_levels", "skunks_lost_levels", "rating")
    tables = [
        rich_table(with_first_dealer_record(with_skunk_levels(frame)), results, f"Results ({what})"),
        rich_table(frame, ("player", *DEAL_COLUMNS), "Deals: points due per completed deal"),
        rich_table(frame, ("player", *FINDING_COLUMNS, *DISCARD_COLUMNS), "Counting accuracy and discards"),
    ]
    if frame["matches"].sum():  # the players' finished matches, where any are stored
        tables.append(rich_table(frame, ("player", *PLAYER_MATCH_COLUMNS), "Matches (finished)"))
    return tables


def standings(
    db: DbOption = "sqlite:///cribstats.db",
    event: EventOption = None,
    date: Annotated[
        str | None, typer.Option("--date", help="Only games of this day (YYYY-MM-DD): a club night.")
    ] = None,
    since: SinceOption = None,
    until: UntilOption = None,
    variant: VariantOption = None,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    quiet: QuietOption = False,
) -> None:
    """A club-night or tournament table, in the ACC order: game points, then games won, then spread.

    Game points: 2 for a win, 3 for a skunk win, 0 for a loss. Spread: the winner's margin, added to the
    winner's and taken from the loser's.

    Examples:

        cribstats standings --event "Elks Lodge Club Night" --date 2026-11-03

        cribstats standings --format csv --out standings.csv
    """
    try:
        check_output(format, out)
        if date is not None and (since is not None or until is not None):
            raise UsageError("use --date for one day, or --since/--until for a range, not both")
        date_option(date, "--date")  # named as the user wrote it
        filters = _filters(None, event, date or since, date or until, variant)
        with stages(quiet=quiet) as stage:
            stage("standings")
            from cribstats.stats import STANDINGS_COLUMNS, compute_standings

            frame = compute_standings(_open_store(db), filters)
            title = f"Standings ({filters.describe()})"
            shown = output(stage, frame, format, out, lambda: [rich_table(frame, STANDINGS_COLUMNS, title)])
        shown()
    except _handled() as error:
        raise _fail(error) from None
    if frame.height == 0:
        err_console().print(message(_none_stored("finished games", filters)), soft_wrap=True)


def chart(
    kind: Annotated[ChartKind, typer.Argument(help="Which chart.", case_sensitive=False, show_default=False)],
    out: Annotated[str, typer.Option("--out", "-o", callback=named_out,
                                     help="The image to write: FILE.png or FILE.svg.")],
    db: DbOption = "sqlite:///cribstats.db",
    player: PlayerOption = None,
    event: EventOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    variant: VariantOption = None,
) -> None:
    """Draw a chart of the stored games to a PNG or SVG file.

    Kinds: skunks (skunks won and lost by level, as a share of games, per player), skunks-trend (skunk rate
    per month), averages (pegging, hand and crib points per deal, dealer and pone), hands (hand totals
    against random hands), accuracy (points missed per deal by phase, per player).

    Examples:

        cribstats chart skunks --out skunks.png

        cribstats chart averages --event "Tuesday League" --out averages.svg
    """
    from cribstats.charts import NO_DEALS, draw_chart, frames_gap, save_figure
    from cribstats.stats import read_frames

    try:
        if not out.lower().endswith((".png", ".svg")):
            raise UsageError(f"--out {quoted(out)}: write a .png or .svg file")
        engine, filters = _open_filtered(db, _filters(player, event, since, until, variant))
        count = _games_matching(engine, filters)
        frames = read_frames(engine, filters)
        save_figure(draw_chart(kind.value, frames), out)
        per_deal = kind in (ChartKind.averages, ChartKind.accuracy)
        no_deals = bool(count) and per_deal and frames_gap(frames) == NO_DEALS
    except _handled() as error:
        raise _fail(error) from None
    _warn_if_none(count, filters, "chart")
    if no_deals:  # games match, but a per-deal chart needs their deals: results-only games have none
        games = f"{count} game{'s' if count != 1 else ''}"
        err_console().print(message(
            f"warning: the {games} matching {filters.describe()} have no completed deals to average (results-only "
            f"games record none): the {kind.value} chart is empty"), soft_wrap=True)  # fmt: skip
    err_console().print(message(f"wrote {out}"), soft_wrap=True)


def report(
    out: Annotated[str, typer.Option("--out", "-o", callback=named_out,
                                     help="The HTML file to write.")] = "report.html",
    db: DbOption = "sqlite:///cribstats.db",
    player: PlayerOption = None,
    event: EventOption = None,
    since: SinceOption = None,
    until: UntilOption = None,
    variant: VariantOption = None,
    title: Annotated[str, typer.Option("--title", help="The report's title.")] = "Cribbage club report",
    quiet: QuietOption = False,
) -> None:
    """Write the club report: one self-contained HTML file (charts inside) that reads well on a phone.

    Standings, a table per player, the charts, and the audit summary with the worst findings. The report says when
    it was made; with SOURCE_DATE_EPOCH set (seconds since 1970) it says that time instead, so that the same store
    gives the same file byte for byte (a site kept in git changes only when the games do).

    Examples:

        cribstats import sample_logs && cribstats report --out report.html

        SOURCE_DATE_EPOCH=$(date -r cribstats.db +%s) cribstats report --out report.html

        cribstats report --event "Grass Roots League" --since 2026-03-01 --out march.html
    """
    from cribstats.atomicfile import STDOUT

    try:
        with stages(quiet=quiet) as stage:
            stage("reading games")
            from cribstats.report import build_report, save_report, write_report  # matplotlib too, in the stage

            engine, filters = _open_filtered(db, _filters(player, event, since, until, variant))
            count = _games_matching(engine, filters)
            if out == STDOUT:  # written once the progress line is gone
                html = build_report(engine, filters, title=title, on_stage=stage)
            else:
                write_report(engine, out, filters, title=title, on_stage=stage)
        if out == STDOUT:
            save_report(html, out)
    except _handled() as error:
        raise _fail(error) from None
    _warn_if_none(count, filters, "report")
    say_written(out)


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("stats")(stats)
    app.command("standings")(standings)
    app.command("chart")(chart)
    app.command("report")(report)
