"""Commands of the rules group: ``cribstats score`` (a show) and ``cribstats peg`` (a card laid in the play)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cribstats.cards import format_card
from cribstats.cli.options import cards_from_arguments, fail
from cribstats.errors import CribstatsError

if TYPE_CHECKING:
    from cribstats.cards import Card

USAGE_ERROR = 2
KIND_TOTALS = {"fifteen": "fifteens", "pair": "pairs", "run": "runs", "flush": "flush", "nobs": "nobs"}


def _fail(error: CribstatsError) -> typer.Exit:
    return fail(str(error), USAGE_ERROR)


def _spell(cards: Sequence[Card]) -> str:
    return " ".join(format_card(c) for c in cards)


def score(
    cards: Annotated[
        list[str],
        typer.Argument(
            help="The hand (3, 4 or 5 cards), then the starter, e.g. 5H 5C 5S JD 5D. "
            "Any spelling of a game log reads: 10s, T♠, jd.",
            show_default=False,
        ),
    ],
    crib: Annotated[
        bool, typer.Option("--crib", help="Crib rules: 4 cards, and a flush only with the starter's suit.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the totals by kind and every combination as one JSON object.")
    ] = False,
) -> None:
    """Score a hand or crib in the show: the last card given is the starter.

    Lists every fifteen, pair, run, flush and nobs with the cards that make it and its points, then the total.

    Example: cribstats score 5H 5C 5S JD 5D   (29: the jack of the starter's suit and four fives)

    Example: cribstats score --crib --json 2H 4H 6H 8H KH
    """
    from cribstats.scoring import KINDS, HandError, check_show, score_show  # loaded here: start-up stays short

    try:
        parsed = cards_from_arguments(cards)
        if not parsed:
            raise HandError("no cards: give the hand, then the starter")
        hand, starter = parsed[:-1], parsed[-1]
        check_show(hand, starter, crib=crib)
    except CribstatsError as error:
        raise _fail(error) from None
    result = score_show(hand, starter, crib=crib)
    if as_json:
        data = {**result.to_dict(), "hand": [format_card(c) for c in hand], "starter": format_card(starter)}
        data["crib"] = crib
        typer.echo(json.dumps(data))
        return
    rules = "crib" if crib else "hand"
    table = Table(title=Text(f"{_spell(hand)}  starter {format_card(starter)}  ({rules})"), title_justify="left")
    table.add_column("kind")
    table.add_column("cards")
    table.add_column("points", justify="right")
    for item in result.items:
        table.add_row(item.kind, _spell(item.cards), str(item.points))
    totals = "  ".join(f"{KIND_TOTALS[kind]} {result.points_of(kind)}" for kind in KINDS)
    console = Console(highlight=False, markup=False, emoji=False)
    if result.items:
        console.print(table)
    else:
        console.print(Text(f"{_spell(hand)}  starter {format_card(starter)}  ({rules}): nothing scores"))
    console.print(Text(totals))
    console.print(Text(f"total {result.total}", style="bold"))


def peg(
    cards: Annotated[
        list[str],
        typer.Argument(
            help="The cards of the series in the order they were laid (since the count was last 0), "
            "e.g. 6H 4D 5S.",
            show_default=False,
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the points and their parts as one JSON object.")
    ] = False,
) -> None:
    """Points for the last card laid on a series: fifteen, thirty-one, pairs and runs.

    The go and the last card's point are not included: they depend on what is played next.

    Example: cribstats peg 6H 4D 5S   (5: fifteen for 2 and a run of three)

    Example: cribstats peg --json 7C 7D 7H 5S 5C   (4: a pair and 31)
    """
    from cribstats.pegging import check_series, score_peg  # loaded here: start-up stays short

    try:
        series = cards_from_arguments(cards)
        check_series(series)
    except CribstatsError as error:
        raise _fail(error) from None
    result = score_peg(series)
    if as_json:
        typer.echo(json.dumps({**result.to_dict(), "series": [format_card(c) for c in series]}))
        return
    parts = [
        f"{name} {points}"
        for name, points in (
            ("fifteen", result.fifteen),
            ("thirty-one", result.thirty_one),
            ("pairs", result.pairs),
            ("run", result.run),
        )
        if points
    ]
    console = Console(highlight=False, markup=False, emoji=False)
    console.print(Text(f"{_spell(series)}  count {result.count}"))
    because = f": {', '.join(parts)}" if parts else ""
    console.print(Text(f"{format_card(series[-1])} scores {result.points}{because}"))


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    app.command("score")(score)
    app.command("peg")(peg)
