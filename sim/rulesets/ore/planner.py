"""ORE's roll plans for the AI and the planner: worked out once, kept while they hold.

``KeptPlans`` is the part of the ruleset that plans a roll (``OreRuleset.planner``): its
``plan`` answers the advisor's questions (can the attack succeed? a called shot? a second
attack?) and the round's planner with ``rules.plan_roll``; a plan of one or two attacks on
one foe is kept on the fighter (the last two single attacks, checked by identity) and
across encounters (``_PLANS``, by all it reads). B-Grade plans through it too, with its
own cap and multiple-action penalty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, cast

from sim.core import space
from sim.core.actions import Attack, Intent
from sim.rulesets.ore.fighter import OF
from sim.rulesets.ore.rules import RollPlan, action_pool, plan_roll
from sim.rulesets.ore.situation import CALLED_SHOT_PENALTY, situational_penalty

if TYPE_CHECKING:
    from sim.core.battlefield import Battlefield
    from sim.core.engine import Encounter
    from sim.rulesets.ore.catalog import Weapon
    from sim.scenario.specs import MemberSpec

# The numbers of roll plans of one or two attacks on one foe, kept across encounters
# (``KeptPlans.plan``): (base, skill, penalty, dice, called) by all they read. About a
# hundred in a batch of one scenario under one ruleset; starts over at PLANS_KEPT, which
# also bounds the maps and members the entries hold.
_PLANS: dict[tuple[Any, ...], tuple[Battlefield, MemberSpec, Weapon, tuple[Any, ...]]] = {}
PLANS_KEPT = 4096
# single attacks' plans a fighter keeps at most (``KeptPlans.plan``): its foes times the
# called locations, and a few more; starts over beyond
ATTACKS_KEPT = 64
_record = tuple.__new__


def _no_situation(intent: Intent) -> int:
    """A called shot's die and nothing else: the situation when none is known."""
    return CALLED_SHOT_PENALTY if type(intent) is Attack and intent.called else 0


def _attacks_on_one(intents: list[Intent]) -> tuple[str | None, ...] | None:
    """The called locations of one or two attacks on one foe (the plans a fighter keeps).

    None for any other declaration.
    """
    first = intents[0] if intents else None
    if type(first) is not Attack:
        return None
    if len(intents) == 1:
        return (first.called,)
    if len(intents) == 2 and type(intents[1]) is Attack and intents[1].target is first.target:
        return (first.called, intents[1].called)
    return None


class KeptPlans(Generic[OF]):
    """The roll plans of an ORE-family ruleset, held by it as ``planner``.

    Given at construction what it reads of the rules: the dice rolled at most (``cap``),
    the dice off per action beyond the first (``per_extra_action``) and the ruleset's
    class (``kind``), which keys the plans kept across encounters so that ORE's and
    B-Grade's never mix.
    """

    __slots__ = ("cap", "kind", "per_extra_action")

    def __init__(self, kind: type, cap: int | None, per_extra_action: int) -> None:
        self.kind = kind
        self.cap = cap
        self.per_extra_action = per_extra_action

    def plan(self, enc: Encounter | None, f: OF, intents: list[Intent]) -> RollPlan:
        """The roll ``f`` makes for ``intents`` (``rules.plan_roll``); the advisor asks too.

        With ``enc``, the situation now (range, cover, visibility, called shots); without,
        none: the fighter's pools alone.
        """
        if enc is None:
            return plan_roll(f, intents, _no_situation, cap=self.cap,
                             per_extra_action=self.per_extra_action)
        pos = f.pos
        pressed = f.weapon.ranged and space.pressed(enc, f)
        first = intents[0] if len(intents) == 1 else None
        if type(first) is not Attack:
            first = None
        else:
            # One attack (a value kept on its target, ``actions.attack_on``: the same object
            # for the same foe and called location), asked by the AI of every foe and
            # location and rolled by the planner round after round: each one's plan is kept
            # on the fighter by the intent's id, with all it read that can change in a fight
            # (its own and the foe's places, the weapon, dazed, a foe pressing it), checked
            # by identity without making a key (the stats never change in a fight).
            # Otherwise, the kept plans below.
            mine = f.plans.get(id(first))
            if (mine is not None and mine[0] is first and mine[1] is pos
                    and mine[2] is first.target.pos and mine[3] is f.weapon
                    and mine[4] is f.wounds.dazed and mine[5] is pressed):
                return mine[6]
        calls = _attacks_on_one(intents)
        if calls is None:
            return self._plan_now(enc, f, intents, pressed)
        # The AI asks for this plan (can the attack succeed? a called shot? a second
        # attack?) and the planner rolls it moments later, round after round, and the same
        # fighters stand at the same few places fight after fight: its numbers are worked
        # out once and kept across encounters (``_PLANS``), by everything they read: the
        # ruleset (cap, multiple-action penalty), the member (its special dice), the pool
        # (stats and skill, read live), the weapon, dazed, the map, both places, the called
        # locations, a shot with a foe in reach (as common as a melee reaching archers).
        # Keyed by the identity of the map, member and weapon, each held in the entry (so
        # that no other object takes its id while the entry lives); the plan is made anew
        # around them with these intents.
        attack = intents[0]
        if TYPE_CHECKING:  # ``_attacks_on_one`` found one or two attacks (no cast call)
            attack = cast(Attack, attack)
        target = attack.target
        field, spec, weapon = enc.field, f.spec, f.weapon
        key = (self.kind, id(field), id(spec), id(weapon), f.wounds.dazed, pos, target.pos,
               calls, action_pool(f, intents[0]), pressed)
        kept = _PLANS.get(key)
        if (kept is not None and kept[0] is field and kept[1] is spec
                and kept[2] is weapon):
            p = _record(RollPlan, (tuple(intents), *kept[3]))
        else:
            p = self._plan_now(enc, f, intents, pressed)
            if len(_PLANS) >= PLANS_KEPT:
                _PLANS.clear()
            _PLANS[key] = (field, spec, weapon, p[1:])
        if first is not None:
            plans = f.plans
            if len(plans) >= ATTACKS_KEPT:  # (a fighter's foes and locations: far fewer)
                plans.clear()
            plans[id(first)] = (first, pos, target.pos, f.weapon, f.wounds.dazed, pressed, p)
        return p

    def _plan_now(self, enc: Encounter, f: OF, intents: list[Intent],
                  pressed: bool) -> RollPlan:
        """``plan_roll`` in the situation now (``plan``, when no kept plan answers).

        ``pressed``: a shooter with a foe threatening it in melee (``space.pressed``).
        """
        field, pos = enc.field, f.pos

        def situation(intent: Intent) -> int:
            return situational_penalty(field, f, pos, intent, pressed)

        return plan_roll(f, intents, situation, cap=self.cap,
                         per_extra_action=self.per_extra_action)
