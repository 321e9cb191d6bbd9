"""A real service for the scale tests (imported by them): the application ``cribstats serve`` runs, under uvicorn
in a process of its own, with a figure cache budget of the test's choosing and one route added, ``/_test/counts``,
that reports what the tests count: the bytes the figure cache holds and its budget, its entries, and the times the
club's games were rated (calls to ``rate_games`` from :mod:`cribstats.stats.club`, counted by a spy that hands
every call on, and the module's own count). Nothing of the service is replaced."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service_server import LiveServer, free_port, serving

LAUNCHER = """
import sys

import uvicorn

from cribstats.service import views
from cribstats.service.app import create_app
from cribstats.service.settings import Settings
from cribstats.stats import club

db, port, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rated = [0]
rate_games = club.rate_games


def counted(*args, **kwargs):
    rated[0] += 1
    return rate_games(*args, **kwargs)


club.rate_games = counted
views.CACHE.budget = budget
app = create_app(Settings(db=db, secret="scale-test-secret"))


@app.get("/_test/counts")
def counts() -> dict:
    return {"held": views.CACHE.held, "budget": views.CACHE.budget, "entries": len(views.CACHE),
            "rate_games": rated[0], "rating_runs": club.rating_runs()}


uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
"""


@contextmanager
def counted_server(db: str, folder: Path, budget: int) -> Iterator[LiveServer]:
    """The service on ``db`` with a figure cache of ``budget`` bytes, answering ``/_test/counts``; stopped
    afterwards."""
    port = free_port()
    log = folder / f"scale-serve-{port}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-c", LAUNCHER, db, str(port), str(budget)], stdout=out,
                                   stderr=subprocess.STDOUT, env=dict(os.environ))  # fmt: skip
    with serving(db, f"http://127.0.0.1:{port}", process, log, "/_test/counts") as site:
        yield site
