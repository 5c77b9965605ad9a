"""OpenD6 weapons and armor: their types, the seed 004 tables, the neutral names mapped onto them.

Entries the seed has are copied as written. Entries it lacks (firearms, kevlar) and readings
of unclear entries carry a "Ruling:" comment. Damage codes of muscle weapons add to Strength.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from sim.rulesets.opend6.dice import DiceCode
from sim.rulesets.opend6.rules import ENCUMBRANCE_DIFFICULTY, IMPROVISED_DIFFICULTY


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon of the OpenD6 table.

    Attributes:
        name: Display name.
        skill: The skill that attacks with it (skills do not transfer between weapons).
        damage: Damage code, added to Strength when ``muscle``.
        muscle: Strength adds to the damage (False for mechanical weapons).
        ranges: Close, medium and long range in metres; None for a melee weapon.
        reload_actions: Actions needed to reload after each shot.
        difficulty: Added to the attacker's target number (improvised weapons +5).
        unarmed: A fist or knuckles: harm not meant to kill (RULES.md; a blow that would
            kill knocks out instead, unless the option ``lethal_unarmed``).
    """

    name: str
    skill: str
    damage: DiceCode
    muscle: bool = True
    ranges: tuple[int, int, int] | None = None
    reload_actions: int = 0
    difficulty: int = 0
    unarmed: bool = False
    ranged: bool = field(init=False, repr=False, compare=False)
    """Whether it shoots (attacks with Dexterity) rather than strikes (Agility): a field set
    from ``ranges``, not a property, as the encounter loop asks it many times a turn."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranged", self.ranges is not None)

    @property
    def attack_attribute(self) -> str:
        """``dexterity`` for ranged weapons, ``agility`` for melee ones."""
        return "dexterity" if self.ranges is not None else "agility"

    def damage_code(self, strength: DiceCode) -> DiceCode:
        """The damage to roll for a wielder of this ``strength``."""
        return strength + self.damage if self.muscle else self.damage


@dataclass(frozen=True, slots=True)
class Armor:
    """Armor or a shield of the OpenD6 table.

    Attributes:
        name: Display name.
        resistance: Added to Endurance on resistance rolls.
        encumbering: Metal armor or a tower shield (the encumbrance option's +4).
        block: A shield: allows the block defense (Agility + shield skill).
    """

    name: str
    resistance: DiceCode
    encumbering: bool = False
    block: bool = False


def encumbrance_difficulty(*worn: Armor) -> int:
    """Option: +4 to Agility difficulties per metal armor or tower shield worn."""
    return ENCUMBRANCE_DIFFICULTY * sum(1 for item in worn if item.encumbering)


def _weapons(*weapons: Weapon) -> MappingProxyType[str, Weapon]:
    return MappingProxyType({w.name: w for w in weapons})


def _armors(*armors: Armor) -> MappingProxyType[str, Armor]:
    return MappingProxyType({a.name: a for a in armors})


WEAPONS = _weapons(
    # Ruling: fists and knuckles use the skill "brawling", and are unarmed: a beating knocks
    # out rather than kills (RULES.md "Harm that is not meant to kill"). A beast's claws,
    # bite and horns are natural weapons, meant to kill.
    Weapon("fist", "brawling", DiceCode(0), unarmed=True),
    Weapon("knuckles", "brawling", DiceCode(0, 2), unarmed=True),
    # Ruling: the seed has no beasts. Natural weapons use brawling, with a knife's +1D; horns
    # gore like a staff (+1D+1).
    Weapon("claws", "brawling", DiceCode(1)),
    Weapon("bite", "brawling", DiceCode(1)),
    Weapon("horns", "brawling", DiceCode(1, 1)),
    # RULES.md: "improvised 1D (+5 difficulty)", set apart from the Strength + weapons, so
    # Strength does not add. The seed's "can break on a fumble" is not modelled.
    Weapon("improvised", "improvised", DiceCode(1), muscle=False,
           difficulty=IMPROVISED_DIFFICULTY),
    # Ruling: a knife and a spear are melee weapons; thrown weapons are rows of their own.
    Weapon("knife", "knife", DiceCode(1)),
    # Seed: "Knife, Dagger, or Throwing Knife = Strength +1D", no range. Ruling: thrown by
    # hand at 5/10/15 m, its own skill (skills do not transfer). A javelin, not in the seed,
    # is a spear thrown: a die under the spear's +2D+2 in the hand, Strength +1D+2, at
    # 10/20/30 m. Each throw spends one (``sim.core.arms.thrown``); no reload action.
    Weapon("throwing_knife", "throwing_knife", DiceCode(1), ranges=(5, 10, 15)),
    Weapon("javelin", "javelin", DiceCode(1, 2), ranges=(10, 20, 30)),
    Weapon("club", "club", DiceCode(1)),
    Weapon("staff", "staff", DiceCode(1, 1)),
    Weapon("longbow", "longbow", DiceCode(2), ranges=(15, 30, 50)),
    # Ruling (weapon names keep their meaning): the seed lists the longbow alone. A short
    # bow is a lighter draw, one pip under it (STR+1D+2), at the same ranges.
    Weapon("shortbow", "shortbow", DiceCode(1, 2), ranges=(15, 30, 50)),
    Weapon("sword", "sword", DiceCode(2, 1)),
    Weapon("battle_axe", "axe", DiceCode(2, 1)),
    Weapon("mace", "mace", DiceCode(2, 1)),
    Weapon("war_hammer", "war_hammer", DiceCode(2, 2)),
    Weapon("spear", "spear", DiceCode(2, 2)),
    Weapon("great_sword", "great_sword", DiceCode(3)),
    Weapon("pole_arm", "pole_arm", DiceCode(3)),
    Weapon(
        "crossbow", "crossbow", DiceCode(4), muscle=False, ranges=(10, 20, 40), reload_actions=1
    ),
    # Ruling: the seed calls pistols mechanical but gives no firearm stats. Firearms are
    # mechanical and need no reload action (a magazine outlasts a fight); a pistol hits like
    # the crossbow, the long guns one die harder: pistol 4D 10/25/50 m, shotgun 5D
    # 10/20/40 m, rifle 5D 30/100/300 m.
    Weapon("pistol", "pistol", DiceCode(4), muscle=False, ranges=(10, 25, 50)),
    Weapon("shotgun", "shotgun", DiceCode(5), muscle=False, ranges=(10, 20, 40)),
    Weapon("rifle", "rifle", DiceCode(5), muscle=False, ranges=(30, 100, 300)),
)
"""Every weapon by its OpenD6 name."""

ARMORS = _armors(
    Armor("none", DiceCode(0)),
    Armor("cloth", DiceCode(0, 2)),
    Armor("leather", DiceCode(0, 2)),
    Armor("banded", DiceCode(1), encumbering=True),
    Armor("mail", DiceCode(2), encumbering=True),
    Armor("plate", DiceCode(3), encumbering=True),
    # Ruling: the seed has no kevlar. A vest protects like mail (+2D) against every kind of
    # damage and is not metal, so it does not encumber.
    Armor("kevlar", DiceCode(2)),
)
"""Every body armor by its OpenD6 name."""

SHIELDS = _armors(
    # Ruling: a shield's bonus adds to body armor's on resistance rolls (the seed lists
    # shields with armor), and a shield allows the block defense.
    Armor("shield", DiceCode(0, 2), block=True),
    Armor("tower_shield", DiceCode(1), encumbering=True, block=True),
)
"""Every shield by its OpenD6 name."""

WEAPONS_BY_NEUTRAL = MappingProxyType(
    {
        "unarmed": WEAPONS["fist"],
        "knife": WEAPONS["knife"],
        "club": WEAPONS["club"],
        "mace": WEAPONS["mace"],
        "sword": WEAPONS["sword"],
        "greatsword": WEAPONS["great_sword"],
        "spear": WEAPONS["spear"],
        "bow": WEAPONS["shortbow"],  # the neutral bow is the short one
        "shortbow": WEAPONS["shortbow"],
        "longbow": WEAPONS["longbow"],
        "crossbow": WEAPONS["crossbow"],
        "javelin": WEAPONS["javelin"],
        "throwing knife": WEAPONS["throwing_knife"],
        "pistol": WEAPONS["pistol"],
        "rifle": WEAPONS["rifle"],
        "shotgun": WEAPONS["shotgun"],
        "claws": WEAPONS["claws"],
        "bite": WEAPONS["bite"],
        "horns": WEAPONS["horns"],
    }
)
"""Neutral weapon names (RULES.md) to OpenD6 weapons."""

ARMOR_BY_NEUTRAL = MappingProxyType(
    {
        "none": ARMORS["none"],
        "leather": ARMORS["leather"],
        "chain": ARMORS["mail"],
        "plate": ARMORS["plate"],
        "kevlar": ARMORS["kevlar"],
    }
)
"""Neutral armor names (RULES.md) to OpenD6 armor."""

SHIELDS_BY_NEUTRAL = MappingProxyType({"shield": SHIELDS["shield"]})
"""Neutral shield names (RULES.md) to OpenD6 shields."""
