"""B-Grade's coverage table (``sim.core.coverage``; docs/rules/bgrade.md)."""

from __future__ import annotations

from sim.core.coverage import GAPS, SPACE, Rule

OWN: tuple[Rule, ...] = (
    Rule("d10 pools with no cap, degrees of success and benefits", "modelled",
         "sim/rulesets/bgrade/rules.py"),
    Rule("Several actions with no penalty", "modelled", "split a pool freely",
         when="several"),
    Rule("The wound and Shock track", "modelled", "5th wound kills; a full Shock track "
         "knocks out"),
    Rule("Working together", "option", "allies attacking one foe pool their hands",
         option="working_together"),
    Rule("Drama deck", "option", "a card adds dice to a roll", option="drama_deck"),
    Rule("Possibility points", "option", "points per character", option="possibility_points"),
    Rule("Difficulty on attacks", "option", "a width-2 set needs height above D",
         option="difficulty"),
    Rule("Working together outside attacks", "not modelled",
         "static contests are not fought here; no effect on a fight's numbers"),
)

COVERAGE: tuple[Rule, ...] = (*OWN, *SPACE, *GAPS)
