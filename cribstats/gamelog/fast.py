"""The fast path: game logs decoded by msgspec into typed Structs, checked, and built into the same
:class:`~cribstats.gamelog.model.GameLog` objects the pydantic model makes.

It settles only what it can check whole: cards in canonical spelling, ``"go"`` in lower case, no ``null`` for an
optional field, every field of the right type and range (msgspec, in C), then the few shapes a Struct cannot say
(play events, a muggins call's ``event``, dates, free text) and the contract's own checks
(:func:`~cribstats.gamelog.checks.check_players`, :func:`~cribstats.gamelog.checks.check_options`). Anything
else, and every refusal, is left to the pydantic model (None here), so that a break is named in one way only.

The checks run on the Structs; :func:`decode_game_json` then builds the models from them, and
:func:`decode_game_struct` hands the checked Structs over as they are, for a reader that needs no model (the audit:
the replay reads either, :data:`AnyGame`). The Structs mirror the models field for field (a test holds them
equal), and share their rules (:class:`~cribstats.gamelog.model.GameOptions`); a new field is added to the model,
here, and nowhere else. The canonical form of a game read as Structs is written from them
(:func:`~cribstats.gamelog.canonical.canonical_json`): an absent field is left out (``omit_defaults``).
"""

from __future__ import annotations

from itertools import chain, zip_longest
from operator import attrgetter
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

import msgspec
from msgspec import Meta, Struct, field

from cribstats.gamelog.checks import check_options, check_players
from cribstats.gamelog.contract import HIGHEST_NUMBER, LOWEST_NUMBER, GameLogError, GameOptions, iso_date
from cribstats.gamelog.spelling import CANONICAL_CARDS, FORMAT, GO, MUGGINS_PHASES
from cribstats.names import TextError, check_text
from cribstats.variants import VARIANT_NAMES

# the Structs take the numbers the model takes (a signed 64-bit integer) and leave the rest to the model
Card = Literal[CANONICAL_CARDS]  # type: ignore[valid-type]
Name = Annotated[str, Meta(min_length=1)]
Points = Annotated[int, Meta(ge=0, le=HIGHEST_NUMBER)]
Score = Annotated[int, Meta(ge=LOWEST_NUMBER, le=HIGHEST_NUMBER)]
Text = Annotated[str, Meta(min_length=1)]
if TYPE_CHECKING:
    from cribstats.gamelog.model import Deal, GameLog, MugginsCall, Result

    # what a checked event is (_play_names), as the model types it
    Event: TypeAlias = tuple[str, str] | tuple[str, str, int]
else:  # what msgspec decodes: [player, card], [player, card, points] or [player, "go"], checked by _play_names
    Event = tuple[str | int, ...]
#: the default of an optional field: absent. Its type leaves out None, so that a ``null`` written in the log is
#: left to the model (which keeps it, and writes it back)
ABSENT: Any = None


