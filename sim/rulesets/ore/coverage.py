"""ORE's coverage table (``sim.core.coverage``; docs/rules/ore.md "What was modelled")."""

from __future__ import annotations

from sim.core.coverage import GAPS, SPACE, Rule

OWN: tuple[Rule, ...] = (
    Rule("d10 pools, sets by width and height, hit locations", "modelled",
         "sim/rulesets/ore/rules.py"),
    Rule("Several actions in one roll (the planner)", "modelled", "one die fewer per extra "
         "action, sets assigned by worth", when="several"),
    Rule("Gobble dice (dodge, parry)", "modelled", "a defense set removes attack dice",
         when="melee"),
    Rule("Hit before acting costs a die", "modelled", "the struck fighter's pool shrinks"),
    Rule("Shock and Killing, armor by location", "modelled", "head or torso full of Killing "
         "kills; head full knocks out", when="always"),
    Rule("Difficulty on attacks", "option", "every attack set needs height at least D",
         option="difficulty"),
    Rule("Unarmed blows that kill", "option", "off: a torso full mostly of Shock only dazes "
         "(the ruling)", option="lethal_unarmed", when="unarmed"),
    Rule("Reign's chain shirt and helmets", "not modelled",
         "no neutral name; head armor would lower knockouts and deaths from head hits",
         when="armor"),
    Rule("Other penalties and difficulties (range, cover, visibility, called shots and "
         "extra actions are modelled, as dice off)",
         "not modelled", "footing, size and the like would lower hit rates (direction "
         "depends on who they hit)"),
)

COVERAGE: tuple[Rule, ...] = (*OWN, *SPACE, *GAPS)
