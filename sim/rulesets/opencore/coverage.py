"""OpenCore's coverage table (``sim.core.coverage``; docs/rules/opencore.md)."""

from __future__ import annotations

from sim.core.coverage import GAPS, SPACE, Rule

OWN: tuple[Rule, ...] = (
    Rule("Opposed d100 attacks, fumbles, criticals", "modelled",
         "sim/rulesets/opencore/rules.py, strike.py"),
    Rule("Armor that wears out, Toughness", "modelled", "damage rating drops as it absorbs",
         when="armor"),
    Rule("Bleeding below 0 HP, death at -CON", "modelled", "the fallen bleed on unless "
         "tended"),
    Rule("Fortitude", "option", "damage dice removed by a positive CON modifier (seed 001); "
         "on, it lowers deaths", option="fortitude"),
    Rule("Hit points 1d100 - CON", "option", "con: HP = CON (the ruling); seed: the seed's "
         "roll", option="hp_rule"),
    Rule("Group initiative", "option", "individual or 1d6 per side", option="initiative"),
    Rule("Cover and visibility penalties", "option", "on ranged attacks", option="cover",
         when="ranged"),
    Rule("Stabilised by chance", "option", "a d100 roll each round below 0 HP (ruling)",
         option="stabilise"),
    Rule("Running 12 m", "option", "false: seed 001's 10 ft a move", option="run"),
    Rule("Unarmed blows that kill", "option", "off: bare hands cannot take a fighter below "
         "0 HP", option="lethal_unarmed", when="unarmed"),
    Rule("Shield bonus", "option", "added to a shield bearer's defense",
         option="shield_bonus", when="shield"),
    Rule("Aiming, range bands", "not modelled",
         "shooters hit equally at any range: long shots hit more often than they would"),
    Rule("Using a skill and Powers in combat", "not modelled",
         "fighters only strike, move and defend; powers would add harm or protection"),
    Rule("First-aid rolls", "not modelled",
         "would lower deaths after the fight"),
)

COVERAGE: tuple[Rule, ...] = (*OWN, *SPACE, *GAPS)
