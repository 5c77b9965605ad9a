"""One Roll Engine (Reign) weapons, armor and hit locations, keyed by neutral names.

Reign's own entries come from RULES.md (``ore``, "Damage"). Where Reign has no entry for
a neutral name (guns, kevlar, the club, ranges, the shield), the ruling is stated next to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

# Hit locations, indexed 0..5; a set's height picks one (RULES.md: 1 left leg, 2 right leg,
# 3-4 left arm, 5-6 right arm, 7-9 torso, 10 head).
LEFT_LEG, RIGHT_LEG, LEFT_ARM, RIGHT_ARM, TORSO, HEAD = range(6)
LOCATION_NAMES = ("left leg", "right leg", "left arm", "right arm", "torso", "head")
# (a set's height is 1-10: the None at 0 is never read, so the type leaves it out)
LOCATION_BY_HEIGHT = cast("tuple[int, ...]", (None, LEFT_LEG, RIGHT_LEG, LEFT_ARM, LEFT_ARM,
                                              RIGHT_ARM, RIGHT_ARM, TORSO, TORSO, TORSO, HEAD))
BOXES = (5, 5, 5, 5, 10, 4)  # wound boxes per location (Reign)
LIMBS = frozenset({LEFT_LEG, RIGHT_LEG, LEFT_ARM, RIGHT_ARM})
ARMS = (LEFT_ARM, RIGHT_ARM)
LEGS = (LEFT_LEG, RIGHT_LEG)
CALLED_HEIGHT = {"head": 10, "torso": 9, "right arm": 6, "left arm": 4,
                 "right leg": 2, "left leg": 1}


@dataclass(frozen=True, slots=True)
class Damage:
    """Damage written in width: Killing = k_width*W + k_plus, Shock = s_width*W + s_plus."""

    k_width: int = 0
    k_plus: int = 0
    s_width: int = 0
    s_plus: int = 0

    def roll(self, width: int) -> tuple[int, int]:
        """``(killing, shock)`` for a set of this width."""
        return self.k_width * width + self.k_plus, self.s_width * width + self.s_plus

    def __str__(self) -> str:
        def part(w: int, plus: int, kind: str) -> str:
            if not w and not plus:
                return ""
            text = ("W" if w else "") + (f"+{plus}" if w and plus else str(plus) if plus else "")
            return f"{text} {kind}"
        return " + ".join(p for p in (part(self.k_width, self.k_plus, "K"),
                                      part(self.s_width, self.s_plus, "S")) if p)


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon: damage, armor piercing, ranges (metres; None for melee), handling."""

    name: str
    damage: Damage
    ap: int = 0
    ranges: tuple[float, float, float] | None = None  # close, medium, long
    two_handed: bool = False
    reload: bool = False  # needs a reload action after each shot
    unarmed: bool = False
    ranged: bool = field(init=False)  # shoots: has ranges (a field: asked on every roll)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranged", self.ranges is not None)


# Ruling "harm that is not meant to kill" (RULES.md, shared vocabulary): unarmed attacks
# (fists, kicks: the neutral ``unarmed``) deal Shock only under ORE and B-Grade, as Reign
# writes them; a beating kills only where Shock overflows a full location (seed 002).
# Natural weapons below are a beast's, meant to kill: not covered. Held by
# ``test_unarmed_harm_is_shock_only``.

