"""Reload weapons under every ruleset (RULES.md): one shot, then an action to reload.

A crossbow shoots at most every other round, whatever the profile asks: the shot spends
the bolt whether it hits, misses or rolls no set at all, and no profile declares two shots
in one round.
"""

from __future__ import annotations

import pytest
from helpers import scenario, watch_declarations

from sim.core.actions import Attack, TimedAction
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.rulesets.ore.rules import RolledSet
from sim.rulesets.ore.sets import Set

CROSSBOW = {"name": "Crossbow", "weapon": "crossbow",
            "traits": {"agility": 4, "dexterity": 4}, "skills": {"ranged": 4}}


def shots_by_round(ruleset: str, profile: str, seed: int) -> list[int]:
    """Attacks the crossbowman resolved in each round of one fight."""
    sides = {"a": [{**CROSSBOW, "ai": profile, "at": "butt"}],
             "b": [{"name": "Target", "ai": "passive", "at": "range", "armor": "plate",
                    "traits": {"endurance": 5, "strength": 5}}]}
    scen = scenario(sides, max_rounds=8,
                    map={"nodes": {"butt": {}, "range": {}}, "edges": [["butt", "range", 8]]})
    enc = Encounter(scen, ruleset, seed)
    shooter = enc.sides["a"][0]
    counts: list[int] = []
    end_round = enc.ruleset.end_round

    def count(e):
        end_round(e)
        counts.append(shooter.attacks - sum(counts))

    enc.ruleset.end_round = count
    enc.run()
    return counts


@pytest.mark.parametrize("profile", ["basic", "aggressive", "tactical"])
@pytest.mark.parametrize("ruleset", registry.names())
def test_a_crossbow_shoots_at_most_every_other_round(ruleset, profile):
    """Once a round at most; two rounds running only where a turn may hold the reload and
    the shot (OpenD6's several actions a turn: ``Advisor.reload_and_shoot``)."""
    shots = 0
    one_turn = getattr(registry.get(ruleset).Advisor, "reload_and_shoot", None) is not None
    for seed in range(25):
        counts = shots_by_round(ruleset, profile, seed)
        assert all(c <= 1 for c in counts), counts
        if not one_turn:
            assert not any(a and b for a, b in zip(counts, counts[1:], strict=False)), counts
        shots += sum(counts)
    assert shots >= 25  # it does shoot


@pytest.mark.parametrize("ruleset", registry.names())
def test_crossbows_shooting_together_reload_too(ruleset):
    """Two crossbowmen on one target (B-Grade: working together merges their shots)."""
    sides = {"a": [{**CROSSBOW, "count": 2, "ai": "basic", "at": "butt"}],
             "b": [{"name": "Target", "ai": "passive", "at": "range", "armor": "plate",
                    "traits": {"endurance": 5, "strength": 5}}]}
    scen = scenario(sides, max_rounds=10,
                    map={"nodes": {"butt": {}, "range": {}}, "edges": [["butt", "range", 8]]})
    for seed in range(15):
        enc = Encounter(scen, ruleset, seed)
        by_round: dict[int, set[str]] = {}

        def check(e, c, intents, by_round=by_round):
            shots = by_round.setdefault(e.round, set())
            if any(type(i) is Attack for i in intents):
                shots.add(c.name)

        watch_declarations(enc, check)
        enc.run()
        shooting = [by_round[r] for r in sorted(by_round)]
        assert any(shooting), "nobody shot: the check saw nothing"
        for before, now in zip(shooting, shooting[1:], strict=False):
            assert not before & now, shooting  # a shot, then a reload, then a shot


@pytest.mark.parametrize("ruleset", ["ore", "bgrade", "opencore"])
def test_a_shot_whose_target_is_out_of_reach_keeps_the_bolt(ruleset):
    """Declared, then resolved with the target beyond the crossbow's reach: not loosed.

    It still counts as an attack (a miss), as in every ruleset. (OpenD6 declares such a
    turn at its own moment, seeing the target out of reach: the shot is never declared.)
    """
    sides = {"a": [{**CROSSBOW, "at": "near"}],
             "b": [{"name": "Target", "ai": "passive", "at": "far"}]}
    scen = scenario(sides, map={"nodes": {"near": {}, "far": {}},
                                "edges": [["near", "far", 1000]]})
    enc = Encounter(scen, ruleset, 1, log=True)
    enc.ruleset.start(enc)
    shooter, target = enc.combatants
    payload = 10 if ruleset == "opencore" else RolledSet(Set(3, 7))
    enc.ruleset.resolve(enc, TimedAction(0.0, shooter, Attack(target), payload))
    assert "out of reach" in enc.log[-1]["text"]
    assert shooter.loaded and shooter.attacks == 1


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_setless_shot_at_a_foe_that_gave_up_fizzles_and_keeps_the_bolt(ruleset):
    """Rolled without a set on a foe already out: as a set's attack would, it fizzles.

    Uncounted, bolt kept; on a foe still in the fight the same roll is a counted miss that
    spends the bolt (it used to be both whenever the dice made no set).
    """
    from sim.core.combatant import Status

    sides = {"a": [CROSSBOW], "b": [{"name": "Target"}]}
    for gave_up in (True, False):
        enc = Encounter(scenario(sides), ruleset, 1)
        shooter, target = enc.combatants
        if gave_up:
            enc.take_out(target, Status.SURRENDERED)
        enc.ruleset._commit_one(enc, shooter, Attack(target), None, [])
        assert (shooter.attacks, shooter.loaded) == ((0, True) if gave_up else (1, False))
