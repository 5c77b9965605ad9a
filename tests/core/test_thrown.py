"""Thrown weapons (RULES.md "Rate of fire"), under every ruleset.

A javelin or a throwing knife is a ranged weapon thrown by hand: a fighter carries a number
of them (``carry:``), each throw spends one, hit or miss, one a round at most; out of them
it fights with its sidearm, else bare-handed, and never declares another throw. The damage
each ruleset's table gives is held by an exact case per ruleset.
"""

from __future__ import annotations

import pytest
from helpers import act, scenario, watch_declarations

from sim import registry
from sim.ai import menu, profiles
from sim.core import arms, space
from sim.core.actions import Attack, Draw
from sim.core.engine import Encounter
from sim.scenario import vocabulary

RULESETS = registry.names()
THROWER = {"name": "J", "at": "a", "weapon": "javelin", "carry": 2,
           "skills": {"ranged": 3, "melee": 2, "brawl": 2}}
# a foe that stands and takes it (passive), hard to take down, at 15 m: in every range
POST = {"name": "P", "at": "b", "ai": "passive", "weapon": "sword", "armor": "plate",
        "traits": {"endurance": 5, "strength": 5}}
LINE = {"nodes": {"a": {}, "b": {}}, "edges": [["a", "b", 15]]}


def fight(ruleset: str, a: list[dict], b: list[dict], seed: int = 1, log: bool = False,
          **top) -> Encounter:
    return Encounter(scenario({"a": a, "b": b}, map=LINE, **top), ruleset, seed, log=log)


def test_thrown_weapons_are_ranged_with_a_count_and_a_rate_of_one():
    assert set(vocabulary.THROWN_WEAPONS) <= vocabulary.RANGED_WEAPONS
    assert not set(vocabulary.THROWN_WEAPONS) & set(vocabulary.SIDEARMS)
    for weapon, count in vocabulary.THROWN_WEAPONS.items():
        assert space.RATE_OF_FIRE[weapon] == 1  # one in hand: one a round
        assert vocabulary.CARRY_RANGE[0] <= count <= vocabulary.CARRY_RANGE[1]
        assert vocabulary.carried(weapon, None) == count
        assert vocabulary.carried(weapon, 7) == 7
    assert vocabulary.carried("bow", None) is None


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("sidearm", [None, "knife"])
def test_each_throw_spends_one_and_then_the_sidearm_or_fists(ruleset, sidearm):
    """A whole fight: at most a throw a round, one fewer each, never below 0; then the
    sidearm (or bare hands), and never another throw."""
    member = THROWER if sidearm is None else {**THROWER, "sidearm": sidearm}
    enc = fight(ruleset, [member], [POST], log=True, max_rounds=8)
    j = enc.combatants[0]
    assert j.throws_left == 2 and j.ranged and j.other_arms is not None
    seen: list[tuple[int, bool, int]] = []  # (count before, javelin in hand, attacks)

    def check(enc, c, intents):
        if c is not j:
            return
        attacks = sum(1 for i in intents if type(i) is Attack)
        if c.drawn:
            assert not c.ranged  # the sidearm or the fists: a blow, not a throw
        else:
            assert attacks <= 1, "more than one throw a round"
            assert c.throws_left > 0 or not attacks, "a throw with nothing left"
        seen.append((c.throws_left, not c.drawn, attacks))

    watch_declarations(enc, check)
    enc.run()
    assert j.throws_left == 0  # both thrown, and no fewer than none
    throws = [s for s in seen if s[1] and s[2]]
    assert len(throws) == 2, seen
    assert [left for left, _, _ in throws] == [2, 1]  # one fewer each throw
    after = seen[seen.index(throws[-1]) + 1:]
    assert after and all(not in_hand for _, in_hand, _ in after)  # never the javelin again
    draws = [e for e in enc.log if e["type"] == "draw" and e["who"] == "J"]
    assert [e["weapon"] for e in draws] == [sidearm or "unarmed"]
    if sidearm is None:
        assert "fights bare-handed" in draws[0]["text"]
    assert any("2 javelins to throw" in e["text"] for e in enc.log if e["type"] == "combatant")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_out_of_throws_the_ai_and_the_menu_offer_no_throw(ruleset):
    enc = fight(ruleset, [{**THROWER, "sidearm": "knife"}], [POST], log=True)
    j, p = enc.combatants
    j.throws_left = 0
    enc.minds = {}
    enc.declare(j)  # the engine takes up the knife before anything is declared
    assert j.drawn and not j.ranged
    assert not arms.may_change(j)
    p.pos = enc.field.node("a")
    assert Draw() not in profiles.decide(enc, j)  # the empty javelin is not taken up again
    assert not [o for o in menu.options(enc, j) if o.key.startswith("draw")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bare_hands_wait_for_the_last_throw(ruleset):
    """A thrower without a sidearm keeps its javelins while it has one, even pressed."""
    enc = fight(ruleset, [THROWER], [{**POST, "ai": "basic"}])
    j, p = enc.combatants
    p.pos = enc.field.node("a")
    assert space.pressed(enc, j)
    assert Draw() not in profiles.decide(enc, j)
    assert not [o for o in menu.options(enc, j) if o.key.startswith("draw")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_throw_is_spent_hit_or_miss_and_the_count_never_goes_below_zero(ruleset):
    enc = fight(ruleset, [{**THROWER, "carry": 1}], [POST])
    j, p = enc.combatants
    p.pos = enc.field.advance(p.pos, j.pos, 10.0)  # 5 m: close range
    act(enc, j, Attack(p))
    assert (j.attacks, j.throws_left) == (1, 0)
    arms.thrown(j)
    assert j.throws_left == 0
    j.throws_left = 1
    enc.ruleset.switch_arms(j)  # a blow with the sidearm (here fists) spends none
    arms.thrown(j)
    assert j.throws_left == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_what_is_left_to_throw_lasts_into_a_campaigns_next_fight(ruleset):
    """Ruling: nothing thrown is picked up; the count carries over (``arms.carry``)."""
    first = fight(ruleset, [THROWER], [POST])
    first.combatants[0].throws_left = 1
    party = {"J": first.combatants[0]}
    again = Encounter(scenario({"a": [THROWER], "b": [POST]}, map=LINE), ruleset, 2,
                      carried=party)
    assert again.combatants[0].throws_left == 1
