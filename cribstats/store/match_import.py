"""Storing matches: match records, the games that carry a match id, and scorecard findings.

The importer hands over every match record and scorecard finding it reads, and every game it stores (or could
not, a conflict); once the games of the input are written, :meth:`MatchWriter.finish` stores the matches in one
transaction, a savepoint each, so a bad record is refused alone (with its file and place) and the rest is stored.

* A match record is known by its ``id`` and :func:`~cribstats.match.model.match_hash`: read again it changes
  nothing; the same id with other content is a conflict unless ``replace``.
* A game that carries ``match`` joins that match as it is stored (the match is known from its games until its
  record arrives); a game a record lists by id is joined when the record or the game arrives, in either order.
* A record's whole games take its event, date, site and round on their rows (:mod:`cribstats.store.match_setting`).
* Every match a stored game or record touched is judged again from its stored games
  (:mod:`cribstats.store.match_judge`): the result, each game's part and the findings are rewritten.
* Games of one match with other sides or another variant, a game number used twice, a listed game that is
  neither in the input nor stored, or one the record lists at another number than its own ``match_game``, are
  input errors: the record (or the game's place in the match) is refused. Sides are compared by the player key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cribstats.formats.sources import SourceAgreement, SourceFinding, SourceMatch
from cribstats.match.model import (
    MatchRecord,
    MatchRules,
    Sides,
    describe_players,
    describe_sides,
    game_sides,
    inner_place,
    listed_games,
    match_hash,
    one_match_message,
    one_variant_message,
    own_number_message,
    same_sides,
)
from cribstats.names import event_key, quoted
from cribstats.store import tables as t
from cribstats.store.db import atomic
from cribstats.store.identity import REPLACE_HINT
from cribstats.store.match_judge import (
    StoredGame,
    event_id,
    insert_ignore,
    judge_stored,
    last_word,
    own_match_numbers,
    player_id,
    stored_games,
)
from cribstats.store.match_rows import SETTING, as_date, names_json, record_values, rules_json, set_sides
from cribstats.store.match_setting import set_inline_settings
from cribstats.store.tables import name_key
from cribstats.store.writes import now_utc

_T = TypeVar("_T")
#: what the writer does with an input it refuses: ``(file, place, reason)``
Refuse = Callable[[str, str | None, str], None]


class MatchInputError(Exception):
    """A match record or a game's part in a match that cannot be stored; ``place`` inside the record."""

    def __init__(self, place: str, message: str) -> None:
        super().__init__(message)
        self.place = place
        self.message = message


@dataclass(slots=True)
class MatchTally:
    """What became of the match records and scorecard findings of an import."""

    imported: int = 0
    present: int = 0
    conflicting: int = 0
    refused: int = 0
    scorecard_findings: int = 0
    scorecard_findings_retired: int = 0  # stored by an earlier reading of a night, no longer given by its cards
    match_findings: int = 0  # the findings of the matches this import judged, as they now stand


@dataclass(slots=True)
class _GameLink:
    match: str
    number: int | None
    key: str
    file: str
    place: str | None


