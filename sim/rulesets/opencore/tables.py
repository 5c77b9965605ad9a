"""OpenCore d100 data, transcribed from seed 001: weapons, armor and the fumble chart.

Pure data; the rules that read it live in ``opencore_rules``, the five critical tables in
``opencore_criticals``. Where RULES.md (section ``opencore``) rules on a gap in the seed, the
ruling is written next to the entry it affects.

Conventions:
- Roll ranges are inclusive ``(low, high)``.
- Penalties are stored as positive amounts to subtract; the seed prints them as "-20".
- Keys are snake_case forms of the seed's names ("Small Handgun" -> ``small_handgun``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Protocol, TypeVar

from sim.rulesets.opencore.criticals import CritTable

# --------------------------------------------------------------------------- weapons


class WeaponClass(StrEnum):
    """The seed's weapon classes, grouped as the ruleset needs them."""

    HAND_TO_HAND = "hand_to_hand"
    MELEE = "melee"
    THROWN = "thrown"
    ARCHERY = "archery"
    FIREARMS = "firearms"
    PORTABLE_AT = "portable_at"
    GUNNERY = "gunnery"


class Mode(StrEnum):
    """How a weapon is used; only the assault rifle has more than one mode in the seed."""

    SINGLE = "single"
    BURST = "burst"
    FULL_AUTO = "full_auto"


_DAMAGE_RE = re.compile(r"^(\d+)d(\d+)(?:\+(\d+))?(\+STR)?$")
MAX_DAMAGE_DICE, MAX_DAMAGE_SIDES, MAX_DAMAGE_BONUS = 20, 100, 1000


@dataclass(frozen=True, slots=True)
class DamageDice:
    """A damage expression such as ``2d10+STR`` or ``3d10+10``.

    ``plus_str`` means the wielder's STR modifier is added (RULES.md: "+STR" is the modifier,
    not the score).
    """

    dice: int
    sides: int
    bonus: int = 0
    plus_str: bool = False

    @classmethod
    def parse(cls, text: str) -> DamageDice:
        """Parse the seed's notation: ``NdS``, ``NdS+B``, ``NdS+STR`` (whitespace ignored).

        Raises:
            ValueError: if ``text`` is not in that notation.
        """
        match = _DAMAGE_RE.match(text.replace(" ", ""))
        if match is None:
            raise ValueError(f"not a damage expression: {text!r} (expected e.g. '2d10+STR')")
        groups = match.groups()
        shown = text if len(text) <= 40 else text[:37] + "..."
        limits = (f"{shown!r}: from 1 to {MAX_DAMAGE_DICE} dice of 2 to {MAX_DAMAGE_SIDES} "
                  f"sides, a bonus of at most {MAX_DAMAGE_BONUS} (e.g. '2d10+STR')")
        if any(g and len(g) > 6 for g in groups[:3]):  # before int(): no 5,000-digit numbers
            raise ValueError(limits)
        dice, sides, bonus = int(groups[0]), int(groups[1]), int(groups[2] or 0)
        # limits no weapon table comes near, so a typo cannot ask for a billion dice
        if not (1 <= dice <= MAX_DAMAGE_DICE and 2 <= sides <= MAX_DAMAGE_SIDES
                and bonus <= MAX_DAMAGE_BONUS):
            raise ValueError(limits)
        return cls(dice, sides, bonus, groups[3] is not None)

    def __str__(self) -> str:
        text = f"{self.dice}d{self.sides}"
        if self.bonus:
            text += f"+{self.bonus}"
        if self.plus_str:
            text += "+STR"
        return text


@dataclass(frozen=True, slots=True)
class FireMode:
    """One way of attacking with a weapon: its damage and its critical table.

    ``damage`` is None where the seed gives none (thrown weapons: "Per weapon").
    """

    mode: Mode
    damage: DamageDice | None
    crit_table: CritTable


