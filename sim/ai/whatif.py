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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from sim.ai import menu as menus
from sim.ai import rollout, together
from sim.results.stats import Z95, paired_difference, wilson

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
MIN_LOOK = 10  # rollouts paired with the one ahead a line needs before it can stop
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
        numbers = {key: number if "." not in number else "" for key, number in numbers.items()}
    return Question(moment, choices, numbers, groups, lines, not_now)


def within(choices: list[Choice], group: menus.Group) -> list[Choice]:
    """The choices of ``group``'s second menu, and the profile's choice to compare with."""
    keys = {o.key for o in group.options}
    return [ch for ch in choices if ch.key in keys or ch.ai]


@dataclass(frozen=True)
class Weighed:
    """One line and what its rollouts gave.

    Attributes:
        choice: the line.
        n: rollouts that reached it (a ``fray advise`` fight may never offer it).
        wins, standing, alive: of those, the side won; the fighter was still in the fight;
            it was alive at the end (in the fight, fled or yielded).
        rounds: the mean rounds they lasted after the moment.
        planned: rollouts it was given (fewer than asked: it stopped, clearly behind).
        diff, diff_low, diff_high: its side's wins less the profile's choice's, on the same
            dice (the rollouts both had), and the 95% interval of that difference.
        best: it cannot be told apart from the best line on the same dice: as good as the
            best, within the dice (the best line itself too).
        screened: it stopped at the first look (the screen, ``screen_size``): only screened.
        maybe: it had fewer rollouts than the lines weighed to the end (it stopped or was
            only screened), and on those it cannot be told apart from the best line: it
            could be as good.
        as_one: the keys of the lines that were the same fight as this one on every
            rollout both had (they came to the same state within ``together.READS``
            rounds, on the same dice: what followed was one fight, fought once).
    """

    choice: Choice
    n: int
    wins: int
    standing: int
    alive: int
    rounds: float
    planned: int = 0
    diff: float = 0.0
    diff_low: float = 0.0
    diff_high: float = 0.0
    best: bool = False
    screened: bool = False
    maybe: bool = False
    as_one: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        """Its group: ``best`` (within the dice), ``maybe`` (on fewer dice) or ``behind``."""
        return "best" if self.best else "maybe" if self.maybe else "behind"

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

    @property
    def p_alive(self) -> float:
        """Share of rollouts the fighter ended alive (standing, fled or yielded)."""
        return self.alive / self.n if self.n else 0.0


Fights = dict[int, list[int | None]]  # by line, each rollout's first line of its fight


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
        if side_by_side:
            outs, ended = together.play_out_together(m, [choices[k] for k in lines], i)
            for j, k in enumerate(lines):
                fights[k].append(lines[ended.get(j, j)])
        else:
            outs = [rollout.play_out(m, choices[k], i) for k in lines]
            for k in lines:
                fights[k].append(None)
        for k, o in zip(lines, outs, strict=True):
            found[k].append(o)
    return len(lines) * (stop - start), found, fights


