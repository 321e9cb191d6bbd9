"""The field types of the game log model (pydantic): cards in any spelling read as canonical, dates, names,
points and the free-text fields under the name and text rule, each with the JSON Schema it is published as."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, PlainValidator, WithJsonSchema

from cribstats.gamelog.contract import HIGHEST_NUMBER, LOWEST_NUMBER, iso_date
from cribstats.gamelog.spelling import (
    CANONICAL_CARDS,
    CARD_OR_GO_PATTERN,
    CARD_PATTERN,
    CARD_SPELLINGS,
    GO,
    card_message,
)
from cribstats.names import TEXT_LIMITS, check_text

# canonical spellings are checked by pydantic-core (a literal lookup); others go through a table


def _lenient_card(value: Any) -> str:
    canonical = CARD_SPELLINGS.get(value) if isinstance(value, str) else None
    if canonical is None:
        raise ValueError(card_message(value))
    return canonical


def _lenient_card_or_go(value: Any) -> str:
    if isinstance(value, str) and value.lower() == GO:
        return GO
    return _lenient_card(value)


_CARD_SCHEMA = {"type": "string", "pattern": CARD_PATTERN, "description": "a card: rank then suit, e.g. 5H, TS"}
CardText = Annotated[
    Literal[CANONICAL_CARDS] | Annotated[str, PlainValidator(_lenient_card)],  # type: ignore[valid-type]
    Field(union_mode="left_to_right"),
    WithJsonSchema(_CARD_SCHEMA),
]
CardOrGo = Annotated[
    Literal[(*CANONICAL_CARDS, GO)] | Annotated[str, PlainValidator(_lenient_card_or_go)],  # type: ignore[valid-type]
    Field(union_mode="left_to_right"),
    WithJsonSchema({"type": "string", "pattern": CARD_OR_GO_PATTERN,
                    "description": "a card, or \"go\""}),
]

IsoDate = Annotated[
    str,
    AfterValidator(iso_date),
    WithJsonSchema({"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
]
PlayerName = Annotated[str, Field(min_length=1)]


def whole(value: object) -> object:
    """A whole number written with a fraction or an exponent (``121.0``, ``1.21e2``) as the number it is: JSON
    Schema's ``integer``, which the published schemas say, takes it, so the readers do too (the canonical text
    writes ``121``). Any other value goes on to the field's own check, which refuses ``121.5``, ``true``,
    ``"121"`` and a number beyond 64 bits.

    >>> whole(121.0), whole(121.5), whole(True)
    (121, 121.5, True)
    """
    if type(value) is float and value.is_integer() and LOWEST_NUMBER <= value <= HIGHEST_NUMBER:
        return int(value)
    return value  # (a float beyond 64 bits, as orjson reads digits past them, is refused as too large, unrounded)


# whole numbers, strictly (``true`` and ``"2"`` are not numbers), a whole float taken as the number (:func:`whole`)
Points = Annotated[int, Field(ge=0, le=HIGHEST_NUMBER, strict=True), BeforeValidator(whole)]
PositiveNumber = Annotated[int, Field(ge=1, le=HIGHEST_NUMBER, strict=True), BeforeValidator(whole)]
#: a board position: below 0 only in a bidding game (check_options)
Score = Annotated[int, Field(ge=LOWEST_NUMBER, le=HIGHEST_NUMBER, strict=True), BeforeValidator(whole)]
#: a game's target: more than 0
Target = Annotated[int, Field(gt=0, le=HIGHEST_NUMBER, strict=True), BeforeValidator(whole)]


def _free_text(field: str) -> Any:
    """The checks of a free-text field under the name and text rule (:func:`cribstats.names.check_text`)."""
    return AfterValidator(partial(check_text, field=field))


def _max_length(field: str) -> Any:
    return Field(json_schema_extra={"maxLength": TEXT_LIMITS[field]})


Text = Annotated[str, Field(min_length=1), _max_length("id"), _free_text("id")]
EventText = Annotated[str, _max_length("event"), _free_text("event")]
SiteText = Annotated[str, _max_length("site"), _free_text("site")]
RoundText = Annotated[str, _max_length("round"), _free_text("round")]
PlayEvent = Annotated[
    tuple[PlayerName, CardOrGo] | tuple[PlayerName, CardText, Points],
    Field(union_mode="left_to_right"),
]
