"""The rules of a match record that its model cannot state (:func:`check_record`), and what is left of a refused
record: its whole games, each still a game (:func:`still_games`), as docs/match.md has it ("the game itself is
still a game")."""

from __future__ import annotations

from typing import Any

from cribstats.gamelog import GameLog, GameLogError, check_options, check_players, join_place
from cribstats.match.model import (
    MatchError,
    MatchRecord,
    as_match_game,
    describe_players,
    listed_games,
    same_sides,
)
from cribstats.names import TextError, check_text, normalise_name, one_player_twice, quoted


def check_record(record: MatchRecord) -> None:
    """The record's rules that its model cannot state: the sides' names, each game listed once, each whole game a
    game of the contract, of the match's sides, of this match and at its number, and the recorded result's names.

    :raises MatchError: at the first place that breaks them; its ``games`` are the record's whole games that are
        games all the same (:func:`still_games`).
    """
    first: MatchError | None = None
    try:
        _check_sides(record)
    except MatchError as err:
        first = err
    read: list[tuple[int, GameLog | None]] = []
    misfits: set[int] = set()  # the games whose part in the match is what is wrong
    repeats = repeated_games(record)
    for g, game in enumerate(record.games or ()):
        if g + 1 in repeats:  # the game read at its first place: a game counts once in a match, and is read once
            key, first_at = repeats[g + 1]
            first = first or MatchError(f"games[{g}]", repeated_game_message(key, first_at))
            continue
        if isinstance(game, str):
            continue
        try:
            check_players(game)
            check_options(game if game.match is not None else game.model_copy(update={"match": record.id}))
        except GameLogError as err:
            first = first or MatchError(join_place(f"games[{g}]", err.place), err.message)
            read.append((g + 1, None))
            continue
        read.append((g + 1, game))
        misfit = _misfit(record, g, game)
        if misfit is not None:
            first = first or misfit
            misfits.add(g + 1)
    try:
        _check_result(record)
    except MatchError as err:
        first = first or err
    if first is not None:
        first.games = still_games(record.id, read, misfits)
        raise first


def repeated_games(record: MatchRecord) -> dict[int, tuple[str, int]]:
    """The entries of ``games`` that name a game listed before them (by id or inline, by :func:`game_key`): each
    repeated entry's number with the game's key and the number it was first listed at.

    >>> record = MatchRecord.model_validate({"format": "cribstats/match/1", "id": "m", "players": ["Al", "Bo"],
    ...                                      "games": ["g1", "g2", "g1"]})
    >>> repeated_games(record)
    {3: ('g1', 1)}
    """
    first_at: dict[str, int] = {}
    repeats: dict[int, tuple[str, int]] = {}
    for number, key, _place in listed_games(record):
        if key in first_at:
            repeats[number] = (key, first_at[key])
        else:
            first_at[key] = number
    return repeats


def repeated_game_message(key: str, first: int) -> str:
    """A record that lists one game twice: a game counts once in a match.

    >>> repeated_game_message("x1", 1)
    "game 'x1' is game 1 of this match already: a game counts once in a match"
    """
    return f"game {quoted(key)} is game {first} of this match already: a game counts once in a match"


def still_games(record_id: str | None, read: list[tuple[int, GameLog | None]],
                misfits: set[int] | frozenset[int] = frozenset()) -> list[tuple[int, GameLog]]:  # fmt: skip
    """The whole games of a refused record that are games all the same, by their number in it: each that keeps
    the game contract (None in ``read``: one that does not), carrying the record's id and its number as an
    accepted record's games do (:func:`cribstats.match.model.as_match_game`), so that the record put right and
    read again finds them stored as they are; a game whose part in the match was wrong (``misfits``: other sides,
    another match, another number), or any game when the record's id is not one, as it was written. A game whose
    ``id`` an earlier game of the record has is that game written again: it is read once, at its first place.
    """
    match_id = _usable_id(record_id)
    out: list[tuple[int, GameLog]] = []
    ids: set[str] = set()
    for number, game in read:
        if game is None or game.id in ids:
            continue
        if game.id is not None:
            ids.add(game.id)
        try:
            check_players(game)
        except GameLogError:
            continue
        if match_id is not None and number not in misfits and game.match in (None, match_id):
            game = as_match_game(match_id, number, game)
        try:
            check_options(game)
        except GameLogError:
            continue
        out.append((number, game))
    return out


def _usable_id(record_id: str | None) -> str | None:
    if record_id is None:
        return None
    try:
        return check_text(record_id, "id")
    except TextError:
        return None


def _misfit(record: MatchRecord, g: int, game: GameLog) -> MatchError | None:
    """What is wrong with a whole game's part in the match (its sides, its match id, its number), or None."""
    place = f"games[{g}]"
    if not same_sides(record.sides, game.players):
        return MatchError(f"{place}.players", f"this game is between {describe_players(game.players)}, not the "
                          "match's two sides: every game of a match has the same sides")
    if game.match is not None and game.match != record.id:
        return MatchError(f"{place}.match", f"this game names match {quoted(game.match)}, not {quoted(record.id)}")
    if game.match_game is not None and game.match_game != g + 1:
        return MatchError(f"{place}.match_game", f"this is game {g + 1} of the match, not {game.match_game}")
    return None


def _check_sides(record: MatchRecord) -> None:
    _normalise_sides(record)
    names = [name for side in record.sides for name in side]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise MatchError("players", f"{quoted(twice)} is named twice: the two sides are different players")
    one_player = one_player_twice(names)  # names apart only in case or spacing: the store knows one player
    if one_player is not None:
        raise MatchError("players", one_player)


def _check_result(record: MatchRecord) -> None:
    result = record.result
    if result is None:
        return
    if result.winner is not None and record.side_of(result.winner) is None:
        raise MatchError("result.winner", f"{quoted(result.winner)} is not a player of this match")
    sides_named: set[int] = set()
    for name in result.points or {}:
        side = record.side_of(name)
        if side is None:
            raise MatchError("result.points", f"{quoted(name)} is not a player of this match")
        if side in sides_named:
            raise MatchError("result.points", f"the side of {quoted(name)} has its points given twice")
        sides_named.add(side)


def _normalise_sides(record: MatchRecord) -> None:
    """The sides' names under the name rule (:func:`cribstats.names.normalise_name`), put back in the record, and
    the recorded result's names with them.

    :raises MatchError: at ``players[i]`` (``players[i][j]`` for a partnership) for a name the rule refuses.
    """
    sides: list[Any] = []
    for i, side in enumerate(record.players):
        if isinstance(side, str):
            sides.append(_rule_name(side, f"players[{i}]"))
        else:
            sides.append([_rule_name(name, f"players[{i}][{j}]") for j, name in enumerate(side)])
    record.players = sides
    result = record.result
    if result is not None:
        if result.winner is not None:
            result.winner = _rule_name(result.winner, "result.winner")
        if result.points:
            result.points = {_rule_name(name, f"result.points[{quoted(name)}]"): n
                             for name, n in result.points.items()}


def _rule_name(name: str, place: str) -> str:
    try:
        return normalise_name(name)
    except TextError as err:
        raise MatchError(place, str(err)) from None