@dataclass(frozen=True, slots=True)
class Weapon:
    """A row of the seed's weapon table. The seed gives no ranges, so none are stored.

    ``single_shot`` marks a reload weapon (RULES.md "Reload weapons"): one shot, then an
    action to reload it. ``unarmed`` marks bare hands (RULES.md "Harm that is not meant to
    kill"): a beast's claws, bite or horns are fought hand to hand too, but meant to kill.
    """

    key: str
    label: str
    weapon_class: WeaponClass
    speed_factor: int
    modes: tuple[FireMode, ...]
    single_shot: bool = False
    unarmed: bool = False

    @property
    def is_ranged(self) -> bool:
        """True for every class that attacks at a distance."""
        return self.weapon_class not in (WeaponClass.HAND_TO_HAND, WeaponClass.MELEE)

    def mode(self, mode: Mode = Mode.SINGLE) -> FireMode:
        """The entry for ``mode``.

        Raises:
            ValueError: if the weapon has no such mode.
        """
        for entry in self.modes:
            if entry.mode is mode:
                return entry
        have = ", ".join(m.mode for m in self.modes)
        raise ValueError(f"{self.key} has no {mode} mode (it has: {have})")


def _weapon(
    key: str, label: str, cls: WeaponClass, speed: int, damage: str | None, crit: CritTable,
    *, unarmed: bool = False,
) -> Weapon:
    """A single-mode weapon row."""
    dice = DamageDice.parse(damage) if damage else None
    return Weapon(key, label, cls, speed, (FireMode(Mode.SINGLE, dice, crit),),
                  unarmed=unarmed)


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


_Row = TypeVar("_Row", bound=_Keyed)


def _keyed(*rows: _Row) -> Mapping[str, _Row]:
    """A read-only mapping of table rows by their ``key``."""
    return MappingProxyType({row.key: row for row in rows})


_H2H, _MELEE, _FIRE = WeaponClass.HAND_TO_HAND, WeaponClass.MELEE, WeaponClass.FIREARMS
_SLASH, _IMPACT = CritTable.SLASH, CritTable.IMPACT
_PUNCTURE, _SHRAPNEL = CritTable.PUNCTURE, CritTable.SHRAPNEL

# Seed, "Weapon Statistics": class, speed factor, damage. Critical tables per RULES.md
# "Crit table by weapon" (the seed only hints at them in the tables' headings).
WEAPONS: Mapping[str, Weapon] = _keyed(
    # bare hands: a beating knocks out, it does not kill (RULES.md, ``rules.unarmed_hp``)
    _weapon("hand_to_hand", "Hand to Hand", _H2H, 30, "1d6+STR", _IMPACT, unarmed=True),
    # "Per weapon": the seed gives no damage for the class itself.
    _weapon("thrown_weapons", "Thrown weapons", WeaponClass.THROWN, 25, None, _PUNCTURE),
    # Archery is 1d10 flat: the seed adds no +STR here, although its STR text says STR
    # affects ranged damage. Transcribed as printed.
    _weapon("archery", "Archery", WeaponClass.ARCHERY, 15, "1d10", _PUNCTURE),
    _weapon("knife", "Knife", _MELEE, 25, "1d10+STR", _SLASH),
    _weapon("sword", "Sword", _MELEE, 20, "2d10+STR", _SLASH),
    _weapon("small_club", "Small Club", _MELEE, 25, "2d6+STR", _IMPACT),
    _weapon("large_club", "Large Club", _MELEE, 20, "2d10+STR", _IMPACT),
    _weapon("small_handgun", "Small Handgun", _FIRE, 35, "1d10+5", _PUNCTURE),
    _weapon("large_handgun", "Large Handgun", _FIRE, 20, "2d10+5", _PUNCTURE),
    _weapon("rifle", "Rifle", _FIRE, 15, "3d10", _PUNCTURE),
    Weapon(
        "assault_rifle",
        "Assault Rifle",
        _FIRE,
        10,
        (
            # Single shots are rifle fire (Puncture); burst and auto are Shrapnel (RULES.md).
            FireMode(Mode.SINGLE, DamageDice.parse("3d10"), _PUNCTURE),
            FireMode(Mode.BURST, DamageDice.parse("3d10+10"), _SHRAPNEL),
            FireMode(Mode.FULL_AUTO, DamageDice.parse("3d10+20"), _SHRAPNEL),
        ),
    ),
    _weapon("shotgun", "Shotgun", _FIRE, 15, "3d10+5", _SHRAPNEL),
    _weapon("portable_at", "Portable AT", WeaponClass.PORTABLE_AT, 0, "5d10+30", _SHRAPNEL),
    _weapon("gunnery", "Gunnery", WeaponClass.GUNNERY, 5, "5d10+30", _SHRAPNEL),
)

