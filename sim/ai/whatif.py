""""What if?": the lines of a menu weighed by playing the fight on (``sim.ai.rollout``).

The engine that ``fray play``'s ``?`` and ``fray advise`` share; the command line asks it
(``question``, ``weigh``) and prints what it answers.

Asking never touches the fight: ``question`` reads the menu, the profile's choice and the
moment with the fight's generator set aside (``rollout.aside``), and the rollouts run in
encounters of their own. The rollouts of every line run in worker processes (forked: they
start from this process's memory, the moment included, and nothing is pickled but their
results), a chunk at a time. Each rollout's dice come from its own seed (``rollout i`` of
every line on the same dice), so the numbers are the same whatever the number of workers.
A chunk plays each of its rollouts for every line side by side: a line whose rollout comes
to the state another line's came to on the same dice ends as that one did, unfought
(``together``; the same numbers, sooner: a menu's lines often differ in nothing that lasts
past their round, such as a dodge nobody tests).

The budget goes where it decides (``weigh``): every line is first screened with a few
rollouts (``SCREEN``; fewer on a long menu, about what the lines weighed after it get in
all: ``screen_size``), and only the ``CONTENDERS`` best there go on
(``park``), with the profile's choice. At each look (the screen, a quarter, half of the
rollouts) a line that could not be as good as the one ahead, on the same dice, stops there
(``could_be_best``: its paired interval against the one ahead lies below 0; at the screen
only a line far behind). The profile's choice always goes to the end. Every line's numbers
stand on the rollouts it had, with intervals for that many, and it says so
(``Weighed.screened``).

What a player asks is "is this better than what my fighter would do?": each line's
difference from the profile's choice on the same dice (``Weighed.diff``, its interval), and
whether it can be told apart from the best line at all (``Weighed.group``: as good as the
best, within the dice; could be, on its fewer rollouts; behind).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from sim.ai import menu as menus
from sim.ai import ranking, rollout, together
from sim.ai.ranking import Fights, Weighed, could_be_best, rank
from sim.results.stats import Z95

if TYPE_CHECKING:
    from sim.ai.rollout import Choice, Moment, Outcome
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

CHUNK = 25  # rollouts a task (of all the lines weighed): few to start, enough to share two
SCREEN = 20  # rollouts every line has before any stops: the screen (fewer: ``screen_size``)
# lines (beside the profile's choice) weighed past the screen, the best at it: the rest of
# the budget goes to them (more when lines tie at the cut); others that could still be the
# best are only screened. Measured (docs/performance.md): a 60-line `?` in seconds
CONTENDERS = 6
# rollouts a line has at the screen at the least: on a long menu and a small budget (71
# lines, ``? 50``) the screen is cut to what the contenders get after it, down to this
SCREEN_LEAST = 5
LOOKS = (4, 2)  # later looks after n/4 and n/2 rollouts of each line still weighed
# a line stops when even the upper end of its one-sided 97.5% interval against the one
# ahead is below 0: each look at a line as good as the best stops it 1 time in 40
STOP_Z = Z95
# at the screen, the one ahead of many lines on a few rollouts is ahead partly by luck:
# only a line far behind it stops there (surrender, walking away from a blade)
SCREEN_Z = 3.0

Progress = Callable[[int, int], None]  # (rollouts done, rollouts planned), after each chunk

_WORK: tuple[Moment, list[Choice]] | None = None  # what forked workers read


class Pools(Protocol):
    """How a weighing gets its worker pool, and ends it at once (``weigh``)."""

    def make(self, workers: int) -> ProcessPoolExecutor:
        """A pool of ``workers`` processes."""
        ...

    def kill(self, pool: ProcessPoolExecutor) -> None:
        """End the pool's workers now."""
        ...


@dataclass(frozen=True)
class Question:
    """What a ``?`` weighs, read from the fight without touching it.

    Attributes:
        moment: the fighter about to declare, by names (``rollout.moment``).
        choices: the lines weighed (a group's, and the profile's choice, when asked there).
        numbers: what the player types at that menu to take each line, by key (``3``, or
            ``3.2``: line 2 of the first menu's group 3; ``0``: the profile's choice).
        groups: the first menu's groups (``menus.Group``).
        lines: every line of the fighter's menu now (a group's ``?`` weighs fewer).
        not_now: the lines that cannot be taken now, each with why (``Option.blocked``):
            shown, never weighed nor ranked (unless it is the profile's choice).
    """

    moment: Moment
    choices: list[Choice]
    numbers: dict[str, str]
    groups: list[menus.Group]
    lines: int
    not_now: list[tuple[Choice, str]]


