"""ORE's aftermath: nobody dies after the fight, and half the Shock goes away."""

from __future__ import annotations

from helpers import scenario

from sim.core import aftermath
from sim.core.engine import Encounter


def settle(enc: Encounter, winner: str | None) -> None:
    enc.fight_over = True
    aftermath.settle(enc, winner)


def test_ore_loses_nobody_after_and_half_the_shock_goes():
    enc = Encounter(scenario({"a": [{"name": "A"}], "b": [{"name": "B"}]}), "ore", seed=0)
    a = enc.sides["a"][0]
    a.wounds.take(4, 0, 5)  # torso: 5 Shock
    settle(enc, "a")
    assert a.wounds.shock[4] == 3 and not enc.died_after  # 5 - 5 // 2
