"""One roll for several actions: the planner is the one home, and the AI expects what it rolls.

``rules.plan_roll`` (through the ruleset's ``planner``, ``KeptPlans.plan``) decides the pool,
the special die, the penalty and the dice of every ORE and B-Grade roll; both advisors ask
it. These tests count the dice the ruleset really rolls (each rolled die is one draw of the
generator) and hold the advisor's expectation to it, and pin the two drifts the planner
fixed: B-Grade broke pool ties by skill name (losing an expert die) and summed range and
cover penalties per attack.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import SCENARIOS, StubRandom, face, scenario

from sim.core import space
from sim.core.actions import Attack, Defend, Move, attack_on
from sim.core.engine import Encounter
from sim.rulesets.ore.planner import KeptPlans
from sim.rulesets.ore.rules import plan_roll
from sim.rulesets.ore.situation import situational_penalty
from sim.scenario import load

MAP = {"nodes": {"here": {}, "near": {}, "far": {"cover": "light"}},
       "edges": [["here", "near", 20], ["here", "far", 45]]}


def _fighter(name, ruleset, at="here", weapon="sword", **stats):
    block = {"stats": {"body": stats.pop("body", 4), "coordination": stats.pop("coord", 4)},
             "skills": {"fight": stats.pop("fight", 4), "shoot": stats.pop("shoot", 4),
                        "dodge": stats.pop("dodge", 3), "parry": stats.pop("parry", 3)},
             **stats}
    return {"name": name, "at": at, "weapon": weapon, ruleset: block}


def _encounter(ruleset, attacker, foe_at="here", foe_weapon="sword"):
    sides = {"a": [attacker], "b": [_fighter("Foe", ruleset, at=foe_at, weapon=foe_weapon)]}
    enc = Encounter(scenario(sides, map=MAP), ruleset, seed=0)
    enc.ruleset.start(enc)
    return enc, enc.sides["a"][0], enc.sides["b"][0]


def _dice_rolled(enc, f, intents) -> int:
    """Plan one round for ``f`` and count the dice drawn.

    ORE sets a called shot's die to the location (not drawn); B-Grade, without locations,
    only takes the called shot's die off.
    """
    enc.rng = StubRandom([face(1)] * 30)
    enc.declared = {f: intents}
    enc.ruleset.plan_round(enc, [(f, intents)])
    called = enc.ruleset.name == "ore" and any(type(i) is Attack and i.called for i in intents)
    return enc.rng.drawn + called


DECLARATIONS = {
    "one attack": lambda t: [Attack(t)],
    "called shot": lambda t: [Attack(t, "head")],
    "two attacks": lambda t: [Attack(t), Attack(t)],
    "called and plain": lambda t: [Attack(t, "head"), Attack(t)],
    "attack and dodge": lambda t: [Attack(t), Defend("dodge")],
    "move and attack": lambda t: [Move(t), Attack(t)],
}


@pytest.mark.parametrize("declaration", DECLARATIONS)
@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
@pytest.mark.parametrize("case", ["melee", "melee dazed", "bow at medium range",
                                  "bow at long range in cover"])
def test_the_advisor_expects_the_dice_the_ruleset_rolls(ruleset, declaration, case):
    ranged = case.startswith("bow")
    foe_at = {"bow at medium range": "near", "bow at long range in cover": "far"}.get(case,
                                                                                      "here")
    enc, f, foe = _encounter(ruleset, _fighter("A", ruleset, weapon="bow" if ranged
                                               else "sword", coord=6, shoot=5), foe_at)
    if case == "melee dazed" and ruleset == "ore":
        f.wounds.take(4, 10, 0)  # torso full of Killing would kill: fill it with Shock
        f.wounds.take(4, 0, 10)
        assert f.dazed and f.in_fight
    intents = DECLARATIONS[declaration](foe)
    expected = enc.advisor.dice(enc, f, intents)
    assert _dice_rolled(enc, f, intents) == expected


def test_ore_two_attacks_lose_one_die_and_the_worst_situation_once():
    """A dazed ORE fighter with 8 dice: two attacks roll 8 - 1 (extra) - 1 (dazed) = 6.

    The tactical AI used to model ``2 * (dazed + situation) + 1`` dice off (5 here): it
    counted being dazed twice.
    """
    enc, f, foe = _encounter("ore", _fighter("A", "ore"))
    f.wounds.take(4, 0, 10)
    assert f.dazed
    assert enc.advisor.dice(enc, f, [Attack(foe), Attack(foe)]) == 6
    assert _dice_rolled(enc, f, [Attack(foe), Attack(foe)]) == 6


def test_bgrade_two_attacks_at_range_take_the_situational_penalty_once():
    """Pool 11 (coordination 6 + shoot 5), long range (-2d) into light cover (-1d).

    B-Grade has no multiple-action penalty: two attacks roll 11 - 3 = 8 dice. It used to
    charge the penalty once per attack (11 - 6 = 5).
    """
    enc, f, foe = _encounter("bgrade", _fighter("A", "bgrade", weapon="bow", coord=6, shoot=5),
                             foe_at="far")
    assert _dice_rolled(enc, f, [Attack(foe)]) == 8
    assert _dice_rolled(enc, f, [Attack(foe), Attack(foe)]) == 8
    assert _dice_rolled(enc, f, [Attack(foe), Attack(foe), Attack(foe)]) == 8


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_pool_tie_keeps_the_expert_die(ruleset):
    """Attack and dodge from equal pools (body 3 + fight 2 = coordination 3 + dodge 2).

    The roll is the Fight pool, so the expert die in Fight comes along (set to 10 before the
    roll). B-Grade broke the tie by skill name and rolled the Dodge pool, losing the die.
    """
    block = _fighter("A", ruleset, body=3, fight=2, coord=3, dodge=2, expert="fight")
    enc, f, foe = _encounter(ruleset, block)
    enc.log = []
    enc.rng = StubRandom([face(1)] * 30)
    intents = [Attack(foe), Defend("dodge")]
    enc.declared = {f: intents}
    enc.ruleset.plan_round(enc, [(f, intents)])
    roll = next(e for e in enc.log if e["type"] == "roll")
    assert 10 in roll["rules"]["dice"] and "expert die" in roll["text"], roll["text"]
    assert enc.rng.drawn == 5 - 1 - (ruleset == "ore")  # the expert die is set, not drawn


def test_bgrade_two_attacks_at_range_hit_at_the_exact_rate():
    """Two attacks from one roll of 8 dice (pool 11, long range into light cover, -3d once).

    Against a passive target (no defense, no difficulty), the first attack hits when the roll
    holds a set and the second when it holds two (B-Grade's minimal success is a hit): hits
    per fight = P(>= 1 set) + P(>= 2 sets) in 8d10, exactly (``p_sets``). Charging the
    penalty per attack, as before, rolled 5 dice: P1 + P2 of 5d10 instead. (A first set of
    width 5 or more knocks the target out and the second attack finds it down: about 1 fight
    in 1,000 here, far inside the tolerance.)
    """
    from sim.rulesets.ore.odds import p_sets

    archer = _fighter("A", "bgrade", weapon="bow", coord=6, shoot=5)
    target = {"name": "Target", "at": "far", "ai": "passive", "armor": "plate",
              "bgrade": {"stats": {"body": 6}}}
    scen = scenario({"a": [archer], "b": [target]}, map=MAP, max_rounds=1,
                    options={"bgrade": {"drama_deck": False, "possibility_points": 0,
                                        "working_together": False}})
    n = 6000
    hits = sq = 0
    for seed in range(n):
        enc = Encounter(scen, "bgrade", seed)
        f, foe = enc.combatants
        enc.declare = lambda c, f=f, foe=foe: [Attack(foe), Attack(foe)] if c is f else []
        h = enc.run().sides[0].hits
        hits, sq = hits + h, sq + h * h
    exact = p_sets(8, 1) + p_sets(8, 2)
    old = p_sets(5, 1) + p_sets(5, 2)
    mean = hits / n
    tolerance = 4.5 * ((sq / n - mean * mean) / n) ** 0.5  # 4.5 standard errors
    assert abs(mean - exact) <= tolerance, (mean, exact, old)
    assert abs(old - exact) > 10 * tolerance  # the old roll would fail this test


def test_set_assignments_offer_each_real_choice_once():
    """Two attacks on one foe are interchangeable: 2x7 on the first or the second is one
    choice. Counted by hand: sets {2x7, 2x3} over (attack, attack, dodge) gives each action a
    set or none, a set to one action at most, attacks unordered."""
    from sim.rulesets.ore.rules import set_assignments
    from sim.rulesets.ore.sets import Set

    _, _, b = _encounter("ore", _fighter("A", "ore"))
    hit, dodge = Attack(b), Defend("dodge")
    high, low = Set(2, 7), Set(2, 3)
    given = set_assignments([(hit, high), (hit, low), (dodge, None)], [high, low])
    assert given[0] == [(hit, high), (hit, low), (dodge, None)]  # the AI's first
    # to the dodge: nothing (attacks {7,3}, {7,-}, {3,-}, {-,-}: 4), 7 (attacks {3}, {-}: 2),
    # 3 (2): 8 in all
    assert len(given) == 8
    assert len({frozenset(Counter(g).items()) for g in given}) == 8


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_the_log_names_every_die_of_penalty(monkeypatch, ruleset):
    """The causes the log gives (dazed, more actions, range, cover, ...) add up to the dice
    the planner took off, in every roll of the bundled scenarios."""

    from sim import scenario as scenario_mod
    from sim.core.engine import Encounter
    from sim.rulesets.ore.ruleset import OreRuleset

    real = OreRuleset.penalties
    named = []

    def checked(self, enc, f, rolled):
        terms = real(self, enc, f, rolled)
        assert sum(d for _, d in terms) == self.planner.plan(enc, f, list(rolled)).penalty, terms
        named.extend(label for label, _ in terms)
        return terms

    monkeypatch.setattr(OreRuleset, "penalties", checked)
    for path in sorted(SCENARIOS.glob("*.yaml")):
        for seed in range(3):
            Encounter(scenario_mod.load(path), ruleset, seed, log=True).run()
    assert {"medium cover", "poor visibility"} <= set(named)


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_kept_plan_follows_each_thing_it_read(ruleset):
    """The shooter's place, the foe's place and being dazed, each changed alone, change the
    plan the kept one answered a moment before (``KeptPlans.plan``'s identity checks)."""
    enc, f, foe = _encounter(ruleset, _fighter("A", ruleset, at="near", weapon="bow", coord=4,
                                               shoot=4),  # 8 dice: under ORE's cap
                             foe_weapon="bow")  # at its side, it does not press the shooter
    here, near, far = (enc.field.node(n) for n in ("here", "near", "far"))
    attack = [foe.plain_attack]
    medium = enc.ruleset.planner.plan(enc, f, attack).dice  # 20 m
    f.pos = here  # at the foe's side: close range
    assert enc.ruleset.planner.plan(enc, f, attack).dice > medium
    f.pos = near
    assert enc.ruleset.planner.plan(enc, f, attack).dice == medium
    foe.pos = far  # 65 m and in light cover
    assert enc.ruleset.planner.plan(enc, f, attack).dice < medium
    foe.pos = here
    assert enc.ruleset.planner.plan(enc, f, attack).dice == medium
    if ruleset == "ore":
        f.wounds.take(4, 0, 10)  # torso full of Shock: dazed, one die off
        assert f.dazed
        assert enc.ruleset.planner.plan(enc, f, attack).dice == medium - 1


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_each_kept_single_attack_plan_follows_each_thing_it_read(ruleset):
    """Single attacks asked in turn (a called shot and a plain one, as an aggressive fighter
    asks; one foe after another, as focus fire does) are each kept on the fighter by their
    intent, and each is made afresh once the shooter's place, the foe's place or being dazed
    changed (``KeptPlans.plan``'s identity checks)."""
    enc, f, foe = _encounter(ruleset, _fighter("A", ruleset, at="near", weapon="bow", coord=4,
                                               shoot=4),  # 8 dice: under ORE's cap
                             foe_weapon="bow")  # at its side, it does not press the shooter
    here, far = enc.field.node("here"), enc.field.node("far")
    rules = enc.ruleset
    plain, head, torso = ([foe.plain_attack], [attack_on(foe, "head")],
                          [attack_on(foe, "torso")])

    def fresh(intents):
        return plan_roll(f, intents, lambda i: situational_penalty(enc.field, f, f.pos, i),
                         cap=rules.cap, per_extra_action=rules.per_extra_action)

    def kept(intents, *others):
        """Ask ``intents``, then the others: ``intents`` is still answered as kept."""
        first = rules.planner.plan(enc, f, intents)
        for other in others:
            rules.planner.plan(enc, f, other)
        assert f.plans[id(intents[0])][0] is intents[0]
        again = rules.planner.plan(enc, f, intents)
        assert again is first  # the kept plan itself, not one made again
        return again

    before = kept(plain, head, torso)
    f.pos = here  # the shooter moves
    assert rules.planner.plan(enc, f, plain) == fresh(plain) != before
    before = kept(head, torso, plain)
    foe.pos = far  # the foe moves
    assert rules.planner.plan(enc, f, head) == fresh(head) != before
    if ruleset == "ore":
        before = kept(plain, torso, head)
        f.wounds.take(4, 0, 10)  # torso full of Shock: dazed, one die off
        assert rules.planner.plan(enc, f, plain) == fresh(plain) != before


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
@pytest.mark.parametrize("name", [p.stem for p in sorted(SCENARIOS.glob("*.yaml"))])
def test_a_kept_plan_is_the_plan_made_afresh(name, ruleset, monkeypatch):
    """Every plan the ruleset answers, kept or not (``KeptPlans.plan``), equals a fresh one.

    Both kinds of kept plan answer here: ``f.plans`` (checked by identity) and the
    numbers kept across encounters (``planner._PLANS``, keyed by all they read).
    """
    kept = KeptPlans.plan
    asked = []

    def checked(self, enc, f, intents):
        p = kept(self, enc, f, intents)
        if enc is None:  # no situation: never kept
            return p
        pressed = f.weapon.ranged and space.pressed(enc, f)  # a shot with a foe in reach
        fresh = plan_roll(f, intents,
                          lambda i: situational_penalty(enc.field, f, f.pos, i, pressed),
                          cap=self.cap, per_extra_action=self.per_extra_action)
        assert p == fresh
        asked.append(p)
        return p

    monkeypatch.setattr(KeptPlans, "plan", checked)
    scen = load(SCENARIOS / f"{name}.yaml")
    for seed in range(20):
        Encounter(scen, ruleset, seed).run()
    assert asked


def test_kept_plan_numbers_are_kept_per_ruleset():
    """One loaded scenario fought under ORE and B-Grade in turn (as ``fray compare`` does):
    the same members, places and weapons, but not the same cap, so each ruleset's kept
    plans are its own: 12 dice roll 10 under ORE and 12 under B-Grade."""
    strong = {"stats": {"body": 6}, "skills": {"fight": 6}}
    sides = {"a": [{"name": "A", "weapon": "sword", "ore": strong, "bgrade": strong}],
             "b": [{"name": "B", "weapon": "sword"}]}
    scen = scenario(sides)
    for _ in range(2):  # the second time, each ruleset's plan is a kept one
        # ORE: penalties first (dice above 10 soak them), then the cap; B-Grade: no cap and
        # no multiple-action penalty
        for ruleset, one, two in (("ore", 10, 10), ("bgrade", 12, 12)):
            enc = Encounter(scen, ruleset, seed=0)
            f, foe = enc.sides["a"][0], enc.sides["b"][0]
            assert enc.ruleset.planner.plan(enc, f, [foe.plain_attack]).dice == one
            assert enc.ruleset.planner.plan(enc, f, [foe.plain_attack] * 2).dice == two


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_kept_plan_numbers_read_the_pool_live(ruleset):
    """A fighter whose skill changed after its build (as tests do) is not answered with the
    plan kept for the same member in an earlier fight."""
    scen = load(SCENARIOS / "duel.yaml")
    enc = Encounter(scen, ruleset, seed=1)
    f, foe = enc.sides["red"][0], enc.sides["blue"][0]
    before = enc.ruleset.planner.plan(enc, f, [foe.plain_attack]).dice
    enc = Encounter(scen, ruleset, seed=2)
    f, foe = enc.sides["red"][0], enc.sides["blue"][0]
    f.fight += 3
    assert enc.ruleset.planner.plan(enc, f, [foe.plain_attack]).dice == before + 3


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
@pytest.mark.parametrize("has_set", [False, True])
def test_a_shot_with_a_foe_in_reach_draws_its_free_attack_set_or_no_set(ruleset, has_set):
    """RULES.md "Shooting in melee": each standing foe that threatens the shooter strikes
    once (a round), hit or miss; a shot whose roll made no set is loosed all the same (the
    crossbow's bolt is spent: ``_commit_one``), so it draws the blow as a missed set does."""
    from sim.core.actions import TimedAction
    from sim.rulesets.ore.ruleset import RolledSet
    from sim.rulesets.ore.sets import Set

    sides = {"a": [_fighter("Bow", ruleset, weapon="bow")],
             "b": [_fighter("Foe", ruleset)]}  # at its side: its sword threatens the bow
    enc = Encounter(scenario(sides, map=MAP), ruleset, seed=0)
    enc.ruleset.start(enc)
    bow, foe = enc.sides["a"][0], enc.sides["b"][0]
    assert space.threatens(enc, foe, bow)
    shot = Attack(foe)
    if has_set:
        enc.ruleset.resolve(enc, TimedAction(0.0, bow, shot, RolledSet(Set(2, 1))))
    else:
        enc.ruleset._commit_one(enc, bow, shot, None, [])
    assert bow.attacks == 1 and foe.attacks == 1  # the shot, and the blow it drew
