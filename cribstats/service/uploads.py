"""Uploads: log files in a multipart form (``file`` fields) or a raw body, spooled to disk as they arrive (so a
large upload is never held in memory) up to the size limit, then read and stored by the importer as
``cribstats import`` does.

Each part is read by its content, as standard input is (``formats.read_stream``: game logs, tally sheets,
scorecard sheets, match records), except that a part named ``.csv`` or typed ``text/csv`` is a sheet whatever
its header (its columns are what a refusal names, as ``import`` names a ``.csv`` file's); each is named by its
file name as sent (the name a refusal gives, and the game's source). Match records and the scorecards'
cross-check findings are stored as ``import`` stores them. The answer lists each refused game with its file and
place, each game of the upload that is in the store with its findings, and each pair of scorecards that
disagree.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import IO, Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from starlette.datastructures import FormData
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request

from cribstats.safetext import ELLIPSIS
from cribstats.service.problems import ProblemError, ProblemPlace
from cribstats.store import tables as t
from cribstats.store.identity import REPLACE_HINT

RAW_TYPES = ("application/json", "application/x-ndjson", "text/csv", "text/plain")
SPOOL_BYTES = 1 << 20  # parts up to 1 MiB stay in memory, larger ones go to a temporary file
GAMES_LISTED = 1000  # games of one upload listed with their findings
NAME_MAX = 200
PART_HEADER_MAX = 4096 + 128  # python-multipart's limits on a part's header lines (DEFAULT_MAX_HEADER_SIZE)
PART_HEADERS_MAX = 8  # and on their number (DEFAULT_MAX_HEADER_COUNT)


class _Parser(MultiPartParser):
    """Starlette's multipart parser, noting whether the body's closing boundary came (``on_end``): the parser
    itself takes a body that stops short of it as a form of the parts that were closed."""

    closed = False

    def on_end(self) -> None:
        self.closed = True


async def read_form(request: Request, *, max_files: int, max_fields: int) -> FormData:
    """The request's multipart form, its files spooled as they arrive (:data:`SPOOL_BYTES` in memory at most).

    :raises ProblemError: 400 saying what is wrong with a form that cannot be read: a part's header too long (a
        file name of thousands of characters), a body cut short before its closing boundary, and the like.
    """
    async with aclosing(request.stream()) as stream:
        parser = _Parser(request.headers, stream, max_files=max_files, max_fields=max_fields)
        try:
            form = await parser.parse()
        except MultiPartException as err:
            raise ProblemError(400, _unreadable(err)) from None
    if not parser.closed:
        await form.close()
        raise ProblemError(400, "the form is cut short: its body ends before the closing boundary (--BOUNDARY--), "
                           "so its last part may be missing or incomplete; nothing was stored")  # fmt: skip
    return form


def _unreadable(err: MultiPartException) -> str:
    """Why a multipart form cannot be read, in words (Starlette says "Invalid multipart data." for every fault the
    parser finds, the parser's own words being its cause)."""
    cause = str(err.__cause__ or "")
    if cause.startswith("Maximum header size"):
        return (f"a part's header line is longer than this service reads ({PART_HEADER_MAX:,} bytes), as "
                "one naming a file of about 4,000 characters or more is: send the file under a shorter name (a "
                f"name is kept to {NAME_MAX} characters anyway)")  # fmt: skip
    if cause.startswith("Maximum header count"):
        return f"a part has more header lines than this service reads ({PART_HEADERS_MAX})"
    if err.message.startswith("Missing boundary"):
        return "the form's Content-Type names no boundary: send multipart/form-data; boundary=..."
    said = (cause or err.message).rstrip(".")
    return f"the form is malformed: {said[:1].lower()}{said[1:]}"


def check_coding(content_encoding: str | None) -> None:
    """A body sent in a content coding (``gzip``, ``br``...) is refused before it is read, 415 with
    ``Accept-Encoding: identity`` (RFC 9110 15.5.16 and 12.5.3): the service reads a body only as sent, so it can
    neither be mistaken for binary data nor unpack past the size limit.

    >>> check_coding(None), check_coding(" Identity ")
    (None, None)
    """
    codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
    refused = [c for c in codings if c != "identity"]
    if refused:
        raise ProblemError(415, f"the body's content coding {', '.join(refused)} is not accepted: send the body "
                           "uncompressed (no Content-Encoding)", [ProblemPlace(place="header.content-encoding",
                           detail=f"{', '.join(refused)} is not accepted; only identity is")],
                           headers={"Accept-Encoding": "identity"})  # fmt: skip


def part_name(filename: str | None, number: int) -> str:
    """An uploaded file's name as it may be shown and stored: its last path part, printable, not too long (a
    longer one keeps its start and its end, the file's kind, with ``…`` between).

    >>> name = part_name("nights/" + "a" * 150 + "z" * 150 + ".jsonl", 1)
    >>> len(name), name[97:102], name[-8:]
    (200, 'aa…zz', 'zz.jsonl')
    """
    printable = "".join(c for c in filename or "" if c.isprintable())
    name = os.path.basename(printable.replace("\\", "/")).strip()
    if len(name) > NAME_MAX:
        head = (NAME_MAX - 1) // 2
        name = name[:head] + ELLIPSIS + name[len(name) - (NAME_MAX - 1 - head) :]
    return name or f"upload-{number}"


@dataclass(slots=True)
class Part:
    """One uploaded file; ``sheet`` when its name (``.csv``) or its type (``text/csv``) says it is a sheet."""

    name: str
    handle: IO[bytes]
    sheet: bool = False


def is_sheet(filename: str | None, content_type: str | None) -> bool:
    """A part that says it is a CSV sheet, by its file name's suffix or its content type.

    >>> is_sheet("Night.CSV", None), is_sheet("upload", "text/csv; charset=utf-8"), is_sheet("n.jsonl", None)
    (True, True, False)
    """
    from cribstats.formats.sources import kind_of

    kind = (content_type or "").split(";")[0].strip().lower()
    return kind == "text/csv" or kind_of(filename or "") == "tally"


def spool() -> IO[bytes]:
    return tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)


