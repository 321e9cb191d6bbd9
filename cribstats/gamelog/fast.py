"""The fast path: game logs decoded by msgspec into typed Structs, checked, and built into the same
:class:`~cribstats.gamelog.model.GameLog` objects the pydantic model makes.

It settles only what it can check whole: cards in canonical spelling, ``"go"`` in lower case, no ``null`` for an
optional field, every field of the right type and range (msgspec, in C), then the few shapes a Struct cannot say
(play events, a muggins call's ``event``, dates, free text) and the contract's own checks
(:func:`~cribstats.gamelog.checks.check_players`, :func:`~cribstats.gamelog.checks.check_options`). Anything
else, and every refusal, is left to the pydantic model (None here), so that a break is named in one way only.

The Structs mirror the models field for field (a test holds them equal); a new field is added to the model, here,
and nowhere else: the checks and the canonical form read the built model.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType, field

from cribstats.gamelog.checks import check_options, check_players
from cribstats.gamelog.fields import iso_date
from cribstats.gamelog.model import Bid, Deal, GameLog, GameLogError, MugginsCall, Result
from cribstats.gamelog.spelling import CANONICAL_CARDS, FORMAT, GO, MUGGINS_PHASES
from cribstats.names import TextError, check_text
from cribstats.variants import VARIANT_NAMES

Card = Literal[CANONICAL_CARDS]  # type: ignore[valid-type]
Name = Annotated[str, Meta(min_length=1)]
Points = Annotated[int, Meta(ge=0)]
Text = Annotated[str, Meta(min_length=1)]
Event = tuple[str | int, ...]  # [player, card], [player, card, points] or [player, "go"]: see _play_fits


class _Struct(Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class BidStruct(_Struct, kw_only=True):
    player: Name
    points: Annotated[int, Meta(ge=1)]


class MugginsStruct(_Struct, kw_only=True):
    by: Name
    from_: Name = field(name="from")
    phase: Literal[MUGGINS_PHASES]  # type: ignore[valid-type]
    points: Points
    event: Points | UnsetType = UNSET


class DealStruct(_Struct, kw_only=True):
    dealer: Name
    hands: dict[Name, list[Card]]
    crib_card: Card | UnsetType = UNSET
    discards: dict[Name, list[Card]]
    bid: BidStruct | UnsetType = UNSET
    starter: Card
    heels: Points | UnsetType = UNSET
    play: list[Event] | UnsetType = UNSET
    pegged: dict[Name, Points] | UnsetType = UNSET
    show: dict[Name, Points] | UnsetType = UNSET
    muggins: list[MugginsStruct] | UnsetType = UNSET
    scores: dict[Name, int] | UnsetType = UNSET


class ResultStruct(_Struct, kw_only=True):
    winner: Name | UnsetType = UNSET
    scores: dict[Name, int] | UnsetType = UNSET


class GameStruct(_Struct, kw_only=True):
    format: Literal[FORMAT]  # type: ignore[valid-type]
    id: Text | UnsetType = UNSET
    event: str | UnsetType = UNSET
    date: str | UnsetType = UNSET
    site: str | UnsetType = UNSET
    round: str | UnsetType = UNSET
    match: Text | UnsetType = UNSET
    match_game: Annotated[int, Meta(ge=1)] | UnsetType = UNSET
    variant: Literal[VARIANT_NAMES] | UnsetType = UNSET  # type: ignore[valid-type]
    target: Annotated[int, Meta(gt=0)] | UnsetType = UNSET
    muggins: bool | UnsetType = UNSET
    giveaway: bool | UnsetType = UNSET
    bidding: bool | UnsetType = UNSET
    players: Annotated[list[Name], Meta(min_length=2, max_length=4)]
    deals: list[DealStruct] | UnsetType = UNSET
    result: ResultStruct | UnsetType = UNSET


#: each Struct and the model it becomes
STRUCTS: dict[type[Struct], type[Any]] = {
    GameStruct: GameLog, DealStruct: Deal, ResultStruct: Result, MugginsStruct: MugginsCall, BidStruct: Bid,
}
#: the free-text fields of a game, checked (and put in NFC) by the name and text rule under these names
_FREE_TEXT = {"id": "id", "match": "id", "event": "event", "site": "site", "round": "round"}
_CARDS_OR_GO = frozenset((*CANONICAL_CARDS, GO))
_EVENT_LENGTHS = frozenset((2, 3))
_first, _second, _third = itemgetter(0), itemgetter(1), itemgetter(2)
_decoder = msgspec.json.Decoder(GameStruct)
_new = object.__new__
_setattr = object.__setattr__


class _Unsettled(Exception):
    """The fast path cannot settle this log: the pydantic model decides."""


def decode_game_json(text: bytes | str) -> GameLog | None:
    """The game in JSON text, checked whole; None when the pydantic model must decide (a break, or a spelling
    this path does not read)."""
    try:
        struct = _decoder.decode(text)
    except msgspec.MsgspecError:
        return None
    return _settle(struct)


def convert_game(data: object) -> GameLog | None:
    """:func:`decode_game_json` for a decoded JSON value."""
    try:
        struct = msgspec.convert(data, GameStruct)
    except msgspec.MsgspecError:
        return None
    return _settle(struct)


def _settle(struct: GameStruct) -> GameLog | None:
    try:
        game = _game(struct)
        check_players(game)
        check_options(game)
    except (_Unsettled, GameLogError):
        return None
    return game


def _model(cls: type[Any], struct: Struct, names: tuple[str, ...]) -> Any:
    """The model ``cls`` holding the Struct's values, as ``model_construct`` builds it (the values are checked)."""
    values: dict[str, Any] = {}
    given: set[str] = set()
    for name in names:
        value = getattr(struct, name)
        if value is UNSET:
            values[name] = None
        else:
            values[name] = value
            given.add(name)
    model = _new(cls)
    _setattr(model, "__dict__", values)
    _setattr(model, "__pydantic_fields_set__", given)
    _setattr(model, "__pydantic_extra__", None)
    _setattr(model, "__pydantic_private__", None)
    return model


