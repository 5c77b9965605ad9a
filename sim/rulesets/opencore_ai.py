"""What the cautious and tactical AIs ask OpenCore: danger, the defense action, the bide.

A mixin of :class:`~sim.rulesets.opencore.OpenCoreRuleset`. One action a round and a 3 m
move make timing the lever: a fighter who steps into reach spends its action on the step,
and the foe who waited strikes first -- all the more after a bide (+20 initiative next
round). So the tactical AI lets a foe who can step into reach come to it, biding; and a
fighter with nothing in reach bides or, under fire, takes the defense action (Evade
doubled until its next action).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.actions import Bide, Defend
from sim.battlefield import MELEE_REACH

if TYPE_CHECKING:
    from sim.actions import Intent
    from sim.combatant import Combatant
    from sim.engine import Encounter
    from sim.rulesets.opencore_fighter import OpenCoreFighter

class OpenCoreTactics:
    """The cautious and tactical AI hooks of OpenCore (see ``Ruleset``)."""

    def danger(self, enc: Encounter, actor: OpenCoreFighter) -> float:
        """Attack skill (out of 100) times the average damage of a hit."""
        dice = actor.fire.damage
        mean = 0.0 if dice is None else (dice.dice * (dice.sides + 1) / 2 + dice.bonus
                                         + (actor.str_mod if dice.plus_str else 0))
        return max(0, actor.attack_skill - actor.skill_penalty) / 100 * mean

    def defense_kind(self, enc: Encounter, actor: OpenCoreFighter,
                     ranged: bool) -> str | None:
        """The defense action (Evade doubled), when there is Evade to double.

        Measured in the mirror match: even Evade 15 doubled, taken while waiting under
        arrows, raised the tactical side's wins from 66% to 70%.
        """
        return "dodge" if actor.evade > 0 else None

    def waits_for(self, enc: Encounter, actor: OpenCoreFighter, target: Combatant) -> bool:
        """A melee foe that can step into reach itself: let it spend its action on the step."""
        if target.ranged or actor.ranged:
            return False
        gap = enc.field.distance(actor.pos, target.pos) - MELEE_REACH
        return 0 < gap <= target.speed

    def wait_intents(self, enc: Encounter, actor: OpenCoreFighter,
                     foes: list[Combatant]) -> tuple[list[Intent], str]:
        """Bide for the first strike when a foe can step into reach, else defend under fire.

        With neither, bide anyway: it costs nothing when there is nothing to do.
        """
        distance = enc.field.distance
        for e in foes:
            if not e.ranged and distance(actor.pos, e.pos) - MELEE_REACH <= e.speed:
                return [Bide()], f"bides for the first strike on {e.name}"
        shooters = [e for e in foes if e.ranged and distance(actor.pos, e.pos) <= e.reach]
        if shooters and self.defense_kind(enc, actor, ranged=True):
            return [Defend("dodge")], f"evades {shooters[0].name}'s shots"
        return [Bide()], "bides"
