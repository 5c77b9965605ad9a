"""The neutral equipment and trait vocabulary shared by every ruleset.

A scenario names weapons, armor and traits on one system-neutral scale (RULES.md,
"System-neutral characters"); each ruleset keeps its own table keyed by these names
(``sim/rulesets/ore/catalog.py``, ``opend6/catalog.py``, ``opencore/tables.py``) and states
its ruling next to any entry its source text lacks. Cover and visibility are enums here;
each ruleset keys its own modifiers by them.
"""

from __future__ import annotations

from enum import IntEnum

WEAPONS: tuple[str, ...] = (
    "unarmed", "knife", "club", "mace", "sword", "greatsword", "spear",
    "bow", "shortbow", "longbow", "crossbow", "pistol", "rifle", "shotgun",
    "claws", "bite", "horns", "javelin", "throwing knife",
)
"""Neutral weapons. ``bow`` is the short bow (the same weapon as ``shortbow`` in every
catalog); a longbow is named ``longbow``, never read as a bow of another class."""
NATURAL_WEAPONS = frozenset({"claws", "bite", "horns"})
"""A beast's own weapons: fought with like bare hands (brawl), never dropped or disarmed."""
WEAPON_ALIASES: dict[str, str] = {
    "fists": "unarmed", "fist": "unarmed", "hands": "unarmed", "bare hands": "unarmed",
    "none": "unarmed", "dagger": "knife", "longsword": "sword", "broadsword": "sword",
    "great sword": "greatsword", "two-handed sword": "greatsword", "cudgel": "club",
    "handgun": "pistol",
    "claw": "claws", "talons": "claws", "teeth": "bite", "fangs": "bite", "jaws": "bite",
    "horn": "horns", "tusks": "horns", "antlers": "horns",
    "javelins": "javelin", "throwing knives": "throwing knife",
    "throwing_knife": "throwing knife",
}
"""Other names people type for a neutral weapon; a scenario may use either. None changes a
weapon's class (a longbow is not a short ``bow``: both are neutral names of their own)."""
ARMORS: tuple[str, ...] = ("none", "leather", "chain", "plate", "kevlar")

TRAITS: tuple[str, ...] = ("strength", "endurance", "agility", "dexterity", "perception")
SKILLS: tuple[str, ...] = ("melee", "brawl", "ranged", "dodge", "parry")

TRAIT_RANGE = (1, 5)
"""Neutral attributes: 2 average, 3 trained, 4 exceptional, 5 peak human."""
SKILL_RANGE = (0, 5)
"""Neutral skills: 0 untrained, 3 professional, 5 master."""
DEFAULT_TRAIT = 2
DEFAULT_SKILL = 0

THROWN_WEAPONS: dict[str, int] = {"javelin": 3, "throwing knife": 4}
"""Weapons thrown by hand (skill ``ranged``), each with the number a fighter carries unless
its member says otherwise (``carry:``). Each throw spends one, hit or miss; nothing thrown
is picked up during a fight or after it (RULES.md "Rate of fire"; docs/scenarios.md)."""
THROWN_PLURALS: dict[str, str] = {"javelin": "javelins", "throwing knife": "throwing knives"}
"""How the log counts several of a thrown weapon ("3 javelins to throw")."""
CARRY_RANGE = (1, 20)
"""How many thrown weapons a member may carry (``carry:``)."""


def carried(weapon: str, carry: int | None) -> int | None:
    """Thrown weapons a fighter starts with: ``carry``, else its weapon's own number.

    None for a weapon that is not thrown (it is kept in hand, never spent).
    """
    if weapon not in THROWN_WEAPONS:
        return None
    return THROWN_WEAPONS[weapon] if carry is None else carry


def thrown_disagrees(weapon: str, native: str | None, thrown: frozenset[str]) -> str | None:
    """Why a native block's ``weapon`` cannot stand beside the member's ``weapon`` (or None).

    RULES.md "Rate of fire": a thrown weapon is spent as it is thrown, counted from the
    member's own ``weapon:`` and ``carry:`` (javelin, throwing knife). So a native block
    puts a thrown weapon in hand only where the member's weapon is thrown, the same one
    where the native name is the neutral one spelled with underscores (``throwing_knife``),
    and never a weapon kept in hand in a thrower's: one that put a javelin in a
    swordsman's hand would throw it for ever, a sword in a thrower's would be spent.
    ``thrown``: the ruleset's native weapons thrown by hand (``NativeBlock.THROWN``).
    """
    if native is None:
        return None
    own = weapon if weapon in THROWN_WEAPONS else None
    if native not in thrown:
        if own is None:
            return None
        return (f"the member's weapon '{own}' is thrown and counted (carry:); a native block "
                f"cannot put '{native}', a weapon kept in hand, in its place: name it on the "
                "member instead")
    neutral = native.replace("_", " ")
    named = neutral if neutral in THROWN_WEAPONS else None
    if own is None:
        return (f"'{native}' is a thrown weapon, spent as it is thrown and counted from the "
                f"member's own weapon: write weapon: {named or ' or '.join(THROWN_WEAPONS)}"
                " on the member (and carry: N, how many)")
    if named is not None and named != own:
        return (f"'{native}' is not the member's thrown weapon '{own}': name the one thrown "
                "weapon on the member")
    return None


RANGED_WEAPONS = frozenset({"bow", "shortbow", "longbow", "crossbow", "pistol", "rifle",
                            "shotgun", *THROWN_WEAPONS})
SIDEARMS: tuple[str, ...] = tuple(w for w in WEAPONS if w not in RANGED_WEAPONS
                                  and w not in NATURAL_WEAPONS and w != "unarmed")
"""Hand weapons a shooter may carry as a sidearm (``sidearm:``), drawn as part of a move."""

AI_PROFILES: tuple[str, ...] = ("passive", "basic", "aggressive", "cautious", "tactical",
                                 "lookahead")
FOCUSES: tuple[str, ...] = ("nearest", "weakest", "most_dangerous")
TENDS: tuple[str, ...] = ("own", "all", "none")
"""Who tends the fallen after a fight: the side holding the field its own, all, or none."""
RESTS: tuple[str, ...] = ("none", "short", "long")
"""The rest after a campaign's stage (docs/campaigns.md): none, an hour, a night and a day."""


class Cover(IntEnum):
    """Cover at a place on the map, ordered (more cover compares greater).

    Every ruleset keys its own table by these (ORE dice off, OpenD6 difficulty, OpenCore
    skill off); the scenario file names them by ``label``.
    """

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3

    @property
    def label(self) -> str:
        """The name a scenario file uses (``light``)."""
        return self.name.lower()


class Visibility(IntEnum):
    """How well a place can be seen, ordered (worse compares greater)."""

    CLEAR = 0
    POOR = 1
    VERY_POOR = 2

    @property
    def label(self) -> str:
        """The name a scenario file uses (``very_poor``)."""
        return self.name.lower()


COVERS: tuple[str, ...] = tuple(c.label for c in Cover)
VISIBILITIES: tuple[str, ...] = tuple(v.label for v in Visibility)
