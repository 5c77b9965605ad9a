""""What if?": each choice at a moment weighed by playing the fight on (``sim.ai.rollout``).

The rollouts of every choice run in worker processes (forked: they start from this
process's memory, the moment included, and nothing is pickled but their results), a chunk
at a time, with a progress bar on stderr. Each rollout's dice come from its own seed, so
the numbers are the same whatever the number of workers.

A choice clearly behind is not weighed to the end (``race``): after a quarter and after
half of the rollouts, a choice that trails the one ahead by more than its noise (the
standard error of their difference on the same dice, ``behind``) stops there; its numbers
stand on the rollouts it had, and say so. The profile's own choice is always weighed to the
end.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from sim.ai import rollout
from sim.report.numbers import chance
from sim.results.stats import wilson

if TYPE_CHECKING:
    from sim.ai.menu import Group
    from sim.ai.rollout import Choice, Moment, Outcome

CHUNK = 25  # rollouts a task: few enough tasks to start, enough to share two workers
LOOKS = (4, 2)  # a race looks at the choices after n/4 and n/2 rollouts of each
MIN_LOOK = 25  # nor on fewer rollouts than this (a look at a handful would drop on luck)
# the chance that any choice as good as the one ahead is stopped, over every choice and
# look (a Bonferroni bound: each test is held to FALSE_STOP / (choices x looks))
FALSE_STOP = 0.05

_WORK: tuple[Moment, list[Choice]] | None = None  # what forked workers read


@dataclass(frozen=True)
class Weighed:
    """One choice and what its rollouts gave.

    Attributes:
        choice: the choice.
        n: rollouts that reached it (a ``fray advise`` fight may never offer it).
        wins, standing: of those, the side won; the fighter was still in the fight.
        rounds: the mean rounds they lasted after the moment.
        planned: rollouts it was given (fewer than asked: it stopped clearly behind).
    """

    choice: Choice
    n: int
    wins: int
    standing: int
    rounds: float
    planned: int = 0

    @property
    def p_win(self) -> float:
        """Share of rollouts the side won."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of ``p_win`` (0 and 1 exactly at its ends)."""
        low, high = wilson(self.wins, self.n)
        return (0.0 if self.wins == 0 else low, 1.0 if self.wins == self.n else high)

    @property
    def p_standing(self) -> float:
        """Share of rollouts the fighter ended still in the fight."""
        return self.standing / self.n if self.n else 0.0


def _chunk(task: tuple[int, int, int]) -> tuple[int, int, list[Outcome | None]]:
    assert _WORK is not None
    m, choices = _WORK
    k, start, stop = task
    return k, stop - start, [rollout.play_out(m, choices[k], i) for i in range(start, stop)]


def within(choices: list[Choice], group: Group) -> list[Choice]:
    """The choices of ``group``'s second menu, and the profile's choice to compare with."""
    keys = {o.key for o in group.options}
    return [ch for ch in choices if ch.key in keys or ch.ai]


