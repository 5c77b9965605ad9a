"""What ORE gives the shared tests (tests/rulesets/contract.py: ``support``).

``RULESETS`` names the rulesets this folder answers for; ``check_conversion`` checks the
neutral hero as built (RULES.md, "System-neutral characters"); ``hurt`` wounds a fighter so
that its ``threat`` reads about ``share``.
"""

from __future__ import annotations

from sim.rulesets.ore.catalog import HEAD

RULESETS = ("ore",)
# a member's native block, valid, beside every other ruleset's (a scenario may hold them all)
NATIVE_BLOCK = {"expert": ["fight"], "master": ["dodge"]}


def check_conversion(f, unarmed: bool) -> None:
    # body = floor((4 + 3) / 2), coordination = floor((3 + 2) / 2), sense = perception;
    # fight = melee (brawl unarmed), shoot = ranged, dodge, parry, run = 1
    assert (f.body, f.coordination, f.sense) == (3, 2, 3)
    assert (f.fight, f.shoot, f.dodge, f.parry, f.run) == (1 if unarmed else 3, 2, 2, 1, 1)


def hurt(f, share: float) -> None:
    f.wounds.take(HEAD, 0, round(share * 4))  # Shock in the head's 4 boxes
