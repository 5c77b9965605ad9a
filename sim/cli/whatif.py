""""What if?": each choice at a moment weighed by playing the fight on (``sim.ai.rollout``).

The rollouts of every choice run in worker processes (forked: they start from this
process's memory, the moment included, and nothing is pickled but their results), a chunk
at a time, with a progress bar on stderr. Each rollout's dice come from its own seed, so
the numbers are the same whatever the number of workers.

A choice clearly behind is not weighed to the end (``race``): after a quarter and after
half of the rollouts, a choice that loses to the one ahead on the same dice more often than
luck explains (an exact sign test, ``survivors``) stops there; its numbers stand on the
rollouts it had, and say so. The profile's own choice is always weighed to the end.
"""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from sim.ai import rollout
from sim.batch.executors import kill_workers, process_pool
from sim.report.numbers import chance
from sim.results.stats import sign_test, wilson

if TYPE_CHECKING:
    from sim.ai.menu import Group
    from sim.ai.rollout import Choice, Moment, Outcome

CHUNK = 25  # rollouts a task: few enough tasks to start, enough to share two workers
LOOKS = (4, 2)  # a race looks at the choices after n/4 and n/2 rollouts of each
MIN_LOOK = 25  # rollouts a look needs (of a choice, and paired with the one ahead)
# the chance that any choice at least as good as another is ever stopped behind it: a
# Bonferroni bound over every ordered pair of choices and every look (``stop_level``)
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

    ``race``: a choice clearly behind at a look (``LOOKS``, from ``MIN_LOOK`` rollouts)
    stops there; else every choice gets ``n``.
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
                    # workers that die with this process (SIGKILL included)
                    pool = process_pool(workers, multiprocessing.get_context("fork"))
                for k, count, outs in (pool.map(_chunk, tasks) if pool is not None
                                       else map(_chunk, tasks)):
                    found[k] += outs  # (in order: a choice's chunks come in rollout order)
                    progress.update(job, advance=count, refresh=True)
                done = stop
                if stop < n:
                    alive = survivors(choices, found, alive,
                                      stop_level(len(choices), len(stops) - 1))
                    progress.update(job, total=sum(len(v) for v in found.values())
                                    + (n - done) * len(alive), refresh=True)
    except KeyboardInterrupt:  # a weighing stopped: its workers now, not their chunks' end
        if pool is not None:
            kill_workers(pool)
        raise
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)  # (Ctrl-C: no chunk left to wait for)
        _WORK = None
    out = []
    for k, choice in enumerate(choices):
        got = [o for o in found[k] if o is not None]
        out.append(Weighed(choice, len(got), sum(o.won for o in got),
                           sum(o.standing for o in got),
                           sum(o.rounds for o in got) / len(got) if got else 0.0,
                           len(found[k])))
    return sorted(out, key=lambda w: (-w.p_win, -w.p_standing, not w.choice.ai))


def stop_level(choices: int, looks: int) -> float:
    """The p-value under which a choice stops behind the one ahead (``FALSE_STOP``).

    Whichever choice is ahead at a look, a stop is a test of one ordered pair: held to
    ``FALSE_STOP`` over every ordered pair and look, no choice as good as another is
    stopped behind it, in 95 races of 100.
    """
    return FALSE_STOP / max(1, choices * (choices - 1) * looks)


def survivors(choices: list[Choice], found: dict[int, list[Outcome | None]],
              alive: list[int], level: float) -> list[int]:
    """The choices of ``alive`` still worth weighing: none behind the one ahead.

    The one ahead wins the largest share of its rollouts so far, among those with
    ``MIN_LOOK`` of them (in ``fray advise`` a choice may be on few fights' menus). Another
    is behind when the rollouts that only one of the two won, on the same dice, went to the
    one ahead more often than a fair coin would give with p-value ``level`` (an exact
    one-sided sign test; rollouts both won or both lost say nothing of which is better).
    A choice with fewer than ``MIN_LOOK`` rollouts paired with it stays; so does the
    profile's.
    """
    def reached(k: int) -> list[bool]:
        return [o.won for o in found[k] if o is not None]

    def share(k: int) -> float:
        got = reached(k)
        return sum(got) / len(got)

    judged = [k for k in alive if len(reached(k)) >= MIN_LOOK]
    if not judged:
        return list(alive)
    ahead = max(judged, key=share)
    kept = []
    for k in alive:
        if k != ahead and not choices[k].ai and _lost_to(found[ahead], found[k]) < level:
            continue
        kept.append(k)
    return kept


def _lost_to(ahead: list[Outcome | None], other: list[Outcome | None]) -> float:
    """The p-value of ``other`` winning no more often than ``ahead`` on the same dice.

    Over the rollouts both reached, ``b`` went to ``ahead`` alone and ``c`` to ``other``
    alone: P(at least ``b`` heads in ``b + c`` fair tosses). 1.0 on fewer than ``MIN_LOOK``
    pairs.
    """
    pairs = [(a.won, o.won) for a, o in zip(ahead, other, strict=False)
             if a is not None and o is not None]
    if len(pairs) < MIN_LOOK:
        return 1.0
    return sign_test(sum(1 for a, o in pairs if a and not o),
                     sum(1 for a, o in pairs if o and not a))


def table(weighed: list[Weighed], side: str, name: str, n: int,
          which: str | None = None) -> str:
    """The weighed choices as text, best first, the profile's marked.

    ``which``: what was weighed, in words (default: each choice).
    """
    labels = [_short(w.choice.label) for w in weighed]
    width = max(len(label) for label in labels) + 2
    raced = any(w.planned < n for w in weighed)
    lines = [f"What if? {n} rollouts of {which or 'each choice'} from here"
             + (" (fewer for a choice marked 'stopped behind': it lost to the best too often "
               "to be worth the rest)" if raced else "")
             + ": after it, every fighter (yours too) plays by its AI profile, with fresh "
               "dice.",
             f"  {'choice':<{width}} {side + ' wins':>10}  {'95% interval':>12}  "
             f"{name + ' standing':>{len(name) + 9}}  rounds left"]
    for w, label in zip(weighed, labels, strict=True):
        low, high = w.interval
        mark = "   <- its profile's choice" if w.choice.ai else ""
        span = f"{chance(low)}-{chance(high)}" if w.n else "-"
        notes = ([f"stopped behind after {w.planned}"] if w.planned < n else []) \
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