def workers_default() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def weigh(m: Moment, choices: list[Choice], n: int, workers: int | None = None,
          bar: bool = True, race: bool = True) -> list[Weighed]:
    """Up to ``n`` rollouts of each choice at ``m``, best first (P(win), then P(standing)).

    ``race``: a choice clearly behind after a look (``LOOKS``) stops there; else every
    choice gets ``n``.
    """
    global _WORK
    _WORK = (m, choices)
    stops = sorted({n // d for d in LOOKS if n // d >= MIN_LOOK} if race else set()) + [n]
    found: dict[int, list[Outcome | None]] = {k: [] for k in range(len(choices))}
    alive = list(range(len(choices)))
    workers = workers or workers_default()
    progress = Progress(TextColumn("what if?"), BarColumn(), MofNCompleteColumn(),
                        console=Console(stderr=True), transient=True, disable=not bar,
                        auto_refresh=False)
    pool = None
    try:
        with progress:
            job = progress.add_task("rollouts", total=n * len(choices))
            done = 0
            for stop in stops:
                tasks = [(k, s, min(stop, s + CHUNK)) for k in alive
                         for s in range(done, stop, CHUNK)]
                if pool is None and workers > 1 and len(tasks) > 1:
                    pool = ProcessPoolExecutor(
                        workers, mp_context=multiprocessing.get_context("fork"))
                for k, count, outs in (pool.map(_chunk, tasks) if pool is not None
                                       else map(_chunk, tasks)):
                    found[k] += outs  # (in order: a choice's chunks come in rollout order)
                    progress.update(job, advance=count, refresh=True)
                done = stop
                if stop < n:
                    alive = survivors(choices, found, alive, behind(len(choices),
                                                                    len(stops) - 1))
                    progress.update(job, total=sum(len(v) for v in found.values())
                                    + (n - done) * len(alive), refresh=True)
    finally:
        if pool is not None:
            pool.shutdown()
        _WORK = None
    out = []
    for k, choice in enumerate(choices):
        got = [o for o in found[k] if o is not None]
        out.append(Weighed(choice, len(got), sum(o.won for o in got),
                           sum(o.standing for o in got),
                           sum(o.rounds for o in got) / len(got) if got else 0.0,
                           len(found[k])))
    return sorted(out, key=lambda w: (-w.p_win, -w.p_standing, not w.choice.ai))


def behind(choices: int, looks: int) -> float:
    """Standard errors a choice must trail the one ahead by to stop (``FALSE_STOP``).

    A one-sided test at ``FALSE_STOP / (choices x looks)``: 2.9 for 12 choices and two
    looks, 3.3 for 52.
    """
    return NormalDist().inv_cdf(1 - FALSE_STOP / max(1, choices * looks))


def survivors(choices: list[Choice], found: dict[int, list[Outcome | None]],
              alive: list[int], bound: float) -> list[int]:
    """The choices of ``alive`` still worth weighing: none ``bound`` behind the one ahead.

    The one ahead wins most of its rollouts so far; another trails it by the mean of their
    differences in wins, rollout by rollout (the same dice), over its standard error. A
    rollout that did not reach the choice (``fray advise``) pairs with nothing. The
    profile's choice always stays.
    """
    def share(k: int) -> float:
        got = [o.won for o in found[k] if o is not None]
        return sum(got) / len(got) if got else 0.0

    ahead = max(alive, key=share)
    kept = []
    for k in alive:
        if k != ahead and not choices[k].ai and _trails(found[ahead], found[k]) > bound:
            continue
        kept.append(k)
    return kept


def _trails(ahead: list[Outcome | None], other: list[Outcome | None]) -> float:
    """Standard errors by which ``other`` trails ``ahead``, rollout by rollout (0: no lead)."""
    diffs = [int(a.won) - int(b.won) for a, b in zip(ahead, other, strict=False)
             if a is not None and b is not None]
    if len(diffs) < 2:
        return 0.0
    mean = sum(diffs) / len(diffs)
    if mean <= 0:
        return 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return math.inf if var == 0 else mean / math.sqrt(var / len(diffs))


def table(weighed: list[Weighed], side: str, name: str, n: int,
          which: str | None = None) -> str:
    """The weighed choices as text, best first, the profile's marked.

    ``which``: what was weighed, in words (default: each choice).
    """
    labels = [_short(w.choice.label) for w in weighed]
    width = max(len(label) for label in labels) + 2
    raced = any(w.planned < n for w in weighed)
    lines = [f"What if? {n} rollouts of {which or 'each choice'} from here"
             + (" (a choice clearly behind stopped sooner: marked)" if raced else "")
             + ": after it, every fighter (yours too) plays by its AI profile, with fresh "
               "dice.",
             f"  {'choice':<{width}} {side + ' wins':>10}  {'95% interval':>12}  "
             f"{name + ' standing':>{len(name) + 9}}  rounds left"]
    for w, label in zip(weighed, labels, strict=True):
        low, high = w.interval
        mark = "   <- its profile's choice" if w.choice.ai else ""
        span = f"{chance(low)}-{chance(high)}" if w.n else "-"
        notes = ([f"{w.planned} rollouts: clearly behind"] if w.planned < n else []) \
            + ([f"{w.n} reached"] if w.n < w.planned else [])
        lines.append(f"  {label:<{width}} {chance(w.p_win) if w.n else '-':>10}  "
                     f"{span:>12}  {chance(w.p_standing) if w.n else '-':>{len(name) + 9}}  "
                     f"{w.rounds:>11.1f}{mark}" + (f"   ({'; '.join(notes)})" if notes else ""))
    return "\n".join(lines)


LABEL = 64  # characters of a choice in the table (a place's name can make one long)


def _short(label: str) -> str:
    return label if len(label) <= LABEL else label[:LABEL - 3].rstrip() + "..."


def as_json(weighed: list[Weighed], side: str | None = None,
            name: str | None = None) -> dict[str, Any]:
    """``fray advise --json``: one object, its options best first.

    ``combatant`` and ``side`` say whose win ``p_win`` is and who ``p_standing`` is (the
    table's column heads); ``rounds`` is the table's "rounds left"; ``stopped``: the
    option's rollouts stopped before the others', clearly behind (``n`` counts them).
    """
    head = {} if name is None else {"combatant": name, "side": side}
    most = max((w.planned for w in weighed), default=0)
    return {**head, "options": [{"label": w.choice.label, "ai": w.choice.ai, "p_win": w.p_win,
                                 "low": w.interval[0], "high": w.interval[1],
                                 "p_standing": w.p_standing, "n": w.n, "rounds": w.rounds,
                                 "stopped": w.planned < most}
                                for w in weighed]}
