"""A scorecard's spread written with the minus sign the scorecard page itself prints ("the spread as + or −",
U+2212), as phones and word processors also put it, is the loser's spread: the two cards agree and make the game
(`cribstats audit` and `import` read the sheet; on an SQLite file)."""

from __future__ import annotations

from pathlib import Path

from databases import night_cards

SHEET = "date,event,round,player,opponent,game_points,spread\n" \
        "2026-11-28,Club Night,1,Zoë,Bob,2,+30\n2026-11-28,Club Night,1,Bob,Zoë,0,\u221230\n"  # fmt: skip


def test_a_spread_with_a_typographic_minus_is_read(tmp_path: Path) -> None:
    (tmp_path / "cards.csv").write_text(SHEET, encoding="utf-8")
    cards = night_cards(tmp_path / "cards.csv", "club night", "2026-11-28")
    assert cards == [("Zoë", "2/1 +30"), ("Bob", "0/0 -30")]
