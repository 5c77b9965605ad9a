"""The neutral equipment and trait vocabulary shared by every ruleset.

A scenario names weapons, armor and traits on one system-neutral scale (RULES.md,
"System-neutral characters"); each ruleset keeps its own table keyed by these names
(``sim/rulesets/ore_catalog.py``, ``opend6_catalog.py``, ``opencore_tables.py``) and states
its ruling next to any entry its source text lacks.
"""

from __future__ import annotations

WEAPONS: tuple[str, ...] = (
    "unarmed", "knife", "club", "mace", "sword", "greatsword", "spear",
    "bow", "crossbow", "pistol", "rifle", "shotgun",
)
ARMORS: tuple[str, ...] = ("none", "leather", "chain", "plate", "kevlar")

TRAITS: tuple[str, ...] = ("strength", "endurance", "agility", "dexterity", "perception")
SKILLS: tuple[str, ...] = ("melee", "brawl", "ranged", "dodge", "parry")

TRAIT_RANGE = (1, 5)
"""Neutral attributes: 2 average, 3 trained, 4 exceptional, 5 peak human."""
SKILL_RANGE = (0, 5)
"""Neutral skills: 0 untrained, 3 professional, 5 master."""
DEFAULT_TRAIT = 2
DEFAULT_SKILL = 0

RANGED_WEAPONS = frozenset({"bow", "crossbow", "pistol", "rifle", "shotgun"})
