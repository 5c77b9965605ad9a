"""Rollout ``i`` of every line of a menu, side by side: lines that come together are fought once.

A menu's lines often differ in nothing that lasts past their round: a dodge nobody tests,
called shots that all miss, a walk that a queue stops where a stand would have left the
fighter. Fought apart, each costs a whole fight. Here the rollouts of one index, every
line on the same fresh dice (``rollout.dice_seed``), are fought together up to the start of
each of the ``READS`` rounds after the moment's, and halted there (``Encounter.fight_on``):

- lines whose fighters stand at the same places, with the same books (a cheap first
  look, ``_glance``), are compared by their whole state, part by part
  (``sim.core.state.part``), the deciding fighter's first;
- of lines in the same state, only the first is fought on, and the others end as it does:
  from the same state and the same dice, the rest of the fight is the same, die for die.

A fight halts only where nothing else is waiting at that instant (no effect due then), so it
goes on exactly as it would have unhalted: the numbers are those of ``rollout.play_out``
for each line, only sooner.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any

from sim.ai import rollout
from sim.core import state

if TYPE_CHECKING:
    import simpy

    from sim.ai.rollout import Choice, Moment, Outcome, Script
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# the round starts after the moment's at which lines are compared: lines that come
# together do so at once (a dodge nobody tests) or within a round or two (walks a queue
# stops alike). Measured (docs/performance.md "What a `?` costs")
READS = 3
_UNREAD = object()  # a part of a line's state not read yet at this halt
# lines go on side by side after a first look only where at least this share of the
# first look's rollouts of the lines left came to another line's state: elsewhere
# comparing them costs more than it saves (the few best lines of a short, cheap fight,
# which all differ). Measured (docs/performance.md "What a `?` costs")
SHARED_ENOUGH = 0.25


def pays(shared: int, played: int) -> bool:
    """Whether lines weighed on are worth weighing side by side (``SHARED_ENOUGH``).

    ``shared`` of their ``played`` rollouts ended as another line's did.
    """
    return shared >= SHARED_ENOUGH * played


class _Line:
    """One line's rollout on its way: its encounter, its script, where it is halted."""

    def __init__(self, m: Moment, choice: Choice, index: int, horizon: int | None):
        self.enc, self.script = rollout.begin(m, choice, index, horizon)
        self.halt: simpy.Event | None = None
        self.gate: simpy.Event | None = None
        self.enc.at_round = self._at_round
        me = next(f for f in self.enc.combatants if f.name == m.name)
        # the parts of its state in the order compared, and each read while halted
        self.order: list[Combatant | None] = [me, *[f for f in self.enc.combatants
                                                   if f is not me], None]
        self.parts: list[Any] = []

    def _at_round(self, enc: Encounter) -> simpy.Event | None:
        """Halt at the start of the ``READS`` rounds after the moment's (``fight_on``)."""
        script: Script = self.script
        if not script.taken or enc.round < script.round:  # (before the moment's end)
            return None
        if script.missed or enc.round >= script.round + READS:  # (nothing more to compare)
            enc.at_round = None
            return None
        if enc.env._queue:  # noqa: SLF001 (an effect is due now too: halting would
            return None  # reorder it with the round's start)
        assert self.halt is not None
        self.halt.succeed()
        self.gate = enc.env.event()
        return self.gate

    def same_state(self, other: _Line) -> bool:
        """Whether this line's fight stands in ``other``'s state now (both halted).

        Part by part (``state.part``), each read once while halted, the deciding fighter's
        first (where two lines differ most often), the encounter's last: two lines in
        different states are most often told apart by their first part. Unreadable: no.
        """
        try:
            return all(self._part(j) == other._part(j) for j in range(len(self.parts)))
        except state.Unreadable:
            return False

    def _part(self, j: int) -> Any:
        value = self.parts[j]
        if value is _UNREAD:
            value = self.parts[j] = state.part(self.enc, self.order[j])
        return value

    def go_on(self) -> bool:
        """Fight on from where it is halted, to the next halt or the end: whether it ended."""
        if self.gate is not None:
            self.gate.succeed()
            self.gate = None
        self.halt = self.enc.env.event()
        self.parts = [_UNREAD] * len(self.order)  # (read anew at each halt)
        return self.enc.fight_on(self.halt)


def play_out_together(m: Moment, choices: list[Choice], index: int,
                      horizon: int | None = None, apart: bool = False,
                      ) -> tuple[list[Outcome | None], dict[int, int]]:
    """Rollout ``index`` of each of ``choices`` at ``m``, as ``rollout.play_out`` gives them.

    And the lines (by their place in ``choices``) that ended as an earlier line's, not
    fought on: the first line of their fight, which was (its own place there). ``apart``:
    each fought out on its own, none compared (where comparing does not pay: ``pays``).
    """
    if apart:
        return [rollout.play_out(m, ch, index, horizon) for ch in choices], {}
    # The cycle collector is held off meanwhile: every line's fight is alive at once, and
    # each collection would walk them all (a brawl's 55 lines: a third of the time). A
    # fight's objects hold cycles: its garbage waits for the collection after.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _together(m, choices, index, horizon)
    finally:
        if collecting:
            gc.enable()


def _together(m: Moment, choices: list[Choice], index: int, horizon: int | None,
              ) -> tuple[list[Outcome | None], dict[int, int]]:
    lines = [_Line(m, ch, index, horizon) for ch in choices]
    out: dict[int, Outcome | None] = {}
    same_as: dict[int, int] = {}  # a line that came to an earlier line's state: which
    going = list(range(len(lines)))
    while going:
        halted: dict[Any, list[int]] = {}  # by a first look: where each stands, and how
        for k in going:
            line = lines[k]
            if line.go_on():
                out[k] = rollout.outcome(m, line.enc, line.script, line.enc.ended())
            else:
                halted.setdefault(_glance(line.enc), []).append(k)
        going = []
        for group in halted.values():
            firsts: list[int] = []  # the group's lines in states of their own
            for k in group:
                first = next((j for j in firsts if lines[k].same_state(lines[j])), None)
                if first is None:
                    firsts.append(k)
                    going.append(k)
                else:
                    same_as[k] = first
        going.sort()
    for k in sorted(same_as):  # (an earlier line's own end and first are known by then)
        same_as[k] = same_as.get(same_as[k], same_as[k])
        out[k] = out[same_as[k]]
    return [out[k] for k in range(len(lines))], same_as


def _glance(enc: Encounter) -> tuple[Any, ...]:
    """A first look at a halted fight, cheap: where each fighter stands, how, and its books.

    Two fights in the same state look alike here; most that differ already do.
    """
    return tuple((f.pos, f.status, f.attacks, f.hits, f.damage) for f in enc.combatants)