def question(enc: Encounter, c: Combatant, group: str | None = None,
             grouped: bool = True, by_key: bool = False) -> Question:
    """What ``?`` at ``c``'s menu weighs: every line, or the group ``group``'s and the profile's.

    ``grouped``: the two-step menu's numbers (else the one long list's); ``by_key``: each
    rollout finds its line again by keyword (``rollout.choices``: ``fray advise``). Nothing
    here draws from the fight's generator (``rollout.aside``).
    """
    with rollout.aside(enc, c):
        choices = rollout.choices(enc, c, by_key=by_key)
        menu = menus.options(enc, c)
        entries = menus.top(menu) if grouped else list(menu)
        moment = rollout.moment(enc, c)
    groups = [e for e in entries if isinstance(e, menus.Group)]
    numbers = {rollout.PROFILE: "0"}
    for k, entry in enumerate(entries, start=1):
        if isinstance(entry, menus.Group):
            inner = entry.key == group
            numbers.update((o.key, f"{j}" if inner else f"{k}.{j}")
                           for j, o in enumerate(entry.options, start=1))
        else:
            numbers[entry.key] = str(k)
    blocked = {o.key: o.blocked for o in menu if o.blocked}
    not_now = [(ch, blocked[ch.key]) for ch in choices if ch.key in blocked and not ch.ai]
    choices = [ch for ch in choices if ch.key not in blocked or ch.ai]
    lines = len(choices)
    chosen = next((g for g in groups if g.key == group), None)
    if chosen is not None:
        choices = within(choices, chosen)
        keys = {o.key for o in chosen.options}
        not_now = [(ch, why) for ch, why in not_now if ch.key in keys]
        # in the group's own menu only its lines have numbers (a first menu's line 1 is
        # not this menu's 1), and ``ai`` takes the profile's choice (``0`` goes back)
        numbers = {key: number if key in keys else "" for key, number in numbers.items()}
        numbers.update((ch.key, "ai") for ch in choices if ch.ai and ch.key not in keys)
        numbers[rollout.PROFILE] = "ai"
    return Question(moment, choices, numbers, groups, lines, not_now)


def within(choices: list[Choice], group: menus.Group) -> list[Choice]:
    """The choices of ``group``'s second menu, and the profile's choice to compare with."""
    keys = {o.key for o in group.options}
    return [ch for ch in choices if ch.key in keys or ch.ai]


def _chunk(task: tuple[tuple[int, ...], int, int, bool]
           ) -> tuple[int, dict[int, list[Outcome | None]], Fights]:
    """Rollouts ``start`` to ``stop`` of each of the lines ``lines``, and their outcomes.

    Returned: how many were played, the outcomes by line, and by line the first line of
    each rollout's fight (itself, unless it ended as an earlier line's; None: fought apart,
    not compared).

    ``together``: each rollout of every line side by side, and lines that come to the
    same state fought on once; else each fought out apart. The outcomes are the same.
    """
    assert _WORK is not None
    m, choices = _WORK
    lines, start, stop, side_by_side = task
    found: dict[int, list[Outcome | None]] = {k: [] for k in lines}
    fights: Fights = {k: [] for k in lines}
    for i in range(start, stop):
        outs, ended = together.play_out_together(m, [choices[k] for k in lines], i,
                                                 apart=not side_by_side)
        for j, k in enumerate(lines):
            fights[k].append(lines[ended.get(j, j)] if side_by_side else None)
        for k, o in zip(lines, outs, strict=True):
            found[k].append(o)
    return len(lines) * (stop - start), found, fights


