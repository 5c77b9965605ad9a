"""``fray balance``: the value of one scenario setting that brings a rate nearest a target.

The setting is a ``--set`` path (``sim.batch.sweep``) over a range of whole numbers; the rate
is one side's win rate, its death rate per combatant, or the chance it is wiped out (nobody
of it still in the fight when the fight ends). Every value runs with the same batch seed.

The search (``search``): the two ends first. Where they lie either side of the target, it
bisects, each value run only until its interval says on which side of the target it lies
(or is within +-W of it); a value that falls outside its bracketing neighbours' rates (the
metric is not monotone there) turns the search into a scan. Where both ends lie on one
side, the metric may still turn inside the range: it scans every value, each stopped as soon
as its interval is farther from the target than the best value's rate. The values either
side of the answer are then run to +-W, so that the nearest is chosen on narrow intervals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.batch import precision as prec
from sim.batch.chunks import fold_chunk
from sim.batch.runner import BatchSpec, iter_rows
from sim.results.stats import wilson
from sim.scenario import Scenario, parse
from sim.scenario.errors import FrayInputError, ScenarioError
from sim.scenario.settings import parse_path, set_value

METRICS = ("win", "death", "tpk")
METRIC_WORDS = {"win": "win rate", "death": "death rate per combatant",
                "tpk": "chance of being wiped out"}


def metric_of(tally: Any, side: str, metric: str) -> tuple[float, float, float]:
    """``(value, low, high)`` of ``metric`` for ``side`` in a tally (95% intervals)."""
    n = tally.count
    fold = tally.sides[side]
    if metric == "win":
        return (fold.wins / n if n else 0.0, *wilson(fold.wins, n))
    if metric == "death":
        rate = fold.deaths.rate()
        lo, hi = rate["ci95"]
        return rate["value"], lo if lo is not None else 0.0, hi if hi is not None else 1.0
    wiped = sum(count for (_, alive), count in fold.tail.items() if alive == 0)
    return (wiped / n if n else 0.0, *wilson(wiped, n))


@dataclass
class Tried:
    """One value run: its rate, interval and fights."""

    value: int
    metric: float
    low: float
    high: float
    n: int

    @property
    def half(self) -> float:
        """The interval as +-W."""
        return (self.high - self.low) / 2

    def distance(self, target: float) -> float:
        """How far the rate is from the target."""
        return abs(self.metric - target)

    def doc(self) -> dict[str, Any]:
        """The value's entry in ``--json``'s ``tried``."""
        return {"value": self.value, "metric": round(self.metric, 6),
                "low": round(self.low, 6), "high": round(self.high, 6), "n": self.n}


@dataclass
class Problem:
    """What ``search`` answers: a scenario's raw data, the path, the range, the target."""

    raw: dict[str, Any]
    source: str
    path: str
    low: int
    high: int
    target: float
    metric: str = "win"
    side: str | None = None
    ruleset: str | None = None
    width: float = prec.DEFAULT
    cap: int = 20_000
    seed: int = 1
    workers: int = 1


