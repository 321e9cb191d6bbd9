"""The match audit of files: matches put together from the games read and the match records, and judged.

:class:`MatchCollector` is told every game replayed (only those that carry a match id or an ``id`` a record may
list are kept, as a few shared values each: about 0.2 KB a game) and every match record read;
:meth:`MatchCollector.judged` then gives each match's :class:`~cribstats.match.judge.MatchOutcome`, and the input
errors (a game with other sides or another variant, a game number used twice, a listed game that is not in the
input, or that the record lists at another number than the game's own ``match_game``) as ``file:place: message``.
Names are one player by their key (case and spacing folded), as in the store.

>>> from cribstats.gamelog import validate_game
>>> from cribstats.replay import replay
>>> collector = MatchCollector()
>>> for n, (one, two) in enumerate([(121, 88), (121, 60)], 1):
...     g = validate_game({"format": "cribstats/game/1", "id": f"g{n}", "match": "m", "players": ["Al", "Bo"],
...                        "result": {"winner": "Al", "scores": {"Al": one, "Bo": two}}})
...     collector.game(g, replay(g), f"night.jsonl:line {n}")
>>> [(o.match, o.points, o.winner_side) for o, _where in collector.judged()]
[('m', [2, 0], 0)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from cribstats.match.game import MatchGame
from cribstats.names import quoted

if TYPE_CHECKING:  # the match models and the judge load when there is a match to judge: start-up stays short
    from cribstats.gamelog.fast import AnyGame
    from cribstats.match.judge import MatchOutcome
    from cribstats.match.model import MatchRecord, Sides
    from cribstats.replay import GameOutcome


@dataclass(slots=True)
class _Facts:
    game: MatchGame  # numbered 0 until it is put in a match
    match: str | None
    number: int | None
    where: str


@dataclass(slots=True)
class _Match:
    """A match being put together: its record (None while known only from games) and its games by number."""

    id: str
    record: MatchRecord | None = None
    where: str | None = None
    sides: Sides | None = None
    variant: str | None = None
    games: dict[int, _Facts] = field(default_factory=dict)


class MatchCollector:
    """Gathers the games and records of matches over an audit; :meth:`judged` at the end."""

    def __init__(self) -> None:
        # every game with an id, as a few shared values (about 0.2 KB a game), so that a record may list it
        self._facts: dict[str, MatchGame] = {}
        self._carried: list[_Facts] = []  # games that carry a match id, in input order, with where they are
        self._shared: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._records: list[tuple[MatchRecord, str, str | None]] = []
        self.errors: list[str] = []
        self._owner: dict[str, tuple[str, int]] = {}
        self._own_number: dict[str, tuple[str, int]] = {}  # a game's own match id and match_game, by its key

    def _error(self, message: str) -> None:
        """Note an input error once: a record's inline game refused there is met again by the id it takes."""
        if message not in self.errors:
            self.errors.append(message)

    def game(self, game: AnyGame, outcome: GameOutcome, where: str) -> None:
        """One game replayed, found at ``where`` (``file:place``)."""
        if game.match is None and game.id is None:
            return
        first_dealer = game.deals[0].dealer if game.deals else None
        players, winners = self._share(tuple(game.players)), self._share(tuple(outcome.winners))
        level = outcome.skunk_level
        facts = MatchGame(0, outcome.key, players, outcome.variant.name, winners, level, first_dealer)
        self._facts.setdefault(outcome.key, facts)
        if game.match is not None:
            self._carried.append(_Facts(facts, game.match, game.match_game, where))
            if game.match_game is not None:
                self._own_number.setdefault(outcome.key, (game.match, game.match_game))

    def _share(self, names: tuple[str, ...]) -> tuple[str, ...]:
        return self._shared.setdefault(names, names)

    def record(self, record: MatchRecord, file: str, place: str | None = None) -> None:
        """A match record read from ``file``, at ``place`` in it (none for a file of one record)."""
        self._records.append((record, file, place or None))

    def judged(self) -> Iterator[tuple[MatchOutcome, str | None]]:
        """Every match, judged, with where its record was found (None for a match known from its games)."""
        if not self._records and not self._carried:
            return
        from cribstats.match.judge import judge_match
        from cribstats.match.model import MatchRules, inner_place

        matches: dict[str, _Match] = {}
        self._owner = {}  # each listed game's match and number in it: a game belongs to one match
        for record, file, place in self._records:
            where = f"{file}:{place}" if place else file
            if record.id in matches:
                self._error(f"{file}:{inner_place(place, 'id')}: match {quoted(record.id)} is recorded twice")
                continue
            match = _Match(record.id, record, where, record.sides)
            if self._take_listed(match, record, file, place):
                matches[record.id] = match
        for facts in self._carried:
            assert facts.match is not None
            match = matches.setdefault(facts.match, _Match(facts.match))
            self._add(match, facts, facts.number)
        for match in matches.values():
            if match.sides is None:
                continue
            rules = match.record.rules if match.record is not None else MatchRules()
            result = None if match.record is None else match.record.result
            games = [match.games[n].game for n in sorted(match.games)]
            yield judge_match(match.id, match.sides, rules, games, result), match.where

    def _take_listed(self, match: _Match, record: MatchRecord, file: str, at: str | None) -> bool:
        from cribstats.match.model import inner_place, listed_games, one_match_message, own_number_message

        for number, key, place in listed_games(record):
            game = self._facts.get(key)
            where = f"{file}:{inner_place(at, place)}"  # as the import names it: file:line 3: games[0]
            if game is None:
                self._error(f"{where}: no game {quoted(key)} in the input")
                return False
            own = self._own_number.get(key)
            if own is not None and own[0] == match.id and own[1] != number:  # the table's number is the game's
                self._error(f"{where}: {own_number_message(key, own[1], match.id, number)}")
                return False
            owner = self._owner.get(key)
            if owner is not None and owner[0] != match.id:
                self._error(f"{where}: {one_match_message(key, owner[1], owner[0])}")
                return False
            if not self._add(match, _Facts(game, match.id, number, where), number, where):
                return False
            self._owner[key] = (match.id, next(n for n, f in match.games.items() if f.game.key == key))
        return True

    def _add(self, match: _Match, facts: _Facts, number: int | None, where: str | None = None) -> bool:
        """Put a game in the match (at ``number``, else the next free one); False, with the error noted, when
        it cannot be."""
        from cribstats.match.model import (
            describe_players,
            describe_sides,
            game_sides,
            one_variant_message,
            same_sides,
        )

        where = where or facts.where
        game = facts.game
        if any(f.game.key == game.key for f in match.games.values()):
            taken = next(n for n, f in match.games.items() if f.game.key == game.key)
            if number is not None and number != taken:
                self._error(f"{where}: game {quoted(game.key)} is game {taken} of match {quoted(match.id)}, "
                            f"not {number}")
                return False
            return True
        if match.sides is None:
            match.sides = game_sides(game.players)
            if match.sides is None:
                self._error(f"{where}: a {game.variant} game cannot be a game of match {quoted(match.id)}: "
                            "a match is between two sides")
                return False
        if not same_sides(match.sides, game.players):
            self._error(f"{where}: this game is between {describe_players(game.players)}, not "
                        f"{describe_sides(match.sides)}: every game of match {quoted(match.id)} has the same "
                        "sides")
            return False
        if match.variant is not None and game.variant != match.variant:
            self._error(f"{where}: {one_variant_message(game.variant, match.variant)}")
            return False
        n = number if number is not None else max(match.games, default=0) + 1
        if n in match.games:
            taken_by = match.games[n].game.key
            self._error(f"{where}: game {n} of match {quoted(match.id)} is already game {quoted(taken_by)}")
            return False
        match.variant = game.variant
        match.games[n] = _Facts(replace(game, number=n), match.id, n, where)
        return True