@dataclass(slots=True)
class MatchWriter:
    """Collects what the importer meets and stores the matches at the end (:meth:`finish`)."""

    replace: bool = False
    records: list[SourceMatch] = field(default_factory=list)
    # scorecard findings, and cards that agree (their old findings go), in the order read
    scorecards: list[SourceFinding | SourceAgreement] = field(default_factory=list)
    links: list[_GameLink] = field(default_factory=list)
    tally: MatchTally = field(default_factory=MatchTally)
    conflicting: set[str] = field(default_factory=set)  # keys of the games of this input not stored: conflicts

    def add_record(self, item: SourceMatch | SourceFinding | SourceAgreement) -> None:
        """A match record, a scorecard finding or two scorecards that agree, read from the input."""
        if isinstance(item, SourceMatch):
            self.records.append(item)
        else:
            self.scorecards.append(item)

    def game_met(self, key: str, log: str, file: str, place: str | None, *, stored_now: bool) -> None:
        """A game of the input stored now (``log`` its canonical JSON); with ``stored_now`` false, one that was
        not (a conflict, reported with the game). Only games that carry a match id are kept, so memory does not
        grow with the input."""
        if not stored_now:
            self.conflicting.add(key)
            return
        if '"match":' not in log:
            return
        data = orjson.loads(log)
        if isinstance(data.get("match"), str):
            self.links.append(_GameLink(data["match"], data.get("match_game"), key, file, place))

    def finish(self, conn: Connection, refuse: Refuse) -> MatchTally:
        """Store the records, join the games, judge every match touched, store the scorecard findings."""
        touched: set[int] = set()
        # a record's inline game refused there is refused again when it joins by the id it takes: said once
        said: set[tuple[str, str | None, str]] = set()
        kept: list[MatchRecord] = []  # records stored now or before: their whole games take their setting
        with atomic(conn):
            for source in self.records:
                try:
                    match_id = _twice(conn, partial(self._store_record, conn, source))
                except MatchInputError as err:
                    self.tally.refused += 1
                    place = inner_place(source.place, err.place) or None
                    said.add((source.file, place, err.message))
                    refuse(source.file, place, err.message)
                    continue
                kept.append(source.record)
                if match_id is not None:
                    touched.add(match_id)
            for link in self.links:
                try:
                    touched.add(_twice(conn, partial(_link_game, conn, link)))
                except MatchInputError as err:
                    if (link.file, link.place, err.message) not in said:
                        refuse(link.file, link.place, err.message)
            touched |= _join_arrived_games(conn)
            for match_id in sorted(touched):
                judge_stored(conn, match_id)
            self.tally.match_findings = _findings_of(conn, touched)
            for record in kept:
                set_inline_settings(conn, record)
            self._store_scorecards(conn)
        return self.tally

    def _store_record(self, conn: Connection, source: SourceMatch) -> int | None:
        record = source.record
        digest = match_hash(record)
        m = t.match_table
        existing = conn.execute(sa.select(m.c.id, m.c.content_hash).where(m.c.source_id == record.id)).first()
        stored_hash = None if existing is None else existing.content_hash
        before = stored_hash not in (None, digest) and stored_hash == match_hash(record, nulls=True)
        if existing is not None and before:  # stored when a field given as null still counted in the hash
            conn.execute(sa.update(m).where(m.c.id == existing.id).values(content_hash=digest))
            stored_hash = digest  # the same record: its hash made anew
        if existing is not None and stored_hash == digest:
            self.tally.present += 1
            return None
        if existing is not None and stored_hash is not None and not self.replace:
            self.tally.conflicting += 1
            raise MatchInputError("id", f"match {quoted(record.id)} is already stored with other content "
                                  f"({REPLACE_HINT})")
        listed = listed_games(record)
        stored = stored_games(conn, [key for _n, key, _p in listed])
        own_numbers = own_match_numbers(conn, list(stored))
        sides = _key_sides(record.sides)
        variants: set[str] = set()
        for number, key, place in listed:
            _check_one_match(conn, key, record.id, place)
            game = stored.get(key)
            if game is None:
                if key in self.conflicting:
                    continue  # read but not stored, a conflict: reported with the game
                raise MatchInputError(place, f"no game {quoted(key)} in the input or in the store")
            own = own_numbers.get(key)
            if own is not None and own[0] == record.id and own[1] != number:  # the table's number is the game's
                raise MatchInputError(place, own_number_message(key, own[1], record.id, number))
            _check_sides(sides, game.players, record.sides, place)
            _check_variant(game.variant, variants, place)
            variants.add(game.variant)
        values = record_values(conn, record, digest, source)
        if existing is None:
            match_id = int(conn.execute(sa.insert(m).returning(m.c.id), values).scalar_one())
        else:
            match_id = int(existing.id)
            # where and when the record does not say, the match stays where it was: a match first known from its
            # games keeps its first game's event, date and site
            kept = {name: value for name, value in values.items() if name not in SETTING or value is not None}
            conn.execute(sa.update(m).where(m.c.id == match_id).values(**kept))
        set_sides(conn, match_id, record.sides)
        if record.games is not None:
            _set_listed_games(conn, match_id, [(n, key, stored.get(key)) for n, key, _p in listed])
        self.tally.imported += 1
        return match_id

    def _store_scorecards(self, conn: Connection) -> None:
        """The scorecard findings read, each once (a sheet read again adds nothing); first, for the cards read of
        each game, the findings an earlier reading of its night stored that these cards no longer give (a card
        corrected): a game's cards are the night's word on it. Of two sheets of this input that give cards of
        one game, the one read later has the word, as it would in a later import."""
        rows, digests = [], set()
        read = last_word(self.scorecards)
        for source in (item for item in read if isinstance(item, SourceFinding)):
            f = source.finding
            identity = [source.date, source.event, source.round, f.kind, f.player, f.claimed, f.due, f.message]
            digest = hashlib.sha256(orjson.dumps(identity)).hexdigest()
            digests.add(digest)
            rows.append({
                "match_id": None, "seq": 0, "game_key": f.game, "kind": f.kind, "phase": f.phase,
                "player_id": None if f.player is None else player_id(conn, f.player), "claimed": f.claimed,
                "due": f.due, "message": f.message, "date": as_date(source.date),
                "event_id": None if source.event is None else event_id(conn, source.event),
                "round": source.round, "finding_hash": digest, "pair_key": _pair_key(source.pair),
            })
        self.tally.scorecard_findings_retired += _retire_scorecards(conn, read, digests)
        if rows:
            before = _count(conn, t.match_finding_table)
            insert_ignore(conn, t.match_finding_table, rows, ["finding_hash"])
            self.tally.scorecard_findings += _count(conn, t.match_finding_table) - before


