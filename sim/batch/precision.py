"""Run until sure: a batch that stops once its 95% intervals are narrow enough.

``--precision W`` runs chunks of a fixed size (``BLOCK`` encounters, or ``--chunk-size``:
never one chosen from the number of workers) and, after each chunk in chunk order, asks
whether every interval it watches (``watched``) is at most +-W wide (half its width at most
W). The first chunk boundary where they all are ends the batch; ``-n`` caps it. The decision
reads only the tally of the chunks before the boundary, so the same seed stops at the same
boundary on any number of workers or executors, and a resumed batch stops where an
uninterrupted one would.

Which chunks run ahead is a matter of speed only: ``ChunkPlan`` hands the executor chunks up
to the number of fights the intervals so far say are needed (the normal approximation,
``needed``), so that few chunks are run and thrown away when the batch stops.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from sim.results.stats import wilson

BLOCK = 50  # encounters per chunk when running until sure: a boundary every BLOCK fights
# Ruling: no batch run until sure stops before this many fights (the difficulty word needs
# as many: ``sim.results.difficulty.MIN_FIGHTS``); an interval from a handful of fights that
# all went one way would look narrow by chance.
MIN_FIGHTS = 100
DEFAULT = 0.02  # the default precision of compare, campaign and sweep: +-2 points


def watched(tally: Any) -> dict[str, tuple[float, float, float]]:
    """The intervals ``--precision`` narrows: ``{label: (value, low, high)}``.

    For a batch of encounters, each side's win rate and its death rate per combatant (the
    rate the comparison's verdict reads); for a campaign's runs, the chance of clearing it
    and the chance that a party member dies.
    """
    n = tally.count
    out: dict[str, tuple[float, float, float]] = {}
    if hasattr(tally, "sides"):
        for name, side in tally.sides.items():
            out[f"{name} win rate"] = (side.wins / n if n else 0.0, *wilson(side.wins, n))
            rate = side.deaths.rate()
            lo, hi = rate["ci95"]
            out[f"{name} death rate"] = (rate["value"], 0.0 if lo is None else lo,
                                         1.0 if hi is None else hi)
        return out
    cleared = tally.outcomes["cleared"]
    died = n - tally.deaths[0]
    out["clear"] = (cleared / n if n else 0.0, *wilson(cleared, n))
    out["any party death"] = (died / n if n else 0.0, *wilson(died, n))
    return out


def half_width(low: float, high: float) -> float:
    """An interval as +-W: half its width."""
    return (high - low) / 2


def widest(tally: Any) -> float:
    """The widest watched interval of a tally, as +-W (1 with nothing run)."""
    if not tally.count:
        return 1.0
    return max(half_width(lo, hi) for _, lo, hi in watched(tally).values())


def precise(tally: Any, width: float) -> bool:
    """Whether the batch may stop here: ``MIN_FIGHTS`` run and every interval within +-W."""
    return tally.count >= MIN_FIGHTS and widest(tally) <= width


def needed(tally: Any, width: float) -> int:
    """Fights the intervals so far say are needed for +-W (the normal approximation).

    An interval's half-width shrinks as one over the square root of the fights: ``n`` fights
    giving +-h need ``n (h / W)^2`` for +-W.
    """
    n = tally.count
    if not n:
        return MIN_FIGHTS
    return max(MIN_FIGHTS, math.ceil(n * (widest(tally) / width) ** 2))


class ChunkPlan:
    """The chunks of a batch run until sure, handed out lazily (an executor's ``chunks``).

    Iterated, it gives ``(start, stop)`` ranges of ``size`` from ``start`` up to the cap, but
    never past the fights the last ``check`` said are needed (at least one chunk past those
    checked, so the executor always has the next one); after a ``check`` that found the
    batch precise, nothing more. Not a generator: running dry for now, it gives more after
    the next ``check``.
    """

    def __init__(self, start: int, cap: int, size: int, width: float,
                 enough: Callable[[Any], bool] | None = None) -> None:
        self.start, self.cap, self.size, self.width = start, cap, size, width
        self.enough = enough  # another test of "sure" (``fray balance``'s decision)
        self._next = start
        self._limit = start + max(size, MIN_FIGHTS)
        self.stopped = False

    def __bool__(self) -> bool:
        return self.start < self.cap

    def __getitem__(self, index: int) -> tuple[int, int]:
        if index != 0 or not self:
            raise IndexError(index)
        return (self.start, min(self.start + self.size, self.cap))

    def __iter__(self) -> ChunkPlan:
        return self

    def __next__(self) -> tuple[int, int]:
        if self.stopped or self._next >= min(self._limit, self.cap):
            raise StopIteration
        a = self._next
        self._next = min(a + self.size, self.cap)
        return (a, self._next)

    def check(self, tally: Any) -> bool:
        """After a chunk, in chunk order: stop here? If not, how far to run ahead."""
        if (self.enough(tally) if self.enough else precise(tally, self.width)):
            self.stopped = True
            return True
        self._limit = max(tally.count + self.size, needed(tally, self.width))
        return False


def stop_reason(count: int, cap: int, tally: Any, width: float) -> dict[str, Any]:
    """What ``summary.json`` says of a batch run until sure (its ``precision`` block)."""
    return {"width": width, "cap": cap, "reached": precise(tally, width),
            "widest": round(widest(tally), 6), "fights": count}


def stop_text(block: dict[str, Any], unit: str = "fights") -> str:
    """One line: how many fights (or campaign ``runs``) it took, or that the cap came first."""
    w = block["width"]
    if block["reached"]:
        return (f"every interval within +-{w:g} after {block['fights']} {unit} "
                f"(widest +-{block['widest']:.3f})")
    return (f"stopped at the cap of {block['cap']} {unit} before every interval was within "
            f"+-{w:g} (widest +-{block['widest']:.3f}); raise -n for more")
