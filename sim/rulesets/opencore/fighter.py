"""OpenCore d100: the fighter's numbers, its state and its ongoing effects.

- ``profile`` reads a member (neutral traits, or the native block over them) into scores
  and gear, and ``convert`` works out the numbers a fighter starts with (``Numbers``), each
  once per member (``converted``);
- ``OpenCoreFighter`` holds one fighter's state in a fight, copied from its ``Numbers``;
- the effects that outlive an action are SimPy processes (``start_stun``, ``knock_out``);
  hit points and the bleed clock are in ``health.py`` (``check_health``,
  ``ensure_bleeding``, here too for the callers of old).

The scenario blocks it reads (``OpenCoreBlock``, ``OpenCoreOptions``) are in ``blocks.py``.
Rulings not in RULES.md or seed 001 are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from sim.core.combatant import Combatant
from sim.core.space import RATE_OF_FIRE, melee_reach
from sim.rulesets.opencore.blocks import ABILITIES, MODES
from sim.rulesets.opencore.criticals import CritTable, Injury
from sim.rulesets.opencore.health import check_health, ensure_bleeding  # noqa: F401 (re-export)
from sim.rulesets.opencore.rules import ability_modifier, initiative_bonus
from sim.rulesets.opencore.tables import (
    ARMOR,
    NATIVE_WEAPONS,
    NEUTRAL_ARMOR,
    NEUTRAL_WEAPONS,
    NO_ARMOR,
    WEAPONS,
    Armor,
    DamageDice,
    FireMode,
    Mode,
    Weapon,
    WeaponClass,
)
from sim.rulesets.templates import Templates

if TYPE_CHECKING:
    import simpy

    from sim.core.actions import TimedAction
    from sim.core.battlefield import Battlefield, Position
    from sim.core.combatant import Effect
    from sim.core.engine import Encounter
    from sim.scenario.specs import MemberSpec

SKILLS = ("hand_to_hand", "melee", "thrown", "archery", "firearms", "portable_at", "gunnery",
          "evade", "acrobatics")
FEET = 0.3048
MOVE_METRES = 10 * FEET  # seed: "Character can move ten feet per action"
RUN_METRES = 12.0  # RULES.md (amended): a run, the whole action, covers 40 ft
RUN_DEFENSE_DIVISOR = 2  # ... and halves its defense until its next action
SHOT_IN_MELEE = 20  # RULES.md "Shooting in melee": -20 with a standing foe in reach
# Ruling: the seed gives no ranges. The longest range (metres) at which each ranged class
# attacks, with the handguns and the shotgun shorter than the rest of their class.
MAX_RANGE_BY_CLASS = {
    WeaponClass.THROWN: 20.0, WeaponClass.ARCHERY: 150.0, WeaponClass.FIREARMS: 300.0,
    WeaponClass.PORTABLE_AT: 500.0, WeaponClass.GUNNERY: 2000.0,
}
MAX_RANGE_BY_WEAPON = {"small_handgun": 50.0, "large_handgun": 50.0, "shotgun": 40.0,
                       # the long bands of ORE's and OpenD6's thrown weapons (ruling)
                       "javelin": 30.0, "throwing_knife": 15.0}
# Ruling: ranged attacks lose this much against a target in cover (none, light, medium, heavy)
# or seen poorly (clear, poor, very poor); the seed has neither (option ``cover``).
COVER_PENALTY = (0, 10, 20, 30)
VISIBILITY_PENALTY = (0, 10, 20)


@lru_cache(maxsize=4096)
def place_penalties(field: Battlefield, pos: Position) -> tuple[int, int]:
    """What the cover and the visibility at ``pos`` take off a ranged attack (ruling).

    Kept by map and place (a map never changes): every shot asks it of its target's place.
    """
    return COVER_PENALTY[field.cover(pos)], VISIBILITY_PENALTY[field.visibility(pos)]


NEUTRAL_ABILITY_REST = 50  # int, wis, cha, com: RULES.md "the rest 50"
UNARMED = WEAPONS["hand_to_hand"]


# ---------------------------------------------------------------------------- conversion
@dataclass(frozen=True, slots=True)
class Profile:
    """A member's numbers before the fight: what every copy of it starts with."""

    abilities: tuple[tuple[str, int], ...]
    skills: tuple[tuple[str, int], ...]
    weapon: Weapon
    fire: FireMode
    armor: Armor
    hp: int | None  # None: from the hp rule
    toughness: int


def neutral_ability(rating: int) -> int:
    """RULES.md: a neutral attribute rating N becomes min(100, 15 N + 15)."""
    return min(100, 15 * rating + 15)


def neutral_skill(rating: int) -> int:
    """RULES.md: a neutral skill rating N becomes the score 15 N."""
    return 15 * rating


