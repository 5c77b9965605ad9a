"""How the reports write a number: a share as a percentage, a rate or mean with its interval."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def percent(p: float) -> str:
    """``61%``; one decimal (``0.4%``, ``99.6%``) where whole percent would read 0 or 100."""
    if p <= 0 or p >= 1:
        return f"{100 * min(1.0, max(0.0, p)):.0f}%"
    for digits in (0, 1):
        text = f"{100 * p:.{digits}f}"
        if float(text) not in (0.0, 100.0):
            return f"{text}%"
    return "<0.1%" if p < 0.5 else ">99.9%"


def chance(p: float) -> str:
    """A chance on a menu, whole percent: ``100%`` and ``0%`` only when certain.

    ``>99%`` and ``<1%`` where rounding would say otherwise (a fumble can still miss).
    """
    if p >= 1 or p <= 0:
        return f"{100 * min(1.0, max(0.0, p)):.0f}%"
    text = f"{100 * p:.0f}"
    return ">99%" if text == "100" else "<1%" if text == "0" else f"{text}%"


def _bracket(lo: float | None, hi: float | None, show: Callable[[float], str]) -> str:
    if lo is None or hi is None:
        return ""
    return f" [{show(lo).rstrip('%')}–{show(hi)}]"


def rate_text(m: dict[str, Any]) -> str:
    """A rate with its interval: ``61% [58–64%]``."""
    lo, hi = m["ci95"]
    return percent(m["value"]) + _bracket(lo, hi, percent)


def mean_text(m: dict[str, Any]) -> str:
    """A mean with its interval: ``0.16 [0.11–0.21]``."""
    lo, hi = m["ci95"]
    return f"{m['value']:.2f}" + _bracket(lo, hi, lambda x: f"{x:.2f}")
