"""The rounds of a fight, as the SimPy process the encounter runs (``Encounter.run``).

Each round: every combatant in the fight declares (in the ruleset's order, or at its own
turn), the ruleset plans timed actions, and each is resolved at ``round start + offset``;
actions sharing an offset are simultaneous, in an order drawn by the encounter's generator.
Then the round's end (``Ruleset.end_round``) and morale. The fight stops as soon as at
most one side is left, or after ``max_rounds``.
"""

from __future__ import annotations

from collections.abc import Generator
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import simpy

from sim.core import events
from sim.core.draws import shuffle

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

_OFFSET = attrgetter("offset")  # the sort key of a round's actions (in C: no Python call)


def fight(enc: Encounter) -> Generator[simpy.Event, Any, None]:
    """Play the rounds of ``enc`` until one side is left or the round limit."""
    env, ruleset = enc.env, enc.ruleset
    spr = ruleset.seconds_per_round
    ruleset.start(enc)
    if enc.log is not None:
        events.tell_start(enc)
    # nobody's doctrine can break: no morale to check at the rounds' ends
    judged = any(c.doctrine.morale is not None for c in enc.combatants)
    for rnd in range(1, enc.scenario.max_rounds + 1):
        if enc.at_round is not None:  # (between rounds: nothing is half done)
            halted = enc.at_round(enc)
            if halted is not None:  # (``Encounter.fight_on``)
                yield halted
        enc.round = rnd
        enc.round_start = start = env.now
        fighters = [c for c in enc.combatants if c.in_fight]
        if enc.log is not None:
            enc.emit("round", text=f"Round {rnd}")
        enc.declared = {}
        if enc.struck_free:
            enc.struck_free = set()
        declared: list[tuple[Combatant, list[Intent]]]
        if ruleset.declares_at_turn:  # each declares at its own turn (OpenD6)
            declared = [(c, []) for c in fighters]
        else:
            declared = []
            enc.nearest = enc.nearest_kept
            for c in ruleset.declaration_order(enc, fighters):
                intents = enc.declare(c)
                declared.append((c, intents))
                if intents and enc.log is not None:  # told now, before later declarers
                    events.tell_declared(enc, c, intents)
            enc.nearest = None
        actions = ruleset.plan_round(enc, declared)
        actions.sort(key=_OFFSET)
        i, n = 0, len(actions)
        while i < n:
            offset = actions[i].offset
            j = i + 1
            while j < n and actions[j].offset == offset:
                j += 1
            wait = start + offset - env.now
            if wait > 0:
                yield env.timeout(wait)
            if j - i == 1:
                if actions[i].actor.in_fight:
                    ruleset.resolve(enc, actions[i])
            else:  # simultaneous: whoever was up when the group began acts, in an
                # order drawn by the encounter's generator (never file order)
                able = [a for a in actions[i:j] if a.actor.in_fight]
                shuffle(enc.rng, able)
                if enc.log is not None and len({a.actor for a in able}) > 1:
                    events.tell_together(enc, able)
                    enc.instant_told = []
                for action in able:
                    if enc.log is not None and not action.actor.in_fight:
                        enc.emit("simultaneous", who=action.actor.name,
                                  text=f"{action.actor.name}, struck down in this same "
                                       "instant, still acts:")
                    ruleset.resolve(enc, action)
                if enc.instant_told is not None:  # the log tells the instant's end
                    for tell in enc.instant_told:
                        tell()
                    enc.instant_told = None
            i = j
            if enc.sides_left <= 1:
                return
        yield env.timeout(start + spr - env.now)
        ruleset.end_round(enc)
        if enc.sides_left <= 1:
            return
        enc.escapes()
        if enc.sides_left <= 1:
            return
        enc.tally_exchange()
        if judged:
            enc.check_morale()
            if enc.sides_left <= 1:
                return