WEAPONS: dict[str, Weapon] = {
    "unarmed": Weapon("fists", Damage(s_width=1), unarmed=True),               # W Shock
    "knife": Weapon("dagger", Damage(k_width=1)),                              # W Killing
    # Ruling: Reign lists no plain club here; a club is a lighter mace, all Shock.
    "club": Weapon("club", Damage(s_width=1, s_plus=1)),                       # W+1 Shock
    "mace": Weapon("mace", Damage(k_plus=1, s_width=1, s_plus=1)),             # 1K + W+1 S
    "sword": Weapon("sword", Damage(k_width=1, k_plus=1)),                     # W+1 K
    "greatsword": Weapon("greatsword", Damage(k_width=1, k_plus=1, s_width=1),  # W+1 K + W S
                         two_handed=True),
    "spear": Weapon("spear", Damage(k_width=1, k_plus=1, s_plus=1),            # W+1 K + 1 S
                    two_handed=True),
    # Ruling: ranges (close/medium/long metres) borrowed from OpenD6's tables; Reign has none.
    "bow": Weapon("shortbow", Damage(k_plus=1, s_width=1), ranges=(15, 30, 50),  # 1K + W S
                  two_handed=True),
    # Ruling (weapon names keep their meaning): RULES.md gives Reign's shortbow alone. A
    # longbow is a heavier draw, one Shock more (1K + W+1 S), with the ranges of OpenD6's
    # longbow (the short bow's borrowed ones).
    "longbow": Weapon("longbow", Damage(k_plus=1, s_width=1, s_plus=1),          # 1K + W+1 S
                      ranges=(15, 30, 50), two_handed=True),
    # Ruling: Reign lists no thrown weapons. A javelin is a spear thrown: its Killing
    # (W+1 K) without the Shock of a thrust with a body behind it; a throwing knife cuts
    # as a dagger (W K). Ranges are short, thrown by hand (javelin 10/20/30 m, knife
    # 5/10/15 m), the same in OpenD6's and OpenCore's tables. One in hand: a throw a round
    # (RULES.md "Rate of fire"), each spent, hit or miss (``sim.core.arms.thrown``).
    "javelin": Weapon("javelin", Damage(k_width=1, k_plus=1), ranges=(10, 20, 30)),  # W+1 K
    "throwing knife": Weapon("throwing knife", Damage(k_width=1), ranges=(5, 10, 15)),  # W K
    "crossbow": Weapon("heavy crossbow", Damage(k_width=1, k_plus=1), ap=1,     # W+1 K, AP 1
                       ranges=(10, 20, 40), two_handed=True, reload=True),
    # Ruling: Reign has no guns. Firearms are Killing weapons that pierce armor.
    "pistol": Weapon("pistol", Damage(k_width=1, k_plus=1), ap=1, ranges=(10, 25, 50)),
    "rifle": Weapon("rifle", Damage(k_width=1, k_plus=2), ap=2, ranges=(50, 150, 300),
                    two_handed=True),
    "shotgun": Weapon("shotgun", Damage(k_width=1, k_plus=1, s_width=1), ranges=(10, 20, 40),
                      two_handed=True),
    # Ruling: Reign's beasts are written one by one; these stand for any. Natural weapons
    # fight as bare hands do (Body + Fight from brawl, no parry with them, never disarmed)
    # but cut: claws like a dagger, a bite adds a Shock, horns gore (Shock and a Killing).
    "claws": Weapon("claws", Damage(k_width=1), unarmed=True),                  # W K
    "bite": Weapon("bite", Damage(k_width=1, s_plus=1), unarmed=True),          # W K + 1 S
    "horns": Weapon("horns", Damage(k_plus=1, s_width=1, s_plus=1), unarmed=True),  # 1K + W+1 S
}

WEAPONS["shortbow"] = WEAPONS["bow"]  # the neutral ``bow`` is the short bow

# Armor rating per location (left leg, right leg, left arm, right arm, torso, head).
ARMOR: dict[str, tuple[int, ...]] = {
    "none": (0, 0, 0, 0, 0, 0),
    "leather": (1, 1, 1, 1, 1, 0),   # AR 1 on locations 1-9
    "chain": (2, 2, 2, 2, 2, 2),     # chainmail: AR 2 on 1-10
    "plate": (3, 3, 3, 3, 3, 3),     # full plate: AR 3 on 1-10
    "kevlar": (0, 0, 0, 0, 2, 0),    # ruling: a vest, AR 2 on the torso only
}

# Ranged attacks by band: the penalty in dice (ruling: Reign gives none; medium -1d, long
# -2d, beyond long no shot). Cover at the target's node: -1d/-2d/-3d for light/medium/heavy;
# poor/very poor visibility: -1d/-2d (ruling: ranged attacks only).
RANGE_PENALTY = (0, 1, 2)
BAND_NAMES = ("close", "medium", "long")
COVER_PENALTY = (0, 1, 2, 3)
VISIBILITY_PENALTY = (0, 1, 2)
