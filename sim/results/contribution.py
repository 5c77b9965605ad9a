"""Each fighter's worth to its side: its side's fights with and without it, on the same seeds.

For one fighter, encounter ``i`` is fought twice with the batch's seed for ``i``: as the
scenario has it, and with that fighter left out. ``PairFold`` folds each pair: whether the
side won each time (the paired interval of the difference in win rate:
``sim.results.stats.paired_difference``) and the side's deaths each time (the mean paired
difference with a normal interval: ``mean_difference``). A fighter left out changes what
the dice roll after it (the same seed draws for one fewer fighter), so the pairs share their
seeds, not every roll: the interval is the paired one, no narrower than the pairs allow.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from sim.results.stats import mean_difference, paired_difference


@dataclass
class PairFold:
    """One fighter's pairs: its side with it (``base``) and without it."""

    name: str
    side: str
    pairs: int = 0
    wins: int = 0           # the side's wins with it
    wins_without: int = 0   # ... and without it
    only_with: int = 0      # pairs won with it and not without
    only_without: int = 0   # pairs won without it and not with
    deaths: int = 0         # the side's deaths with it
    deaths_without: int = 0
    diff_sum: int = 0       # sum over pairs of (deaths without - deaths with)
    diff_sq: int = 0

    def add(self, won: bool, deaths: int, won_without: bool, deaths_without: int) -> None:
        """Fold in one pair of fights."""
        self.pairs += 1
        self.wins += won
        self.wins_without += won_without
        self.only_with += won and not won_without
        self.only_without += won_without and not won
        self.deaths += deaths
        self.deaths_without += deaths_without
        d = deaths_without - deaths
        self.diff_sum += d
        self.diff_sq += d * d

    def merge(self, other: PairFold) -> None:
        """Add the pairs of other encounters of the same fighter."""
        for f in fields(self):
            if f.name not in ("name", "side"):
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def summary(self) -> dict[str, Any]:
        """The fighter's entry in ``summary.json``'s ``contribution``."""
        n = self.pairs
        change, lo, hi = paired_difference(self.only_without, self.only_with, n)
        d, d_lo, d_hi = mean_difference(n, self.diff_sum, self.diff_sq)
        return {
            "side": self.side, "pairs": n,
            "win_rate": round(self.wins / n, 6) if n else 0.0,
            "win_rate_without": round(self.wins_without / n, 6) if n else 0.0,
            "win_rate_change": round(change, 6),
            "win_rate_change_ci95": [round(lo, 6), round(hi, 6)],
            "deaths": round(self.deaths / n, 6) if n else 0.0,
            "deaths_without": round(self.deaths_without / n, 6) if n else 0.0,
            "deaths_change": round(d, 6),
            "deaths_change_ci95": [_bound(d_lo), _bound(d_hi)],
        }


def _bound(x: float) -> float | None:
    """A bound as JSON can hold it: None for an infinite one (fewer than two pairs)."""
    return None if x in (float("inf"), float("-inf")) else round(x, 6)