@lru_cache(maxsize=1024)
def profile(member: MemberSpec) -> Profile:
    """Convert a member: neutral traits and gear, then the native block key by key."""
    t, s = member.traits, member.skills
    abilities = dict.fromkeys(ABILITIES, NEUTRAL_ABILITY_REST)
    abilities.update(str=neutral_ability(t.strength), dex=neutral_ability(t.dexterity),
                     agl=neutral_ability(t.agility), con=neutral_ability(t.endurance),
                     per=neutral_ability(t.perception))
    weapon, armor = NEUTRAL_WEAPONS[member.weapon], NEUTRAL_ARMOR[member.armor]
    mode, damage, critical, hp, toughness = Mode.SINGLE, None, None, None, 0
    block = member.native_block("opencore")
    if block is not None:
        abilities.update(block.abilities.model_dump(exclude_none=True))
        weapon = NATIVE_WEAPONS[block.weapon] if block.weapon else weapon
        armor = (NO_ARMOR if block.armor == "none" else ARMOR[block.armor]) if block.armor \
            else armor
        mode = MODES[block.mode] if block.mode else mode
        damage, critical, hp = block.damage, block.critical, block.hp
        toughness = block.toughness if block.toughness is not None else 0
    skills = dict.fromkeys(SKILLS, 0)
    skills.update(melee=neutral_skill(s.melee), hand_to_hand=neutral_skill(s.brawl),
                  evade=neutral_skill(s.dodge))
    # RULES.md: neutral "ranged" goes to the skill of the ranged weapon's class. Ruling: the
    # neutral parry has no OpenCore counterpart (Evade is the defense) and is dropped.
    if weapon.is_ranged:
        skills[weapon.weapon_class.value] = neutral_skill(s.ranged)
    if block is not None:
        skills.update(block.skills.model_dump(exclude_none=True))
    fire = weapon.mode(mode)
    if damage is not None or critical is not None:
        fire = replace(fire, damage=DamageDice.parse(damage) if damage else fire.damage,
                       crit_table=CritTable(critical) if critical else fire.crit_table)
        weapon = replace(weapon, modes=tuple(fire if m.mode is mode else m for m in weapon.modes))
    return Profile(tuple(abilities.items()), tuple(skills.items()), weapon, fire, armor, hp,
                   toughness)


@dataclass(frozen=True, slots=True)
class Numbers:
    """What every fighter made from one member starts with: its profile, worked out.

    The one conversion (``convert``); each fighter copies it (``OpenCoreFighter.__init__``).
    ``abilities`` and ``skills`` are never changed: a fighter takes its own copy.
    """

    abilities: dict[str, int]
    skills: dict[str, int]
    con: int
    dex: int
    str_mod: int
    init_bonus: int  # DEX, weapon and armor's share of initiative
    weapon: Weapon
    fire: FireMode
    attack_skill: int  # the weapon's class
    unarmed_skill: int
    evade: int  # the better of Evade and Acrobatics
    armor: Armor
    toughness: int
    shield: bool
    hp: int | None  # None: from the hp rule
    ranged: bool
    reach: float


def convert(member: MemberSpec) -> Numbers:
    """A member's numbers from its profile; ``hp`` None when the hp rule gives it."""
    p = profile(member)
    a, s = dict(p.abilities), dict(p.skills)
    dex = a["dex"]
    # Ruling: Evade or Acrobatics (the seed names both), whichever is better.
    return Numbers(
        abilities=a, skills=s, con=a["con"], dex=dex, str_mod=ability_modifier(a["str"]),
        init_bonus=initiative_bonus(dex, p.weapon.speed_factor, p.armor.initiative_penalty),
        weapon=p.weapon, fire=p.fire, attack_skill=s[p.weapon.weapon_class.value],
        unarmed_skill=s["hand_to_hand"], evade=max(s["evade"], s["acrobatics"]),
        armor=p.armor, toughness=p.toughness, shield=member.shield, hp=p.hp,
        ranged=p.weapon.is_ranged, reach=max_range(p.weapon))


_TEMPLATES: Templates[Numbers] = Templates()


def converted(member: MemberSpec) -> Numbers:
    """``convert(member)``, made once per member (``Templates``) for every fight to copy."""
    return _TEMPLATES.of(member, None, lambda: convert(member))


def fire_rate(weapon: Weapon) -> int | None:
    """Shots ``weapon`` looses a round at most (RULES.md "Rate of fire"; None: no limit).

    By the seed's weapon class, as the neutral weapons map to it: archery a bow's (a
    single-shot one a crossbow's), a thrown weapon one a round; guns have no such limit.
    """
    if weapon.weapon_class is WeaponClass.ARCHERY:
        return RATE_OF_FIRE["crossbow" if weapon.single_shot else "bow"]
    if weapon.weapon_class is WeaponClass.THROWN:
        return RATE_OF_FIRE["javelin"]
    return None


