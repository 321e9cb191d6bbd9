"""A giveaway game's discards are not valued (docs/decisions.md, "Discard analysis"): its players aim for the
fewest points, and the crib table's other player throws to score, so no discard of it has a best one or a loss."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from cribstats.cli.app import app
from cribstats.store.discards import fill_discard_values
from cribstats.store.importer import import_paths

VALUES = "hand_only, kept, thrown, hand_value, crib_value, expected, best_kept, best_thrown, best_expected, loss"


def valued(engine: sa.Engine) -> list[tuple[str, int]]:
    """(game, how many of its discards hold a value) per game."""
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(
            "SELECT g.game_key, count(dp.loss) FROM game g JOIN deal_player dp ON dp.game_id = g.id "
            "GROUP BY g.game_key ORDER BY g.game_key"))]  # type: ignore[misc]  # fmt: skip


@pytest.fixture
def giveaway(store: sa.Engine, sample_logs_dir: Path) -> sa.Engine:
    import_paths([sample_logs_dir / "options" / "giveaway.jsonl", sample_logs_dir / "options" / "bidding.json"],
                 store)  # fmt: skip
    return store


def test_the_import_values_no_discard_of_a_giveaway_game(giveaway: sa.Engine) -> None:
    counts = dict(valued(giveaway))
    assert counts["giveaway-2026-10-16"] == 0
    assert all(n > 0 for key, n in counts.items() if key != "giveaway-2026-10-16")


def test_analyse_store_values_no_discard_of_a_giveaway_game(giveaway: sa.Engine) -> None:
    with giveaway.begin() as conn:
        conn.execute(sa.text(f"UPDATE deal_player SET ({VALUES}) = "
                             "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"))  # fmt: skip
    fill_discard_values(giveaway)
    counts = dict(valued(giveaway))
    assert counts["giveaway-2026-10-16"] == 0
    assert all(n > 0 for key, n in counts.items() if key != "giveaway-2026-10-16")


def test_show_tells_no_discard_value_in_a_giveaway_game(giveaway: sa.Engine) -> None:
    url = giveaway.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(app, ["show", "giveaway-2026-10-16", "--db", url])
    assert result.exit_code == 0 and "to the crib" in result.stdout
    assert "expected" not in result.stdout and "best discard" not in result.stdout


def test_analyse_store_has_nothing_to_do_for_a_giveaway_game(giveaway: sa.Engine) -> None:
    """Every discard the import could value it valued; the giveaway game's are never valued, so it is no game
    left to do: `analyse --store` values nothing in no games, and the store is left as it was."""
    with giveaway.connect() as conn:
        version = conn.execute(sa.text("SELECT * FROM store_version")).all()
    assert fill_discard_values(giveaway) == (0, 0)
    url = giveaway.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(app, ["analyse", "--store", "--db", url])
    assert result.exit_code == 0 and result.stderr.strip() == "valued 0 discards in 0 games"
    with giveaway.connect() as conn:
        assert conn.execute(sa.text("SELECT * FROM store_version")).all() == version
