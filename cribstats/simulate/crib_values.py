"""Average crib value by the pair of cards laid away, computed exactly with the fast scorer.

For two discarded cards of ranks ``r1 <= r2`` (of one suit, or of two suits), the table holds the average show
of the crib over every way to fill it: the two other crib cards from the 50 cards left and the starter from the
48 after them (1,225 x 48 = 58,800 cribs per pair), scored by :func:`cribstats.scoring.score_show_many` with the
crib's flush rule. The other two cards are taken as random; at a table they are the opponent's chosen discards,
so real cribs differ a little. Re-make the table with ``python -m cribstats.simulate.crib_values`` (a few
seconds), which prints the literal below.

>>> round(pair_crib_value(4, 4, suited=False), 2)  # a pair of fives
8.99
>>> pair_crib_value(0, 12, suited=False) < pair_crib_value(4, 9, suited=False)  # A-K is worth less than 5-T
True
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from cribstats.scoring_many import score_show_many

# OFFSUIT[r1][r2] and SUITED[r1][r2] (r1, r2 rank indexes 0..12, symmetric; SUITED's diagonal is unused)
OFFSUIT: tuple[tuple[float, ...], ...] = (
    (5.5318, 4.4349, 4.5549, 5.4637, 5.7264, 4.2530, 4.0748, 4.1182, 4.0341, 3.9520, 4.1896, 3.8500, 3.7414),
    (4.4349, 5.8253, 6.8327, 4.8410, 5.7558, 4.3616, 4.2766, 4.2286, 4.1320, 4.0645, 4.3020, 3.9624, 3.8539),
    (4.5549, 6.8327, 6.1612, 5.4920, 6.4213, 4.2681, 4.3492, 4.2843, 4.1101, 4.1398, 4.3773, 4.0378, 3.9292),
    (5.4637, 4.8410, 5.4920, 6.1355, 6.9905, 4.9614, 4.1732, 4.2976, 4.1978, 4.1363, 4.3739, 4.0343, 3.9257),
    (5.7264, 5.7558, 6.4213, 6.9905, 8.9927, 7.0854, 6.4079, 5.7503, 5.7301, 7.0205, 7.2581, 6.9185, 6.8099),
    (4.2530, 4.3616, 4.2681, 4.9614, 7.0854, 6.2902, 5.5329, 4.8945, 5.5716, 3.8339, 4.0714, 3.7318, 3.6233),
    (4.0748, 4.2766, 4.3492, 4.1732, 6.4079, 5.5329, 6.1082, 6.7590, 4.3476, 3.7202, 4.0182, 3.6786, 3.5700),
    (4.1182, 4.2286, 4.2843, 4.2976, 5.7503, 4.8945, 6.7590, 5.6347, 4.9255, 4.2982, 3.9416, 3.6624, 3.5539),
    (4.0341, 4.1320, 4.1101, 4.1978, 5.7301, 5.5716, 4.3476, 4.9255, 5.5298, 4.8398, 4.4833, 3.5496, 3.5014),
    (3.9520, 4.0645, 4.1398, 4.1363, 7.0205, 3.8339, 3.7202, 4.2982, 4.8398, 5.4633, 5.0441, 4.1104, 3.4078),
    (4.1896, 4.3020, 4.3773, 4.3739, 7.2581, 4.0714, 4.0182, 3.9416, 4.4833, 5.0441, 5.9286, 5.0061, 4.3035),
    (3.8500, 3.9624, 4.0378, 4.0343, 6.9185, 3.7318, 3.6786, 3.6624, 3.5496, 4.1104, 5.0061, 5.2494, 3.9639),
    (3.7414, 3.8539, 3.9292, 3.9257, 6.8099, 3.6233, 3.5700, 3.5539, 3.5014, 3.4078, 4.3035, 3.9639, 5.0322),
)
SUITED: tuple[tuple[float, ...], ...] = (
    (0.0000, 4.4770, 4.5970, 5.5058, 5.7685, 4.2951, 4.1169, 4.1603, 4.0762, 3.9941, 4.2125, 3.8921, 3.7835),
    (4.4770, 0.0000, 6.8747, 4.8831, 5.7979, 4.4037, 4.3187, 4.2707, 4.1741, 4.1066, 4.3249, 4.0045, 3.8960),
    (4.5970, 6.8747, 0.0000, 5.5341, 6.4634, 4.3102, 4.3913, 4.3264, 4.1522, 4.1819, 4.4003, 4.0798, 3.9713),
    (5.5058, 4.8831, 5.5341, 0.0000, 7.0326, 5.0035, 4.2153, 4.3396, 4.2398, 4.1784, 4.3968, 4.0764, 3.9678),
    (5.7685, 5.7979, 6.4634, 7.0326, 0.0000, 7.1275, 6.4499, 5.7924, 5.7722, 7.0626, 7.2810, 6.9606, 6.8520),
    (4.2951, 4.4037, 4.3102, 5.0035, 7.1275, 0.0000, 5.5749, 4.9366, 5.6137, 3.8760, 4.0943, 3.7739, 3.6654),
    (4.1169, 4.3187, 4.3913, 4.2153, 6.4499, 5.5749, 0.0000, 6.8011, 4.3896, 3.7623, 4.0411, 3.7207, 3.6121),
    (4.1603, 4.2707, 4.3264, 4.3396, 5.7924, 4.9366, 6.8011, 0.0000, 4.9676, 4.3403, 3.9645, 3.7045, 3.5960),
    (4.0762, 4.1741, 4.1522, 4.2398, 5.7722, 5.6137, 4.3896, 4.9676, 0.0000, 4.8819, 4.5062, 3.5917, 3.5435),
    (3.9941, 4.1066, 4.1819, 4.1784, 7.0626, 3.8760, 3.7623, 4.3403, 4.8819, 0.0000, 5.0670, 4.1525, 3.4498),
    (4.2125, 4.3249, 4.4003, 4.3968, 7.2810, 4.0943, 4.0411, 3.9645, 4.5062, 5.0670, 0.0000, 5.0290, 4.3264),
    (3.8921, 4.0045, 4.0798, 4.0764, 6.9606, 3.7739, 3.7207, 3.7045, 3.5917, 4.1525, 5.0290, 0.0000, 4.0060),
    (3.7835, 3.8960, 3.9713, 3.9678, 6.8520, 3.6654, 3.6121, 3.5960, 3.5435, 3.4498, 4.3264, 4.0060, 0.0000),
)


def pair_crib_value(r1: int, r2: int, *, suited: bool) -> float:
    """Average crib points when the cards of ranks ``r1`` and ``r2`` go to it (``suited``: one suit)."""
    return (SUITED if suited and r1 != r2 else OFFSUIT)[r1][r2]


def single_crib_values() -> tuple[float, ...]:
    """Average crib points by the rank of one card in it, the other three random (three- and four-player).

    >>> values = single_crib_values()
    >>> values[4] > values[12]  # a five helps the crib more than a king
    True
    """
    out = []
    for r in range(13):
        total = 3 * OFFSUIT[r][r]
        for r2 in range(13):
            if r2 != r:
                total += SUITED[r][r2] + 3 * OFFSUIT[r][r2]
        out.append(total / 51)
    return tuple(out)


def exact_pair_value(first: int, second: int) -> float:
    """The exact average crib with the cards ``first`` and ``second`` in it, over all fillings and starters."""
    rest = np.array([c for c in range(52) if c not in (first, second)], dtype=np.int16)
    pairs = np.array(list(combinations(range(50), 2)), dtype=np.int16)
    rows = []
    starters = []
    for i, j in pairs:
        others = np.delete(rest, [i, j])
        block = np.empty((48, 4), dtype=np.int16)
        block[:, 0] = first
        block[:, 1] = second
        block[:, 2] = rest[i]
        block[:, 3] = rest[j]
        rows.append(block)
        starters.append(others)
    hands = np.concatenate(rows)
    cut = np.concatenate(starters)
    return float(score_show_many(hands, cut, crib=True).mean())


def compute_tables() -> tuple[list[list[float]], list[list[float]]]:
    """Both tables, exactly (clubs for the first card; diamonds or clubs for the second)."""
    offsuit = [[0.0] * 13 for _ in range(13)]
    suited = [[0.0] * 13 for _ in range(13)]
    for r1 in range(13):
        for r2 in range(r1, 13):
            off = exact_pair_value(r1 * 4, r2 * 4 + 1)
            offsuit[r1][r2] = offsuit[r2][r1] = round(off, 4)
            if r1 != r2:
                same = exact_pair_value(r1 * 4, r2 * 4)
                suited[r1][r2] = suited[r2][r1] = round(same, 4)
    return offsuit, suited


def _literal(name: str, table: list[list[float]]) -> str:
    rows = ",\n".join("    (" + ", ".join(f"{v:.4f}" for v in row) + ")" for row in table)
    return f"{name}: tuple[tuple[float, ...], ...] = (\n{rows},\n)"


if __name__ == "__main__":
    off, same = compute_tables()
    print(_literal("OFFSUIT", off))
    print(_literal("SUITED", same))
