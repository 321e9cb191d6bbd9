"""Commands of the discards group: ``analyse`` (one dealt hand, or a whole store), ``discards`` (per player) and
``discard-table`` (the crib table behind them)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from cribstats.cli.options import (
    DbOption,
    FormatOption,
    OutOption,
    OutputFormat,
    UsageError,
    cards_from_arguments,
    err_console,
    fail,
)
from cribstats.cli.output import emit as _emit
from cribstats.cli.output import say_written
from cribstats.cli.stages import QuietOption, output, stages
from cribstats.cli.stats import (
    EventOption,
    PlayerOption,
    SinceOption,
    UntilOption,
    VariantOption,
    _fail,
    _filters,
    _handled,
    _open_filtered,
    _open_store,
)
from cribstats.cli.tables import rich_table
from cribstats.errors import CribstatsError

if TYPE_CHECKING:
    import polars as pl

    from cribstats.discards.analysis import Discard
    from cribstats.discards.table import CribTable

ANALYSE_HELP = (
    "Exit status: 0 on success; 2 for cards that are not a dealt hand (or options that do not fit together); "
    "1 when the database cannot be used (--store)."
)


def shared_ranks(ranked: list[Discard]) -> list[int]:
    """The rank of each discard (best first): one more than the number worth more, so that equal discards
    (within :data:`~cribstats.discards.analysis.TIE`, as a loss counts them) share one, and the next comes after
    all of them (1, 2, 2, 4)."""
    from cribstats.discards.analysis import TIE

    out: list[int] = []
    for i, d in enumerate(ranked):
        out.append(out[-1] if i and ranked[i - 1].expected - d.expected <= TIE else i + 1)
    return out


def _discard_frame(ranked: list[Discard]) -> pl.DataFrame:
    import polars as pl

    return pl.DataFrame(
        {
            "rank": shared_ranks(ranked),
            "keep": [" ".join(d.keep_text) for d in ranked],
            "throw": [" ".join(d.throw_text) for d in ranked],
            "hand": [d.hand for d in ranked],
            "crib": [d.crib for d in ranked],
            "expected": [d.expected for d in ranked],
        },
        schema={"rank": pl.Int64, "keep": pl.String, "throw": pl.String, "hand": pl.Float64,
                "crib": pl.Float64, "expected": pl.Float64},
    )  # fmt: skip


def _write_text(text: str, out: str | None) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    from cribstats.atomicfile import WriteError, write_atomic

    try:
        write_atomic(out, text)
    except WriteError as err:  # names the file; what was there before is left as it was
        raise fail(str(err), 1) from None
    say_written(out)


def _fill_store(db: str, again: bool) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from cribstats.findings import counted
    from cribstats.store.discards import fill_discard_values

    engine = _open_store(db)
    console = err_console()
    with Progress(
        TextColumn("valuing discards"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
        TimeElapsedColumn(), console=console, transient=True, disable=not console.is_terminal,
    ) as bar:  # fmt: skip  # a bar on a terminal only: written to a file or a pipe, it would leave a blank line
        task = bar.add_task("games", total=None)
        games, rows = fill_discard_values(
            engine, again=again, started=lambda n: bar.update(task, total=n),
            progress=lambda k: bar.advance(task, k),
        )  # fmt: skip
    console.print(f"valued {counted(rows, 'discard')} in {counted(games, 'game')}", markup=False, highlight=False)


def analyse(
    hand: Annotated[
        list[str] | None,
        typer.Argument(
            help="The dealt cards, e.g. 5H 5C JD 6S 2C 9D (six-card: six cards; spaces or commas between them).",
            show_default=False,
        ),
    ] = None,
    dealer: Annotated[bool, typer.Option("--dealer", help="The crib is yours (the default).")] = False,
    pone: Annotated[bool, typer.Option("--pone", help="The crib is your opponent's.")] = False,
    variant: Annotated[
        str | None,
        typer.Option("--variant", help="The variant (default: six-card for 6 cards, seven-card 7, five-card 5)."),
    ] = None,
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    store: Annotated[
        bool, typer.Option("--store", help="Value the discards of every stored game that has none valued yet.")
    ] = False,
    again: Annotated[bool, typer.Option("--again", help="With --store: value every stored game again.")] = False,
    db: DbOption = "sqlite:///cribstats.db",
) -> None:
    """Every way to discard one dealt hand, best first, with its hand value (the average show over every
    starter you cannot see), crib value (from the crib table) and expected value (hand plus crib as dealer,
    hand minus crib as pone). Three- and four-player hands are valued by the hand alone.

    With --store, value the discards of stored games imported before cribstats kept these values.

    Examples:

        cribstats analyse 5H 5C JD 6S 2C 9D --pone

        cribstats analyse AS 2H 3S 4H 5D 6C --format json

        cribstats analyse --store --db sqlite:///club.db
    """
    from cribstats.discards.analysis import analyse as rank_discards
    from cribstats.discards.table import DEALT_BY_VARIANT

    try:
        if store:
            if hand:
                raise UsageError("give either cards to analyse or --store, not both")
            _fill_store(db, again)
            return
        if again:
            raise UsageError("--again goes with --store")
        if not hand:
            raise UsageError("give the dealt cards, e.g. `cribstats analyse 5H 5C JD 6S 2C 9D`, or --store")
        if dealer and pone:
            raise UsageError("give --dealer or --pone, not both")
        role = "pone" if pone else "dealer"
        cards = cards_from_arguments(hand)
        by_dealt = {dealt: name for name, dealt in DEALT_BY_VARIANT.items()}
        name = variant or by_dealt.get(len(cards))
        if name is None:
            *most, last = map(str, sorted(by_dealt))
            raise UsageError(f"{len(cards)} cards given: give {', '.join(most)} or {last} "
                             "(or name the variant with --variant)")
        ranked = rank_discards(cards, name, role)
        if format is OutputFormat.json:
            rows = [{"rank": r, **d.to_dict()} for r, d in zip(shared_ranks(ranked), ranked, strict=True)]
            _write_text(json.dumps(rows, indent=1) + "\n", out)  # the CSV's columns, the cards as lists
            return
        frame = _discard_frame(ranked)
        if ranked[0].crib is None:  # the same whoever deals: no role named
            title = f"Discards ({name}), best first: the hand value only (no crib value with 3 or 4 players)"
        else:
            title = f"Discards as {role} ({name}), best first"
        _emit(frame, format, out, [rich_table(frame, frame.columns, title, places=2)])  # points, alike
    except _handled() as error:
        if isinstance(error, CribstatsError) and not isinstance(error, UsageError):
            from cribstats.atomicfile import WriteError
            from cribstats.store.db import StoreError

            if not isinstance(error, StoreError | WriteError):  # the cards: input, exit 2; a file: exit 1
                raise fail(str(error), 2) from None
        raise _fail(error) from None


def discards(
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
    """Discard quality per player: deals analysed, the expected points lost by the discard per deal (as dealer,
    as pone), the share of deals with the best discard, points lost per game, and each player's worst discard.

    A discard's loss is the best discard's expected value less its own (0 for a best one). Three- and
    four-player deals are judged by the hand value alone and counted apart (hand_only_*).

    Examples:

        cribstats discards

        cribstats discards --player Alice --format json

        cribstats discards --event "Tuesday League" --format csv --out discards.csv
    """
    try:
        with stages(quiet=quiet) as stage:
            stage("discards")
            from cribstats.stats.discards import (  # loaded in the stage: polars and SQL take seconds
                discard_summary,
                no_discards_message,
                unvalued_discards_message,
                worst_discards,
            )

            engine, filters = _open_filtered(db, _filters(player, event, since, until, variant))
            with engine.connect() as conn:
                frame = discard_summary(conn, filters)
                worst = None
                if format is OutputFormat.table:
                    stage("costliest discards")
                    worst = worst_discards(conn, filters)
                # why no discard is valued, or which are not counted when some are not
                note = (no_discards_message if frame.height == 0 else unvalued_discards_message)(conn, filters)
            shown = output(stage, frame, format, out, lambda: _discard_tables(frame, worst, filters.describe()))
        shown()
    except _handled() as error:
        raise _fail(error) from None
    if note is not None:
        err_console().print(note, markup=False, highlight=False, soft_wrap=True)


def _discard_tables(frame: pl.DataFrame, worst: pl.DataFrame | None, what: str) -> list[Table]:
    """The tables of ``discards`` for people: per player, and the costliest discards when there are any."""
    tables = [
        rich_table(frame, ("player", "deals", "loss_per_deal_dealer", "loss_per_deal_pone", "best_share",
                           "loss_per_game", "hand_only_deals", "hand_only_loss_per_deal"),
                   f"Discards ({what}): expected points lost"),
    ]  # fmt: skip
    if worst is not None and worst.height:
        tables.append(rich_table(worst, ("player", "game", "deal", "role", "dealt", "chosen", "best", "loss"),
                                 "The costliest discards"))  # fmt: skip
    return tables


def discard_table(
    format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    build: Annotated[
        bool,
        typer.Option(
            "--build",
            help="Compute the tables afresh (a few minutes: six-, five- and seven-card) instead of reading the "
            "shipped ones; with --out FILE, write them there as the data file cribstats ships.",
        ),
    ] = False,
    variant: Annotated[
        str, typer.Option("--variant", help="The table of six-card, five-card or seven-card play.")
    ] = "six-card",
) -> None:
    """The crib table: the expected crib points of each rank pair thrown, to your own crib (dealer) and to
    your opponent's (pone); a pair of two ranks is split into off-suit and suited, a pair of one rank has
    suited null. Each two-player variant has its own (the other player's throw comes from a hand of its size).

    Examples:

        cribstats discard-table

        cribstats discard-table --format json --variant five-card

        cribstats discard-table --build --out crib-table.json
    """
    import polars as pl

    from cribstats.discards.table import TABLE_VARIANTS, load_crib_table
    from cribstats.variants import find_variant

    try:
        name = find_variant(variant).name
        if name not in TABLE_VARIANTS:
            raise UsageError(f"--variant {variant}: {name} deals are valued by the hand alone, with no crib table")
        if build:
            table = _build(out, name)
            if out is not None:
                return
        else:
            table = load_crib_table(name)
        records = table.records()
        if format is OutputFormat.json:
            _write_text(json.dumps(records, indent=1) + "\n", out)
            return
        frame = pl.DataFrame(records, schema={"pair": pl.String, "suited": pl.Boolean, "dealer": pl.Float64,
                                              "pone": pl.Float64})  # fmt: skip
        _emit(frame, format, out, [rich_table(frame, frame.columns, f"Crib table ({name}): expected crib points")])
    except _handled() as error:
        raise _fail(error) from None


def _build(out: str | None, shown: str) -> CribTable:
    """Compute the tables, telling each round on standard error; write the data file to ``out`` if given; the
    table of ``shown``."""
    from importlib.metadata import version

    from cribstats.discards.build import build_table, table_document
    from cribstats.discards.table import DEALT_BY_VARIANT, table_from_records, write_table_file

    console = err_console()
    builds = {}
    for name, dealt in DEALT_BY_VARIANT.items():

        def tell(r: int, changed: int, name: str = name) -> None:
            console.print(f"{name} round {r}: {changed} discards changed", markup=False, highlight=False)

        builds[name] = build_table(tell, dealt)
        if not builds[name].converged:
            console.print(f"warning: the {name} discards had not settled", markup=False, highlight=False)
    document = table_document(builds, version("cribstats"))
    if out is not None:
        from cribstats.atomicfile import WriteError

        try:
            write_table_file(document, out)
        except WriteError as err:
            raise fail(str(err), 1) from None
        console.print(f"wrote {out}", markup=False, highlight=False)
    six: list[dict[str, object]] = document["rows"]  # type: ignore[assignment]
    variants: dict[str, dict[str, object]] = document["variants"]  # type: ignore[assignment]
    rows = six if shown == "six-card" else variants[shown]["rows"]
    return table_from_records(rows, {})  # type: ignore[arg-type]


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("analyse", epilog=ANALYSE_HELP)(analyse)
    app.command("discards")(discards)
    app.command("discard-table")(discard_table)
