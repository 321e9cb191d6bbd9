"""Stored discard values: filled at import, refilled by ``analyse --store``, read by ``discards`` and ``stats``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cards import parse_cards
from cribstats.cli.app import app
from cribstats.discards.analysis import judge_discard
from cribstats.stats import compute_stats
from cribstats.store.discards import fill_discard_values
from cribstats.store.importer import import_paths


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def club(store: sa.Engine, sample_logs_dir: Path) -> sa.Engine:
    import_paths([sample_logs_dir / "club-night.jsonl", sample_logs_dir / "variants"], store)
    return store


def stored(engine: sa.Engine) -> list[tuple]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(
            "SELECT dd.deal_id, dd.seat, dd.role, dd.hand_only, dd.thrown, dd.loss, dp.dealt, g.variant "
            "FROM deal_discard dd JOIN deal_player dp ON dp.deal_id = dd.deal_id AND dp.seat = dd.seat "
            "JOIN game g ON g.id = dd.game_id ORDER BY dd.deal_id, dd.seat"))]  # fmt: skip


def test_import_values_every_discard(club: sa.Engine) -> None:
    rows = stored(club)
    with club.connect() as conn:
        with_discards = conn.execute(sa.text("SELECT count(*) FROM deal_player WHERE discards != ''")).scalar()
    assert rows and len(rows) == with_discards
    for _, _, role, hand_only, thrown, loss, dealt, variant in rows[::7]:
        again = judge_discard(parse_cards(dealt), parse_cards(thrown), variant, role)
        assert loss == pytest.approx(again.loss) and bool(hand_only) == again.hand_only
    assert any(r[3] for r in rows) and any(not r[3] for r in rows)  # three-/four-player and two-player deals


def test_analyse_store_fills_a_store_imported_before(club: sa.Engine) -> None:
    before = stored(club)
    with club.begin() as conn:
        conn.execute(sa.text("DELETE FROM deal_discard"))
    games, rows = fill_discard_values(club)
    assert rows == len(before) and stored(club) == before
    assert fill_discard_values(club) == (0, 0)  # nothing left to do
    assert fill_discard_values(club, again=True)[1] == len(before)
    assert stored(club) == before
    assert games > 0


def test_stats_and_discards_read_the_stored_losses(club: sa.Engine) -> None:
    with club.connect() as conn:
        found = conn.execute(sa.text(
            "SELECT p.name, dd.role, dd.loss, dd.hand_only FROM deal_discard dd "
            "JOIN player p ON p.id = dd.player_id"))  # fmt: skip
        by_player: dict[tuple[str, str], list[float]] = {}
        worst: dict[str, float] = {}
        for name, role, loss, hand_only in found:
            worst[name] = max(worst.get(name, 0.0), loss)  # the worst discard: any deal, hand-only ones too
            if not hand_only:
                by_player.setdefault((name, role), []).append(loss)
    frame = compute_stats(club)
    for row in frame.iter_rows(named=True):
        for role in ("dealer", "pone"):
            losses = by_player.get((row["player"], role))
            expected = None if not losses else sum(losses) / len(losses)
            assert row[f"discard_loss_per_deal_{role}"] == pytest.approx(expected)
    url = club.url.render_as_string(hide_password=False)
    code, out, _ = run("discards", "--db", url, "--format", "json")
    summary = {r["player"]: r for r in json.loads(out)}
    assert code == 0
    for (name, role), losses in by_player.items():
        assert summary[name][f"loss_per_deal_{role}"] == pytest.approx(sum(losses) / len(losses))
        assert summary[name]["worst_loss"] == (pytest.approx(worst[name]) if worst[name] > 0 else None)


def test_show_tells_the_discard(club: sa.Engine) -> None:
    url = club.url.render_as_string(hide_password=False)
    with club.connect() as conn:
        key = conn.execute(sa.text("SELECT game_key FROM game WHERE variant = 'six-card' LIMIT 1")).scalar_one()
    code, out, _ = run("show", key, "--db", url)
    assert code == 0 and "discard " in out and ("a best discard" in out or "loses" in out)


def test_analyse_command(tmp_path: Path) -> None:
    code, out, _ = run("analyse", "AS", "2H", "3S", "4H", "5D", "6C", "--pone", "--format", "json")
    ranked = json.loads(out)
    assert code == 0 and len(ranked) == 15
    assert set(ranked[0]) == {"keep", "throw", "hand", "crib", "expected"}
    assert [r["expected"] for r in ranked] == sorted((r["expected"] for r in ranked), reverse=True)
    assert ranked[0]["keep"] == ["3S", "4H", "5D", "6C"] and round(ranked[0]["hand"], 2) == 9.85
    for args, message in [
        (["5H", "5H", "3S", "4H", "5D", "6C"], "twice"),
        (["XX", "3S", "4H", "5D", "6C", "7C"], "not a card"),
        (["5H", "3S"], "2 cards"),
        (["5H", "3S", "4H", "5D", "6C", "7C", "--dealer", "--pone"], "not both"),
        ([], "give the dealt cards"),
    ]:
        code, _, err = run("analyse", *args)
        assert code == 2 and message in err and "Traceback" not in err
    out_file = tmp_path / "a.csv"
    assert run("analyse", "AS", "2H", "3S", "4H", "5D", "6C", "--format", "csv", "--out", str(out_file))[0] == 0
    assert out_file.read_text().splitlines()[0] == "rank,keep,throw,hand,crib,expected"


def test_the_report_has_a_discard_section_and_chart(club: sa.Engine) -> None:
    from cribstats.discard_report import discard_section
    from cribstats.report import build_report
    from cribstats.stats.discards import discard_summary

    with club.begin() as conn:
        conn.execute(sa.text("UPDATE player SET name = '<b>Ann</b> & co' WHERE id = (SELECT min(id) FROM player)"))
        summary = discard_summary(conn)
    html = build_report(club)
    assert 'id="discards"' in html and 'id="chart-discards"' in html
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; co" in html and "<b>Ann</b>" not in html
    section = str(discard_section(club))
    for row in summary.iter_rows(named=True):
        assert f"<td>{row['deals']}</td>" in section
        loss = row["loss_per_deal_dealer"]
        assert f"<td>{'–' if loss is None else format(loss, '.2f')}</td>" in section
