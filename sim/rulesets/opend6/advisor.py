"""What the AI asks OpenD6: reach, reloads, extra attacks, points, defenses.

``OpenD6Advisor`` answers from the dice (exact odds from ``odds``), for both variants; the
profiles in :mod:`sim.ai.profiles` hold no dice logic. It reads the ruleset's public rules:
``health_penalty``, ``health_lost``, ``defense_against``, ``target_number``,
``would_finish`` and ``one_from_death``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.ai import tactics
from sim.ai.advisor import Advisor
from sim.core.actions import DEFENDS, Aim, Defend
from sim.rulesets.opend6 import odds as opend6_odds
from sim.rulesets.opend6.rules import AIM_DICE, BASE_DIFFICULTY, COVER_DIFFICULTY, range_band

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter
    from sim.rulesets.opend6.fighter import D6Fighter

# Ruling (aggressive AI): at most this many extra attacks a round; more only pays against
# very easy targets, and four attacks a round is already a flurry.
MAX_EXTRA_ATTACKS = 3
# Ruling (cautious, tactical AI): a defense roll must average this much above the 10 it
# replaces (it replaces it even when lower).
DEFENSE_MARGIN = 1.0


class OpenD6Advisor(Advisor):
    """The AI's questions under OpenD6 (see :class:`sim.ai.advisor.Advisor`)."""

    def threat(self, actor: D6Fighter) -> float:
        """The share of its health lost (wounds toward death, or hit points)."""
        return self.rules.health_lost(actor)

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
        foe = tactics.nearest_enemy(enc, actor)
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
        complication = self.rules.options.complication
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
        dice = code.dice + self.rules.health_penalty(enc, actor)
        if actor.weapon.ranged:
            band = range_band(enc.field.distance(actor.pos, target.pos), actor.weapon)
            dice += band.dice or 0
        if actor.aim_at is target:
            dice += AIM_DICE
        defense, parry = self.rules.defense_against(enc, actor, target)
        return dice, code.pips, self.rules.target_number(enc, actor, target, defense, parry)

    def points_to_spend(self, f: D6Fighter, target: D6Fighter) -> tuple[int, bool]:
        """Points a spending fighter puts on an attack: ``(character points, fate point)``.

        Ruling: a character point (+1D) when a hit at average damage against average
        resistance would take the foe out; a fate point as well (the dice doubled) when the
        foe is one wound from death (opend6-hp: mortally wounded, 1-3 HP).
        """
        if not self.rules.would_finish(f, target):
            return 0, False
        cp = 1 if f.cp > 0 else 0
        fate = f.fate > 0 and self.rules.one_from_death(target)
        f.cp -= cp
        f.fate -= fate
        return cp, fate

    # ------------------------------------------------------------ cautious and tactical
    def danger(self, enc: Encounter, actor: D6Fighter) -> float:
        """Chance of meeting the base difficulty times the average damage roll."""
        code, dmg = actor.attack_code, actor.damage_code
        complication = self.rules.options.complication
        return (opend6_odds.p_at_least(code.dice, code.pips, BASE_DIFFICULTY, complication)
                * opend6_odds.mean(dmg.dice, dmg.pips, complication))

    def defense_kind(self, enc: Encounter, actor: D6Fighter, ranged: bool) -> str | None:
        """The active defense with the highest average roll, if that beats the 10 it replaces.

        A parry (melee only, not with a ranged weapon) loses the cover a dodge or block keeps,
        so it must beat 10 plus the cover; a block needs a shield.
        """
        return self._best_defense(enc, actor, ranged, 0)

    def _best_defense(self, enc: Encounter, actor: D6Fighter, ranged: bool,
                      penalty: int) -> str | None:
        complication = self.rules.options.complication
        health = self.rules.health_penalty(enc, actor)
        cover = COVER_DIFFICULTY[enc.field.cover(actor.pos)]
        options = [("dodge", actor.dodge_code, -actor.encumbrance)]
        if actor.shield is not None:
            options.append(("block", actor.block_code, -actor.encumbrance))
        if not ranged and not actor.weapon.ranged:
            options.append(("parry", actor.parry_code, -cover - actor.encumbrance))
        best, best_margin = None, DEFENSE_MARGIN
        for kind, code, shift in options:
            dice = code.dice + penalty + health
            if dice < 1:
                continue
            margin = opend6_odds.mean(dice, code.pips, complication) + shift - BASE_DIFFICULTY
            if margin > best_margin:
                best, best_margin = kind, margin
        return best

    def attack_and_defend(self, enc: Encounter, actor: D6Fighter, target: D6Fighter,
                          kind: str) -> bool:
        """Both at -1D: when the defense still beats the 10 and the attack keeps fair odds."""
        if self._best_defense(enc, actor, target.ranged, -1) != kind:
            return False
        dice, pips, tn = self._odds_inputs(enc, actor, target)
        return opend6_odds.p_at_least(dice - 1, pips, tn, self.rules.options.complication) >= 0.4

    def while_closing(self, enc: Encounter, actor: D6Fighter,
                      target: D6Fighter) -> list[Intent]:
        """A shooter walking into range aims as it comes.

        The move is free and the aim its one action: the next shot gets +1D.
        """
        if actor.ranged and not self.needs_reload(actor) and actor.aim_at is not target:
            return [Aim(target)]
        return []

    def can_step_back_and_attack(self, enc: Encounter, actor: D6Fighter) -> bool:
        """The first move of a turn is free: a shooter with a ready weapon steps and shoots."""
        return actor.ranged and not self.needs_reload(actor)

    def wait_intents(self, enc: Encounter, actor: D6Fighter,
                     foes: list[Combatant]) -> tuple[list[Intent], str]:
        """Holding: defend when a shooter has it in range and a defense beats the 10."""
        shooters = tactics.shooters_on(enc, actor, foes)
        kind = self.defense_kind(enc, actor, ranged=True) if shooters else None
        if kind:
            return [Defend(kind)], f"{DEFENDS[kind]} {shooters[0].name}'s shots"
        return [], "holds its ground"