_GAME_FIELDS = GameStruct.__struct_fields__
_DEAL_FIELDS = DealStruct.__struct_fields__
_RESULT_FIELDS = ResultStruct.__struct_fields__
_MUGGINS_FIELDS = MugginsStruct.__struct_fields__
_BID_FIELDS = BidStruct.__struct_fields__


def _game(struct: GameStruct) -> GameLog:
    for name, rule in _FREE_TEXT.items():
        text = getattr(struct, name)
        if text is not UNSET:
            try:
                setattr(struct, name, check_text(text, rule))
            except TextError:
                raise _Unsettled from None
    if struct.date is not UNSET:
        try:
            iso_date(struct.date)
        except ValueError:
            raise _Unsettled from None
    game: GameLog = _model(GameLog, struct, _GAME_FIELDS)
    if struct.deals is not UNSET:
        game.__dict__["deals"] = [_deal(deal) for deal in struct.deals]
    if struct.result is not UNSET:
        game.__dict__["result"] = _model(Result, struct.result, _RESULT_FIELDS)
    return game


def _deal(struct: DealStruct) -> Deal:
    if struct.play is not UNSET and not _play_fits(struct.play):
        raise _Unsettled
    deal: Deal = _model(Deal, struct, _DEAL_FIELDS)
    if struct.bid is not UNSET:
        deal.__dict__["bid"] = _model(Bid, struct.bid, _BID_FIELDS)
    if struct.muggins is not UNSET:
        calls = []
        for call in struct.muggins:
            if (call.phase == "play") != (call.event is not UNSET):
                raise _Unsettled
            calls.append(_model(MugginsCall, call, _MUGGINS_FIELDS))
        deal.__dict__["muggins"] = calls
    return deal


def _play_fits(play: list[Event]) -> bool:
    """True when every event is ``[player, card]``, ``[player, "go"]`` or ``[player, card, points >= 0]`` with a
    name that is a string, not empty (checked in bulk: the common case costs a few passes in C)."""
    if not play:
        return True
    if not _EVENT_LENGTHS.issuperset(map(len, play)) or not _CARDS_OR_GO.issuperset(map(_second, play)):
        return False
    if not all(type(name) is str and name for name in set(map(_first, play))):
        return False
    scored = [event for event in play if len(event) == 3]
    if not scored:
        return True
    points = list(map(_third, scored))
    return GO not in set(map(_second, scored)) and set(map(type, points)) == {int} and min(points) >= 0