class Search:
    """Runs values of a ``Problem`` on demand, each as far as a decision needs."""

    def __init__(self, problem: Problem,
                 progress: Callable[[int], None] | None = None) -> None:
        self.p = problem
        self.steps = parse_path(problem.path)
        self.tried: dict[int, Tried] = {}
        self.tallies: dict[int, Any] = {}
        self.progress = progress or (lambda _n: None)
        self.first = self.scenario(problem.low)
        self.side = problem.side or self.first.side_names[0]
        if self.side not in self.first.side_names:
            raise FrayInputError("--side", [("", f"no side {self.side!r}; the sides are "
                                                 f"{', '.join(self.first.side_names)}")])

    def scenario(self, value: int) -> Scenario:
        """The scenario with the path set to ``value`` (checked as any scenario)."""
        data = set_value(self.p.raw, self.steps, value)
        try:
            return parse(data, self.p.source)
        except ScenarioError as exc:
            raise ScenarioError(f"{self.p.source} with {self.p.path}={value}",
                                exc.problems) from None

    def run(self, value: int, enough: Callable[[Tried], bool]) -> Tried:
        """Run ``value`` on (from where it stopped before) until ``enough`` or the cap."""
        scen = self.scenario(value)
        spec = BatchSpec(scen, self.p.ruleset or scen.ruleset, self.p.cap, self.p.seed,
                         self.p.workers, precision=self.p.width)

        def done(tally: Any) -> bool:
            return tally.count >= prec.MIN_FIGHTS and enough(self._tried(value, tally))

        # a value asked again goes on from the fights it already ran (same seed, same fights)
        tally = self.tallies.get(value) or spec.work.new_tally(scen, spec.ruleset, spec.seed)
        self.tallies[value] = tally
        if done(tally) or tally.count >= spec.n:
            self.tried[value] = self._tried(value, tally)
            return self.tried[value]
        plan = prec.ChunkPlan(tally.count, spec.n, prec.BLOCK, self.p.width, enough=done)
        with iter_rows(spec, tally.count, fold_chunk, plan) as chunks:
            for chunk in chunks:
                tally.merge(chunk)
                self.progress(chunk.count)
                if plan.check(tally):
                    chunks.finish()
                    break
        self.tried[value] = self._tried(value, tally)
        return self.tried[value]

    def _tried(self, value: int, tally: Any) -> Tried:
        return Tried(value, *metric_of(tally, self.side, self.p.metric), tally.count)

    # the decisions
    def sided(self, value: int) -> Tried:
        """Run until the interval is on one side of the target, or within +-W."""
        t = self.p.target
        return self.run(value, lambda r: r.low > t or r.high < t or r.half <= self.p.width)

    def sure(self, value: int) -> Tried:
        """Run to +-W."""
        known = self.tried.get(value)
        if known is not None and (known.half <= self.p.width or known.n >= self.p.cap):
            return known
        return self.run(value, lambda r: r.half <= self.p.width)

    def beaten(self, value: int, best: float) -> Tried:
        """Run until within +-W, or clearly farther from the target than ``best``."""
        t = self.p.target
        return self.run(value, lambda r: r.half <= self.p.width
                        or min(abs(r.low - t), abs(r.high - t)) > best
                        and not r.low <= t <= r.high)


def search(problem: Problem, progress: Callable[[int], None] | None = None
           ) -> tuple[Tried, list[Tried], str, str]:
    """The value nearest the target; every value tried (by value); the side; the method."""
    if problem.high < problem.low:
        problem.low, problem.high = problem.high, problem.low
    s = Search(problem, progress)
    t = problem.target
    a, b = s.sided(problem.low), s.sided(problem.high)
    method = "bisection"
    if (a.metric - t) * (b.metric - t) > 0 or problem.high - problem.low < 2:
        method = "scan"
    lo, hi = a, b
    while method == "bisection" and hi.value - lo.value > 1:
        mid = s.sided((lo.value + hi.value) // 2)
        bottom, top = min(lo.metric, hi.metric), max(lo.metric, hi.metric)
        outside = mid.high < min(lo.low, hi.low) or mid.low > max(lo.high, hi.high)
        if outside or not bottom - problem.width <= mid.metric <= top + problem.width:
            method = "scan"  # not monotone here: look at every value
            break
        if (mid.metric - t) * (lo.metric - t) > 0:
            lo = mid
        else:
            hi = mid
    if method == "scan":
        best = min(s.tried.values(), key=lambda r: r.distance(t))
        for value in range(problem.low, problem.high + 1):
            if value in s.tried:
                continue
            r = s.beaten(value, best.distance(t))
            if r.distance(t) < best.distance(t):
                best = r
        near = sorted(s.tried.values(), key=lambda r: r.distance(t))[:2]
    else:
        near = [lo, hi]
    # the candidates and the answer's neighbours to +-W, then the nearest of them
    for r in near:
        s.sure(r.value)
    answer = min((s.tried[r.value] for r in near), key=lambda r: (r.distance(t), r.value))
    for value in (answer.value - 1, answer.value + 1):
        if problem.low <= value <= problem.high:
            s.sure(value)
    answer = s.tried[answer.value]
    return answer, sorted(s.tried.values(), key=lambda r: r.value), s.side, method


def document(answer: Tried, tried: list[Tried]) -> dict[str, Any]:
    """The ``--json`` object."""
    return {"value": answer.value, "metric": round(answer.metric, 6),
            "low": round(answer.low, 6), "high": round(answer.high, 6),
            "tried": [r.doc() for r in tried]}