def workers_default() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def screen_size(n: int, lines: int = 1) -> int:
    """Rollouts of each of ``lines`` lines at the screen of a weighing of ``n`` a line.

    A fifth of ``n``, from ``MIN_LOOK`` to ``SCREEN``; on a long menu no more than
    ``(CONTENDERS + 1) * n`` rollouts in all, what the contenders and the profile's choice
    are given, spread over the lines (``SCREEN_LEAST`` a line at the least): a ``? 50`` at
    71 lines screens 5 a line, not 10. Under ``MIN_LOOK`` a line nothing stops at the
    screen (too few pairs to say one is behind): ``park`` alone keeps the best there.
    """
    screen = max(MIN_LOOK, min(SCREEN, n // 5))
    after = (CONTENDERS + 1) * n // max(1, lines)
    return min(screen, max(SCREEN_LEAST, after))


def looks(n: int, race: bool = True, lines: int = 1) -> list[int]:
    """The rollouts of each line still weighed at each look, the last being ``n``.

    The screen (``screen_size``), then after ``n/4`` and ``n/2`` rollouts; none when ``n``
    is too small to stop at half of it (fewer than ``2 * MIN_LOOK``).
    """
    if not race or n < 2 * MIN_LOOK:
        return [n]
    screen = screen_size(n, lines)
    later = {n // d for d in LOOKS if n // d >= max(2 * screen, MIN_LOOK)}
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

    Best by their side's wins, then the fighter alive, then standing (``_share``), then
    the harm the foes took less its side's (``Outcome.balance``: in a fight every line
    wins, the lines part there); an exact tie by the rollouts themselves, so only lines
    that played out alike on every die tie at the cut, and they all go on (two lines alike
    are never parted). The profile's choice goes on whatever it did.
    """
    rivals = [k for k in alive if not choices[k].ai]
    if len(rivals) <= CONTENDERS:
        return set()
    keys = {k: (_share(found[k]), _balance(found[k]), _played(found[k])) for k in rivals}
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


def _share(outs: list[Outcome | None]) -> tuple[float, float, float]:
    """The shares of ``outs`` (those reached): the side won, the fighter alive, standing."""
    got = [o for o in outs if o is not None]
    if not got:
        return (0.0, 0.0, 0.0)
    return (sum(o.won for o in got) / len(got), sum(o.alive for o in got) / len(got),
            sum(o.standing for o in got) / len(got))


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

    The one ahead wins the largest share of its rollouts so far (``_ahead``; a tie goes by
    keyword, never by the menu's order, which follows the scenario file's); another is
    behind when ``could_be_best`` at ``z`` says no.
    """
    ahead = _ahead(found, sorted(alive, key=lambda k: choices[k].key))
    if ahead is None:
        return set()
    return {k for k in alive if k != ahead and not could_be_best(found[k], found[ahead], z)}


def _ahead(found: dict[int, list[Outcome | None]], among: list[int]) -> int | None:
    """The line of ``among`` whose side won most (then most alive), of those reached enough.

    Reached ``MIN_LOOK`` times at least; a tie goes to the first of ``among`` (the callers
    give them by key).
    """
    judged = [k for k in among if sum(o is not None for o in found[k]) >= MIN_LOOK]
    return max(judged, key=lambda k: _share(found[k])) if judged else None


def _paired(mine: list[Outcome | None], base: list[Outcome | None]) -> tuple[int, int, int]:
    """``(only mine won, only base won, pairs)`` over the rollouts both reached."""
    pairs = [(a.won, b.won) for a, b in zip(mine, base, strict=False)
             if a is not None and b is not None]
    return (sum(1 for a, b in pairs if a and not b), sum(1 for a, b in pairs if b and not a),
            len(pairs))


def could_be_best(mine: list[Outcome | None], ahead: list[Outcome | None],
                  z: float = Z95) -> bool:
    """Whether a line may win as often as the one ahead, on the same dice.

    The upper end of its paired interval against it (``paired_difference``) is 0 or more,
    or too few pairs say.
    """
    only_mine, only_ahead, pairs = _paired(mine, ahead)
    if pairs < MIN_LOOK:
        return True
    return paired_difference(only_mine, only_ahead, pairs, z)[2] >= 0


def rank(choices: list[Choice], found: dict[int, list[Outcome | None]],
         screen: int, fights: Fights | None = None) -> list[Weighed]:
    """The lines with their numbers, ranked.

    ``fights``: each rollout's first line of its fight (``_chunk``), which tells the lines
    that were one fight on every rollout both had (``Weighed.as_one``).

    The one ahead is the line weighed to the end whose side won most (``_ahead``). A line
    weighed to the end too that cannot be told apart from it on the same dice
    (``could_be_best``) is as good as the best, within the dice; a line cut short whose
    interval reaches the best's share could be (``maybe``); the rest are behind (all are
    as good, when too few rollouts say which is ahead). The best come first, the fighter's
    survival first among them (their side's results cannot be told apart); then the
    maybes, then those behind, by their side's wins, then survival. A tie goes by the
    line's keyword, never by the menu's order.
    """
    order = sorted(range(len(choices)), key=lambda k: choices[k].key)
    most = max((len(v) for v in found.values()), default=0)
    top = _ahead(found, [k for k in order if len(found[k]) == most])
    mine = next((k for k, ch in enumerate(choices) if ch.ai), None)
    out = []
    for k, choice in enumerate(choices):
        got = [o for o in found[k] if o is not None]
        diff, low, high = 0.0, 0.0, 0.0
        if mine is not None and k != mine:
            a, b, pairs = _paired(found[k], found[mine])
            diff, low, high = paired_difference(a, b, pairs)
        full = len(found[k]) == most
        # a line cut short is set against the best's share over all its rollouts: on the
        # few dice both had, the best was picked for its luck there
        w = Weighed(choice, len(got), sum(o.won for o in got), sum(o.standing for o in got),
                    sum(o.alive for o in got),
                    sum(o.rounds for o in got) / len(got) if got else 0.0, len(found[k]),
                    diff, low, high, screened=len(found[k]) <= screen < most,
                    as_one=() if fights is None else tuple(sorted(
                        choices[j].key for j in range(len(choices))
                        if j != k and _one_fight(fights[k], fights[j]))))
        told = top is None or (could_be_best(found[k], found[top]) if full
                               else w.interval[1] >= _share(found[top])[0])
        out.append(replace(w, best=told and full, maybe=told and not full))
    return sorted(out, key=_order)


def _one_fight(mine: list[int | None], other: list[int | None]) -> bool:
    """Whether two lines were one fight on every rollout both had (``MIN_LOOK`` at least).

    Each rollout's first line of its fight (``Fights``): the same one, on every rollout
    compared side by side; a rollout fought apart was not compared, and tells nothing.
    """
    both = list(zip(mine, other, strict=False))
    return len(both) >= MIN_LOOK and all(a is not None and a == b for a, b in both)


def _order(w: Weighed) -> tuple[int, float, float, str]:
    if w.best:
        return (0, -w.p_alive, -w.p_win, w.choice.key)
    return (1 if w.maybe else 2, -w.p_win, -w.p_alive, w.choice.key)

