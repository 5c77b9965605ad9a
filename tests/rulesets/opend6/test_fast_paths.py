"""OpenD6's fast paths give what the rules they stand in for give.

Each shortcut of the encounter loop (a measure kept for the next question, a lookup kept by
place, a pool taken as it is) is held equal here to the general rule it skips; the contract
test ``test_the_log_changes_nothing`` holds the no-log rolls equal to the logged ones.
"""

from __future__ import annotations

import pytest
from opend6_helpers import duel, member

from sim import scenario as scenario_mod
from sim.core.battlefield import Position
from sim.core.engine import battlefield_for
from sim.rulesets.opend6 import places
from sim.rulesets.opend6.rules import pool_with_points


def apart(metres: float) -> dict:
    """A two-place map: side a at x, side b at y, ``metres`` apart."""
    return {"map": {"nodes": {"x": {}, "y": {"cover": "light"}}, "edges": [["x", "y", metres]]}}


BOW = member("A", weapon="bow", traits={"dexterity": 1}, skills={"ranged": 2})


def test_a_pool_with_no_point_spent_is_the_pool() -> None:
    for dice in range(0, 41):
        assert pool_with_points(dice, 0, False) == dice


@pytest.mark.parametrize("name", ["mirror", "neutral_skirmish", "ambush"])
def test_the_kept_distances_cover_and_visibility_are_the_maps(name: str) -> None:
    field = battlefield_for(scenario_mod.load(f"scenarios/{name}.yaml").map)
    spots = [field.node(n) for n in field.names]
    spots += [Position(a, b, x) for (a, b), length in field.edge_len.items()
                for x in (0.5, length / 2, length - 0.5)]
    for pos in spots:
        want = (field.cover(pos), field.visibility(pos))
        assert places.site(field, pos) == want
        assert places.SITES[(field, pos)] == want
        for there in spots:  # what OpenD6 looks up inline (``Battlefield.known``)
            assert field.distance(pos, there) == field.measure(pos, there)
            assert field.known[(pos, there)] == field.measure(pos, there)


def test_can_hit_measures_again_when_a_fighter_has_moved_since_can_attack() -> None:
    blind_bow = {**BOW, "opend6": {"blinded": True}}  # 3D, -2D blinded
    enc, a, b = duel(blind_bow, member("B", at="y"), **apart(40))
    assert enc.advisor.can_attack(enc, a, b)
    assert not enc.advisor.can_hit(enc, a, b)  # long range -2D: -1D
    assert enc.advisor.can_attack(enc, a, b)
    b.pos = enc.field.advance(a.pos, b.pos, 3.0)  # point blank now (+1D): 2D, though
    assert enc.advisor.can_hit(enc, a, b)        # can_attack measured 40 m (3 m: out of
    assert enc.ruleset.combat.attack_dice(enc, a, b) == 2  # B's reach, no shot in melee)



@pytest.mark.parametrize("metres", [1.5, 3.0, 40.0])  # a foe's reach (pressed) or out of it
@pytest.mark.parametrize("skill", [0, 1, 2, 3])
@pytest.mark.parametrize("blinded", [False, True])
def test_can_hit_asks_who_presses_the_shooter_only_when_it_decides(
        metres: float, skill: int, blinded: bool) -> None:
    """The shortcut (the dice unpressed, the -2D asked of only when it could decide) gives
    what the full pool gives: ``attack_dice`` with who presses it, at least 1D."""
    bow = {**BOW, "traits": {"dexterity": 1}, "skills": {"ranged": skill},
           "opend6": {"blinded": blinded}}
    enc, a, b = duel(bow, member("B", weapon="sword", at="y"), **apart(metres))
    assert enc.advisor.can_attack(enc, a, b)
    want = enc.ruleset.combat.attack_dice(enc, a, b) >= 1
    assert enc.advisor.can_hit(enc, a, b) is want
