"""What the OpenD6 AI asks its ruleset: reach, reloads, extra attacks, points to spend.

A mixin of :class:`~sim.rulesets.opend6.OpenD6Ruleset`: the answers depend on the dice, so
they live with the ruleset, while the profiles in :mod:`sim.ai` hold no dice logic. It uses
the ruleset's ``_health_penalty``, ``_defense_against``, ``_target_number``,
``_would_finish`` and ``_one_from_death``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim import ai
from sim.rulesets import opend6_odds
from sim.rulesets.opend6_rules import AIM_DICE, range_band

if TYPE_CHECKING:
    from sim.combatant import Combatant
    from sim.engine import Encounter
    from sim.rulesets.opend6_model import D6Fighter

# Ruling (aggressive AI): at most this many extra attacks a round; more only pays against
# very easy targets, and four attacks a round is already a flurry.
MAX_EXTRA_ATTACKS = 3


class OpenD6Tactics:
    """The AI hooks of the OpenD6 rulesets (see :class:`sim.rulesets.base.Ruleset`)."""

    def can_attack(self, enc: Encounter, actor: D6Fighter, target: Combatant) -> bool:
        """Within reach: 2 m in melee, the long range of a ranged weapon."""
        return enc.field.distance(actor.pos, target.pos) <= actor.reach

    def needs_reload(self, actor: D6Fighter) -> bool:
        """A crossbow that has shot needs a reload action."""
        return actor.weapon.reload_actions > 0 and not actor.loaded

    def called_shot(self, enc: Encounter, actor: D6Fighter, target: Combatant) -> str | None:
        """Ruling: OpenD6 has no hit locations, so a called shot (-2D) never pays."""
        return None

    def can_move_and_attack(self, enc: Encounter, actor: D6Fighter) -> bool:
        """Whether a free move (the first 10 m of a turn) brings the nearest foe into reach.

        The move is no action, so moving and attacking costs no die; the weapon must be
        ready.
        """
        if self.needs_reload(actor):
            return False
        foe = ai.nearest_enemy(enc, actor)
        return foe is not None and (
            enc.field.distance(actor.pos, foe.pos) <= actor.speed + actor.reach)

    def extra_attacks(self, enc: Encounter, actor: D6Fighter, target: D6Fighter) -> int:
        """The number of extra attacks that maximises the expected hits this round.

        Each extra attack costs every attack 1D; the odds are exact (``opend6_odds``),
        against the target number the attack would face now. A weapon that must be
        reloaded after each shot never takes extra attacks.
        """
        if actor.weapon.reload_actions:
            return 0
        dice, pips, tn = self._odds_inputs(enc, actor, target)
        complication = self.options.complication
        best_k, best = 0, opend6_odds.p_at_least(dice, pips, tn, complication)
        for k in range(1, MAX_EXTRA_ATTACKS + 1):
            if dice - k < 1:
                break
            value = (k + 1) * opend6_odds.p_at_least(dice - k, pips, tn, complication)
            if value > best:
                best_k, best = k, value
        return best_k

    def _odds_inputs(self, enc: Encounter, actor: D6Fighter,
                     target: D6Fighter) -> tuple[int, int, int]:
        code = actor.attack_code
        dice = code.dice + self._health_penalty(enc, actor)
        if actor.weapon.ranged:
            band = range_band(enc.field.distance(actor.pos, target.pos), actor.weapon)
            dice += band.dice or 0
        if actor.aim_at is target:
            dice += AIM_DICE
        defense, parry = self._defense_against(enc, actor, target)
        return dice, code.pips, self._target_number(enc, actor, target, defense, parry)

    def _spend(self, f: D6Fighter, target: D6Fighter) -> tuple[int, bool]:
        """Points the aggressive AI spends on an attack: ``(character points, fate point)``.

        Ruling: a character point (+1D) when a hit at average damage against average
        resistance would take the foe out; a fate point as well (the dice doubled) when the
        foe is one wound from death (opend6-hp: mortally wounded, 1-3 HP).
        """
        if not self._would_finish(f, target):
            return 0, False
        cp = 1 if f.cp > 0 else 0
        fate = f.fate > 0 and self._one_from_death(target)
        f.cp -= cp
        f.fate -= fate
        return cp, fate
