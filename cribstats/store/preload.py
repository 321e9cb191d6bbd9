"""Imported by the server process that an import's worker processes are forked from (:mod:`cribstats.store.pool`),
and by nothing else: loads the tables a six-card discard is valued by (the rank table, and the rank part of every
six-card rank hand), so that every worker forked from the server finds them made instead of making its own."""

from cribstats.discards.hands import load_rank_parts
from cribstats.discards.values import discard_values
from cribstats.variants import find_variant

discard_values(range(6), (0, 1), find_variant("six-card"), "dealer")  # the rank and crib tables
load_rank_parts(6)
