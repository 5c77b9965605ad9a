""""What if?": each choice at a moment weighed by playing the fight on (``sim.ai.rollout``).

The rollouts of every choice run in worker processes (forked: they start from this
process's memory, the moment included, and nothing is pickled but their results), a chunk
at a time, with a progress bar on stderr. Each rollout's dice come from its own seed, so
the numbers are the same whatever the number of workers.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from sim.ai import rollout
from sim.report.numbers import chance
from sim.results.stats import wilson

if TYPE_CHECKING:
    from sim.ai.rollout import Choice, Moment, Outcome

CHUNK = 25  # rollouts a task: few enough tasks to start, enough to share two workers

_WORK: tuple[Moment, list[Choice]] | None = None  # what forked workers read


@dataclass(frozen=True)
class Weighed:
    """One choice and what its rollouts gave.

    Attributes:
        choice: the choice.
        n: rollouts that reached it (a ``fray advise`` fight may never offer it).
        wins, standing: of those, the side won; the fighter was still in the fight.
        rounds: the mean rounds they lasted after the moment.
    """

    choice: Choice
    n: int
    wins: int
    standing: int
    rounds: float

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


def workers_default() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def weigh(m: Moment, choices: list[Choice], n: int, workers: int | None = None,
          bar: bool = True) -> list[Weighed]:
    """``n`` rollouts of each choice at ``m``, best first (P(win), then P(standing))."""
    global _WORK
    _WORK = (m, choices)
    tasks = [(k, s, min(n, s + CHUNK)) for k in range(len(choices)) for s in range(0, n, CHUNK)]
    found: dict[int, list[Outcome | None]] = {k: [] for k in range(len(choices))}
    workers = workers or workers_default()
    progress = Progress(TextColumn("what if?"), BarColumn(), MofNCompleteColumn(),
                        console=Console(stderr=True), transient=True, disable=not bar,
                        auto_refresh=False)
    try:
        with progress:
            job = progress.add_task("rollouts", total=n * len(choices))
            if workers <= 1 or len(tasks) == 1:
                results = map(_chunk, tasks)
                for k, done, outs in results:
                    found[k] += outs
                    progress.update(job, advance=done, refresh=True)
            else:
                context = multiprocessing.get_context("fork")
                with ProcessPoolExecutor(workers, mp_context=context) as pool:
                    for k, done, outs in pool.map(_chunk, tasks):
                        found[k] += outs
                        progress.update(job, advance=done, refresh=True)
    finally:
        _WORK = None
    out = []
    for k, choice in enumerate(choices):
        got = [o for o in found[k] if o is not None]
        out.append(Weighed(choice, len(got), sum(o.won for o in got),
                           sum(o.standing for o in got),
                           sum(o.rounds for o in got) / len(got) if got else 0.0))
    return sorted(out, key=lambda w: (-w.p_win, -w.p_standing, not w.choice.ai))


def table(weighed: list[Weighed], side: str, name: str, n: int) -> str:
    """The weighed choices as text, best first, the profile's marked."""
    labels = [_short(w.choice.label) for w in weighed]
    width = max(len(label) for label in labels) + 2
    lines = [f"What if? {n} rollouts of each choice from here: after it, every fighter "
             f"(yours too) plays by its AI profile, with fresh dice.",
             f"  {'choice':<{width}} {side + ' wins':>10}  {'95% interval':>12}  "
             f"{name + ' standing':>{len(name) + 9}}  rounds left"]
    for w, label in zip(weighed, labels, strict=True):
        low, high = w.interval
        mark = "   <- its profile's choice" if w.choice.ai else ""
        span = f"{chance(low)}-{chance(high)}" if w.n else "-"
        lines.append(f"  {label:<{width}} {chance(w.p_win) if w.n else '-':>10}  "
                     f"{span:>12}  {chance(w.p_standing) if w.n else '-':>{len(name) + 9}}  "
                     f"{w.rounds:>11.1f}{mark}" + ("" if w.n == n else f"   ({w.n} reached)"))
    return "\n".join(lines)


LABEL = 64  # characters of a choice in the table (a place's name can make one long)


def _short(label: str) -> str:
    return label if len(label) <= LABEL else label[:LABEL - 3].rstrip() + "..."


def as_json(weighed: list[Weighed], side: str | None = None, name: str | None = None) -> dict:
    """``fray advise --json``: one object, its options best first.

    ``combatant`` and ``side`` say whose win ``p_win`` is and who ``p_standing`` is (the
    table's column heads); ``rounds`` is the table's "rounds left".
    """
    head = {} if name is None else {"combatant": name, "side": side}
    return {**head, "options": [{"label": w.choice.label, "ai": w.choice.ai, "p_win": w.p_win,
                                 "low": w.interval[0], "high": w.interval[1],
                                 "p_standing": w.p_standing, "n": w.n, "rounds": w.rounds}
                                for w in weighed]}