def max_range(weapon: Weapon) -> float:
    """Metres within which ``weapon`` attacks: its melee reach, the ruling table when ranged."""
    if not weapon.is_ranged:
        return melee_reach(weapon.key)
    return MAX_RANGE_BY_WEAPON.get(weapon.key, MAX_RANGE_BY_CLASS[weapon.weapon_class])


# ---------------------------------------------------------------------------- the fighter
class OpenCoreFighter(Combatant):
    """An OpenCore combatant.

    Attributes:
        abilities, skills: scores by name (for the log); the hot values are copied out:
            ``con``, ``dex``, ``str_mod``, ``init_bonus`` (DEX, weapon and armor's share of
            initiative), ``attack_skill`` (the weapon's class),
            ``unarmed_skill``, ``evade`` (the better of Evade and Acrobatics).
        weapon, fire: the weapon and its fire mode (damage, critical table).
        held: False once a fumble made it drop the weapon (until picked up).
        loaded: False once a single-shot weapon (the crossbow) has shot, until reloaded;
            always True for other weapons.
        armor, armor_left: the armor and the damage rating it has left.
        hp, max_hp, toughness: Toughness is used up like armor.
        init, bided: this round's initiative; a bide last round (+20 this round).
        defending, stumbling: until its next turn, defense doubled / less this penalty.
        stun, knocked_out: running stun / knockout processes; a knocked-out fighter is
            helpless but still in the fight (RULES.md "Down for a while is not out").
        bloodloss, bleeding: bloodloss stacks; whether its bleed clock runs.
        stable_in: below 0 HP, the bleed ticks left until it is stabilised by chance
            (``health.stabilise_by_chance``): drawn when HP first fall below 0; ``math.inf``
            when it never is (option off, or CON below 20); None above 0 HP.
        bleeder, bleed_at: the bleed clock's process, or the instant of its next tick when
            it ticks on the encounter's list of the fallen (``health.Fallen``).
        skill_penalty, injuries: location injuries (penalty to attack and defense).
        turn: its timed action, made at its first turn and given each round's intent and
            initiative (a dataclass costs ~2,000 machine instructions to make; nothing
            holds a round's actions past the round).
    """

    __slots__ = ("abilities", "skills", "con", "dex", "str_mod", "init_bonus", "attack_skill",
                 "unarmed_skill", "evade", "weapon", "fire", "held", "loaded", "armor",
                 "armor_left", "hp", "max_hp", "toughness", "shield", "init", "bided", "defending",
                 "running", "stumbling", "stun", "knocked_out", "bloodloss", "bleeding", "bleeder",
                 "bleed_at", "stable_in", "skill_penalty", "injuries", "turn", "loosed")
    # the slots' types (an annotation without a value makes no class attribute)
    abilities: dict[str, int]
    skills: dict[str, int]
    con: int
    dex: int
    str_mod: int
    init_bonus: int
    attack_skill: int
    unarmed_skill: int
    evade: int
    weapon: Weapon
    fire: FireMode
    held: bool
    loaded: bool
    armor: Armor
    armor_left: int
    hp: int
    max_hp: int
    toughness: int
    shield: bool
    init: int
    bided: bool
    defending: bool
    running: bool  # ran this round: defense halved until its next action
    stumbling: int
    stun: int
    knocked_out: int
    bloodloss: int
    bleeding: bool
    bleeder: Effect | None
    bleed_at: float | None
    stable_in: float | None
    skill_penalty: int
    injuries: list[Injury]
    turn: TimedAction[int] | None
    loosed: tuple[int, int]  # (round, shots loosed in it): RULES.md "Rate of fire"

    def __init__(self, member: MemberSpec, pos: Position, numbers: Numbers, hp: int):
        """A fighter for ``member`` at ``pos`` with its converted ``numbers`` and ``hp``.

        The only place a fighter's slots are first set.
        """
        super().__init__(member, pos)
        n = numbers
        self.abilities, self.skills = dict(n.abilities), dict(n.skills)
        self.con, self.dex, self.str_mod, self.init_bonus = n.con, n.dex, n.str_mod, n.init_bonus
        self.weapon, self.fire, self.held, self.loaded = n.weapon, n.fire, True, True
        self.attack_skill, self.unarmed_skill, self.evade = n.attack_skill, n.unarmed_skill, \
            n.evade
        self.armor, self.armor_left = n.armor, n.armor.damage_rating
        self.toughness, self.shield = n.toughness, n.shield
        self.hp = self.max_hp = hp
        self.init, self.bided, self.defending, self.stumbling = 0, False, False, 0
        self.running = False
        self.stun = self.knocked_out = self.bloodloss = self.skill_penalty = 0
        self.bleeding, self.bleeder, self.bleed_at, self.injuries = False, None, None, []
        self.stable_in = None
        self.ranged, self.reach, self.speed, self.turn = n.ranged, n.reach, MOVE_METRES, None
        self.loosed = (0, 0)
        self.fire_rate = fire_rate(n.weapon)  # a native block's weapon too

    def helpless(self) -> bool:
        """Knocked out for a while: in the fight, but threatening no one."""
        return bool(self.knocked_out)

    def describe(self) -> str:
        """Abilities, HP, armor, weapon and skills, for the start of the log."""
        a = self.abilities
        return (f"STR {a['str']} DEX {a['dex']} AGL {a['agl']} CON {a['con']}; "
                f"HP {self.hp}, Toughness {self.toughness}, {self.armor.label} "
                f"({self.armor_left}); {self.weapon.label} {self.fire.damage} "
                f"(skill {self.attack_skill}), evade {self.evade}")

    def state(self) -> str:
        """HP, armor and Toughness left, and the effects running, for the log."""
        text = f"HP {self.hp}/{self.max_hp}"
        if self.armor.damage_rating:
            text += f", armor {self.armor_left}"
        if self.toughness:
            text += f", Toughness {self.toughness}"
        effects = [word for word, on in (("knocked out", self.knocked_out),
                                         ("stunned", self.stun), ("bleeding", self.bleeding),
                                         (f"bloodloss x{self.bloodloss}", self.bloodloss),
                                         (f"-{self.skill_penalty} from injuries",
                                          self.skill_penalty)) if on]
        return text + (f"; {', '.join(effects)}" if effects else "")


