"""What OpenD6 (and its hit-point variant) carries from one fight to the next, and what each
rest heals (docs/campaigns.md)."""

from __future__ import annotations

import random

import pytest
from builders import carried, with_hero
from helpers import StubRandom


def test_opend6_carries_wounds_points_and_the_empty_crossbow():
    enc, f = with_hero("opend6")
    f.wounds, f.cp, f.fate, f.loaded = 3, 2, 0, False
    _, g = carried("opend6", f)
    assert (g.wounds, g.cp, g.fate, g.loaded) == (3, 2, 0, False)


@pytest.mark.parametrize("rest, wounds", [("none", 3), ("short", 3), ("long", 2)])
def test_opend6_a_day_of_rest_heals_one_wound(rest, wounds):
    from sim.rulesets.opend6.rules import wound_status

    enc, f = with_hero("opend6")
    f.wounds, f.level, f.loaded = 3, wound_status(3), False
    enc.ruleset.recover(f, rest, random.Random(0))
    assert f.wounds == wounds and f.level == wound_status(wounds)
    assert f.loaded == (rest != "none")


def test_opend6_hp_a_day_gives_back_five_up_to_the_start():
    from sim.rulesets.opend6.rules import hp_status

    enc, f = with_hero("opend6-hp")
    f.hp = f.hp_max - 7
    enc.ruleset.recover(f, "long", random.Random(0))
    assert f.hp == f.hp_max - 2 and f.level == hp_status(f.hp)
    enc.ruleset.recover(f, "long", random.Random(0))
    assert f.hp == f.hp_max
    _, g = carried("opend6-hp", f)
    assert (g.hp, g.hp_max) == (f.hp, f.hp_max)  # the hit points rolled once, kept


def test_opend6_level_follows_the_next_fights_wound_limit():
    from sim.rulesets.opend6.rules import WoundStatus

    enc, f = with_hero("opend6", options={"opend6": {"wounds_limit": 10}})
    f.wounds = 6
    enc2, g = carried("opend6", f)  # default limit 5: six wounds kill
    assert g.level is WoundStatus.DEAD and not enc2.ruleset.fit(g)
    f.wounds = 3
    enc2, g = carried("opend6", f)
    assert g.level is WoundStatus.SEVERELY_WOUNDED and enc2.ruleset.fit(g)


def test_opend6_initiative_pays_for_carried_wounds():
    from sim.rulesets.opend6.rules import wound_status

    def dice_rolled(wounds: int) -> int:
        enc, f = with_hero("opend6")  # agility 3D
        f.wounds, f.level = wounds, wound_status(wounds)
        enc.rng = StubRandom([0.35] * 40)  # every die a 3: nothing explodes or fumbles
        enc.ruleset.start(enc)
        return f.initiative

    assert dice_rolled(0) - dice_rolled(3) == 2 * 3  # severely wounded: -2D
