"""What the cautious and tactical AIs ask B-Grade: ORE's odds without the cap or the penalty.

A mixin placed before :class:`~sim.rulesets.ore_ai.OreTactics` in B-Grade's ruleset. B-Grade
has no hit locations (a called shot buys nothing), no 10-dice cap and no die lost for a
second action; but a roll uses the smallest pool of its actions, so a defense declared
with an attack is free only when its pool is no smaller than the attack's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.actions import Attack, Defend, Intent
from sim.rulesets.ore_ai import MULTI_ACTION_ODDS, p_sets

if TYPE_CHECKING:
    from sim.combatant import Combatant
    from sim.engine import Encounter
    from sim.rulesets.bgrade import BGradeFighter


def uncapped(dice: int, penalty: int) -> int:
    """Dice rolled after penalties: B-Grade has no cap."""
    return max(0, dice - penalty)


class BGradeTactics:
    """The cautious and tactical AI hooks of B-Grade (see ``Ruleset``)."""

    dice_left = staticmethod(uncapped)

    def danger(self, enc: Encounter, actor: BGradeFighter) -> float:
        """Expected sets in the attack pool, halved for a weapon that deals only Shock."""
        from sim.rulesets.bgrade import attack_pool, lethal  # a cycle: bgrade mixes this in
        from sim.rulesets.bgrade_rules import expected_sets

        return expected_sets(attack_pool(actor) + actor.bonus) * (1.0 if lethal(actor) else 0.5)

    def attack_and_defend(self, enc: Encounter, actor: BGradeFighter, target: Combatant,
                          kind: str) -> bool:
        """Both when the smaller pool (no penalty) holds two sets often."""
        pool = min(self.pool_of(actor, Attack(target))[0], self.pool_of(actor, Defend(kind))[0])
        dice = uncapped(pool, self._penalty(enc, actor, Attack(target)))
        return p_sets(dice + actor.bonus, 2) >= MULTI_ACTION_ODDS

    def tactical_attack(self, enc: Encounter, actor: BGradeFighter,
                        target: Combatant) -> tuple[list[Intent], str]:
        """As many attacks as the pool is expected to hold sets, and a free defense.

        The defense rides along when its pool is no smaller than the attack's (the roll is
        the smallest pool) and a set is likely left over for it: its gobble dice then cost
        nothing.
        """
        extra = self.extra_attacks(enc, actor, target)
        intents: list[Intent] = [Attack(target)] * (extra + 1)
        why = f"{extra + 1} attacks" if extra else ""
        attack = self.pool_of(actor, Attack(target))[0]
        kind = self.defense_kind(enc, actor, ranged=target.ranged)
        if kind and self.pool_of(actor, Defend(kind))[0] >= attack:
            dice = uncapped(attack, self._penalty(enc, actor, Attack(target))) + actor.bonus
            if p_sets(dice, extra + 2) >= MULTI_ACTION_ODDS:
                intents.append(Defend(kind))
                why = ", ".join(x for x in (why, f"a spare set to {kind}") if x)
        return intents, why
