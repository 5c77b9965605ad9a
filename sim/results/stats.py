"""Pure statistics for batch results: intervals, quantiles of histograms, ratio estimators.

Nothing here knows about encounters or files; ``sim.results.tally`` folds encounter rows into
the sums these functions read. Every metric of ``lethality.json`` carries a 95% interval by one
of four methods (``METHODS``, named in the file):

- ``wilson``: a proportion whose trials are whole encounters (win rate, P(at least one
  death), draws): the Wilson score interval of ``wilson``.
- ``wilson-deff``: a per-combatant or per-attack rate (death rate, out-of-fight rate, the share
  of those out who died, hits per attack, survival). Combatants of one fight are not
  independent (a wiped-out side loses everyone at once), so the rate is treated as a ratio
  estimator over encounters: its variance is ``sum((x_i - p*y_i)^2) / (sum y_i)^2`` (the delta
  method), the effective number of trials is ``p(1-p) / variance`` (never more than the real
  count; the number of encounters when the rate is 0 or 1 and there is no spread to measure)
  and the Wilson interval is taken with it. With one member per side this is exactly the
  plain Wilson interval over encounters.
- ``normal``: a mean over encounters (deaths per encounter, rounds to the end, rounds to the
  first casualty): mean +/- 1.96 sd / sqrt(n), sd from the sum and the sum of squares; when
  every value is 0 (no death in any fight), 0 to the exact Poisson bound of seeing none,
  about 3.69 / n (``none_seen_bound``), never the zero-width 0 to 0.
- ``delta``: damage per hit, a ratio of two per-encounter totals in the ruleset's own units:
  ratio +/- 1.96 sqrt(var), var by the delta method as above with an n/(n-1) correction.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, fields
from statistics import NormalDist
from typing import Any

Z95 = 1.959963984540054
# Ruling: a rate or mean resting on fewer runs or fights than this is marked as resting on
# few (a hollow marker in a chart, an asterisk in a table): its interval is wide.
FEW = 30

METHODS = {
    "wilson": "Wilson score interval; trials are encounters",
    "wilson-deff": "Wilson score interval with an effective number of trials from the "
                   "delta-method variance of the ratio over encounters (fights are clusters; "
                   "a rate of 0 or 1 counts one trial per encounter)",
    "normal": "mean +/- 1.96 sd/sqrt(n) over encounters (sd from sums of squares; when "
              "every value is 0, 0 to the Poisson bound 3.69/n)",
    "delta": "ratio +/- 1.96 sd, variance by the delta method over encounters",
}


# ---------------------------------------------------------------------------- intervals
def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); (0, 1) with no trials.

    The arithmetic takes fractional counts too (an effective number of trials).
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def wilson_deff(p: float, trials: float, variance: float,
                clusters: int) -> tuple[float, float]:
    """Wilson interval for a rate ``p`` over ``trials`` in ``clusters`` encounters.

    ``variance`` is the rate's delta-method variance over encounters. The effective number
    of trials is ``p(1-p) / variance``, capped at ``trials`` (clustering can only cost
    information here). With no spread to go on (``p`` of 0 or 1) it is the number of
    encounters: the cautious reading, as if a fight's trials all went one way.
    """
    if variance > 0 and 0 < p < 1:
        n_eff = min(trials, p * (1 - p) / variance)
    else:
        n_eff = min(trials, clusters)
    return wilson(p * n_eff, n_eff)


def normal_ci(n: int, total: float, total_sq: float,
              z: float = Z95) -> tuple[float, float | None, float | None]:
    """``(mean, lo, hi)`` of a sample given its size, sum and sum of squares.

    The interval is mean +/- z * sd / sqrt(n) with the sample sd (n - 1); None below two
    values, where there is no spread to measure. Every mean here is of counts (deaths,
    rounds), never negative: the lower end stops at 0 rather than claim a negative rate.
    When every value is 0 the sample sd is 0 too, and mean +/- 0 would claim certainty:
    the upper end is then ``none_seen_bound`` (2,000 fights without a death: 0 to 0.0018).
    """
    if n <= 0:
        return 0.0, None, None
    mean = total / n
    if n < 2:
        return mean, None, None
    if total == 0:  # nothing counted in n encounters: no spread, but no certainty either
        return 0.0, 0.0, none_seen_bound(n, z)
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, max(0.0, mean - half), mean + half


def none_seen_bound(n: int, z: float = Z95) -> float:
    """The upper end of a count's mean per encounter when ``n`` encounters counted none.

    The exact Poisson bound (two-sided, like every interval here): the mean at which
    seeing nothing in ``n`` encounters has probability ``1 - Phi(z)``, 2.5% at 95%; about
    3.69 / n. It is the cautious reading for counts that may exceed one a fight (deaths).
    """
    return -math.log(1 - NormalDist().cdf(z)) / n


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def metric(value: float, lo: float | None, hi: float | None, method: str) -> dict[str, Any]:
    """A metric as stored in ``lethality.json``: value, 95% interval and method."""
    return {"value": _r(value), "ci95": [_r(lo), _r(hi)], "method": method}


# ---------------------------------------------------------------------------- histograms
def quantile(histogram: Counter, q: float) -> float:
    """The ``q`` quantile (nearest rank) of values given as ``{value: count}``."""
    total = sum(histogram.values())
    if total == 0:
        return 0
    return _kth(histogram, max(1, math.ceil(q * total)))


def median(histogram: Counter) -> float:
    """The median of ``{value: count}``; the mean of the two middle values for an even count."""
    total = sum(histogram.values())
    if total == 0:
        return 0
    lo, hi = quantile(histogram, 0.5), _kth(histogram, total // 2 + 1)
    return hi if total % 2 else (lo + hi) / 2


def _kth(histogram: Counter, k: int) -> float:
    """The ``k``-th smallest value (1-based) of ``{value: count}``."""
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= k:
            return value
    return max(histogram)


def histogram_sums(histogram: Counter) -> tuple[int, float, float]:
    """``(count, sum, sum of squares)`` of values given as ``{value: count}``."""
    return (sum(histogram.values()), sum(v * c for v, c in histogram.items()),
            sum(v * v * c for v, c in histogram.items()))


# ---------------------------------------------------------------------------- ratios
@dataclass
class RatioSums:
    """Per-encounter pairs ``(x_i, y_i)`` folded into sums, for the ratio ``sum x / sum y``.

    Whole-number pairs keep whole-number sums, so folding in any order, or merging partial
    sums, gives exactly the same result.
    """

    n: int = 0
    sx: float = 0
    sy: float = 0
    sxx: float = 0
    syy: float = 0
    sxy: float = 0

    def add(self, x: float, y: float) -> None:
        """Fold in one encounter's pair."""
        self.n += 1
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.syy += y * y
        self.sxy += x * y

    def merge(self, other: RatioSums) -> None:
        """Add another fold's sums (the pairs of other encounters)."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @property
    def ratio(self) -> float:
        """``sum x / sum y`` (0 when nothing was counted)."""
        return self.sx / self.sy if self.sy else 0.0

    def variance(self) -> float:
        """Delta-method variance of the ratio: ``sum((x_i - R y_i)^2) / (sum y)^2``."""
        if not self.sy:
            return 0.0
        r = self.ratio
        resid = self.sxx - 2 * r * self.sxy + r * r * self.syy
        return max(0.0, resid) / (self.sy * self.sy)

    def rate(self) -> dict[str, Any]:
        """The ratio as a proportion, with the design-effect Wilson interval."""
        p, trials = self.ratio, self.sy
        if trials <= 0:
            return metric(0.0, None, None, "wilson-deff")
        lo, hi = wilson_deff(p, trials, self.variance(), self.n)
        return metric(p, lo, hi, "wilson-deff")

    def ratio_ci(self) -> dict[str, Any]:
        """The ratio with a delta-method normal interval (any units).

        Every ratio folded here is of counts (damage per hit), never negative: the lower end
        stops at 0 rather than claim a negative value.
        """
        if self.n < 2 or not self.sy:
            return metric(self.ratio, None, None, "delta")
        half = Z95 * math.sqrt(self.variance() * self.n / (self.n - 1))
        return metric(self.ratio, max(0.0, self.ratio - half), self.ratio + half, "delta")

    def x_mean(self) -> dict[str, Any]:
        """The mean of ``x`` per encounter, with a normal interval."""
        return metric(*normal_ci(self.n, self.sx, self.sxx), "normal")


def difference_ci(a: float, b: float, n: float, z: float = Z95) -> tuple[float, float, float]:
    """``(p_a - p_b, lo, hi)`` for two exclusive outcomes counted ``a`` and ``b`` times in ``n``.

    The normal interval of a difference of multinomial proportions: its variance is
    ``(p_a + p_b - (p_a - p_b)^2) / n``. Used for fairness: the side listed first against the
    side listed second, draws being the third outcome.
    """
    if n <= 0:
        return 0.0, -1.0, 1.0
    pa, pb = a / n, b / n
    d = pa - pb
    half = z * math.sqrt(max(0.0, pa + pb - d * d) / n)
    return d, d - half, d + half


def paired_difference(only_a: int, only_b: int, pairs: int,
                      z: float = Z95) -> tuple[float, float, float]:
    """``(p_a - p_b, lo, hi)`` for two successes measured on the same ``pairs`` trials.

    ``only_a`` pairs went to ``a`` alone, ``only_b`` to ``b`` alone (pairs both or neither
    won say nothing of the difference). The estimate is ``(only_a - only_b) / pairs``; the
    interval is Agresti and Min's for paired proportions: the multinomial interval
    (``difference_ci``) after adding half a pair to each of the four cells, which keeps its
    width above 0 when no pair split (two lines that play out alike are not "certainly
    equal") and holds its level at small counts. Clipped to [-1, 1].
    """
    if pairs <= 0:
        return 0.0, -1.0, 1.0
    _, lo, hi = difference_ci(only_a + 0.5, only_b + 0.5, pairs + 2, z)
    return (only_a - only_b) / pairs, max(-1.0, lo), min(1.0, hi)


def mean_difference(n: int, total: float, total_sq: float,
                    z: float = Z95) -> tuple[float, float, float]:
    """``(mean, lo, hi)`` of paired differences (which may be negative) from their sums.

    ``total`` and ``total_sq`` sum each pair's difference and its square over ``n`` pairs;
    the interval is mean +/- z * sd / sqrt(n) with the sample sd, never clipped at 0 (a
    difference may go either way). Below two pairs: the mean, and no bound at all
    (``-inf``, ``inf``).
    """
    if n <= 0:
        return 0.0, -math.inf, math.inf
    mean = total / n
    if n < 2:
        return mean, -math.inf, math.inf
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def bonferroni_z(tests: int, level: float = 0.95) -> float:
    """The z that holds ``level`` over ``tests`` two-sided intervals at once (Bonferroni)."""
    return NormalDist().inv_cdf(1 - (1 - level) / (2 * tests))


def sign_test(wins: int, losses: int) -> float:
    """The one-sided p-value of an exact sign test: P(``wins`` or more heads in ``n`` tosses).

    ``wins`` pairs went one way and ``losses`` the other (ties left out), ``n`` both.
    Summed in logarithms: ``2 ** n`` is past a float's range from ``n = 1024``.
    """
    n = wins + losses
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)
            for i in range(wins, n + 1)]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(x - top) for x in logs))
