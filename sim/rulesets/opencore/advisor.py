"""What the cautious and tactical AIs ask OpenCore: danger, the defense action, the bide.

``OpenCoreAdvisor`` answers for OpenCore. One action a round and a 3 m
move make timing the lever: a fighter who steps into reach spends its action on the step,
and the foe who waited strikes first -- all the more after a bide (+20 initiative next
round). So the tactical AI lets a foe who can step into reach come to it, biding; and a
fighter with nothing in reach bides or, under fire, takes the defense action (Evade
doubled until its next action).

The cautious AI weighs striking against defending in expected HP (``attack_worth``,
``defense_worth``): the exact odds of the opposed d100 (``odds.hit_odds``, fumbles
included) times the exact expected damage past the armor and Toughness left
(``odds.expected_hp_damage``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import space
from sim.core.actions import Attack, Bide, Defend
from sim.core.advisor import Advisor
from sim.rulesets.opencore.fighter import OpenCoreFighter
from sim.rulesets.opencore.odds import (
    damage_distribution,
    expected_hp_damage,
    helpless_odds,
    hit_odds,
    p_through,
)

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.engine import Encounter
    from sim.rulesets.opencore.ruleset import OpenCoreRuleset


class OpenCoreAdvisor(Advisor[OpenCoreFighter]):
    """The AI's questions under OpenCore (see :class:`sim.core.advisor.Advisor`).

    One action a round: never an extra attack, never a move and an attack together (the
    defaults).
    """

    rules: OpenCoreRuleset  # its skills and odds are OpenCore's

    def can_attack(self, enc: Encounter, actor: OpenCoreFighter,
                   target: OpenCoreFighter) -> bool:
        """In reach (``space.in_reach``: the answer kept while neither moves)."""
        return space.in_reach(enc, actor, target)

    def can_hit(self, enc: Encounter, actor: OpenCoreFighter,
                target: OpenCoreFighter) -> bool:
        """Not while stunned or knocked out: the seed's stun is "unable to attack".

        A fighter stunned as it declares declares what it can do (``hopeless``) rather than
        an attack its turn would lose.
        """
        return not (actor.stun or actor.knocked_out)

    def hopeless(self, enc: Encounter, actor: OpenCoreFighter,
                 target: OpenCoreFighter) -> tuple[list[Intent], str]:
        """In reach but unable to hit: what a stunned fighter does instead.

        The defense action (a stun costs 50 defense; doubled Evade makes up some of it);
        otherwise the default (a shooter steps closer, else it holds).
        """
        if actor.stun and self.defense_kind(enc, actor, ranged=actor.ranged):
            return [Defend("dodge")], "stunned, cannot attack: defends"
        return super().hopeless(enc, actor, target)

    def single_shot(self, actor: OpenCoreFighter) -> bool:
        """A single-shot weapon (the crossbow)."""
        return actor.weapon.single_shot

    def needs_reload(self, actor: OpenCoreFighter) -> bool:
        """A dropped weapon, or a single-shot weapon that has shot.

        The Reload intent picks the weapon up, else reloads it (one action each).
        """
        return not actor.held or not actor.loaded

    def threat(self, actor: OpenCoreFighter) -> float:
        """The share of starting HP lost."""
        return min(1.0, max(0.0, 1.0 - actor.hp / actor.max_hp))

    def danger(self, enc: Encounter, actor: OpenCoreFighter) -> float:
        """Attack skill (out of 100) times the average damage of a hit, a round.

        Halved for a single-shot weapon: it shoots every other round.
        """
        dice = actor.fire.damage
        mean = 0.0 if dice is None else (dice.dice * (dice.sides + 1) / 2 + dice.bonus
                                         + (actor.str_mod if dice.plus_str else 0))
        per_round = 0.5 if actor.weapon.single_shot else 1.0
        return max(0, actor.attack_skill - actor.skill_penalty) / 100 * mean * per_round

    def attack_worth(self, enc: Encounter, actor: OpenCoreFighter,
                     target: OpenCoreFighter) -> float:
        """Expected HP one attack of ``actor`` takes off ``target`` now.

        The exact hit odds of the two skills as they stand (cover, injuries, a defense
        action, a stun), times the exact expected damage past the target's armor and
        Toughness left (a defender's fumble multiplying it as the chart says). 0 when the
        attack would be lost: stunned, or a weapon to pick up or reload first.
        """
        if actor.stun or self.needs_reload(actor):
            return 0.0
        return self._expected_hp(enc, actor, target, self.rules.defense_skill(target))

    def attack_odds(self, enc: Encounter, actor: OpenCoreFighter,
                    intents: list[Intent]) -> float | None:
        """Exact chance of the opposed d100 roll (``odds.hit_odds``), fumbles included."""
        attack = next((i for i in intents if type(i) is Attack), None)
        if attack is None:
            return None
        rules, target = self.rules, attack.target
        assert isinstance(target, OpenCoreFighter)  # (as every fighter of the fight)
        skill = rules.attack_skill(enc, actor, target)
        if target.knocked_out:
            return helpless_odds(skill).hit
        return hit_odds(skill, rules.defense_skill(target)).hit

    def harm_odds(self, enc: Encounter, actor: OpenCoreFighter,
                  intents: list[Intent]) -> tuple[tuple[str, float], ...]:
        """The chance the first attack reaches hit points, and takes the foe down.

        Past armor and Toughness, and to 0 HP or below. Exact over the opposed d100
        (``attack_odds``) and the damage roll (``p_through``), criticals' extra damage left
        out.
        """
        attack = next((i for i in intents if type(i) is Attack), None)
        dice = actor.fire.damage
        if attack is None or dice is None:
            return ()
        rules, target = self.rules, attack.target
        assert isinstance(target, OpenCoreFighter)  # (as every fighter of the fight)
        skill = rules.attack_skill(enc, actor, target)
        odds = (helpless_odds(skill) if target.knocked_out
                else hit_odds(skill, rules.defense_skill(target)))
        dist = damage_distribution(dice, actor.str_mod, rules.fortitude(target))
        absorb = target.armor_left + target.toughness
        return (("to reach HP", p_through(odds, dist, absorb, 1)),
                ("to take down", p_through(odds, dist, absorb, max(1, target.hp))))

    def defense_worth(self, enc: Encounter, actor: OpenCoreFighter,
                      threats: dict[OpenCoreFighter, float], kind: str) -> float:
        """Expected HP the defense action (Evade doubled) spares ``actor`` from ``threats``.

        For each foe: what one of its attacks is expected to take with Evade as it is, less
        with Evade doubled, times the attacks it is expected to aim at ``actor`` (the
        weight in ``threats``) and those it can make before ``actor``'s next action
        (``attacks_in_window``). Same unit as ``attack_worth``.
        """
        plain = self.rules.defense_skill(actor, defending=False)
        doubled = self.rules.defense_skill(actor, defending=True)
        spared = 0.0
        for foe, n in threats.items():
            shots = attacks_in_window(foe)
            if shots:
                spared += n * shots * (self._expected_hp(enc, foe, actor, plain)
                                   - self._expected_hp(enc, foe, actor, doubled))
        return spared

    def _expected_hp(self, enc: Encounter, f: OpenCoreFighter, target: OpenCoreFighter,
                     defense: int) -> float:
        """Expected HP one attack of ``f`` takes off ``target`` defending with ``defense``.

        With ``f``'s own weapon: the AI picks a dropped weapon up before it attacks again.
        """
        dice = f.fire.damage
        if dice is None:
            return 0.0
        skill = self.rules.attack_skill(enc, f, target, held=True)
        # a knocked-out target meets no defense (``rules.helpless_verdict``)
        odds = helpless_odds(skill) if target.knocked_out else hit_odds(skill, defense)
        return expected_hp_damage(odds, damage_distribution(dice, f.str_mod,
                                                            self.rules.fortitude(target)),
                                  target.armor_left + target.toughness)

    def defense_kind(self, enc: Encounter, actor: OpenCoreFighter,
                     ranged: bool) -> str | None:
        """The defense action (Evade doubled), when there is Evade to double.

        Measured in the mirror match: even Evade 15 doubled, taken while waiting under
        arrows, raised the tactical side's wins from 66% to 70%.
        """
        return "dodge" if actor.evade > 0 else None

    def waits_for(self, enc: Encounter, actor: OpenCoreFighter, target: OpenCoreFighter) -> bool:
        """A melee foe that can step into reach itself: let it spend its action on the step."""
        if target.ranged or actor.ranged:
            return False
        return not space.engaged(enc, actor, [target]) and space.can_charge(
            enc, target, actor.pos)

    def wait_intents(self, enc: Encounter, actor: OpenCoreFighter,
                     foes: list[OpenCoreFighter]) -> tuple[list[Intent], str]:
        """Bide for the first strike when a foe can step into reach, else defend under fire.

        With neither, bide anyway: it costs nothing when there is nothing to do.
        """
        for e in foes:
            if not e.ranged and space.can_charge(enc, e, actor.pos):
                return [Bide()], f"bides for the first strike on {e.name}"
        shooters = space.shooters_on(enc, actor, foes)
        if shooters and self.defense_kind(enc, actor, ranged=True):
            return [Defend("dodge")], f"evades {shooters[0].name}'s shots"
        return [Bide()], "bides"


def attacks_in_window(foe: OpenCoreFighter) -> float:
    """Attacks ``foe`` is expected to make before a defender's next action.

    A defense action lasts from the defender's slot this round to its slot next round: about
    one round of the foe's attacks. Ruling: a foe with a single-shot weapon, or one that must
    pick its weapon up first, attacks in that window half the time (it shoots in one of the
    two rounds, before or after the slot with even odds); a dropped crossbow, or a stunned
    foe, or a knocked-out one, not at all.
    """
    if foe.stun or foe.knocked_out:
        return 0.0
    if foe.weapon.single_shot:
        return 0.5 if foe.held else 0.0
    return 1.0 if foe.held else 0.5
