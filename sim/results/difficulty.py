"""A difficulty word per side: trivial, easy, risky, deadly or hopeless, from measured chances.

Two chances decide it, each with its 95% Wilson interval (``sim.results.stats.wilson``):
P(lose), the share of fights another side won (a draw is not a loss), and P(any death), the
share of fights in which at least one member of the side died. Each maps to a level by the
thresholds below; the word is the higher of the two levels (deaths alone never make a fight
hopeless: a side that always wins is not beaten, however much it bleeds). The word is read
at both ends of the intervals: where they give different words, both are given
(``easy-risky``), lowest first. docs/difficulty.md states the same table.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from sim.results.stats import wilson

WORDS = ("trivial", "easy", "risky", "deadly", "hopeless")
# Ruling: the upper bounds of trivial, easy, risky and deadly on P(lose)
LOSE = (0.02, 0.10, 0.35, 0.80)
# Ruling: the upper bounds of trivial, easy and risky on P(any death on the side); from the
# last on, deadly
DEATH = (0.02, 0.10, 0.40)
# Ruling: no word from fewer fights than this (an interval from fewer spans most words)
MIN_FIGHTS = 100


def level(p_lose: float, p_death: float) -> int:
    """The index in ``WORDS`` of a side that loses and loses someone this often."""
    return max(bisect_right(LOSE, p_lose), bisect_right(DEATH, p_death))


def word(fights: int, losses: int, deaths: int) -> str | None:
    """The side's word from ``losses`` and fights with a death in ``fights``; None if too few."""
    if fights < MIN_FIGHTS:
        return None
    lose_lo, lose_hi = wilson(losses, fights)
    death_lo, death_hi = wilson(deaths, fights)
    low, high = level(lose_lo, death_lo), level(lose_hi, death_hi)
    return WORDS[low] if low == high else f"{WORDS[low]}-{WORDS[high]}"


def of_entry(entry: dict[str, Any]) -> dict[str, str | None]:
    """Each side's word from a ruleset's ``lethality.json`` entry (``Tally.lethality()``)."""
    n = entry["encounters"]
    draws = round(entry["draw_rate"]["value"] * n)
    out = {}
    for name, side in entry["sides"].items():
        losses = n - side["counts"]["wins"] - draws
        deaths = round(side["p_any_death"]["value"] * n)
        out[name] = word(n, losses, deaths)
    return out


def with_words(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry with each side's ``difficulty`` added (None below ``MIN_FIGHTS``)."""
    for name, text in of_entry(entry).items():
        entry["sides"][name]["difficulty"] = text
    return entry


def shown(text: str | None) -> str:
    """The word as a table shows it: too few fights say so."""
    return text if text is not None else f"n/a (<{MIN_FIGHTS} fights)"
