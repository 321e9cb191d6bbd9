"""The contract's rules that a schema cannot say: the players' names (distinct, known everywhere the log names
a player, the right count for the variant) and the game options (bidding, a match's game number, scores below
0). Both decoders run these same checks: the pydantic one on the model, the fast one on its Structs."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import chain, repeat
from operator import attrgetter, eq, itemgetter
from typing import TYPE_CHECKING, Any

from cribstats.gamelog.contract import GameLogError, format_place
from cribstats.gamelog.spelling import CRIB, CRIB_NAME_MESSAGE, GO
from cribstats.names import (
    NameClash,
    TextError,
    name_or_same,
    normalise_deal_names,
    normalise_keys,
    normalise_name,
    quoted,
)

if TYPE_CHECKING:
    from cribstats.gamelog.fast import AnyCall, AnyDeal, AnyGame


def check_players(game: AnyGame, *, play_names: frozenset[str] | None = None) -> None:
    """The player rules of the contract that a schema cannot say: names distinct, known, and the right count.

    ``play_names``: every name the play events of the deals give, when the caller has gathered them already
    (the fast decoder does), so that the common case need not walk the events again.

    :raises GameLogError: naming the first place that breaks them.
    """
    players = _normalise_players(game)
    known = set(players)
    if len(known) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise GameLogError("players", f"{quoted(twice)} is named twice: player names must be distinct")
    if CRIB in known:
        raise GameLogError("players", CRIB_NAME_MESSAGE)
    rules = game.variant_rules
    if len(players) != rules.players:
        raise GameLogError("players", f"{rules.name} is played by {rules.players} players, not {len(players)}")
    deals = _deals(game)
    if deals and not _all_names_fit(deals, known, play_names):
        show_names = known | {CRIB}
        for d, deal in enumerate(deals):
            # the common case costs a few set operations in C; _check_deal runs only to name the culprit
            fits = _names_fit(deal, known, show_names)
            if not fits:
                try:
                    normalise_deal_names(deal)  # names in another Unicode form or with spaces around them
                except NameClash as clash:
                    raise GameLogError(f"deals[{d}].{clash.field}", str(clash)) from None
                fits = _names_fit(deal, known, show_names)
            if deal.muggins or not fits:
                _check_deal(deal, f"deals[{d}]", players, known, rules.side_of, bidding=game.bidding_rule)
    result = game.result
    if result is not None:
        if result.winner is not None and result.winner not in known:
            result.winner = name_or_same(result.winner)
        if result.scores and not known.issuperset(result.scores):
            try:
                result.scores = normalise_keys(result.scores)
            except NameClash as clash:
                raise GameLogError("result.scores", str(clash)) from None
        if result.winner is not None and result.winner not in known:
            raise GameLogError("result.winner", _not_a_player(result.winner))
        _check_names(result.scores, known, "result.scores")


def _all_names_fit(deals: Sequence[AnyDeal], known: set[str], play_names: frozenset[str] | None) -> bool:
    """True when every name every deal uses is a player's and no deal has muggins calls (which _check_deal
    checks further): a few passes over the whole game in C, the common case."""
    if play_names is None:
        play_names = frozenset(map(_first, _chain(filter(None, map(_play, deals)))))
    return (
        known.issuperset(map(_dealer, deals))
        and all(map(eq, map(dict.keys, map(_hands, deals)), repeat(known)))  # a dict's keys equal to a set
        and all(map(eq, map(dict.keys, map(_discards, deals)), repeat(known)))
        and known.issuperset(play_names)
        and known.issuperset(_chain(filter(None, map(_pegged, deals))))
        and known.issuperset(_chain(filter(None, map(_scores, deals))))
        and (known | {CRIB}).issuperset(_chain(filter(None, map(_show, deals))))
        and not any(map(_muggins, deals))
        and known.issuperset(bid.player for bid in filter(None, map(_bid, deals)))
    )


def _names_fit(deal: AnyDeal, known: set[str], show_names: set[str]) -> bool:
    """True when every name a deal uses is a player's (a few set operations in C)."""
    play, pegged, show, scores = deal.play, deal.pegged, deal.show, deal.scores
    return not (
        deal.dealer not in known
        or deal.hands.keys() != known
        or deal.discards.keys() != known
        or (play and not known.issuperset(map(_first, play)))
        or (pegged and not known.issuperset(pegged))
        or (show and not show_names.issuperset(show))
        or (scores and not known.issuperset(scores))
        or (deal.muggins and not all(c.by in known and c.from_ in known for c in deal.muggins))
        or (deal.bid is not None and deal.bid.player not in known)
    )


def _deals(game: AnyGame) -> Sequence[AnyDeal]:
    return game.deals or ()


def _calls(deal: AnyDeal) -> Sequence[AnyCall]:
    return deal.muggins or ()


def _normalise_players(game: AnyGame) -> list[str]:
    """The players' names under the name rule (:func:`cribstats.names.normalise_name`), put back in the game.

    :raises GameLogError: at ``players[i]`` for a name the rule refuses.
    """
    names = []
    for i, name in enumerate(game.players):
        try:
            names.append(normalise_name(name))
        except TextError as err:
            raise GameLogError(f"players[{i}]", str(err)) from None
    if names != game.players:
        game.players = names
    return names


