"""OpenD6 attacks, active defenses and damage: the rolls of a turn made against a foe.

:class:`OpenD6Combat` is held by the ruleset (its ``combat``,
:class:`~sim.rulesets.opend6.ruleset.D6Ruleset`), whose turns call ``attack`` and ``defend``;
it reads the ruleset's options, advisor, ``harm``, ``short_of_death`` and ``retarget``. Its
other public methods (``attack_dice``, ``damage_dice``, ``defense_code``,
``defense_against``, ``target_number``) and ``health_penalty`` (the ruleset's too) are the
one home of those rules, for the ruleset and its advisor alike.

Rulings not in the seed or RULES.md are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from sim.core import arms, moving, space
from sim.core.combatant import Status
from sim.core.harm import Harm
from sim.rulesets.dice import roll_pool
from sim.rulesets.opend6 import points
from sim.rulesets.opend6.dice import DiceCode, RollResult, counts_one, roll_code, roll_total
from sim.rulesets.opend6.log import log_attack, modifier_notes, tn_reasons
from sim.rulesets.opend6.places import SITES, site
from sim.rulesets.opend6.rules import (
    AIM_DICE,
    BLINDED_DICE,
    CALLED_SHOT_DICE,
    SHOT_IN_MELEE_DICE,
    SIZE_STEP_DICE,
    RangeBand,
    WoundStatus,
    attack_hits,
    fate_extra_dice,
    pool_with_points,
    range_band,
    target_number,
)

if TYPE_CHECKING:
    from sim.core.actions import Attack
    from sim.core.engine import Encounter
    from sim.rulesets.opend6.fighter import D6Fighter
    from sim.rulesets.opend6.ruleset import D6Ruleset

DEAD = WoundStatus.DEAD
STUNNED = WoundStatus.STUNNED
_PENALTIES = {level: level.penalty for level in WoundStatus}
_EPS = 1e-6  # a defense lapses just before the same moment of the next round


def health_penalty(enc: Encounter, f: D6Fighter) -> int:
    """Dice off action rolls for wounds (never on resistance): a stun lasts its round.

    A function, not a method: every attack's pool asks, and the AI's (``attack_dice``).
    """
    level = f.level
    if level is STUNNED:
        return -1 if f.stun_round == enc.round else 0
    return _PENALTIES[level]  # ``level.penalty`` without the property call


def fate_dice(enc: Encounter, total: int, r: RollResult | None,
              extra: int) -> tuple[int, RollResult | None, tuple[int, ...]]:
    """A fate point spent on a roll already seen: its ``extra`` dice, added as normal d6.

    The roll keeps its one wild die. Returns the total, the roll (None without a log) and
    the dice added.
    """
    more = tuple(roll_pool(enc.rng, extra, 6))
    total += sum(more)
    if r is not None:
        r = r._replace(normal=r.normal + more, total=total)
    return total, r, more


class OpenD6Combat:
    """Attacks, active defenses and damage of the OpenD6 rulesets.

    Args:
        rules: the ruleset that holds it: its options, its advisor, and its health measure
            (wounds or hit points).
    """

    __slots__ = ("rules", "options")

    def __init__(self, rules: D6Ruleset) -> None:
        self.rules = rules
        self.options = rules.options  # set once as the ruleset is made, never replaced

    # ------------------------------------------------------------ defending
    @staticmethod
    def defense_code(f: D6Fighter, kind: str) -> tuple[str, DiceCode]:
        """The defense ``f`` rolls when it declares ``kind``, and its code.

        Dodge is Agility + dodge, parry Agility + the weapon's skill, block Agility + shield.
        Ruling: a block without a shield, or a parry with a ranged weapon, is a dodge.
        """
        if kind == "block" and f.shield is None or kind == "parry" and f.weapon.ranged:
            kind = "dodge"
        code = (f.parry_code if kind == "parry" else f.block_code if kind == "block"
                else f.dodge_code)
        return kind, code

    def defend(self, enc: Encounter, f: D6Fighter, kind: str, penalty: int) -> None:
        """Roll an active defense; it replaces the 10 until this fighter's next turn.

        Encumbrance (option) takes its +4 difficulty off every defense roll: dodge, parry
        and block are all Agility rolls. Points (RULES.md, amended: any roll): a character
        point (+1D) before the roll, a fate point after it is seen, as on an attack
        (``_roll_attack``); a fighter whose policy spends asks its advisor
        (``points.defense_point``, ``defense_fate_point``), a player is asked.
        """
        kind, code = self.defense_code(f, kind)
        dice = code.dice + penalty + health_penalty(enc, f)
        spends = f.policy.spends
        advisor = self.rules.advisor
        cp = 1 if spends and f.cp > 0 and enc.yes_or_no(
            f, points.defense_point(advisor, enc, f, kind, penalty),
            points.defense_point_question, f, kind, max(0, dice)) else 0
        f.cp -= cp
        rolled_dice = pool_with_points(dice, cp, False) if cp else dice
        rolled, r = self.roll(enc, rolled_dice, code.pips)
        notes = ["a character point +1D"] if cp else []
        if spends and f.fate > 0 and (extra := fate_extra_dice(dice, cp)) and enc.yes_or_no(
                f, points.defense_fate_point(advisor, enc, f, kind, rolled - f.encumbrance,
                                             extra),
                points.defense_fate_point_question, advisor, enc, f, kind,
                rolled - f.encumbrance, extra):
            f.fate -= 1
            rolled, r, more = fate_dice(enc, rolled, r, extra)
            rolled_dice += extra
            notes.append(f"a fate point after the roll +{extra}D {list(more)}")
        total = rolled - f.encumbrance
        f.defense = total if total > 0 else 0
        f.defense_kind = kind
        f.defense_roll = (rolled_dice, code.pips, f.encumbrance)
        f.defense_until = enc.env.now + self.rules.seconds_per_round - _EPS
        if enc.log is not None:
            spent = f" ({'; '.join(notes)})" if notes else ""
            enc.emit("defend", who=f.name, defense=kind, total=f.defense,
                     text=f"{f.name} will {kind}{spent}: {r}"
                          f"{f' -{f.encumbrance} encumbrance' if rolled != total else ''}"
                          f" -> attacks on it must meet {f.defense} until its next turn.")

    def roll(self, enc: Encounter, dice: int, pips: int,
              action: bool = True) -> tuple[int, RollResult | None]:
        """A roll's total, and the whole roll when the encounter keeps a log (else None).

        Without a log only the total is counted (``roll_total``): same draws, no faces kept.
        ``action``: False for a damage or resistance roll, which never fumbles
        (``dice.counts_one``).
        """
        if enc.log is None:
            return roll_total(enc.rng, dice, pips,
                              counts_one(action, self.options.complication)), None
        r = roll_code(enc.rng, dice, pips, complication=self.options.complication,
                      action=action)
        return r.total, r

    def defense_against(self, enc: Encounter, actor: D6Fighter,
                        target: D6Fighter) -> tuple[int | None, bool]:
        """The target's defense roll facing this attack (None: the base 10), and parry."""
        if target.defense_until <= enc.env.now:
            return None, False
        if target.defense_kind == "parry":
            if actor.weapon.ranged:
                return None, False  # a parry stops melee attacks only
            return target.defense, True
        return target.defense, False

    def target_number(self, enc: Encounter, actor: D6Fighter, target: D6Fighter,
                      defense: int | None, parry: bool) -> int:
        """What ``actor``'s attack on ``target`` must reach now (``rules.target_number``)."""
        field, pos = enc.field, target.pos
        cover, visibility = SITES.get((field, pos)) or site(field, pos)
        # Ruling: cover counts in melee too (the seed only keeps it off parries). Pinned
        # (-5) is being held in place (RULES.md), a state no rule here puts a fighter in;
        # with the ``suppressive_fire`` option, a target shot at since its last turn.
        return target_number(defense, parry=parry, cover=cover, visibility=visibility,
                             pinned=self.pinned(target),
                             # a melee attack is an Agility roll: encumbrance adds to it
                             extra=actor.weapon.difficulty
                             + (0 if actor.weapon.ranged else actor.encumbrance))

    def pinned(self, target: D6Fighter) -> bool:
        """Whether ``target`` is pinned: shot at since its last turn, with suppressive fire."""
        return self.options.suppressive_fire and target.shot_at

    # ------------------------------------------------------------ attacking
    def attack_dice(self, enc: Encounter, f: D6Fighter, target: D6Fighter, *,
                    penalty: int = 0, called: bool = False,
                    notes: list[str] | None = None, distance: float | None = None,
                    band: RangeBand | None = None, pressed: bool | None = None) -> int:
        """Dice of ``f``'s attack on ``target`` now, before points (may be 0 or less).

        The attack code's dice, the multiple-action ``penalty``, the wound penalty, the range
        band of a ranged weapon, a shot with a foe in reach, blinded and a called shot (-2D
        each), and +1D when aimed at ``target``. The AI asks the same (``OpenD6Advisor``).

        Args:
            enc: The encounter.
            f: The attacker.
            target: The foe.
            penalty: The multiple-action penalty of the turn (0 for a single action).
            called: A called shot.
            notes: When given, the log's words for each modifier are appended to it.
            distance: The distance between them, when the caller has measured it already.
            band: The range band of a ranged weapon at that distance, when the caller has
                found it already (``attack``: its reach check finds it first).
            pressed: Whether a foe threatens the shooter in melee, when the caller has
                asked already (``space.pressed``).
        """
        # Counted as plain integers; the log's words are made only when ``notes`` asks.
        dice = f.attack_code.dice + penalty + health_penalty(enc, f)
        weapon = f.weapon
        if weapon.ranged:
            if band is None:
                if distance is None:
                    distance = enc.field.distance(f.pos, target.pos)
                band = range_band(distance, weapon)
            # beyond long range (None) the attack cannot be made at all; ``_value_`` is
            # ``band.dice`` without two descriptor calls
            dice += band._value_ or 0
            if pressed is None:
                pressed = space.pressed(enc, f)
            if pressed:  # RULES.md "Shooting in melee"
                dice += SHOT_IN_MELEE_DICE
        else:
            pressed = False
        blinded = f.blinded
        if blinded:
            dice += BLINDED_DICE
        if called:
            dice += CALLED_SHOT_DICE
        aimed = f.aim_at is target
        if aimed:
            dice += AIM_DICE
        if notes is not None:
            notes += modifier_notes(band, blinded=blinded, called=called, aimed=aimed,
                                    pressed=pressed)
        return dice

    def least_attack_dice(self, enc: Encounter, f: D6Fighter) -> int:
        """The fewest dice a single attack of ``f`` rolls at any foe in its reach, unaimed.

        ``attack_dice`` at the worst range band (long, for a ranged weapon): what the AI
        can count on before it knows where a move leaves it.
        """
        worst = RangeBand.LONG.value if f.weapon.ranged else 0
        return (f.attack_code.dice + health_penalty(enc, f) + worst
                + (BLINDED_DICE if f.blinded else 0))

    def attack(self, enc: Encounter, f: D6Fighter, intent: Attack, penalty: int) -> None:
        """One attack: pool, modifiers, points, the roll against the target number."""
        target = intent.target
        if TYPE_CHECKING:  # every fighter of an OpenD6 fight is one (no cast call every attack)
            target = cast("D6Fighter", target)
        log = enc.log
        if not target.in_fight:
            retarget = self.rules.retarget(enc, f, in_reach=True)
            if retarget is None:
                if log is not None:
                    enc.emit("fizzle", who=f.name,
                             text=f"{f.name}'s attack finds no foe in reach.")
                return
            target = retarget
        enc.record_attack(f)
        field, here, there = enc.field, f.pos, target.pos
        dist = field.known.get((here, there))  # measured once for reach and range
        if dist is None:
            dist = field.distance(here, there)
        weapon = f.weapon
        band = range_band(dist, weapon) if weapon.ranged else None  # found once: reach, dice
        reason = self._out_of_reach(f, dist, band)
        if reason:
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name,
                         text=f"{f.name} attacks {target.name}: miss ({reason}).")
            return
        notes: list[str] | None = [] if log is not None else None
        # asked once: the shot's penalty, and who strikes back after it
        threats = space.threatened_in_melee(enc, f, here) if weapon.ranged else []
        dice = self.attack_dice(enc, f, target, penalty=penalty, called=bool(intent.called),
                                notes=notes, distance=dist, band=band, pressed=bool(threats))
        f.aim_at = None  # an aim is spent by the next attack, at its target or not
        defense, parry = self.defense_against(enc, f, target)
        tn = self.target_number(enc, f, target, defense, parry)
        pinned = self.pinned(target) if log is not None else False  # before this shot pins
        total, r, dice = self._roll_attack(enc, f, target, dice, notes)
        if weapon.ranged:
            f.loaded = not weapon.reload_actions
            target.shot_at = True
            if f.throws_left is not None:  # a thrown weapon is spent, hit or miss
                arms.thrown(f)
        hit = attack_hits(total, tn)
        if log is not None:
            assert r is not None  # a logged roll keeps its dice (``roll``)
            log_attack(enc, f, target, dice=dice, notes=notes or [], r=r, defense=defense,
                       parry=parry, tn=tn, hit=hit, penalty=penalty,
                       health=health_penalty(enc, f),
                       why=tn_reasons(enc.field.cover(target.pos),
                                      enc.field.visibility(target.pos),
                                      pinned=pinned, parry=parry, extra=weapon.difficulty))
        if hit:
            enc.record_hit(f, target, Harm(self._damage(enc, f, target)))
        if threats:  # RULES.md "Shooting in melee": a foe in reach strikes once
            moving.shot_in_melee(enc, f, threats)

    def _roll_attack(self, enc: Encounter, f: D6Fighter, target: D6Fighter, dice: int,
                     notes: list[str] | None) -> tuple[int, RollResult | None, int]:
        """Roll an attack with the points its fighter spends: total, roll (``_roll``), dice.

        A character point (+1D) is spent before the roll; a fate point after it is seen and
        before its outcome is known (RULES.md): the extra dice of the doubled pool are rolled
        as normal dice and added, the roll keeping its one wild die. Only a fighter whose
        policy spends does; its advisor decides (``character_point``, ``fate_point``).
        Ruling: a fumble's removed dice stay removed; the fate point's dice add in full.
        """
        spends = f.policy.spends
        cp = 1 if spends and f.cp > 0 and self._character_point(enc, f, target) else 0
        f.cp -= cp
        # no point spent on a pool of 0D or more: the pool as it is (a call fewer)
        rolled = pool_with_points(dice, cp, False) if cp or dice < 0 else dice
        if enc.log is None:  # the total alone, as ``_roll`` counts it
            total, r = roll_total(enc.rng, rolled, f.attack_code.pips,
                                  self.options.complication), None
        else:
            total, r = self.roll(enc, rolled, f.attack_code.pips)
        if cp and notes is not None:
            notes.append("a character point +1D")
        # the extra dice are counted only for a fighter that could spend a fate point
        if spends and f.fate > 0 and (extra := fate_extra_dice(dice, cp)) and self._fate_point(
                enc, f, target, total, extra):
            f.fate -= 1
            total, r, more = fate_dice(enc, total, r, extra)
            rolled += extra
            if notes is not None:
                notes.append(f"a fate point after the roll +{extra}D {list(more)}")
        return total, r, rolled

    def _character_point(self, enc: Encounter, f: D6Fighter, target: D6Fighter) -> bool:
        """Whether ``f`` spends a character point (+1D) before rolling (a player asks)."""
        return enc.yes_or_no(f, points.character_point(self.rules.advisor, f, target),
                             points.character_point_question, f, target)

    def _fate_point(self, enc: Encounter, f: D6Fighter, target: D6Fighter, total: int,
                    extra: int) -> bool:
        """Whether ``f`` spends a fate point on the ``total`` it has rolled (a player asks)."""
        advisor = self.rules.advisor
        return enc.yes_or_no(f, points.fate_point(advisor, enc, f, target, total, extra),
                             points.fate_point_question, advisor, enc, f, target, total,
                             extra)

    @staticmethod
    def _out_of_reach(f: D6Fighter, dist: float, band: RangeBand | None) -> str:
        """Why an attack at ``dist`` m cannot hit (out of reach or range, not loaded), or "".

        ``band``: the range band at ``dist`` of a ranged weapon (None for a melee one).
        """
        weapon = f.weapon
        if band is None:
            return f"out of reach at {dist:g} m" if dist > f.reach else ""
        if band is RangeBand.OUT_OF_RANGE:
            return f"out of range at {dist:g} m"
        if weapon.reload_actions and not f.loaded:
            return f"the {weapon.name} is not loaded"
        if arms.none_to_throw(f):
            return f"no {weapon.name} left to throw"
        return ""

    # ------------------------------------------------------------ damage
    @staticmethod
    def damage_dice(f: D6Fighter, target: D6Fighter) -> int:
        """Dice of ``f``'s damage roll on ``target``: its code, ± 1D per size step."""
        return f.damage_code.dice + (f.size - target.size) * SIZE_STEP_DICE

    def harm_rolls(self, enc: Encounter, f: D6Fighter, target: D6Fighter
                   ) -> tuple[int, RollResult | None, int, RollResult | None]:
        """A hit's damage roll and the target's resistance roll: totals, and the rolls.

        Neither is an action (RULES.md "Wild die", amended): a wild 1 counts as 1
        (``dice.counts_one``). The rolls are None without a log.
        """
        code, res_code = f.damage_code, target.resist_code
        if enc.log is None:  # the totals alone, as ``_roll`` counts them: two calls fewer
            rng = enc.rng
            damage = roll_total(rng, self.damage_dice(f, target), code.pips, True)
            dice = res_code.dice + self._resist_point(enc, f, target, damage)
            return damage, None, roll_total(rng, dice, res_code.pips, True), None
        damage, dmg = self.roll(enc, self.damage_dice(f, target), code.pips, action=False)
        dice = res_code.dice + self._resist_point(enc, f, target, damage)
        resistance, res = self.roll(enc, dice, res_code.pips, action=False)
        return damage, dmg, resistance, res

    def _resist_point(self, enc: Encounter, f: D6Fighter, target: D6Fighter,
                      damage: int) -> int:
        """Dice a character point adds to ``target``'s resistance roll: 1 if it spends one.

        Seed 004: "you can also spend one character point per roll to add a single die to a
        dice pool": any roll, resistance included (until this version, attacks only). Spent
        before the roll, with the damage total known (it is rolled first). A fighter whose
        policy spends does when its advisor finds it worth it (``resist_point``: a hit that
        may kill); a player is asked.
        """
        if not (target.cp > 0 and target.policy.spends):
            return 0
        spend = enc.yes_or_no(target, points.resist_point(self.rules.advisor, f, target, damage),
                              points.resist_point_question, f, target, damage)
        if not spend:
            return 0
        target.cp -= 1
        if enc.log is not None:
            enc.emit("point", who=target.name, text=f"{target.name} spends a character "
                     f"point on its resistance roll (+1D, {target.cp} left).")
        return 1

    def _damage(self, enc: Encounter, f: D6Fighter, target: D6Fighter) -> int:
        """Damage (Strength + weapon, or the weapon alone) against Endurance + armor.

        Returns what the hit took off: wounds, or hit points in ``opend6-hp``.
        """
        code = f.damage_code
        res_code = target.resist_code  # wound penalties never apply to resistance
        damage, dmg, resistance, res = self.harm_rolls(enc, f, target)
        dealt, words = self.rules.harm(enc, target, damage, resistance)
        beaten = target.level is DEAD and f.weapon.unarmed and not self.options.lethal_unarmed
        if beaten:  # knocked out, not dead: its health stops one short (``short_of_death``)
            self.rules.short_of_death(target)
        if enc.log is not None:
            enc.emit("damage", who=f.name, target=target.name, damage=damage,
                     resistance=resistance, state=target.state(),
                     text=f"    damage {code}: {dmg} vs {target.name}'s resistance "
                          f"{res_code}: {res} -> {words}; {target.name}: {target.state()}.")
        if beaten:
            enc.take_out(target, Status.UNCONSCIOUS, "beaten senseless by an unarmed blow, "
                         "not killed" if enc.log is not None else "")
        elif target.level is DEAD:
            enc.take_out(target, Status.DEAD, target.state())
        return dealt
