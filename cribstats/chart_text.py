"""The text of the charts: every name a player may have drawn, and nothing said on standard error.

The text falls back, glyph by glyph, to fonts found at run time (matplotlib's own, then CJK fonts of the platform
such as Debian's ``fonts-noto-cjk``, then matplotlib's Last Resort font, which draws a visible box for a character
no font has). Long names are shortened with an ellipsis under the bars. The library's font and layout warnings are
silenced where the figures are drawn and saved (:func:`quiet_drawing`).
"""

from __future__ import annotations

import functools
import logging
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec

import matplotlib
from matplotlib.figure import Figure

from cribstats.safetext import CHART_NAME_WIDTH, safe_name

# Fonts tried for a character DejaVu Sans lacks, best first: CJK families of the common platforms' packages.
FALLBACK_FAMILIES: tuple[str, ...] = (
    "Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK KR", "Noto Sans CJK HK",
    "Source Han Sans", "Droid Sans Fallback", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "IPAexGothic",
    "IPAGothic", "Unifont",
)  # fmt: skip
P = ParamSpec("P")
LAST_RESORT = "Last Resort High-Efficiency"  # shipped with matplotlib 3.10 and later
FALLBACK_FILE_HINTS: tuple[str, ...] = ("cjk", "droidsansfallback", "wqy", "ipag", "ipaex", "sourcehan", "unifont")



@functools.cache
def font_families() -> tuple[str, ...]:
    """The font list charts use: DejaVu Sans, then every fallback family installed, then the Last Resort font.

    Fonts matplotlib has not listed yet (installed after its font cache was made) are found among the platform's
    font files by name and added.
    """
    from matplotlib import font_manager

    known = {f.name for f in font_manager.fontManager.ttflist}
    if not known.intersection(FALLBACK_FAMILIES):
        listed = {f.fname for f in font_manager.fontManager.ttflist}
        for path in font_manager.findSystemFonts():
            name = os.path.basename(path).lower().replace("-", "").replace("_", "")
            if path not in listed and any(hint in name for hint in FALLBACK_FILE_HINTS):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):  # a font file FreeType cannot read
                    continue
        known = {f.name for f in font_manager.fontManager.ttflist}
    found = [family for family in FALLBACK_FAMILIES if family in known]
    return ("DejaVu Sans", *found, *([LAST_RESORT] if LAST_RESORT in known else []))


@contextmanager
def quiet_drawing() -> Iterator[None]:
    """Draw with the fallback fonts, every text literal (no mathtext), and without matplotlib's warnings (missing
    glyphs, font look-ups, layout) reaching standard error."""
    font_logger = logging.getLogger("matplotlib.font_manager")
    level = font_logger.level
    font_logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(), matplotlib.rc_context(
            {"font.family": list(font_families()), "text.parse_math": False}  # "$x$" in a name is text, not TeX
        ):
            warnings.simplefilter("ignore")
            yield
    finally:
        font_logger.setLevel(level)


def drawn_quietly(draw: Callable[P, Figure]) -> Callable[P, Figure]:
    """A chart function run inside :func:`quiet_drawing`: its text is made with the fallback font list."""

    @functools.wraps(draw)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with quiet_drawing():
            return draw(*args, **kwargs)

    return drawn


def chart_label(name: str) -> str:
    """A player's name as a tick label: hidden characters made visible, long names shortened."""
    return safe_name(name, CHART_NAME_WIDTH)