def _pair_key(pair: tuple[str, ...]) -> str | None:
    """Two players' name keys, sorted, as ``match_finding.pair_key`` keeps them (None for none)."""
    return orjson.dumps(list(pair)).decode() if pair else None


def _retire_scorecards(conn: Connection, read: list[SourceFinding | SourceAgreement], kept: set[str]) -> int:
    """Delete the stored scorecard findings about the cards ``read`` (the same night, round and two players) but
    for those they still give (``kept``, by hash); how many went."""
    mf, e = t.match_finding_table, t.event_table
    games = {(s.date, s.event, s.round, _pair_key(s.pair)) for s in read if s.pair}
    retired = 0
    for date, event, round_, pair in sorted(games, key=str):
        night = [
            mf.c.kind == "scorecard", mf.c.match_id.is_(None), mf.c.pair_key == pair,
            mf.c.date.is_(None) if date is None else mf.c.date == as_date(date),
            mf.c.round.is_(None) if round_ is None else mf.c.round == round_,
            mf.c.event_id.is_(None) if event is None
            else mf.c.event_id.in_(sa.select(e.c.id).where(e.c.name_key == event_key(event))),
        ]  # fmt: skip
        if kept:
            night.append(mf.c.finding_hash.not_in(kept))
        retired += conn.execute(sa.delete(mf).where(*night)).rowcount
    return retired


def _twice(conn: Connection, work: Callable[[], _T]) -> _T:
    """``work`` in a savepoint; once more should a concurrent import have stored the same match or game number
    first (the unique key refuses the row; read again, it is there)."""
    try:
        with atomic(conn):
            return work()
    except sa.exc.IntegrityError:
        with atomic(conn):
            return work()


def _key_sides(sides: Sides) -> Sides:
    one, two = (tuple(name_key(n) for n in side) for side in sides)
    return one, two


def _check_sides(key_sides: Sides, players: list[str], shown: Sides, place: str = "") -> None:
    if not same_sides(key_sides, [name_key(p) for p in players]):
        them = describe_players(players)
        raise MatchInputError(place, f"this game is between {them}, not {describe_sides(shown)}: every game of a "
                              "match has its sides")


