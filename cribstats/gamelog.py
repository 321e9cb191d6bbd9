"""The game log data model (spec game-log version 1). ``schemas/game-log-1.schema.json`` is generated from it.

Cards are kept in canonical spelling (``"TS"``); a model read and dumped back with :func:`dump_game` is the
same log, field for field.

>>> game = validate_game({"format": "cribstats/game/1", "players": ["Alice", "Bob"],
...                       "result": {"winner": "Alice", "scores": {"Alice": 121, "Bob": 88}}})
>>> game.variant_rules.target, game.deals
(121, None)
"""

from __future__ import annotations

import re
from datetime import date as Date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from cribstats.cards import format_card, parse_card
from cribstats.errors import CribstatsError
from cribstats.variants import VARIANT_NAMES, Variant, find_variant

FORMAT = "cribstats/game/1"
GO = "go"


def _canonical_card(text: Any) -> Any:
    return format_card(parse_card(text)) if isinstance(text, str) else text


def _canonical_card_or_go(text: Any) -> Any:
    if isinstance(text, str) and text.strip().lower() == GO:
        return GO
    return _canonical_card(text)


def _iso_date(text: str) -> str:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise ValueError(f"{text!r} is not a date: write YYYY-MM-DD")
    Date.fromisoformat(text)
    return text


CardText = Annotated[
    str,
    BeforeValidator(_canonical_card),
    Field(pattern=r"^[A2-9TJQK][CDHS]$", description="a card: rank A 2-9 T J Q K, then suit C D H S"),
]
CardOrGo = Annotated[
    str,
    BeforeValidator(_canonical_card_or_go),
    Field(pattern=r"^([A2-9TJQK][CDHS]|go)$", description="a card, or \"go\""),
]
PlayerName = Annotated[str, Field(min_length=1)]
Points = Annotated[int, Field(ge=0, strict=True)]
Score = Annotated[int, Field(strict=True)]
PlayEvent = tuple[PlayerName, CardOrGo] | tuple[PlayerName, CardText, Points]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=False)


class MugginsCall(_Model):
    """A muggins call: ``by`` takes ``points`` that ``from`` missed in ``phase``."""

    by: PlayerName
    from_: PlayerName = Field(alias="from")
    phase: Literal["play", "heels", "hand", "crib"]
    points: Points
    event: Annotated[int, Field(ge=0, strict=True)] | None = None


class Deal(_Model):
    """One deal: the cards, the play, the show claims, muggins calls and the board after it."""

    dealer: PlayerName
    hands: dict[PlayerName, list[CardText]]
    crib_card: CardText | None = None
    discards: dict[PlayerName, list[CardText]]
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


class GameLog(_Model):
    """One game, as a club or table logged it."""

    format: Literal["cribstats/game/1"]
    id: str | None = None
    event: str | None = None
    date: Annotated[str, AfterValidator(_iso_date)] | None = None
    site: str | None = None
    round: str | None = None
    variant: Literal[VARIANT_NAMES] | None = None  # type: ignore[valid-type]
    target: Annotated[int, Field(gt=0, strict=True)] | None = None
    muggins: bool | None = None
    players: Annotated[list[PlayerName], Field(min_length=2, max_length=4)]
    deals: list[Deal] | None = None
    result: Result | None = None

    @property
    def variant_rules(self) -> Variant:
        return find_variant(self.variant or VARIANT_NAMES[0])

    @property
    def target_score(self) -> int:
        return self.target if self.target is not None else self.variant_rules.target

    @property
    def muggins_rule(self) -> bool:
        return bool(self.muggins)


class GameLogError(CribstatsError, ValueError):
    """A log that breaks the contract; ``place`` is a JSON path such as ``deals[3].play[5]``."""

    def __init__(self, place: str, message: str) -> None:
        self.place = place
        self.message = message
        super().__init__(f"{place}: {message}" if place else message)


def format_place(loc: tuple[int | str, ...]) -> str:
    """``('deals', 3, 'play', 5)`` -> ``'deals[3].play[5]'``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def validate_game(data: object) -> GameLog:
    """Check a decoded JSON value against the contract and return the model.

    :raises GameLogError: naming the first place that breaks it.
    """
    try:
        game = GameLog.model_validate(data)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith(("tuple[", "function-"))))
        message = first["msg"].removeprefix("Value error, ")
        raise GameLogError(format_place(loc), message) from None
    check_players(game)
    return game


def check_players(game: GameLog) -> None:
    """The player rules of the contract that a schema cannot say: names distinct, known, and the right count."""
    players = game.players
    if len(set(players)) != len(players):
        raise GameLogError("players", "player names must be distinct")
    if "crib" in players:
        raise GameLogError("players", "'crib' cannot be a player's name")
    rules = game.variant_rules
    if len(players) != rules.players:
        raise GameLogError("players", f"{rules.name} is played by {rules.players}, not {len(players)}")
    known = set(players)
    for d, deal in enumerate(game.deals or []):
        where = f"deals[{d}]"
        if deal.dealer not in known:
            raise GameLogError(f"{where}.dealer", f"{deal.dealer!r} is not a player of this game")
        for field in ("hands", "discards", "pegged", "scores"):
            for name in getattr(deal, field) or {}:
                if name not in known:
                    raise GameLogError(f"{where}.{field}", f"{name!r} is not a player of this game")
        for name in deal.show or {}:
            if name not in known and name != "crib":
                raise GameLogError(f"{where}.show", f"{name!r} is not a player of this game")
        for e, event in enumerate(deal.play or []):
            if event[0] not in known:
                raise GameLogError(f"{where}.play[{e}]", f"{event[0]!r} is not a player of this game")
        for m, call in enumerate(deal.muggins or []):
            for name in (call.by, call.from_):
                if name not in known:
                    raise GameLogError(f"{where}.muggins[{m}]", f"{name!r} is not a player of this game")
        for name in rules_required_names(players):
            if name not in deal.hands:
                raise GameLogError(f"{where}.hands", f"no hand for {name!r}")
            if name not in deal.discards:
                raise GameLogError(f"{where}.discards", f"no discards for {name!r}")
    if game.result is not None:
        if game.result.winner is not None and game.result.winner not in known:
            raise GameLogError("result.winner", f"{game.result.winner!r} is not a player of this game")
        for name in game.result.scores or {}:
            if name not in known:
                raise GameLogError("result.scores", f"{name!r} is not a player of this game")


def rules_required_names(players: list[str]) -> list[str]:
    return list(players)


def dump_game(game: GameLog) -> dict[str, Any]:
    """The log as JSON-ready data, with only the fields it was given, cards canonical."""
    return game.model_dump(mode="json", by_alias=True, exclude_unset=True)