def workers_default() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def screen_size(n: int, lines: int = 1) -> int:
    """Rollouts of each of ``lines`` lines at the screen of a weighing of ``n`` a line.

    A fifth of ``n``, from ``ranking.MIN_LOOK`` to ``SCREEN``; on a long menu no more than
    ``(CONTENDERS + 1) * n`` rollouts in all, what the contenders and the profile's choice
    are given, spread over the lines (``SCREEN_LEAST`` a line at the least): a ``? 50`` at
    71 lines screens 5 a line, not 10. Under ``ranking.MIN_LOOK`` a line nothing stops at the
    screen (too few pairs to say one is behind): ``park`` alone keeps the best there.
    """
    screen = max(ranking.MIN_LOOK, min(SCREEN, n // 5))
    after = (CONTENDERS + 1) * n // max(1, lines)
    return min(screen, max(SCREEN_LEAST, after))


def looks(n: int, race: bool = True, lines: int = 1) -> list[int]:
    """The rollouts of each line still weighed at each look, the last being ``n``.

    The screen (``screen_size``), then after ``n/4`` and ``n/2`` rollouts; none when ``n``
    is too small to stop at half of it (fewer than ``2 * ranking.MIN_LOOK``).
    """
    if not race or n < 2 * ranking.MIN_LOOK:
        return [n]
    screen = screen_size(n, lines)
    later = {n // d for d in LOOKS if n // d >= max(2 * screen, ranking.MIN_LOOK)}
    return sorted(s for s in {screen} | later if s <= n // 2) + [n]


def weigh(m: Moment, choices: list[Choice], n: int, workers: int | None = None,
          progress: Progress | None = None, race: bool = True,
          pools: Pools | None = None, share: bool = True) -> list[Weighed]:
    """Up to ``n`` rollouts of each line at ``m``, ranked (``rank``).

    ``race``: a line that could not be the best at a look (``looks``) stops there; else
    every line gets ``n``. ``progress`` hears of each chunk done. ``pools`` makes the
    worker pool and kills it on Ctrl-C (the caller's: workers that die with fray,
    ``sim.batch.executors``); without it, a plain forked pool. ``share``: a rollout that
    comes to the state of another line's on the same dice ends as it did, unfought
    (``together``); the numbers are the same without.
    """
    global _WORK
    _WORK = (m, choices)
    stops = looks(n, race, len(choices))
    found: dict[int, list[Outcome | None]] = {k: [] for k in range(len(choices))}
    fights: Fights = {k: [] for k in range(len(choices))}
    alive = list(range(len(choices)))
    workers = workers or workers_default()
    pool = None
    try:
        total, done_count, done = n * len(choices), 0, 0
        for stop in stops:
            span = max(1, CHUNK // len(alive))  # rollouts of each line a task
            tasks = [(tuple(alive), s, min(stop, s + span), share)
                     for s in range(done, stop, span)]
            if pool is None and workers > 1 and len(tasks) > 1:
                pool = (pools.make(workers) if pools is not None else ProcessPoolExecutor(
                    workers, mp_context=multiprocessing.get_context("fork")))
            for count, outs, firsts in (pool.map(_chunk, tasks) if pool is not None
                                        else map(_chunk, tasks)):
                for k, got in outs.items():  # (in order: the chunks come in rollout order)
                    found[k] += got
                    fights[k] += firsts[k]
                done_count += count
                if progress is not None:
                    progress(done_count, total)
            done = stop
            if stop < n:
                alive = survivors(choices, found, alive,
                                  SCREEN_Z if stop == stops[0] else STOP_Z)
                if stop == stops[0]:  # the screen: the rest goes to the few best there
                    parked = park(choices, found, alive)
                    alive = [k for k in alive if k not in parked]
                    # side by side on, where the lines left came together at the screen
                    shared = sum(1 for k in alive for first in fights[k]
                                 if first is not None and first != k)
                    share = share and together.pays(shared, stop * len(alive))
                total = done_count + (n - done) * len(alive)
    except KeyboardInterrupt:  # a weighing stopped: its workers now, not their chunks' end
        if pool is not None and pools is not None:
            pools.kill(pool)
        raise
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)  # (Ctrl-C: no chunk left to wait for)
        _WORK = None
    return rank(choices, found, stops[0] if len(stops) > 1 else n, fights)


def park(choices: list[Choice], found: dict[int, list[Outcome | None]],
         alive: list[int]) -> set[int]:
    """The lines of ``alive`` left at the screen: all but the ``CONTENDERS`` best there.

    Best by their side's wins, then the fighter alive, then standing (``ranking.shares``), then
    the harm the foes took less its side's (``Outcome.balance``: in a fight every line
    wins, the lines part there); an exact tie by the rollouts themselves, so only lines
    that played out alike on every die tie at the cut, and they all go on (two lines alike
    are never parted). The profile's choice goes on whatever it did.
    """
    rivals = [k for k in alive if not choices[k].ai]
    if len(rivals) <= CONTENDERS:
        return set()
    keys = {k: (ranking.shares(found[k]), _balance(found[k]), _played(found[k])) for k in rivals}
    cut = sorted(keys.values(), reverse=True)[CONTENDERS - 1]
    return {k for k in rivals if keys[k] < cut}


def _played(outs: list[Outcome | None]) -> tuple[tuple[int, int, int, int, float], ...]:
    """The rollouts as they went, to order lines that tie on their shares."""
    return tuple((-1, 0, 0, 0, 0.0) if o is None
                 else (o.won, o.alive, o.standing, -o.rounds, o.balance) for o in outs)


def _balance(outs: list[Outcome | None]) -> float:
    """The mean ``Outcome.balance`` of ``outs`` (those reached): the foes' harm less its own."""
    got = [o.balance for o in outs if o is not None]
    return sum(got) / len(got) if got else 0.0


def survivors(choices: list[Choice], found: dict[int, list[Outcome | None]],
              alive: list[int], z: float = STOP_Z) -> list[int]:
    """The lines of ``alive`` still worth weighing.

    Those that could be the best (not ``behind`` at ``z``), and the profile's choice
    whatever it did.
    """
    out = behind(choices, found, alive, z)
    return [k for k in alive if k not in out or choices[k].ai]


def behind(choices: list[Choice], found: dict[int, list[Outcome | None]], alive: list[int],
           z: float = STOP_Z) -> set[int]:
    """The lines of ``alive`` that could not be as good as the one ahead at this look.

    The one ahead wins the largest share of its rollouts so far (``ranking.ahead``; a tie goes by
    keyword, never by the menu's order, which follows the scenario file's); another is
    behind when ``could_be_best`` at ``z`` says no.
    """
    ahead = ranking.ahead(found, sorted(alive, key=lambda k: choices[k].key))
    if ahead is None:
        return set()
    return {k for k in alive if k != ahead and not could_be_best(found[k], found[ahead], z)}