class _Struct(Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Written as JSON without the fields left at their default, absent (:data:`ABSENT`), as the canonical form
    leaves them out."""


class BidStruct(_Struct, kw_only=True):
    player: Name
    points: Annotated[int, Meta(ge=1, le=HIGHEST_NUMBER)]


class MugginsStruct(_Struct, kw_only=True):
    by: Name
    from_: Name = field(name="from")
    phase: Literal[MUGGINS_PHASES]  # type: ignore[valid-type]
    points: Points
    event: Points = ABSENT


class DealStruct(_Struct, kw_only=True):
    dealer: Name
    hands: dict[Name, list[Card]]
    crib_card: Card = ABSENT
    discards: dict[Name, list[Card]]
    bid: BidStruct = ABSENT
    starter: Card
    heels: Points = ABSENT
    play: list[Event] = ABSENT
    pegged: dict[Name, Points] = ABSENT
    show: dict[Name, Points] = ABSENT
    muggins: list[MugginsStruct] = ABSENT
    scores: dict[Name, Score] = ABSENT


class ResultStruct(_Struct, kw_only=True):
    winner: Name = ABSENT
    scores: dict[Name, Score] = ABSENT


class GameStruct(_Struct, GameOptions, kw_only=True):
    format: Literal[FORMAT]  # type: ignore[valid-type]
    id: Text = ABSENT
    event: str = ABSENT
    date: str = ABSENT
    site: str = ABSENT
    round: str = ABSENT
    match: Text = ABSENT
    match_game: Annotated[int, Meta(ge=1, le=HIGHEST_NUMBER)] = ABSENT
    variant: Literal[VARIANT_NAMES] = ABSENT  # type: ignore[valid-type]
    target: Annotated[int, Meta(gt=0, le=HIGHEST_NUMBER)] = ABSENT
    muggins: bool = ABSENT
    giveaway: bool = ABSENT
    bidding: bool = ABSENT
    players: Annotated[list[Name], Meta(min_length=2, max_length=4)]
    deals: list[DealStruct] = ABSENT
    result: ResultStruct = ABSENT


#: the free-text fields of a game, checked (and put in NFC) by the name and text rule under these names
_FREE_TEXT = {"id": "id", "match": "id", "event": "event", "site": "site", "round": "round"}
_CARDS_OR_GO = frozenset((*CANONICAL_CARDS, GO))
_play_of, _bid_of, _muggins_of = attrgetter("play"), attrgetter("bid"), attrgetter("muggins")
_asdict = msgspec.structs.asdict
_decoder = msgspec.json.Decoder(GameStruct)
_new = object.__new__
_setattr = object.__setattr__


class _Unsettled(Exception):
    """The fast path cannot settle this log: the pydantic model decides."""


def decode_game_json(text: bytes | str) -> GameLog | None:
    """The game in JSON text, checked whole; None when the pydantic model must decide (a break, or a spelling
    this path does not read)."""
    struct = decode_game_struct(text)
    return None if struct is None else as_model(struct)


def decode_game_struct(text: bytes | str) -> GameStruct | None:
    """:func:`decode_game_json`'s game as the checked Structs, no model built (None where it gives None)."""
    try:
        struct = _decoder.decode(text)
    except msgspec.MsgspecError:
        return None
    return _settle(struct)


def convert_game(data: object) -> GameLog | None:
    """:func:`decode_game_json` for a decoded JSON value."""
    struct = convert_game_struct(data)
    return None if struct is None else as_model(struct)


def convert_game_struct(data: object) -> GameStruct | None:
    """:func:`decode_game_struct` for a decoded JSON value."""
    try:
        struct = msgspec.convert(data, GameStruct)
    except msgspec.MsgspecError:
        return None
    return _settle(struct)


def _settle(struct: GameStruct) -> GameStruct | None:
    """The Structs checked whole, names and free text as the contract keeps them; None when the model must
    decide."""
    try:
        play_names = _check_shapes(struct)
        check_players(struct, play_names=play_names)
        check_options(struct)
    except (_Unsettled, GameLogError):
        return None
    return struct


def _check_shapes(struct: GameStruct) -> frozenset[str]:
    """The free text (put in NFC), the date, the play events' and muggins calls' shapes; the names the play
    events give (for :func:`check_players`).

    :raises _Unsettled: where the model must decide.
    """
    for name, rule in _FREE_TEXT.items():
        text = getattr(struct, name)
        if text is not None:
            try:
                setattr(struct, name, check_text(text, rule))
            except TextError:
                raise _Unsettled from None
    if struct.date is not None:
        try:
            iso_date(struct.date)
        except ValueError:
            raise _Unsettled from None
    if struct.deals is None:
        return frozenset()
    names = _play_names(list(chain.from_iterable(filter(None, map(_play_of, struct.deals)))))
    if names is None:
        raise _Unsettled
    if any(map(_muggins_of, struct.deals)):
        for deal in struct.deals:
            for call in deal.muggins or ():
                if (call.phase == "play") != (call.event is not None):
                    raise _Unsettled
    return names


def game_model(game: AnyGame) -> GameLog:
    """The game as the model: a model as it is, checked Structs built into one (:func:`as_model`)."""
    return as_model(game) if isinstance(game, GameStruct) else game


def as_model(struct: GameStruct) -> GameLog:
    """The game model holding a checked game's values, as ``model_construct`` builds it."""
    from cribstats.gamelog.model import Deal, GameLog, Result  # loaded when a model is first needed

    game: GameLog = _model(GameLog, struct)
    if struct.deals is not None:
        deals = [_model(Deal, deal) for deal in struct.deals]
        if any(map(_bid_of, struct.deals)) or any(map(_muggins_of, struct.deals)):
            for model, deal in zip(deals, struct.deals, strict=True):
                _deal_parts(model, deal)
        game.__dict__["deals"] = deals
    if struct.result is not None:
        game.__dict__["result"] = _model(Result, struct.result)
    return game


def _model(cls: type[Any], struct: Struct) -> Any:
    """The model ``cls`` holding the Struct's values, as ``model_construct`` builds it (the values are checked;
    a field is given when it is not None, since a written ``null`` never reaches here)."""
    values = _asdict(struct)
    model = _new(cls)
    _setattr(model, "__dict__", values)
    _setattr(model, "__pydantic_fields_set__", {name for name, value in values.items() if value is not None})
    _setattr(model, "__pydantic_extra__", None)
    _setattr(model, "__pydantic_private__", None)
    return model


def _deal_parts(deal: Deal, struct: DealStruct) -> None:
    """A deal's bid and muggins calls as models."""
    from cribstats.gamelog.model import Bid, MugginsCall

    if struct.bid is not None:
        deal.__dict__["bid"] = _model(Bid, struct.bid)
    if struct.muggins is not None:
        deal.__dict__["muggins"] = [_model(MugginsCall, call) for call in struct.muggins]


def _play_names(events: list[Event]) -> frozenset[str] | None:
    """The players the events name, when every event is ``[player, card]``, ``[player, "go"]`` or ``[player,
    card, points >= 0]`` with the player a string; else None. Checked in bulk, by column: the common case costs
    a few passes in C, and the names' types are checked on the few distinct names."""
    if not events:
        return frozenset()
    columns = list(zip_longest(*events))  # names, cards and points (None where an event has none)
    if len(columns) == 2:
        names, cards = columns
        points: tuple[Any, ...] = ()
    elif len(columns) == 3:
        names, cards, points = columns
    else:
        return None
    players: frozenset[Any] = frozenset(names)  # strings, checked below on the few distinct names
    if not _CARDS_OR_GO.issuperset(cards) or set(map(type, players)) != {str}:
        return None
    if not points:
        return players
    if not _goes_without_points(cards, points):
        return None
    if all(type(p) is int and 0 <= p <= HIGHEST_NUMBER for p in set(points) if p is not None):
        return players
    return None


def _goes_without_points(cards: tuple[Any, ...], points: tuple[Any, ...]) -> bool:
    """True when no ``"go"`` among ``cards`` has points beside it: the goes found by ``index`` (a search in C),
    the few of them looked at one by one."""
    at = -1
    try:
        while True:
            at = cards.index(GO, at + 1)
            if points[at] is not None:
                return False
    except ValueError:  # no further go
        return True


#: a game as a reader hands it over: the model, or (from :func:`decode_game_struct`) the checked Structs; the
#: replay and the match collector read either
#: (the models named as text: they are loaded when first needed)
AnyGame: TypeAlias = "GameLog | GameStruct"
AnyDeal: TypeAlias = "Deal | DealStruct"
AnyCall: TypeAlias = "MugginsCall | MugginsStruct"
AnyResult: TypeAlias = "Result | ResultStruct"