@dataclass(slots=True)
class _Seen:
    """The games read from the upload, by content hash, with where they were."""

    places: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    unlisted: bool = False  # a distinct game came after GAMES_LISTED others: the answer cannot list it
    checks: list[dict[str, Any]] = field(default_factory=list)  # findings made while reading (scorecards)


def _sources(parts: list[Part], seen: _Seen, importer: Any) -> Iterator[Any]:
    from cribstats.formats import read_stream
    from cribstats.formats.sources import SourceFinding
    from cribstats.store.importer import canonical_log

    def on_record(item: Any) -> None:
        if isinstance(item, SourceFinding) and len(seen.checks) < GAMES_LISTED:
            seen.checks.append({"file": item.file, "place": item.place, **item.finding.to_dict()})
        importer.add_record(item)

    for part in parts:
        part.handle.seek(0)
        sources = read_stream(part.handle, part.name, on_error=importer.refuse_error,
                              on_record=on_record, sheet=part.sheet)  # fmt: skip
        for source in sources:
            digest = canonical_log(source.game)[1]
            if digest in seen.places:
                pass  # the same game again (listed where it first came)
            elif len(seen.places) < GAMES_LISTED:
                seen.places[digest] = (source.file, source.place)
            else:
                seen.unlisted = True
            yield source


def import_parts(engine: Engine, parts: list[Part], *, replace: bool) -> dict[str, Any]:
    """Read and store the parts as ``import_games`` does (the readers' errors refused as ``import_paths``
    refuses them); the upload summary (:class:`~cribstats.service.models.UploadSummary`)."""
    from cribstats.store.importer import Importer

    seen = _Seen()
    importer = Importer(engine, replace=replace)
    with importer:  # each batch raises the store's version as it commits: every worker's figures follow
        for source in _sources(parts, seen, importer):
            importer.add(source)
    summary = importer.summary
    games = _stored(engine, seen.places, set(importer.runs))
    return {
        "files": max(summary.files, len(parts)),
        "imported": summary.imported,
        "present": summary.present,
        "replaced": summary.replaced,
        "refused_count": summary.refused_count,
        "conflict_count": summary.conflict_count,
        "findings": summary.findings,
        "deals": summary.deals,
        "refused": [_refusal(r) for r in summary.refused],
        "conflicts": [_refusal(r) for r in summary.conflicts],
        "games": games,
        "games_listed_all": not seen.unlisted,  # each distinct game stored is listed once, where it first came
        "checks": seen.checks,
        "match_records": summary.matches.imported,
    }


SERVICE_REPLACE_HINT = "an admin key may replace it: upload it again with replace=true"


def _refusal(r: Any) -> dict[str, Any]:
    """A refusal or conflict as the summary lists it; a conflict says how to replace through the service (the
    store's message names the command line's option)."""
    reason = r.reason.replace(REPLACE_HINT, SERVICE_REPLACE_HINT)
    return {"file": r.file, "place": r.place, "reason": reason, "game": r.game}


def _stored(engine: Engine, places: dict[str, tuple[str, str | None]], runs: set[int]) -> list[dict[str, Any]]:
    """The upload's games that are in the store, in upload order, with their findings; ``imported`` if this
    upload stored them (their import run is one of ``runs``, the upload's own: the same games uploaded at the same
    time by someone else are ``present``), else ``present``."""
    if not places:
        return []
    g, f, p = t.game_table, t.finding_table, t.player_table
    hashes = list(places)
    with engine.connect() as conn:
        rows: list[Any] = []
        for start in range(0, len(hashes), 300):
            chunk = hashes[start : start + 300]
            rows += conn.execute(
                sa.select(g.c.id, g.c.game_key, g.c.content_hash, g.c.import_id).where(g.c.content_hash.in_(chunk))
            ).all()
        ids = [r.id for r in rows]
        findings: dict[int, list[dict[str, Any]]] = {}
        for start in range(0, len(ids), 300):
            query = (
                sa.select(f.c.game_id, g.c.game_key, f.c.deal_number, f.c.event, f.c.kind, f.c.phase,
                          p.c.name.label("player"), f.c.claimed, f.c.due, f.c.message)
                .select_from(f.join(g, f.c.game_id == g.c.id).outerjoin(p, f.c.player_id == p.c.id))
                .where(f.c.game_id.in_(ids[start : start + 300])).order_by(f.c.game_id, f.c.seq)
            )  # fmt: skip
            for r in conn.execute(query):
                findings.setdefault(r.game_id, []).append(
                    {"game": r.game_key, "deal": r.deal_number, "event": r.event, "kind": r.kind,
                     "phase": r.phase, "player": r.player, "claimed": r.claimed, "due": r.due,
                     "message": r.message})  # fmt: skip
    new_ids = {r.id for r in rows if r.import_id in runs}
    order = {h: i for i, h in enumerate(hashes)}
    out = []
    for r in sorted(rows, key=lambda r: order[r.content_hash]):
        file, place = places[r.content_hash]
        out.append({"game": r.game_key, "id": r.id, "file": file, "place": place,
                    "status": "imported" if r.id in new_ids else "present",
                    "findings": findings.get(r.id, [])})  # fmt: skip
    return out
