"""The JSON Schemas of the contracts, generated from the models: ``python -m cribstats.schemas [FOLDER]``
(re)writes ``game-log-1.schema.json`` (from :class:`~cribstats.gamelog.GameLog`), ``findings-1.schema.json``
(from :class:`~cribstats.findings.Finding`) and ``match-1.schema.json`` (from
:class:`~cribstats.match.model.MatchRecord`) in FOLDER (default ``schemas``).

The game-log schema accepts every spelling of a card the contract allows (any case, ``10``, suit symbols). What
a schema cannot say (the names in a deal are the game's players, the player count of the variant, a muggins
call's event is in the play) is checked by :func:`~cribstats.gamelog.validate_game`.

>>> game_log_schema()["properties"]["format"]["const"]
'cribstats/game/1'
>>> findings_schema()["required"][:3]
['game', 'deal', 'event']
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from cribstats.atomicfile import write_atomic
from cribstats.findings import KIND_RULES, Finding
from cribstats.gamelog import GameLog
from cribstats.match.model import RULES_SHORTHAND_PATTERN, MatchRecord

DRAFT = "https://json-schema.org/draft/2020-12/schema"
GAME_LOG_FILE = "game-log-1.schema.json"
FINDINGS_FILE = "findings-1.schema.json"
MATCH_FILE = "match-1.schema.json"


def game_log_schema() -> dict[str, Any]:
    """The JSON Schema of one game log (game-log version 1, docs/game-log.md)."""
    schema = GameLog.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": DRAFT, **schema,
            "description": ("One cribbage game log, version 1: the format, with an example of every event, "
                            "is described in docs/game-log.md of cribstats.")}


def findings_schema() -> dict[str, Any]:
    """The JSON Schema of one line of ``cribstats audit --json`` (findings version 1, docs/findings.md)."""
    schema = TypeAdapter(Finding).json_schema(mode="serialization")
    schema["title"] = "cribstats finding, version 1"
    schema["description"] = ("One finding of the audit, one JSON object a line: every kind is described "
                             "in docs/findings.md of cribstats.")
    schema["additionalProperties"] = False
    schema["required"] = [name for name in schema["properties"] if name != "match"]  # on match findings only
    schema["properties"]["match"]["description"] = "the match id, on match findings only (docs/match.md)"
    # a match finding (phase "match") names its match; no other finding has the field
    schema["if"] = {"properties": {"phase": {"const": "match"}}, "required": ["phase"]}
    schema["then"] = {"required": ["match"], "properties": {"match": {"type": "string"}}}
    schema["else"] = {"not": {"required": ["match"]}}
    schema["allOf"] = [_kind_rule(kind, phases, points) for kind, (phases, points) in KIND_RULES.items()]
    # a deal is numbered from 1 in the log, a play event from 0 in its deal's play list (docs/findings.md)
    for name, lowest in (("deal", 1), ("event", 0)):
        number = next(part for part in schema["properties"][name]["anyOf"] if part.get("type") == "integer")
        number["minimum"] = lowest
    return {"$schema": DRAFT, **schema}


def _kind_rule(kind: str, phases: tuple[str, ...], points: bool) -> dict[str, Any]:
    """The schema's rule for one kind: its phases, and ``claimed`` and ``due`` null when it carries no points."""
    then: dict[str, Any] = {"properties": {"phase": {"enum": list(phases)}}}
    if not points:
        then["properties"] |= {"claimed": {"type": "null"}, "due": {"type": "null"}}
    return {"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]}, "then": then}


def match_schema() -> dict[str, Any]:
    """The JSON Schema of one match record (docs/match.md, ``cribstats/match/1``): rules as an object or a
    shorthand, games as whole game logs or game ids."""
    schema = MatchRecord.model_json_schema(by_alias=True, mode="validation")
    rules = schema["properties"]["rules"]
    shorthand = {"type": "string", "pattern": RULES_SHORTHAND_PATTERN,
                 "description": "best-of-3, best-of-5, best-of-7 or points-N"}
    schema["properties"]["rules"] = {"anyOf": [rules, shorthand], "default": rules.get("default")}
    rules.pop("default", None)
    return {"$schema": DRAFT, **schema,
            "description": ("One cribbage match record, version 1: two sides, the rules, the games and the "
                            "result, as described in docs/match.md of cribstats.")}


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as the checked-in file holds it: two-space indent, UTF-8 as is, a final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def schema_files() -> dict[str, str]:
    """File name -> text of every schema."""
    return {GAME_LOG_FILE: schema_text(game_log_schema()), FINDINGS_FILE: schema_text(findings_schema()),
            MATCH_FILE: schema_text(match_schema())}


def write_schemas(folder: str | Path = "schemas") -> list[Path]:
    """Write every schema into ``folder``; return the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_files().items():
        path = out / name
        write_atomic(path, text.encode("utf-8"))  # whole or not at all
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m cribstats.schemas [FOLDER]``: write the published schemas (into ``schemas`` by default)."""
    parser = argparse.ArgumentParser(prog="python -m cribstats.schemas", description=main.__doc__)
    parser.add_argument("folder", nargs="?", default="schemas", help="where to write them (default: schemas)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    write_schemas(args.folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
