"""Matches: a series of games between two sides to a match winner (docs/match.md).

:mod:`~cribstats.match.model` reads and writes ``cribstats/match/1`` records and their rules;
:mod:`~cribstats.match.game` holds what one game gives a match; :mod:`~cribstats.match.judge` works out a match
from its games (who won each, match points, when it ended, the first dealer of each next game) and its
findings; :mod:`~cribstats.match.scorecards` cross-checks the players' scorecards of a club night.
"""
