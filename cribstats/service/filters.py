"""The filters a page or API call may give, checked as the commands check theirs; text reaches SQL only as bound
parameters."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date as Date
from typing import Annotated, Any

from fastapi import Query
from pydantic import BeforeValidator

from cribstats.errors import VariantError
from cribstats.service.problems import ProblemError, ProblemPlace
from cribstats.stats.frames import StatsFilter

#: the longest filter text: beyond any name or event the name rule allows (64, 200), so that a longer one a store
#: written before the rule kept is still found, and bounded
TEXT_MAX = 1024
LIMIT_DEFAULT, LIMIT_MAX, OFFSET_MAX = 50, 500, 1_000_000_000

Player = Annotated[
    str | None, Query(max_length=TEXT_MAX, description="Only this player (case and spacing ignored).")
]
Event = Annotated[str | None, Query(max_length=TEXT_MAX, description="Only games of this event (case ignored).")]


def _day(value: object) -> object:
    """A date parameter read as a game log's dates are (``YYYY-MM-DD``, :func:`~cribstats.gamelog.fields.
    iso_date`), not as pydantic reads a date (which takes ``0`` for 1970-01-01, a Unix time)."""
    if isinstance(value, str):
        from cribstats.gamelog.contract import iso_date

        return Date.fromisoformat(iso_date(value))
    return value


Day = Annotated[Date, BeforeValidator(_day)]
"""A date parameter of the API: ``YYYY-MM-DD`` only."""
Since = Annotated[Day | None, Query(description="Only games on or after this date (YYYY-MM-DD).")]
Until = Annotated[Day | None, Query(description="Only games on or before this date (YYYY-MM-DD).")]
Variant = Annotated[str | None, Query(max_length=40, description="Only games of this variant (six-card, ...).")]
Limit = Annotated[int, Query(ge=1, le=LIMIT_MAX, description="Items on this page.")]
Offset = Annotated[int, Query(ge=0, le=OFFSET_MAX, description="Items skipped before this page.")]


def in_words(error: Mapping[str, Any], description: str | None = None) -> str:
    """A page's parameter refused by its type (a pydantic error), in a sentence a club member reads: ``offset
    must be a whole number``, ``name is needed: the player's name`` (``description``: what the field holds)."""
    field = str(error.get("loc", ("", "the request"))[-1])
    kind, limits = error.get("type"), error.get("ctx", {})
    if kind == "missing":
        return f"{field} is needed" + (f": {description}" if description else "")
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"{field} must be a whole number"
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = limits.get("ge", limits.get("le"))
        return f"{field} must be {bound} or {'more' if kind == 'greater_than_equal' else 'less'}"
    if kind == "string_too_long":
        return f"{field} is too long: at most {limits.get('max_length')} characters"
    if kind in ("bool_parsing", "bool_type"):
        return f"{field} must be true or false"
    return f"{field}: {message(error)}"


def message(error: Mapping[str, Any]) -> str:
    """A refused parameter's message: a check of our own says it in its own words, without pydantic's
    ``Value error,`` before them."""
    cause = error.get("ctx", {}).get("error") if error.get("type") == "value_error" else None
    return str(cause) if isinstance(cause, ValueError) else str(error.get("msg"))


def bad(parameter: str, detail: str) -> ProblemError:
    """A parameter refused: 400, the parameter as its place (a page's; and any filter's text holding a NUL)."""
    return ProblemError(400, f"{parameter}: {detail}", [ProblemPlace(file=None, place=parameter, detail=detail)])


def bad_query(parameter: str, detail: str) -> ProblemError:
    """An API query parameter refused by a check of ours (an unknown variant, ``since`` after ``until``): 422 with
    the place ``query.NAME``, as a parameter refused by its type is (a malformed date, an unknown ``kind``)."""
    place = f"query.{parameter}"
    return ProblemError(422, f"{place}: {detail}", [ProblemPlace(file=None, place=place, detail=detail)])


def text(value: str | None, parameter: str) -> str | None:
    """A filter's text (a name, an event), as the service's own pages link to it: any text a store may hold, a
    name a store written before the name rule kept with a hidden character in it included (every answer escapes
    it). Only NUL is refused, which no store holds (PostgreSQL's text cannot)."""
    if value is None:
        return None
    if "\x00" in value:
        raise bad(parameter, "holds a NUL character, which no stored name or event does")
    return value


def form_text(value: str | None) -> str | None:
    """A page form's text field: a field left empty (a browser sends it as ``name=``) is no filter."""
    return value if value and value.strip() else None


def form_date(value: str | None, parameter: str) -> Date | None:
    """A page form's date field, ``YYYY-MM-DD`` as a game log's dates are (:func:`~cribstats.gamelog.fields.
    iso_date`); one left empty is no filter.

    :raises ProblemError: 400 for a date that is not one, in the words the game log's dates are refused.
    """
    if not form_text(value):
        return None
    from cribstats.gamelog.contract import iso_date

    try:
        return Date.fromisoformat(iso_date(str(value).strip()))
    except ValueError as err:
        raise bad(parameter, str(err)) from None


def make_filter(player: str | None = None, event: str | None = None, since: Date | None = None,
                until: Date | None = None, variant: str | None = None, *,
                refuse: Callable[[str, str], ProblemError] = bad) -> StatsFilter:  # fmt: skip
    """The filters as ``cribstats stats`` takes them.

    :raises ProblemError: ``refuse``'s (a page's 400, :func:`bad`; the API's 422, :func:`bad_query`) for an
        unknown variant or ``since`` after ``until``; 400 for text holding a NUL.
    """
    from cribstats.variants import find_variant

    if variant is not None:
        try:
            variant = find_variant(text(variant, "variant") or "").name
        except VariantError as err:
            raise refuse("variant", str(err)) from None
    if since is not None and until is not None and since > until:
        raise refuse("since", f"{since} is after until {until}: no game can match")
    return StatsFilter(text(player, "player"), text(event, "event"), since, until, variant)
