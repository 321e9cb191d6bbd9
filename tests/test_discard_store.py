"""Stored discard values: filled at import, refilled by ``analyse --store``, read by ``discards`` and ``stats``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cribstats.cards import parse_cards
from cribstats.cli.app import app
from cribstats.discards.analysis import DiscardError, judge_discard
from cribstats.discards.values import discard_values
from cribstats.stats import compute_stats
from cribstats.store.discards import fill_discard_values
from cribstats.store.importer import import_paths
from cribstats.variants import Variant, find_variant


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
            "SELECT dp.deal_id, dp.seat, dp.role, dp.hand_only, dp.thrown, dp.loss, dp.dealt, g.variant "
            "FROM deal_player dp JOIN game g ON g.id = dp.game_id WHERE dp.loss IS NOT NULL "
            "ORDER BY dp.deal_id, dp.seat"))]  # fmt: skip


def test_import_values_every_discard(club: sa.Engine) -> None:
    rows = stored(club)
    with club.connect() as conn:
        with_discards = conn.execute(sa.text("SELECT count(*) FROM deal_player WHERE discards != ''")).scalar()
    assert rows and len(rows) == with_discards
    with club.connect() as conn:  # a deal without a discard holds no value
        values = "hand_only, kept, thrown, hand_value, expected, best_kept, best_thrown, best_expected, loss"
        unvalued = conn.execute(sa.text(f"SELECT discards, {values} FROM deal_player WHERE loss IS NULL")).all()
    assert all(r[0] == "" and set(r[1:]) == {None} for r in unvalued)
    for _, _, role, hand_only, thrown, loss, dealt, variant in rows[::7]:
        again = judge_discard(parse_cards(dealt), parse_cards(thrown), variant, role)
        assert loss == pytest.approx(again.loss) and bool(hand_only) == again.hand_only
    assert any(r[3] for r in rows) and any(not r[3] for r in rows)  # three-/four-player and two-player deals


def test_analyse_store_fills_a_store_imported_before(club: sa.Engine) -> None:
    before = stored(club)
    with club.begin() as conn:
        conn.execute(sa.text(
            "UPDATE deal_player SET hand_only = NULL, kept = NULL, thrown = NULL, hand_value = NULL, "
            "crib_value = NULL, expected = NULL, best_kept = NULL, best_thrown = NULL, best_expected = NULL, "
            "loss = NULL"))  # fmt: skip
    games, rows = fill_discard_values(club)
    assert rows == len(before) and stored(club) == before
    assert fill_discard_values(club) == (0, 0)  # nothing left to do
    assert fill_discard_values(club, again=True)[1] == len(before)
    assert stored(club) == before
    assert games > 0


def test_analyse_store_says_what_it_valued_in_one_line(club: sa.Engine) -> None:
    """Written to a pipe (no terminal, no progress bar), standard error is the one line, nothing before it."""
    with club.connect() as conn:
        games = conn.execute(sa.text("SELECT count(DISTINCT game_id) FROM deal_player WHERE loss IS NOT NULL"))
        games_valued = games.scalar()
    code, _, err = run("analyse", "--store", "--again", "--db", club.url.render_as_string(hide_password=False))
    assert code == 0 and err == f"valued {len(stored(club))} discards in {games_valued} games\n"


def test_stats_and_discards_read_the_stored_losses(club: sa.Engine) -> None:
    with club.connect() as conn:
        found = conn.execute(sa.text(
            "SELECT p.name, dp.role, dp.loss, dp.hand_only FROM deal_player dp "
            "JOIN player p ON p.id = dp.player_id WHERE dp.loss IS NOT NULL"))  # fmt: skip
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
    assert list(ranked[0]) == ["rank", "keep", "throw", "hand", "crib", "expected"]
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
    costliest = section[section.index("The costliest discards"):]
    # loss, player, game, deal, as, dealt, thrown, best throw: the words flush left, the numbers flush right
    words = ["", ' class="word"', ' class="word"', "", ' class="word"', ' class="word"', ' class="word"',
             ' class="word"']  # fmt: skip
    assert re.findall(r"<th scope=\"col\"([^>]*)>", costliest) == words
    rows = re.findall(r"<tr>(<td.*?)</tr>", costliest)
    assert rows and all(re.findall(r"<td([^>]*)>", row) == words for row in rows)


VARIANT_NAMES = ("six-card", "five-card", "seven-card", "three-player", "four-player")


@st.composite
def discards_made(draw: st.DrawFn) -> tuple[Variant, list[int], list[int], str]:
    variant = find_variant(draw(st.sampled_from(VARIANT_NAMES)))
    dealt = draw(st.lists(st.integers(0, 51), min_size=variant.dealt, max_size=variant.dealt, unique=True))
    size = variant.to_crib
    thrown = draw(st.lists(st.sampled_from(dealt), min_size=size, max_size=size, unique=True))
    return variant, dealt, thrown, draw(st.sampled_from(["dealer", "pone"]))


@settings(max_examples=150, deadline=None)
@given(discards_made(), st.permutations(range(4)))
def test_the_stored_values_are_judge_discards_to_the_bit(made: tuple[Variant, list[int], list[int], str],
                                                         suits: list[int]) -> None:  # fmt: skip
    """What the import stores of a discard is what :func:`judge_discard` gives, exactly (no tolerance), and a
    hand with its suits renamed (the shape cache's key) has the very same values."""
    variant, dealt, thrown, role = made
    choice = judge_discard(dealt, thrown, variant, role)
    chosen, best = choice.chosen, choice.best
    expected = (
        choice.hand_only, " ".join(chosen.keep_text), " ".join(chosen.throw_text), chosen.hand, chosen.crib,
        chosen.expected, " ".join(best.keep_text), " ".join(best.throw_text), best.expected, choice.loss,
    )  # fmt: skip
    assert discard_values(dealt, thrown, variant, role) == expected
    renamed = [(c & ~3) | suits[c & 3] for c in dealt], [(c & ~3) | suits[c & 3] for c in thrown]
    again = discard_values(*renamed, variant, role)
    assert (again[0], *again[3:6], again[8:]) == (expected[0], *expected[3:6], expected[8:])


def test_a_discard_that_cannot_be_judged_is_refused_as_judge_discard_refuses_it() -> None:
    six = find_variant("six-card")
    dealt = parse_cards("5C 5D 5H JS 2C 9D")
    for thrown in (parse_cards("5C"), parse_cards("5C KS"), parse_cards("5C 5C")):
        with pytest.raises(DiscardError):
            discard_values(dealt, thrown, six, "dealer")
    with pytest.raises(DiscardError):
        discard_values(dealt[:5], dealt[:2], six, "dealer")


def naive_values(dealt: list[int], thrown: list[int], role: str) -> tuple[float, float, float]:
    """A six-card discard's hand, crib and expected value worked out the slow way: the kept four scored with every
    starter not dealt, one at a time, their sum over the 46 starters; the crib table's value of the two thrown;
    the crib added for the dealer, taken away for the pone."""
    from cribstats.discards.table import load_crib_table
    from cribstats.scoring import score_show

    keep = [c for c in dealt if c not in thrown]
    unseen = [s for s in range(52) if s not in dealt]
    hand = sum(score_show(keep, s).total for s in unseen) / len(unseen)
    crib = load_crib_table().value(thrown[0], thrown[1], role)
    return hand, crib, hand + crib if role == "dealer" else hand - crib


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(discards_made(), st.just(None)), min_size=1, max_size=40), st.data())
def test_discards_valued_together_are_each_valued_alone(
    made: list[tuple[Variant, list[int], list[int], str] | None], data: st.DataObject
) -> None:
    """Many discards of every variant valued at once (as the import values them, some fifty games at a time) give
    each the values it has alone, to the bit, and the error of one that cannot be judged in its place (``None``
    above stands for a throw of a card not dealt), without disturbing the others."""
    from cribstats.discards.values import many_discard_values

    discards: list[tuple[list[int], list[int], Variant, str]] = []
    for one in made:
        if one is None:
            six = find_variant("six-card")
            dealt = data.draw(st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True))
            stranger = next(c for c in range(52) if c not in dealt)
            discards.append((dealt, [dealt[0], stranger], six, "pone"))
        else:
            variant, dealt, thrown, role = one
            discards.append((dealt, thrown, variant, role))
    together = many_discard_values(discards)
    assert len(together) == len(discards)
    for (dealt, thrown, variant, role), value in zip(discards, together, strict=True):
        try:
            alone = discard_values(dealt, thrown, variant, role)
        except DiscardError as err:
            assert isinstance(value, DiscardError) and str(value) == str(err)
        else:
            assert value == alone
            assert [type(v) for v in value] == [type(v) for v in alone]


def test_six_card_discards_valued_together_are_the_slow_sums() -> None:
    """A batch of random six-card discards, both roles: each one's hand, crib and expected values are the slow
    evaluation's (every starter scored), exactly."""
    import random

    from cribstats.discards.values import many_discard_values

    rng = random.Random(7)
    six = find_variant("six-card")
    discards = []
    for i in range(60):
        dealt = rng.sample(range(52), 6)
        discards.append((dealt, rng.sample(dealt, 2), six, "dealer" if i % 3 else "pone"))
    for (dealt, thrown, _, role), value in zip(discards, many_discard_values(discards), strict=True):
        assert not isinstance(value, DiscardError)
        assert (value[3], value[4], value[5]) == naive_values(dealt, thrown, role)
        assert value[5] <= value[8] and value[9] >= 0.0  # the best is at least as good, the loss never negative
