"""A throwaway ruleset written by following docs/adding-a-ruleset.md: one hit takes you out.

Each fighter makes one attack a round on the nearest foe in reach (or walks toward it);
a coin decides the hit, and a hit takes the target out, dead. Nothing else: no defense, no
points. It exists to prove that a new ruleset plugs in without touching anything outside
its own folder: the contract test runs it like the real ones.
"""

from __future__ import annotations

from sim.ai import tactics
from sim.ai.advisor import Advisor
from sim.core.actions import Attack, Move, Retreat, TimedAction
from sim.core.combatant import Combatant, Status
from sim.rulesets.base import Ruleset, offsets_by_rank
from sim.rulesets.dice import roll


class CoinAdvisor(Advisor):
    """Fresh until out: a single hit ends a fighter, so there is no "hurt"."""

    def threat(self, actor: Combatant) -> float:
        return 0.0 if actor.in_fight else 1.0


class CoinFlip(Ruleset):
    """Heads you are out."""

    name = "coinflip"
    aliases = ("coin",)
    summary = "Coin flip: one attack a round, heads takes the target out"
    seconds_per_round = 1.0
    Advisor = CoinAdvisor
    supports = frozenset({Attack, Move, Retreat})
    max_actions = 1

    def build(self, member, pos, rng):
        return Combatant(member, pos)

    def plan_round(self, enc, declared):
        actions = [TimedAction(0.0, f, intents[0], roll(enc.rng, 6))
                   for f, intents in declared if intents]
        offsets = offsets_by_rank([a.payload for a in actions], self.seconds_per_round)
        for a in actions:
            a.offset = offsets[a.payload]
            if enc.log is not None:
                enc.emit("declare", who=a.actor.name, text=f"{a.actor.name} declares "
                         f"{type(a.intent).__name__.lower()} ({a.actor.why}).")
        return actions

    def resolve(self, enc, action):
        f, intent = action.actor, action.intent
        if type(intent) is Move:
            self.walk_toward(enc, f, intent, f.speed)
        elif type(intent) is Retreat:
            self.move_to(enc, f, intent, f.speed)
        elif intent.target.in_fight:
            enc.record_attack(f)
            heads = tactics.in_reach(enc, f, intent.target) and roll(enc.rng, 2) == 2
            if enc.log is not None:
                enc.emit("roll", who=f.name, text=f"{f.name} flips at {intent.target.name}: "
                         f"{'heads' if heads else 'tails'}.")
            if heads:
                enc.record_hit(f, 1)
                enc.take_out(intent.target, Status.DEAD, "heads")