# --------------------------------------------------------------------------- armor


@dataclass(frozen=True, slots=True)
class Armor:
    """A row of the seed's armor table.

    ``damage_rating`` is how much damage the armor absorbs before it is useless (it is used
    up); ``initiative_penalty`` is subtracted from initiative (the seed prints "-5").
    """

    key: str
    label: str
    damage_rating: int
    initiative_penalty: int


# Seed, "Armor & Damage Reduction".
ARMOR: Mapping[str, Armor] = _keyed(
    Armor("leather_armor", "Leather Armor", 25, 5),
    Armor("chain_mail", "Chain Mail", 40, 10),
    Armor("metal_plate", "Metal Plate", 75, 30),
    Armor("kevlar_vest", "Kevlar Vest", 50, 5),
    Armor("plated_vest", "Plated Vest", 85, 10),
    Armor("police_riot_gear", "Police Riot Gear", 100, 15),
    Armor("military_ppe", "Military PPE", 150, 20),
)

# Not a seed row: wearing nothing absorbs nothing and slows nobody.
NO_ARMOR = Armor("none", "No armor", 0, 0)

# --------------------------------------------------------------------------- fumble chart


class Role(StrEnum):
    """Who rolled: the fumble chart reads differently for attacker and defender."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


class FumbleEffect(StrEnum):
    """The kinds of result on the seed's fumble chart."""

    RECOVERS = "recovers"
    STUMBLES = "stumbles"
    FALLS_OVER = "falls_over"
    DROPS_WEAPON = "drops_weapon"  # attacker: drops the weapon and injures himself with it
    ZIGS = "zigs"  # defender "zigs when he should have zagged": the hit does multiplied damage


@dataclass(frozen=True, slots=True)
class Fumble:
    """One fumble result with its parameters.

    Attributes:
        effect: what happens.
        defense_penalty: subtracted from the fumbler's defense until his next turn.
        foe_extra_attack: the opponent gets an immediate extra attack.
        drops_weapon: the fumbler's weapon ends on the ground.
        self_damage_multiplier: the attacker hits himself with his own weapon, this many
            times its damage roll (0: no self-injury).
        damage_multiplier: the defender takes the incoming hit's damage this many times.
    """

    effect: FumbleEffect
    defense_penalty: int = 0
    foe_extra_attack: bool = False
    drops_weapon: bool = False
    self_damage_multiplier: int = 0
    damage_multiplier: int = 1


@dataclass(frozen=True, slots=True)
class FumbleRow:
    """A fumble chart row: the 1d100 range and its result for each role."""

    low: int
    high: int
    attacker: Fumble
    defender: Fumble

    def for_role(self, role: Role) -> Fumble:
        """The result for ``role``."""
        return self.attacker if role is Role.ATTACKER else self.defender


_RECOVER = Fumble(FumbleEffect.RECOVERS)
_STUMBLE = Fumble(FumbleEffect.STUMBLES, defense_penalty=20)
_FALL = Fumble(FumbleEffect.FALLS_OVER, foe_extra_attack=True)

# Seed, "Fumble Chart". The first three rows read the same for both roles.
FUMBLE_CHART: tuple[FumbleRow, ...] = (
    FumbleRow(1, 60, _RECOVER, _RECOVER),
    FumbleRow(61, 80, _STUMBLE, _STUMBLE),
    FumbleRow(81, 90, _FALL, _FALL),
    FumbleRow(
        91,
        95,
        Fumble(FumbleEffect.DROPS_WEAPON, drops_weapon=True, self_damage_multiplier=1),
        Fumble(FumbleEffect.ZIGS, damage_multiplier=2),
    ),
    FumbleRow(
        96,
        100,
        Fumble(FumbleEffect.DROPS_WEAPON, drops_weapon=True, self_damage_multiplier=2),
        Fumble(FumbleEffect.ZIGS, damage_multiplier=3),
    ),
)

# --------------------------------------------------------------------------- neutral names

# RULES.md "Equipment by neutral name". Rulings where the seed has no exact entry:
# Ruling: the seed has no spear. It takes the numbers Sword and Large Club share (speed 20,
# 2d10+STR), with Puncture crits: the seed's Puncture table names spears.
SPEAR = _weapon("spear", "Spear (ruling)", _MELEE, 20, "2d10+STR", _PUNCTURE)