def fighters_of(enc: Encounter) -> list[OpenCoreFighter]:
    """The encounter's fighters: OpenCore's, in an OpenCore fight (``OpenCoreRuleset.build``)."""
    if TYPE_CHECKING:  # narrowed for the checker alone: a cast is a call at run time
        fighters = cast("list[OpenCoreFighter]", enc.combatants)
    else:
        fighters = enc.combatants
    return fighters


# ---------------------------------------------------------------------------- effects
def start_stun(enc: Encounter, f: OpenCoreFighter, rounds: int) -> None:
    """Stun ``f`` for ``rounds`` rounds (cannot attack, -50 defense); stuns overlap."""
    f.stun += 1
    wait = rounds * enc.ruleset.seconds_per_round

    def stun() -> Generator[simpy.Event, Any, None]:
        try:
            yield enc.env.timeout(wait)
        finally:  # also when interrupted by death
            f.stun -= 1
        if enc.log is not None and not f.stun and f.in_fight:
            enc.emit("stun_end", who=f.name, text=f"{f.name} is no longer stunned.")

    # Persistent: the time runs out while unconscious too.
    enc.start_effect(f, stun, persistent=True)


def knock_out(enc: Encounter, f: OpenCoreFighter, rounds: int) -> None:
    """Unconscious for ``rounds`` rounds (the critical): helpless, not out of the fight.

    RULES.md "Down for a while is not out": the fight goes on; ``f`` declares and does
    nothing while it lasts (``OpenCoreRuleset.declaration_order``, ``resolve``), attacks on
    it meet no defense (``rules.helpless_verdict``), and it comes to when no knockout runs
    any more. A fighter already out (0 HP or less) stays out: its HP never rise in a fight.
    """
    if not f.in_fight:
        return
    f.knocked_out += 1
    f.defending = False  # no defense doubled while senseless
    if enc.log is not None:
        enc.emit("knocked_out", who=f.name,
                 text=f"{f.name} is knocked out for {rounds} round(s): helpless, not out "
                      f"of the fight ({f.state()}).")
    wait = rounds * enc.ruleset.seconds_per_round

    def out() -> Generator[simpy.Event, Any, None]:
        try:
            yield enc.env.timeout(wait)
        finally:
            f.knocked_out -= 1
        if not f.knocked_out and f.in_fight:
            wake(enc, f)

    # persistent: only death (or a fall to 0 HP, which keeps it out) makes it moot
    enc.start_effect(f, out, persistent=True)


def wake(enc: Encounter, f: OpenCoreFighter) -> None:
    """A knocked-out fighter comes to: it acts again from its next declaration."""
    if enc.log is not None:
        back = "is on its feet again" if enc.fight_over else "comes to"
        enc.emit("status", who=f.name, status="ok", text=f"{f.name} {back} ({f.state()}).")
