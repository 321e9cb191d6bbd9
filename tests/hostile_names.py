"""Hostile names and free text for the output tests, and a store holding every one of them.

``VALID`` are names the name rule accepts (markup, emoji codes, formulas, TeX, CJK, the longest name allowed);
``OLDER`` are names it refuses (control, zero-width and bidi characters, a tab, a newline, 312 characters) that a
store written before the rule may still hold: the store below puts them in directly, as such a store has them.
Each hidden name comes with the text a terminal must show for it, worked out by hand.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa

from cribstats.names import name_key
from cribstats.simulate import simulate_games
from cribstats.store.db import make_engine
from cribstats.store.importer import import_paths

VALID: list[str] = [
    "[/bold]",
    "[bold red]x[/bold red]",
    "[link=http://evil.example]x[/link]",
    "Ann :smile: Lee",
    '=HYPERLINK("http://evil.example","x")',
    "@SUM(A1:A9)",
    "+44 Cy",
    "-Dee",
    "Zoë",  # NFC
    "麻雀太郎",
    "<script>alert(1)</script>",
    "$$$ Bill $$$",  # mathtext to matplotlib, if it were parsed
    "$\\frac{1}{0}$",
    "Bartholomew Fitzwilliam-Smythe of Lower Wallop",  # 46 characters: valid, wider than a table's 24
    "Q" * 64,  # the longest name allowed
    "Bob",
]
NFD_ZOE = "Zoe\u0308"  # "Zoë" typed the other way: one player with "Zoë" under the name rule
OLDER: dict[str, str] = {  # name -> what a table shows for it
    "\x1b[31mRed": "\\x1b[31mRed",
    "\x1b]0;title\x07Ann": "\\x1b]0;title\\x07Ann",
    "Ann\u200b": "Ann\\u200b",
    "Tab\tName": "Tab\\x09Name",
    "New\nLine": "New\\x0aLine",
    "R\u202eTL": "R\\u202eTL",
    "Z" * 312: "Z" * 23 + "…",
}
# Table cells of the valid names too wide for 24 columns, shortened by hand: 23 characters and an ellipsis.
SHORTENED: dict[str, str] = {
    "[link=http://evil.example]x[/link]": "[link=http://evil.examp…",
    '=HYPERLINK("http://evil.example","x")': '=HYPERLINK("http://evil…',
    "Bartholomew Fitzwilliam-Smythe of Lower Wallop": "Bartholomew Fitzwilliam…",
    "Q" * 64: "Q" * 23 + "…",
    "<script>alert(1)</script>": "<script>alert(1)</scrip…",
}
EVENT = "[bold]Club[/bold] :smile: night"
OLDER_SITE = "Hall\x1b[2J"  # clears a terminal's screen if printed raw
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def placeholder(i: int) -> str:
    return f"Older{i:02d}"


def pairs() -> list[tuple[str, str]]:
    """Two games for every name (each beside its two neighbours), placeholders standing for the older names;
    the NFD Zoë plays Bob, never the NFC one."""
    names = [*VALID, *(placeholder(i) for i in range(len(OLDER)))]
    games = [(names[i], names[(i + 1) % len(names)]) for i in range(len(names))]
    return [*games, (NFD_ZOE, "Bob")]


def _rename(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_rename(v, mapping) for v in value]
    if isinstance(value, dict):
        return {mapping.get(k, k): _rename(v, mapping) for k, v in value.items()}
    return value


def game_log(first: str, second: str, seed: int, mistakes: float = 0.0, **fields: str) -> dict[str, Any]:
    """A whole simulated six-card game between two players called ``first`` and ``second``."""
    (game,) = simulate_games(1, players=["P1", "P2"], seed=seed, events=["Club"], start_date="2026-03-03",
                             mistake_rate=mistakes)  # fmt: skip
    log = _rename(game.log, {"P1": first, "P2": second})
    log.update(fields)
    return log


def build_store(folder: Path) -> tuple[str, list[dict[str, Any]]]:
    """An SQLite store holding every hostile name, and the logs of the valid ones (for ``audit``)."""
    logs = [
        game_log(a, b, seed, id=f"hostile-{seed}", event=EVENT if seed % 2 else "Club", round=str(seed),
                 site="Hall")
        for seed, (a, b) in enumerate(pairs(), 1)
    ]
    path = folder / "hostile.jsonl"
    path.write_bytes(b"".join(orjson.dumps(log) + b"\n" for log in logs))
    url = f"sqlite:///{folder / 'hostile.db'}"
    engine = make_engine(url)
    summary = import_paths([path], engine)
    assert summary.imported == len(logs), [str(r) for r in summary.refused]
    older = {placeholder(i): name for i, name in enumerate(OLDER)}
    with engine.begin() as conn:  # the older names, as a store written before the name rule holds them
        older_games = "WHERE log LIKE '%\"Older%'"  # the games of an older name have an older site too
        conn.execute(sa.text(f"UPDATE game SET site = :site {older_games}"), {"site": OLDER_SITE})
        conn.execute(sa.text(f"UPDATE game SET log = replace(log, :old, :new) {older_games}"),
                     {"old": '"site":"Hall"', "new": '"site":' + orjson.dumps(OLDER_SITE).decode()})  # fmt: skip
        for stand_in, name in older.items():
            conn.execute(sa.text("UPDATE player SET name = :name, name_key = :key WHERE name = :old"),
                         {"name": name, "key": name_key(name), "old": stand_in})  # fmt: skip
            quoted_old, quoted_new = orjson.dumps(stand_in).decode(), orjson.dumps(name).decode()
            conn.execute(sa.text("UPDATE game SET log = replace(log, :old, :new)"),
                         {"old": quoted_old, "new": quoted_new})  # fmt: skip
    engine.dispose()
    valid_logs = [log for log in logs if not any(p.startswith("Older") for p in log["players"])]
    return url, valid_logs


def hidden_characters(text: str) -> list[str]:
    """The characters of ``text`` that would steer or hide from a terminal (a line break is not one)."""
    return [c for c in text if unicodedata.category(c) in HIDDEN and c != "\n"]