# Ruling: the seed's one Archery class covers bows and crossbows alike (speed 15, 1d10,
# Puncture); the crossbow is that row marked single-shot (RULES.md "Reload weapons": one
# shot, then an action to reload, whether the shot hit or not).
CROSSBOW = Weapon("crossbow", "Crossbow", WeaponClass.ARCHERY, 15,
                  WEAPONS["archery"].modes, single_shot=True)

# Ruling: the seed's Thrown weapons row says "Per weapon" and names none. Each keeps the
# class (speed 25, Puncture crits, the ``thrown`` skill) with a damage of its own, +STR as
# a hand's throw: a javelin is a spear thrown, a die lighter than the spear's 2d10+STR in
# the hand (1d10+STR, a knife's); a throwing knife a small blade, 1d6+STR. Each throw
# spends one (``sim.core.arms.thrown``); there is no reload.
JAVELIN = _weapon("javelin", "Javelin (ruling)", WeaponClass.THROWN, 25, "1d10+STR",
                  _PUNCTURE)
THROWING_KNIFE = _weapon("throwing_knife", "Throwing Knife (ruling)", WeaponClass.THROWN, 25,
                         "1d6+STR", _PUNCTURE)

# Ruling: the seed has no beasts. Natural weapons are Hand to Hand (speed 30, never dropped)
# that strike like a knife (1d10+STR), each with the critical table of its wound: claws
# Slash, a bite Puncture, horns Impact. Not ``unarmed``: a beast's weapons are meant to
# kill, as every other ruleset's catalog rules.
CLAWS = _weapon("claws", "Claws (ruling)", _H2H, 30, "1d10+STR", _SLASH)
BITE = _weapon("bite", "Bite (ruling)", _H2H, 30, "1d10+STR", _PUNCTURE)
HORNS = _weapon("horns", "Horns (ruling)", _H2H, 30, "1d10+STR", _IMPACT)

NATIVE_WEAPONS: Mapping[str, Weapon] = MappingProxyType(
    {**WEAPONS, SPEAR.key: SPEAR, CROSSBOW.key: CROSSBOW, CLAWS.key: CLAWS, BITE.key: BITE,
     HORNS.key: HORNS, JAVELIN.key: JAVELIN, THROWING_KNIFE.key: THROWING_KNIFE})
"""What a native block may name: the seed's weapons and the ruling ones the neutral names use."""

NEUTRAL_WEAPONS: Mapping[str, Weapon] = MappingProxyType(
    {
        "unarmed": WEAPONS["hand_to_hand"],
        "knife": WEAPONS["knife"],
        "club": WEAPONS["small_club"],
        # Ruling: a mace is a heavy club.
        "mace": WEAPONS["large_club"],
        "sword": WEAPONS["sword"],
        # Ruling: the seed has one sword class ("all weapons fall into one of the classes";
        # better weapons get a GM bonus it does not quantify), so a greatsword is a Sword.
        "greatsword": WEAPONS["sword"],
        "spear": SPEAR,
        # Ruling: the seed's one Archery class covers every bow, short or long.
        "bow": WEAPONS["archery"],
        "shortbow": WEAPONS["archery"],
        "longbow": WEAPONS["archery"],
        "crossbow": CROSSBOW,
        "javelin": JAVELIN,
        "throwing knife": THROWING_KNIFE,
        # Ruling: a pistol is the Small Handgun; the Large Handgun stays available by its key.
        "pistol": WEAPONS["small_handgun"],
        "rifle": WEAPONS["rifle"],
        "shotgun": WEAPONS["shotgun"],
        "claws": CLAWS,
        "bite": BITE,
        "horns": HORNS,
    }
)

NEUTRAL_ARMOR: Mapping[str, Armor] = MappingProxyType(
    {
        "none": NO_ARMOR,
        "leather": ARMOR["leather_armor"],
        "chain": ARMOR["chain_mail"],
        "plate": ARMOR["metal_plate"],
        "kevlar": ARMOR["kevlar_vest"],
    }
)

# Ruling: the seed has no shields at all. By default a shield adds nothing to the Evade
# roll; the ruleset reads this one name so that a scenario can override it.
SHIELD_DEFENSE_BONUS = 0
