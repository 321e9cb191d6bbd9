"""The game log data model (game log version 1, docs/game-log.md), in pydantic: the published JSON Schema
(``schemas/game-log-1.schema.json``) is generated from it, and it explains every contract break with its JSON path.

The fast decoder (:mod:`cribstats.gamelog.fast`) checks the logs it can check itself as Structs with the same
fields, and builds these same objects from them where a model is needed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cribstats.gamelog.contract import GameOptions
from cribstats.gamelog.fields import (
    CardText,
    EventText,
    IsoDate,
    PlayerName,
    PlayEvent,
    Points,
    PositiveNumber,
    RoundText,
    Score,
    SiteText,
    Target,
    Text,
)
from cribstats.gamelog.spelling import CRIB
from cribstats.names import MAX_NAME
from cribstats.variants import VARIANT_NAMES


class _Model(BaseModel):
    # defer_build: a model's validator is built when it first validates (or writes its schema), not when the
    # module is imported; the fast path (``fast.py``) builds models without validating, so an audit of logs it
    # reads whole never builds one, and a command starts about 0.02 s sooner
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=False, defer_build=True)


class MugginsCall(_Model):
    """A muggins call: ``by`` takes ``points`` that ``from`` missed in ``phase``; ``event`` for a play call."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"phase": {"const": "play"}}, "required": ["phase"]},
            # ``null`` for an optional field means it is absent: a play call's event is a number, another
            # phase's call has none or null
            "then": {"required": ["event"], "properties": {"event": {"type": "integer"}}},
            "else": {"properties": {"event": {"type": "null"}}},
        }
    )

    by: PlayerName
    from_: PlayerName = Field(alias="from")
    phase: Literal["play", "heels", "hand", "crib"]
    points: Points
    event: Points | None = None

    @model_validator(mode="after")
    def _event_with_play(self) -> MugginsCall:
        if self.phase == "play" and self.event is None:
            raise ValueError("a play call needs 'event', the index of the play event whose claim it corrects")
        if self.phase != "play" and self.event is not None:
            raise ValueError(f"only a play call has 'event'; this call is on the {self.phase}")
        return self


class Bid(_Model):
    """The winning bid for the crib in a bidding game: ``player`` takes the crib for ``points`` off his score."""

    player: PlayerName
    points: PositiveNumber


class Deal(_Model):
    """One deal: the cards, the play, the show claims, muggins calls and the board after it."""

    dealer: PlayerName
    hands: dict[PlayerName, list[CardText]]
    crib_card: CardText | None = None
    discards: dict[PlayerName, list[CardText]]
    bid: Bid | None = None  # bidding for the crib, before the cut
    starter: CardText
    heels: Points | None = None
    play: list[PlayEvent] | None = None
    pegged: dict[PlayerName, Points] | None = None
    show: dict[PlayerName, Points] | None = None
    muggins: list[MugginsCall] | None = None
    scores: dict[PlayerName, Score] | None = None


class Result(_Model):
    """What the table recorded at the end."""

    winner: PlayerName | None = None
    scores: dict[PlayerName, Score] | None = None


class GameLog(_Model, GameOptions):
    """One game, as a club or table logged it."""

    model_config = ConfigDict(title="cribstats game log, version 1")

    format: Literal["cribstats/game/1"]
    id: Text | None = None
    event: EventText | None = None
    date: IsoDate | None = None
    site: SiteText | None = None
    round: RoundText | None = None
    match: Text | None = None
    match_game: PositiveNumber | None = None
    variant: Literal[VARIANT_NAMES] | None = None  # type: ignore[valid-type]
    target: Target | None = None
    muggins: Annotated[bool, Field(strict=True)] | None = None
    giveaway: Annotated[bool, Field(strict=True)] | None = None
    bidding: Annotated[bool, Field(strict=True)] | None = None
    players: Annotated[
        list[PlayerName],
        Field(min_length=2, max_length=4, json_schema_extra={"uniqueItems": True, "items": {
            # names are read trimmed: a blank name is empty, and " crib " is the crib
            "type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": r"\S",
            "not": {"pattern": rf"^\s*{CRIB}\s*$"}}}),
    ]
    deals: list[Deal] | None = None
    result: Result | None = None
