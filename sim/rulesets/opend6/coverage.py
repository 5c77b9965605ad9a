"""OpenD6's coverage tables, wounds and hit points (``sim.core.coverage``)."""

from __future__ import annotations

from sim.core.coverage import GAPS, SPACE, Rule

SHARED: tuple[Rule, ...] = (
    Rule("Dice codes and the wild die", "modelled", "sim/rulesets/opend6/rules.py"),
    Rule("Initiative once per fight, turns, the multiple-action penalty", "modelled",
         "-1D per extra action", when="always"),
    Rule("Active defenses (dodge, parry, block)", "modelled", "a full or partial defense "
         "replaces the difficulty"),
    Rule("Character and fate points on attacks", "modelled", "spent by the AI profiles "
         "that spend"),
    Rule("Side initiative", "option", "a d6 per side instead of an Agility roll each",
         option="initiative"),
    Rule("Complications on a fumble", "option", "a fumble's dice count normally (flagged)",
         option="complication"),
    Rule("Encumbrance", "option", "+4 per metal armor or tower shield to Agility rolls",
         option="encumbrance", when="armor"),
    Rule("Suppressive fire", "option", "a target shot at is pinned, -5 to hit it",
         option="suppressive_fire", when="ranged"),
    Rule("Unarmed blows that kill", "option", "off: fists cannot kill (the ruling)",
         option="lethal_unarmed", when="unarmed"),
    Rule("Points on damage and resistance rolls", "not modelled",
         "would make spenders' hits deadlier and their own wounds lighter"),
    Rule("Unconsciousness from weapons", "not modelled",
         "a fighter fights on until dead; knockouts would end fights sooner with fewer "
         "deaths"),
    Rule("Improvised weapons breaking", "not modelled", "small effect on melee damage"),
)

WOUNDS: tuple[Rule, ...] = (
    Rule("Wound levels", "modelled", "wounds reach the limit: dead"),
    Rule("Wounds that kill", "option", "how many wounds kill", option="wounds_limit"),
    *SHARED, *SPACE, *GAPS)

HIT_POINTS: tuple[Rule, ...] = (
    Rule("Hit points", "modelled", "damage minus resistance comes off HP; 0 is dead"),
    Rule("Starting hit points", "option", "before the Endurance roll", option="hp_base"),
    *SHARED, *SPACE, *GAPS)