def _link_game(conn: Connection, link: _GameLink) -> int:
    """Join a stored game that carries a match id to that match (made from the game when it has no record)."""
    m, mg = t.match_table, t.match_game_table
    game = stored_games(conn, [link.key])[link.key]
    row = conn.execute(sa.select(m.c.id, m.c.side1, m.c.side2).where(m.c.source_id == link.match)).first()
    if row is None:
        sides = game_sides(game.players)
        if sides is None:
            raise MatchInputError("", f"a {game.variant} game cannot be a game of match {quoted(link.match)}: "
                                  "a match is between two sides")
        g = t.game_table  # a match known from its games is where and when its first game stored was played
        played = conn.execute(sa.select(g.c.event_id, g.c.date, g.c.site).where(g.c.id == game.id)).one()
        values = {"source_id": link.match, "content_hash": None, "rules": rules_json(MatchRules()),
                  "first_to": 2, "count_by": "games", "side1": names_json(sides[0]),
                  "side2": names_json(sides[1]), "imported_at": now_utc(), **played._mapping}
        match_id = int(conn.execute(sa.insert(m).returning(m.c.id), values).scalar_one())
        set_sides(conn, match_id, sides)
    else:
        match_id = int(row.id)
        sides = (tuple(orjson.loads(row.side1)), tuple(orjson.loads(row.side2)))
        _check_sides(_key_sides(sides), game.players, sides)
    _check_one_match(conn, link.key, link.match, "")
    numbered = sa.select(mg.c.game_source_id, mg.c.number).where(mg.c.match_id == match_id)
    numbers: dict[str, int] = {row.game_source_id: row.number for row in conn.execute(numbered)}
    joined = stored_games(conn, [key for key in numbers if key != link.key]).values()
    _check_variant(game.variant, [other.variant for other in joined])
    if link.key in numbers:
        if link.number is not None and numbers[link.key] != link.number:
            raise MatchInputError("", f"game {quoted(link.key)} is game {numbers[link.key]} of match "
                                  f"{quoted(link.match)}, not {link.number}")
        conn.execute(sa.update(mg).where(mg.c.match_id == match_id, mg.c.game_source_id == link.key)
                     .values(game_id=game.id))
        return match_id
    number = link.number if link.number is not None else max(numbers.values(), default=0) + 1
    taken = next((key for key, n in numbers.items() if n == number), None)
    if taken is not None:
        raise MatchInputError("match_game",
                              f"game {number} of match {quoted(link.match)} is already game {quoted(taken)}")
    conn.execute(sa.insert(mg), {"match_id": match_id, "game_id": game.id, "game_source_id": link.key,
                                 "number": number, "counted": True, "match_points": 0})
    return match_id


def _check_variant(variant: str, before: Iterable[str], place: str = "") -> None:
    """A match is played in one variant (match.md): a game of another than the match's games ``before`` it (their
    variants) is refused its place."""
    others = sorted(set(before) - {variant})
    if others:
        raise MatchInputError(place, one_variant_message(variant, others[0]))


def _check_one_match(conn: Connection, key: str, match: str, place: str) -> None:
    """Refuse to make game ``key`` a game of ``match`` when another stored match holds it: a game is a game of
    one match."""
    m, mg = t.match_table, t.match_game_table
    other = conn.execute(sa.select(m.c.source_id, mg.c.number).join(m, m.c.id == mg.c.match_id)
                         .where(mg.c.game_source_id == key, m.c.source_id != match).limit(1)).first()  # fmt: skip
    if other is not None:
        raise MatchInputError(place, one_match_message(key, other.number, other.source_id))


def _join_arrived_games(conn: Connection) -> set[int]:
    """Join every listed game that is stored now to its match; the matches so joined."""
    mg, g = t.match_game_table, t.game_table
    waiting = conn.execute(sa.select(mg.c.id, mg.c.match_id, g.c.id.label("game_id"))
                           .join(g, g.c.game_key == mg.c.game_source_id).where(mg.c.game_id.is_(None))).all()
    for row in waiting:
        conn.execute(sa.update(mg).where(mg.c.id == row.id).values(game_id=row.game_id))
    return {row.match_id for row in waiting}


def _set_listed_games(conn: Connection, match_id: int, listed: list[tuple[int, str, StoredGame | None]]) -> None:
    """The record's games as games 1..n; games joined before from their own match id, not listed, come after."""
    mg = t.match_game_table
    keys = {key for _n, key, _g in listed}
    others = [row for row in conn.execute(sa.select(mg.c.game_source_id, mg.c.game_id)
                                          .where(mg.c.match_id == match_id).order_by(mg.c.number))
              if row.game_source_id not in keys]
    conn.execute(sa.delete(mg).where(mg.c.match_id == match_id))
    rows = [{"match_id": match_id, "game_id": None if game is None else game.id, "game_source_id": key,
             "number": number, "counted": True, "match_points": 0} for number, key, game in listed]
    rows += [{"match_id": match_id, "game_id": row.game_id, "game_source_id": row.game_source_id,
              "number": len(listed) + i, "counted": True, "match_points": 0} for i, row in enumerate(others, 1)]
    if rows:
        conn.execute(sa.insert(mg), rows)


# --- counts -----------------------------------------------------------------------------------------------------


def _count(conn: Connection, table: sa.Table) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def _findings_of(conn: Connection, matches: set[int]) -> int:
    """How many findings the stored matches ``matches`` have."""
    if not matches:
        return 0
    f = t.match_finding_table
    query = sa.select(sa.func.count()).select_from(f).where(f.c.match_id.in_(sorted(matches)))
    return int(conn.execute(query).scalar_one())
