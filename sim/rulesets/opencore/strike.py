"""OpenCore's attack as it lands: the opposed d100 rolls, fumbles, damage and criticals.

``Strikes`` is the part of the ruleset that lands an attack (``OpenCoreRuleset.strikes``),
apart so that ``ruleset.py`` keeps the round: declarations, initiative, actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import arms, moving, space
from sim.core.combatant import Status
from sim.core.harm import Harm
from sim.core.words import count
from sim.rulesets.dice import roll
from sim.rulesets.opencore.fighter import (
    UNARMED,
    OpenCoreFighter,
    knock_out,
    start_stun,
)
from sim.rulesets.opencore.health import check_health, ensure_bleeding
from sim.rulesets.opencore.log import (
    log_critical,
    log_damage,
    log_roll,
    weapon_name,
)
from sim.rulesets.opencore.rules import (
    HELPLESS_DEFENSE,
    AttackOutcome,
    DamageResult,
    attack_verdict,
    fumble_lookup,
    helpless_verdict,
    roll_critical,
    roll_fire_damage,
    spend_damage,
    unarmed_hp,
)
from sim.rulesets.opencore.tables import Fumble, Role, WeaponClass

if TYPE_CHECKING:
    from sim.core.engine import Encounter
    from sim.rulesets.opencore.rules import CriticalRoll
    from sim.rulesets.opencore.ruleset import OpenCoreRuleset

# Ruling: a fall-over fumble during an extra attack grants another one, this deep at most.
MAX_EXTRA_ATTACK_CHAIN = 3
# enum members through module aliases: read on every hit (see rules.py)
_DEFENDER, _DEAD = Role.DEFENDER, Status.DEAD



class Strikes:
    """One attack of an OpenCore fighter, from the dice to the critical.

    Held by the ruleset (``rules``), whose skills (``attack_terms``, ``defense_terms``) and
    options it reads.
    """

    __slots__ = ("rules",)

    def __init__(self, rules: OpenCoreRuleset):
        self.rules = rules

    def strike(self, enc: Encounter, f: OpenCoreFighter, target: OpenCoreFighter,
                depth: int) -> None:
        """One attack: both d100 rolls, fumbles, then damage and the critical."""
        rng = enc.rng
        enc.record_attack(f)
        if f.held and f.weapon.single_shot:
            f.loaded = False  # RULES.md: the shot spends the bolt, hit or miss, fumble or not
        if f.throws_left is not None:  # ... and a throw its javelin
            arms.thrown(f)
        if f.held and f.ranged:  # counted for the rate of fire (``no_extra_attack``)
            f.loosed = (enc.round, shots_this_round(enc, f) + 1)
        # ``attack_skill``'s sum, its terms kept for the log
        rules = self.rules
        terms = rules.attack_terms(enc, f, target)
        base, injuries, cover, visibility, pressed = terms
        skill = base - injuries - cover - visibility - pressed
        att_roll = roll(rng, 100)
        if target.knocked_out:  # helpless: RULES.md "Down for a while is not out"
            def_roll = defense = HELPLESS_DEFENSE
            hit, fumbled_by = helpless_verdict(att_roll, skill)
        else:
            def_roll, defense = roll(rng, 100), rules.defense_skill(target)
            hit, fumbled_by = attack_verdict(att_roll, skill, def_roll, defense)
        fumble = chart = None
        if fumbled_by is not None:
            chart = roll(rng, 100)
            fumble = fumble_lookup(chart, fumbled_by)
        if enc.log is not None:  # the whole outcome, for the log only
            log_roll(enc, f, target, AttackOutcome(hit, fumbled_by, att_roll, att_roll + skill,
                                                   def_roll + defense),
                     def_roll, chart, fumble, depth, terms,
                     None if target.knocked_out else rules.defense_terms(target))
        if hit:
            mult = fumble.damage_multiplier if fumble is not None and fumbled_by is _DEFENDER \
                else 1
            enc.record_hit(f, target, self._hit(enc, f, target, mult, att_roll, f.name))
        if fumble is not None and fumbled_by is not None:  # (the two are set together)
            self._fumble(enc, f, target, fumble, fumbled_by, att_roll, depth)
        if pressed:  # RULES.md "Shooting in melee": the foe in reach strikes once
            moving.shot_in_melee(enc, f)

    def _fumble(self, enc: Encounter, f: OpenCoreFighter, target: OpenCoreFighter,
                fumble: Fumble, role: Role, att_roll: int, depth: int) -> None:
        fumbler, foe = (f, target) if role is Role.ATTACKER else (target, f)
        if fumble.defense_penalty:
            fumbler.stumbling = fumble.defense_penalty
        if fumble.self_damage_multiplier:
            # Ruling: the weapon leaves the hand (the fighter spends its next action picking
            # it up, see needs_reload), and the self-injury goes through its own armor and
            # Toughness like any hit, with a critical if it reaches HP.
            if f.weapon.weapon_class is not WeaponClass.HAND_TO_HAND:  # fists stay on
                f.held = False
            self._hit(enc, f, f, fumble.self_damage_multiplier, att_roll, f"{f.name} (fumble)")
        if fumble.foe_extra_attack:
            # Ruling: a passive dummy never takes it; a foe needs a ready (held and loaded)
            # weapon, no stun and its reach (an archer's fall gives no free blow to a
            # swordsman 10 m away).
            why_not = no_extra_attack(enc, foe, fumbler, depth)
            if not why_not:
                self.strike(enc, foe, fumbler, depth + 1)
            elif enc.log is not None:  # the chart promised it: say why it does not come
                enc.emit("no_extra_attack", who=foe.name, target=fumbler.name,
                         text=f"{foe.name} gets no extra attack on {fumbler.name}: "
                              f"{why_not}.")

    def _hit(self, enc: Encounter, f: OpenCoreFighter, target: OpenCoreFighter, mult: int,
             att_roll: int, source: str) -> Harm:
        """Damage through armor, Toughness and HP; a critical whenever it reaches HP.

        Returns the HP taken off (a critical's extra damage included), and the armor and
        Toughness worn away.
        """
        rng = enc.rng
        weapon, fire = (f.weapon, f.fire) if f.held or target is f else (UNARMED,
                                                                           UNARMED.modes[0])
        damage = roll_fire_damage(rng, fire, f.str_mod, weapon.key,
                                  self.rules.fortitude(target)) * mult
        spent = spend_damage(damage, target.armor_left, target.toughness, target.hp)
        worn = target.armor_left + target.toughness
        target.armor_left, target.toughness, target.hp, dealt, _, _ = spent
        worn -= target.armor_left + target.toughness
        if enc.log is not None:
            log_damage(enc, source, target, weapon, fire, damage, mult,
                       DamageResult._make(spent))
        crit = None
        if dealt > 0:  # it reached HP (``DamageResult.reached_hp``): a critical
            crit = roll_critical(rng, fire.crit_table, att_roll, target.toughness)
            target.hp -= crit.effect.extra_damage
            dealt += crit.effect.extra_damage
            if enc.log is not None:
                log_critical(enc, target, fire, crit, att_roll)
        if target.hp < 0 and weapon.unarmed and not self.rules.options.lethal_unarmed:
            target.hp = unarmed_hp(target.hp)  # a beating knocks out, it does not kill
            if enc.log is not None:
                enc.emit("unarmed", who=target.name, text=f"{target.name} is beaten down, "
                         "not killed: an unarmed blow leaves it at 0 HP, not bleeding.")
        check_health(enc, target, f"hit by {source}" if enc.log is not None else "")
        if crit is not None and target.status is not _DEAD:
            self._critical(enc, target, crit)
        return Harm(dealt, worn=worn)

    def _critical(self, enc: Encounter, target: OpenCoreFighter, crit: CriticalRoll) -> None:
        e = crit.effect
        if e.bloodloss:
            target.bloodloss += e.bloodloss
            ensure_bleeding(enc, target)
        if e.stun_rounds:
            start_stun(enc, target, e.stun_rounds)
        if e.injury is not None:
            # Ruling: the seed names no location; each injury's penalty adds up and applies
            # to attack and defense (RULES.md "applicable skills").
            target.skill_penalty += e.skill_penalty
            target.injuries.append(e.injury)
        if e.unconscious_rounds:
            knock_out(enc, target, e.unconscious_rounds)


def no_extra_attack(enc: Encounter, foe: OpenCoreFighter, fumbler: OpenCoreFighter,
                    depth: int) -> str:
    """Why ``foe`` takes no extra attack on a fumbler that fell over; "" when it takes it.

    Ruling: a foe needs to be in the fight, to react (not a passive dummy), a ready weapon
    (held, and loaded), no stun and ``fumbler`` in its reach; chains stop at
    ``MAX_EXTRA_ATTACK_CHAIN``.
    """
    if not (foe.in_fight and fumbler.in_fight):
        return f"{fumbler.name if foe.in_fight else foe.name} is already down"
    if foe.knocked_out:
        return "it is knocked out"
    if not foe.policy.reacts:
        return "it does not react (passive)"
    if not foe.held:
        return "its weapon is on the ground"
    if not foe.loaded:
        return f"its {weapon_name(foe.weapon)} is not loaded"
    if arms.none_to_throw(foe):
        return f"it has no {weapon_name(foe.weapon)} left to throw"
    if foe.stun:
        return "it is stunned"
    most = space.shots_allowed(foe)
    if foe.held and most is not None and shots_this_round(enc, foe) >= most:
        return (f"its {weapon_name(foe.weapon)} has loosed the "
                f"{count(most, 'shot', 'shots')} a round allows")
    if depth >= MAX_EXTRA_ATTACK_CHAIN:
        return f"no more than {MAX_EXTRA_ATTACK_CHAIN} extra attacks in a row"
    if not space.in_reach(enc, foe, fumbler):
        return f"{fumbler.name} is out of its reach"
    return ""


def shots_this_round(enc: Encounter, f: OpenCoreFighter) -> int:
    """The shots ``f`` has loosed this round (RULES.md "Rate of fire"; ``strike`` counts)."""
    at, shots = f.loosed
    return shots if at == enc.round else 0