_first = itemgetter(0)
_chain = chain.from_iterable
_dealer, _hands, _discards, _play = (attrgetter(name) for name in ("dealer", "hands", "discards", "play"))
_pegged, _show, _scores, _muggins = (attrgetter(name) for name in ("pegged", "show", "scores", "muggins"))
_bid = attrgetter("bid")


def _positions(game: AnyGame) -> Iterator[tuple[tuple[str | int, ...], dict[str, int]]]:
    for d, deal in enumerate(_deals(game)):
        if deal.scores:
            yield ("deals", d, "scores"), deal.scores
    if game.result is not None and game.result.scores:
        yield ("result", "scores"), game.result.scores


def _lowest_score(game: AnyGame) -> int:
    """The lowest score the deals' boards and the result give (0 when none do): one pass, in C."""
    boards = [*filter(None, map(_scores, _deals(game))), game.result.scores if game.result else None]
    return min(_chain(map(dict.values, filter(None, boards))), default=0)


def check_options(game: AnyGame) -> None:
    """The game options (docs/rules.md): bidding is six-card only, and a ``bid`` needs it and a player.

    :raises GameLogError: naming the first place that breaks them.
    """
    if game.bidding_rule and game.variant_rules.name != "six-card":
        raise GameLogError("bidding", f"bidding for the crib is six-card only, not {game.variant_rules.name}")
    if game.match_game is not None and game.match is None:
        raise GameLogError("match_game", "a game number in a match needs 'match', the match id")
    if not game.bidding_rule and _lowest_score(game) < 0:
        for place, scores in _positions(game):
            if min(scores.values()) >= 0:
                continue
            below = next(p for p, score in scores.items() if score < 0)
            raise GameLogError(format_place((*place, below)), f"must be 0 or more, not {scores[below]} (only "
                               "a bidding game's scores go below 0)")
    if not any(map(_bid, _deals(game))):
        return
    for d, deal in enumerate(_deals(game)):
        if deal.bid is None:
            continue
        if not game.bidding_rule:
            raise GameLogError(f"deals[{d}].bid", "a bid for the crib needs \"bidding\": true on the game")
        if deal.bid.player not in game.players:
            raise GameLogError(f"deals[{d}].bid.player", _not_a_player(deal.bid.player))


def _not_a_player(name: str) -> str:
    return f"{quoted(name)} is not a player of this game"


def _check_names(names: dict[str, Any] | None, known: set[str], place: str) -> None:
    if names and not known.issuperset(names):
        raise GameLogError(place, _not_a_player(next(n for n in names if n not in known)))


def _check_deal(
    deal: AnyDeal, where: str, players: list[str], known: set[str], side_of: Callable[[int], int], *,
    bidding: bool = False,
) -> None:
    if deal.dealer not in known:
        raise GameLogError(f"{where}.dealer", _not_a_player(deal.dealer))
    _check_names(deal.hands, known, f"{where}.hands")
    for name in players:
        if name not in deal.hands:
            raise GameLogError(f"{where}.hands", f"no hand for {quoted(name)}")
    _check_names(deal.discards, known, f"{where}.discards")
    for name in players:
        if name not in deal.discards:
            raise GameLogError(f"{where}.discards", f"no discards for {quoted(name)}")
    play = deal.play or []
    for e, event in enumerate(play):
        if event[0] not in known:
            raise GameLogError(f"{where}.play[{e}]", _not_a_player(event[0]))
    _check_names(deal.pegged, known, f"{where}.pegged")
    if deal.show:
        _check_names({n: 0 for n in deal.show if n != CRIB}, known, f"{where}.show")
    by_card = any(len(event) == 3 for event in play)  # the play claimed card by card, not as pegged totals
    bid = getattr(deal, "bid", None) if bidding else None  # a bid elsewhere is refused by check_options
    crib_owner = deal.dealer if bid is None else bid.player  # the bid winner takes the crib (docs/rules.md)
    for m, call in enumerate(_calls(deal)):
        place = f"{where}.muggins[{m}]"
        for name in (call.by, call.from_):
            if name not in known:
                raise GameLogError(place, _not_a_player(name))
        if call.by == call.from_:
            raise GameLogError(place, f"{quoted(call.by)} cannot call muggins on themself")
        if side_of(players.index(call.by)) == side_of(players.index(call.from_)):  # partners score together
            raise GameLogError(place, f"{quoted(call.by)} cannot call muggins on {quoted(call.from_)}, a partner: "
                               "muggins takes points from an opponent")
        if call.event is not None and call.event >= len(play):
            raise GameLogError(f"{place}.event", f"there is no play event {call.event} in this deal "
                               f"(its play has {len(play)})")
        if call.phase == "crib" and call.from_ != crib_owner:
            raise GameLogError(place, f"{call.from_} has no crib to call muggins on: the crib of this deal is "
                               f"{crib_owner}'s")
        if call.event is not None and by_card:
            _check_called_event(play[call.event], call.event, call.from_, f"{place}.event")
    _check_names(deal.scores, known, f"{where}.scores")


def _check_called_event(event: Sequence[Any], index: int, victim: str, place: str) -> None:
    """A play call in a deal claimed card by card corrects the claim its victim made on a card laid: the event
    it names is one of the victim's cards (a go claims nothing; its point is claimed on the card that closed the
    series)."""
    player, card = event[0], event[1]
    if player != victim or str(card).lower() == GO:
        raise GameLogError(place, f"play event {index} is {player}'s {card}, not a claim of {victim}'s: a play "
                           "call names the event whose claim it corrects")
