"""OpenCore d100 ruleset: conversion, hit rate vs exact odds, initiative, fumbles, damage order,
critical rows through the ruleset's own path, ongoing effects, and the example scenarios.

Hand-set rolls: ``StubRandom`` makes ``sim.rulesets.dice.roll`` show chosen faces
(``face(v, sides)``).
"""

from collections import Counter

import pytest
from helpers import SCENARIOS, StubRandom, face
from opencore_helpers import BIG, attack, d100, duel, member, parse

from sim import registry
from sim import scenario as scenario_mod
from sim.core.actions import Attack, Bide, Defend, Move, Reload, TimedAction
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.core.harm import Harm
from sim.rulesets.opencore.fighter import MOVE_METRES
from sim.rulesets.opencore.rules import opposed_attack


def run_until(enc, seconds: float) -> None:
    enc.env.run(until=seconds)


# ------------------------------------------------------------------ building
def test_neutral_conversion_follows_rules_md():
    spec = {"name": "W", "traits": {"strength": 4, "endurance": 3, "agility": 3,
                                    "dexterity": 5, "perception": 1},
            "skills": {"melee": 3, "brawl": 2, "ranged": 4, "dodge": 2, "parry": 5},
            "weapon": "bow", "armor": "chain"}
    enc = Encounter(parse({"a": [spec], "b": [{"name": "X"}]}), "opencore", 0)
    w = enc.sides["a"][0]
    assert w.abilities == {"str": 75, "dex": 90, "agl": 60, "con": 60, "int": 50, "per": 30,
                           "wis": 50, "cha": 50, "com": 50}
    assert (w.skills["melee"], w.skills["hand_to_hand"], w.skills["evade"]) == (45, 30, 30)
    assert (w.skills["archery"], w.skills["firearms"], w.attack_skill) == (60, 0, 60)
    assert w.hp == w.max_hp == 60 and w.toughness == 0  # HP = CON
    assert (w.armor.label, w.armor_left, w.armor.initiative_penalty) == ("Chain Mail", 40, 10)
    assert w.ranged and w.reach == 150.0 and w.speed == pytest.approx(3.048)
    five = Encounter(parse({"a": [{"name": "P", "traits": {"strength": 5}}], "b": [{"name": "X"}]}),
                     "opencore", 0).sides["a"][0]
    assert five.abilities["str"] == 90 and five.reach == 2.0  # min(100, 15*5+15)


def test_native_block_overrides_key_by_key():
    spec = member("N", weapon="pistol", abilities={"con": 33, "dex": 81},
                  skills={"firearms": 70, "evade": 12}, mode="auto", armor="plated_vest", hp=21,
                  toughness=7)
    spec["opencore"]["weapon"] = "assault_rifle"  # a seed weapon no neutral name reaches
    spec["traits"] = {"strength": 5}
    enc = Encounter(parse({"a": [spec], "b": [{"name": "X"}]}), "opencore", 0)
    n = enc.sides["a"][0]
    assert (n.abilities["con"], n.abilities["dex"], n.abilities["str"]) == (33, 81, 90)
    assert (n.weapon.key, str(n.fire.damage), n.fire.crit_table.value) == (
        "assault_rifle", "3d10+20", "shrapnel")
    assert (n.attack_skill, n.evade, n.hp, n.toughness) == (70, 12, 21, 7)
    assert (n.armor.label, n.armor_left) == ("Plated Vest", 85)
    assert n.reach == 300.0


def test_hp_rule_seed_is_1d100_minus_con_minimum_1():
    scen = parse({"a": [member("A", abilities={"con": 40})], "b": [member("B")]},
                 options={"opencore": {"hp_rule": "seed"}})
    ruleset = Encounter(scen, "opencore", 0).ruleset
    pos = None
    spec_a = scen.sides[0].members[0]
    assert ruleset.build(spec_a, pos, StubRandom(d100(90))).hp == 50
    assert ruleset.build(spec_a, pos, StubRandom(d100(12))).hp == 1


# ------------------------------------------------------------------ hit rate vs exact odds
def exact_hit_probability(att: int, dfn: int) -> float:
    """RULES.md by enumeration: attacker 01-05 misses; else defender 01-05 is hit; else the
    higher total hits, ties miss.
    """
    hits = sum(1 for a in range(6, 101) for d in range(1, 101) if d <= 5 or a + att > d + dfn)
    return hits / 10_000


@pytest.mark.parametrize(("att", "dfn"), [(50, 50), (70, 25), (0, 90), (95, 0)])
def test_opposed_attack_matches_the_rules_on_every_pair_of_rolls(att, dfn):
    """All 10,000 pairs of d100 through ``opposed_attack``: exactly RULES.md's odds."""
    hits = sum(opposed_attack(a, att, d, dfn).hit for a in range(1, 101) for d in range(1, 101))
    assert hits / 10_000 == exact_hit_probability(att, dfn)


@pytest.mark.parametrize(("att", "dfn"), [(50, 50), (70, 25)])
def test_basic_hit_rate_through_the_engine_matches_exact_odds(att, dfn):
    # The engine's wiring of the same rule (skills, rolls, bookkeeping). One round per
    # encounter: a stumble (-20 defense "until next turn") would otherwise carry into the
    # next round's attack. Huge HP and Toughness: no critical (no stun on the target) and
    # no self-injury knocks anyone out. 6,000 fights: the standard error is <= 0.0065;
    # the tolerance is 4.5 of them.
    scen = parse({
        "a": [member("A", skills={"melee": att}, hp=BIG, toughness=BIG)],
        "b": [member("D", ai="passive", skills={"evade": dfn}, hp=BIG, toughness=BIG)],
    }, max_rounds=1)
    attacks = hits = 0
    for seed in range(6_000):
        result = Encounter(scen, "opencore", seed).run()
        attacks += result.sides[0].attacks
        hits += result.sides[0].hits
    assert attacks >= 6_000  # a defender's fall-over fumble adds an extra attack
    assert abs(hits / attacks - exact_hit_probability(att, dfn)) < 4.5 * 0.0065


# ------------------------------------------------------------------ initiative and actions
def test_initiative_order_with_bide_and_simultaneous_ties():
    enc, a, b = duel(member("A", abilities={"dex": 50}),  # d20 + 0 + sword 20
                     member("B", abilities={"dex": 70}, weapon="knife", armor="leather_armor"))
    c = enc.ruleset.build(enc.scenario.sides[0].members[0], a.pos, enc.rng)
    a.bided = True
    enc.rng = StubRandom([face(3, 20), face(10, 20), face(5, 20)])
    actions = enc.ruleset.plan_round(enc, [(a, [Attack(b)]), (b, [Attack(a)]),
                                           (c, [Attack(b)])])
    # A: 3 + 20 + 20 (bide) = 43; B: 10 + 2 (DEX 70) + 25 (knife) - 5 (leather) = 32;
    # C: 5 + 20 = 25.
    assert [x.payload for x in actions] == [43, 32, 25]
    assert actions[0].offset < actions[1].offset < actions[2].offset
    assert not a.bided  # the bonus is spent
    enc.rng = StubRandom([face(12, 20), face(10, 20)])
    again = enc.ruleset.plan_round(enc, [(a, [Attack(b)]), (b, [Attack(a)])])
    assert [x.payload for x in again] == [32, 32] and again[0].offset == again[1].offset


def test_bide_action_gives_plus_20_next_round():
    enc, a, b = duel(member("A", abilities={"dex": 50}), member("B", abilities={"dex": 50}))
    enc.ruleset.resolve(enc, TimedAction(0.0, a, Bide(), 0))
    enc.rng = StubRandom([face(1, 20), face(20, 20)])
    acts = enc.ruleset.plan_round(enc, [(a, [Attack(b)]), (b, [Attack(a)])])
    assert [(x.actor.name, x.payload) for x in acts] == [("A", 41), ("B", 40)]


def test_group_initiative_rolls_1d6_per_side():
    enc, a, b = duel(member("A"), member("B", weapon="pistol"),
                     options={"opencore": {"initiative": "group"}})
    enc.rng = StubRandom([face(2, 6), face(5, 6)])
    acts = enc.ruleset.plan_round(enc, [(a, [Attack(b)]), (b, [Attack(a)])])
    assert {x.actor.name: x.payload for x in acts} == {"A": 2, "B": 5}
    assert min(acts, key=lambda x: x.offset).actor is b


def test_one_action_per_round_and_move_is_ten_feet():
    scen = parse({"a": [member("A")], "b": [member("B")]},
                 map={"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 20]]})
    enc = Encounter(scen, "opencore", 0)
    a, b = enc.sides["a"][0], enc.sides["b"][0]
    b.pos = enc.field.node("y")
    enc.rng = StubRandom([face(10, 20)])
    acts = enc.ruleset.plan_round(enc, [(a, [Move(b), Attack(b)])])
    assert len(acts) == 1 and type(acts[0].intent) is Move
    enc.ruleset.resolve(enc, acts[0])
    assert enc.field.distance(a.pos, b.pos) == pytest.approx(20 - 10 * 0.3048)
    assert MOVE_METRES == pytest.approx(3.048)
    assert not enc.advisor.can_attack(enc, a, b)  # melee reach 2 m
    assert enc.advisor.extra_attacks(enc, a, b) == 0
    assert not enc.advisor.can_move_and_attack(enc, a)


def test_defend_doubles_evade_until_the_next_action():
    enc, a, b = duel(member("A"), member("B", skills={"evade": 30}))
    assert enc.ruleset.defense_skill(b) == 30
    enc.ruleset.resolve(enc, TimedAction(0.0, b, Defend(), 0))
    assert enc.ruleset.defense_skill(b) == 60
    # A: 60 + 0 (sword skill 0) = 60 vs 35 + 60 = 95: miss, only because of the defense.
    attack(enc, a, b, *d100(60, 35))
    assert (a.attacks, a.hits) == (1, 0)
    enc.ruleset.resolve(enc, TimedAction(0.0, b, Bide(), 0))  # its next action ends it
    assert enc.ruleset.defense_skill(b) == 30


def test_ranged_attacks_at_range_melee_only_in_reach():
    scen = parse({"a": [member("Archer", weapon="bow")], "b": [member("B")]},
                 map={"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 40]]})
    enc = Encounter(scen, "opencore", 0)
    archer, b = enc.sides["a"][0], enc.sides["b"][0]
    b.pos = enc.field.node("y")
    assert enc.advisor.can_attack(enc, archer, b)
    assert not enc.advisor.can_attack(enc, b, archer)


# ------------------------------------------------------------------ fumbles
def fumble_pair(**a_extra):
    return duel(member("A", skills={"melee": 50}, hp=50, abilities={"str": 50, "con": 50},
                       **a_extra),
                member("B", skills={"melee": 50, "evade": 20}, hp=50,
                       abilities={"str": 50, "con": 50}))


def test_attacker_fumble_misses_and_stumbles():
    enc, a, b = fumble_pair()
    attack(enc, a, b, *d100(5, 1, 70))  # attacker 05: miss even against a defender's 01
    assert (a.attacks, a.hits, a.stumbling) == (1, 0, 20)
    assert enc.ruleset.defense_skill(a) == -20
    enc.ruleset.resolve(enc, TimedAction(0.0, a, Defend(), 0))  # its next turn ends the stumble
    assert enc.ruleset.defense_skill(a) == 0


def test_attacker_falls_over_and_the_foe_strikes_at_once():
    enc, a, b = fumble_pair()
    # A fumbles (chart 85: falls over); B's extra attack: 90 + 50 vs 10 + 0 -> hit, 2d10 = 7.
    attack(enc, a, b, *d100(3, 50, 85, 90, 10), face(3), face(4), *d100(1))
    assert (b.attacks, b.hits) == (1, 1)
    assert a.hp == 50 - 7 + 0  # crit roll 01 + 20 (strong strike) = 21: no extra damage


def test_attacker_drops_weapon_injures_self_then_picks_it_up():
    enc, a, b = fumble_pair(armor="leather_armor")
    # 96-100: x2 self-damage, 2 x 13 = 26 through its own leather (25); the point that reaches
    # HP calls a critical: 01 - 20 (attack roll 02 is weak) = -19, no extra damage.
    attack(enc, a, b, *d100(2, 50, 97), face(6), face(7), *d100(1))
    assert not a.held and enc.advisor.needs_reload(a)
    assert (a.armor_left, a.hp) == (0, 49)
    enc.ruleset.resolve(enc, TimedAction(0.0, a, Reload(), 0))
    assert a.held and not enc.advisor.needs_reload(a)


def test_defender_fumble_zigs_for_double_and_triple_damage():
    for chart, mult in ((93, 2), (99, 3)):
        enc, a, b = fumble_pair()
        b.toughness = BIG
        # A 06: no fumble; 6 + 50 = 56 vs 4 + 20 = 24, but B's 04 is a fumble anyway.
        attack(enc, a, b, *d100(6, 4, chart), face(5), face(5))
        assert (a.hits, b.toughness) == (1, BIG - 10 * mult)


def test_defender_falls_over_gives_the_attacker_another_attack():
    enc, a, b = fumble_pair()
    b.toughness = BIG
    attack(enc, a, b, *d100(50, 2, 88), face(1), face(1), *d100(50, 60), face(2), face(2))
    assert (a.attacks, a.hits) == (2, 2)
    assert b.toughness == BIG - 2 - 4


def test_passive_target_never_takes_the_extra_attack():
    enc, a, b = duel(member("A", skills={"melee": 50}), member("B", ai="passive"))
    attack(enc, a, b, *d100(1, 50, 85))
    assert b.attacks == 0


# ------------------------------------------------------------------ damage order and criticals
def test_armor_then_toughness_then_hp_and_armor_keeps_its_initiative_penalty():
    enc, a, b = duel(member("A", skills={"melee": 100}, abilities={"str": 50}, damage="1d100"),
                     member("B", armor="leather_armor", toughness=10, hp=40,
                            abilities={"con": 40, "dex": 50}))
    attack(enc, a, b, *d100(50, 50, 30))  # 30: leather 25 gone, Toughness 10 -> 5
    assert (b.armor_left, b.toughness, b.hp) == (0, 5, 40)
    attack(enc, a, b, *d100(50, 50, 12, 1))  # 12: Toughness 5 -> 0, HP -7, crit d100 01
    assert (b.armor_left, b.toughness, b.hp) == (0, 0, 33)
    enc.rng = StubRandom([face(10, 20)])
    (act,) = enc.ruleset.plan_round(enc, [(b, [Attack(a)])])
    assert act.payload == 10 + 0 + 20 - 5  # used-up armor still slows its wearer


def test_damage_below_armor_calls_no_critical():
    enc, a, b = duel(member("A", skills={"melee": 100}, damage="1d10"),
                     member("B", armor="leather_armor"))
    attack(enc, a, b, *d100(50, 50), face(9))  # no crit roll is drawn
    assert b.armor_left == 16


# Seed 001's five tables, row by row (modified-roll ranges are the same in every table):
# (extra damage, stun rounds, bloodloss, unconscious rounds, skill penalty).
ROWS = [(-19, -10), (-9, 0)] + [(lo, lo + 9) for lo in range(1, 120, 10)]
SEED_ROWS = {
    "slash": [(0,)] * 6 + [(5,), (5,), (10,), (10, 0, 1), (15, 0, 1), (15, 1, 1),
                           (20, 2, 2), (20, 2, 1, 0, 40)],
    "impact": [(0,)] * 8 + [(5,), (5, 1), (10, 2), (10, 2, 0, 0, 30), (15, 3, 0, 0, 30),
                            (15, 0, 0, 1)],
    "puncture": [(0,)] * 7 + [(5,), (10,), (15,), (20, 0, 1), (20, 0, 1), (25, 1, 1),
                              (25, 1, 1, 0, 20)],
    "shrapnel": [(0,)] * 3 + [(5,), (5,), (10,), (10, 0, 1), (15, 0, 1), (15, 1, 1),
                              (20, 1, 1), (20, 1, 2, 0, 20), (30, 2, 2, 0, 20),
                              (40, 0, 3, 1, 40), (50, 0, 5, 2, 40)],
    "burn": [(0,)] * 5 + [(5,), (5,), (5,), (5, 0, 0, 0, 20), (10, 0, 0, 0, 20),
                          (10, 0, 0, 0, 30), (15, 0, 0, 0, 30), (15, 0, 0, 0, 40),
                          (20, 0, 0, 0, 40)],
}
CASES = [(table, value, SEED_ROWS[table][i] + (0,) * (5 - len(SEED_ROWS[table][i])))
         for table in SEED_ROWS for i, row in enumerate(ROWS) for value in row]


@pytest.mark.parametrize(("table", "modified", "effect"), CASES)
def test_every_critical_row_boundary_through_the_attack(table, modified, effect):
    # The attack roll sets the shift: below 20 -> -20, above 80 -> +20, else 0.
    shift = -20 if modified < 1 else 20 if modified > 100 else 0
    att_roll = {-20: 10, 0: 50, 20: 90}[shift]
    enc, a, b = duel(member("A", skills={"melee": 100}, damage="1d10", critical=table),
                     member("B", hp=1000, abilities={"con": 100}))
    attack(enc, a, b, *d100(att_roll, 50), face(4), *d100(modified - shift))
    extra, stun, bleed, out, penalty = effect
    assert b.hp == 1000 - 4 - extra
    assert (b.bloodloss, b.skill_penalty, b.bleeding) == (bleed, penalty, bool(bleed))
    assert (b.stun, b.knocked_out, b.in_fight) == (int(bool(stun)), int(bool(out)), True)
    if penalty:  # the location penalty comes off attack and defense
        assert enc.ruleset.defense_skill(b) == -penalty - (50 if stun else 0)
        assert enc.ruleset.attack_skill(enc, b, a) == -penalty
    # Stun and unconsciousness last exactly their rounds (5 s each).
    for rounds, running in ((stun, lambda: b.stun), (out, lambda: b.knocked_out)):
        if rounds:
            run_until(enc, 5 * rounds - 0.01)
            assert running() == 1
            run_until(enc, 5 * rounds + 0.01)
            assert running() == 0
    assert b.in_fight


# ------------------------------------------------------------------ ongoing effects
def crit_encounter(table="slash", **b_extra):
    b = {"hp": 100, "abilities": {"con": 40}, **b_extra}
    return duel(member("A", skills={"melee": 100}, damage="1d10", critical=table),
                member("B", **b))


def test_two_bloodloss_stacks_bleed_two_hp_a_round():
    enc, a, b = crit_encounter("puncture")
    attack(enc, a, b, *d100(50, 50), face(1), *d100(85))  # 81-90: +20, bloodloss
    attack(enc, a, b, *d100(50, 50), face(1), *d100(95))  # 91-100: +20, bloodloss
    assert (b.hp, b.bloodloss) == (100 - 42, 2)
    run_until(enc, 5.01)
    assert b.hp == 56
    run_until(enc, 10.01)
    assert b.hp == 54


def test_stun_expires_after_n_rounds():
    enc, a, b = crit_encounter("slash")
    attack(enc, a, b, *d100(90, 50), face(1), *d100(85))  # 85 + 20 = 105: stun 2 rounds
    assert b.stun == 1 and enc.ruleset.defense_skill(b) == -50
    run_until(enc, 9.99)
    attack(enc, b, a)  # still stunned: no attack, no roll
    assert (b.attacks, b.stun) == (0, 1)
    run_until(enc, 10.01)
    assert b.stun == 0 and enc.ruleset.defense_skill(b) == 0


def test_stuns_overlap_and_each_runs_out():
    enc, a, b = crit_encounter("impact")
    attack(enc, a, b, *d100(50, 50), face(1), *d100(75))  # stun 1
    run_until(enc, 2.0)
    attack(enc, a, b, *d100(50, 50), face(1), *d100(85))  # stun 2, from t = 2
    assert b.stun == 2
    run_until(enc, 5.01)
    assert b.stun == 1
    run_until(enc, 12.01)
    assert b.stun == 0


def test_unconscious_n_rounds_is_helpless_in_the_fight_then_comes_to():
    # RULES.md "Down for a while is not out": the knockout leaves it in the fight
    enc, a, b = crit_encounter("impact")
    attack(enc, a, b, *d100(90, 50), face(1), *d100(95))  # 115: +15, unconscious 1 round
    assert (b.status, b.in_fight, b.hp, b.knocked_out) == (Status.OK, True, 84, 1)
    assert enc.sides_standing() == ["a", "b"]  # the fight goes on
    run_until(enc, 4.99)
    assert b.knocked_out == 1
    run_until(enc, 5.01)
    assert (b.status, b.in_fight, b.knocked_out) == (Status.OK, True, 0)


def test_knocked_out_with_hp_at_or_below_zero_stays_down():
    enc, a, b = crit_encounter("impact", hp=20)
    attack(enc, a, b, *d100(90, 50), face(10), *d100(95))  # 20 - 10 - 15 = -5
    assert (b.hp, b.status, b.bleeding) == (-5, Status.UNCONSCIOUS, True)
    run_until(enc, 5.01)
    assert (b.hp, b.status) == (-6, Status.UNCONSCIOUS)


def test_death_at_minus_con_and_unconscious_just_above():
    enc, a, b = duel(member("A", skills={"melee": 100}, damage="1d100"),
                     member("B", hp=10, abilities={"con": 40}))
    attack(enc, a, b, *d100(50, 50, 49, 1))  # HP -39: crit 01, nothing extra
    assert (b.hp, b.status) == (-39, Status.UNCONSCIOUS)
    enc2, a2, b2 = duel(member("A", skills={"melee": 100}, damage="1d100"),
                        member("B", hp=10, abilities={"con": 40}))
    attack(enc2, a2, b2, *d100(50, 50, 50, 1))  # HP -40 = -CON
    assert (b2.hp, b2.status) == (-40, Status.DEAD)


def test_zero_hp_is_unconscious_without_bleeding():
    enc, a, b = duel(member("A", skills={"melee": 100}, damage="1d100"),
                     member("B", hp=10, abilities={"con": 40}))
    attack(enc, a, b, *d100(50, 50, 10, 1))
    assert (b.hp, b.status, b.bleeding) == (0, Status.UNCONSCIOUS, False)
    run_until(enc, 20.0)
    assert b.hp == 0


def test_bleeding_continues_while_unconscious_until_death():
    enc, a, b = duel(member("A", skills={"melee": 100}, damage="1d100"),
                     member("B", hp=10, abilities={"con": 40}))
    attack(enc, a, b, *d100(50, 50, 48, 1))  # HP -38: unconscious, bleeding
    assert (b.status, b.bleeding) == (Status.UNCONSCIOUS, True)
    run_until(enc, 5.01)
    assert (b.hp, b.status) == (-39, Status.UNCONSCIOUS)
    run_until(enc, 10.01)
    assert (b.hp, b.status) == (-40, Status.DEAD)
    assert not b.effects


def test_options_apply_in_a_full_run():
    base = scenario_mod.load(SCENARIOS / "ambush.yaml")
    for options in ({"initiative": "group"}, {"hp_rule": "seed"}, {"cover": False}):
        scen = scenario_mod.parse({
            "name": base.name, "ruleset": "opencore", "max_rounds": 30,
            "map": {"nodes": {"road": {}, "ford": {"visibility": "poor"}},
                    "edges": [["road", "ford", 12]]},
            "sides": {"h": [{"name": "H", "at": "road", "weapon": "bow",
                             "skills": {"ranged": 3}}],
                      "b": [{"name": "B", "at": "ford", "weapon": "club",
                             "skills": {"melee": 2}}]},
            "options": {"opencore": options}})
        results = [Encounter(scen, "opencore", s).run() for s in range(30)]
        assert all(r.rounds >= 1 for r in results)
        if "hp_rule" in options:  # 1d100 - CON (min 1), not CON: the option is read
            hps = {Encounter(scen, "opencore", s).combatants[0].hp for s in range(30)}
            assert len(hps) > 5 and max(hps) <= 100 - 45


def test_solo_log_shows_rolls_totals_fumbles_criticals_and_hp():
    texts = []
    for seed in range(30):
        enc = Encounter(scenario_mod.load(SCENARIOS / "ambush.yaml"), "opencore", seed,
                        log=True)
        enc.run()
        texts += [e["text"] for e in enc.log]
    joined = "\n".join(texts)
    assert "Initiative:" in joined and " vs d100 " in joined
    assert "fumbles as attacker" in joined and "fumbles as defender" in joined
    assert "Critical on" in joined and "HP " in joined and "bleeds" in joined
    enc = Encounter(scenario_mod.load(SCENARIOS / "ambush.yaml"), "opencore", 1)
    enc.run()
    assert enc.log is None


def test_both_d100_rolls_cover_1_to_100_uniformly_through_the_engine():
    scen = scenario_mod.load(SCENARIOS / "duel.yaml")
    attack, defense = Counter(), Counter()
    for seed in range(400):
        enc = Encounter(scen, "opencore", seed, log=True)
        enc.run()
        for e in enc.log:
            if e["type"] == "attack":
                attack[e["rules"]["attack_roll"]] += 1
                defense[e["rules"]["defense_roll"]] += 1
    for counts in (attack, defense):
        assert set(counts) == set(range(1, 101))  # 01 and 100 both come up
        n = sum(counts.values())
        # each face 1/100: no face off by more than 5 standard errors
        sd = (n * 0.01 * 0.99) ** 0.5
        assert all(abs(c - n / 100) <= 5 * sd for c in counts.values())


def test_a_lowered_attack_bonus_names_its_penalties_and_adds_up():
    """``d100 29 + 35 (45 - 10 poor visibility) = 64``: the skill less each named penalty is
    the bonus, and the roll plus the bonus the total."""
    import re

    pattern = re.compile(r"attacks [^:]+: d100 (\d+) ([+-]) (\d+) \((\d+)((?: - \d+ [a-z ]+)+)\)"
                         r" = (-?\d+) vs")
    named = set()
    for roll, sign, bonus, base, terms, total in logged("ambush", pattern, 40):
        bonus = int(bonus) * (1 if sign == "+" else -1)
        penalties = re.findall(r" - (\d+) ([a-z]+(?: [a-z]+)*)", terms)
        assert int(base) - sum(int(p) for p, _ in penalties) == bonus
        assert int(roll) + bonus == int(total)
        named |= {name.strip() for _, name in penalties}
    assert {"injuries", "poor visibility"} <= named


def logged(name: str, pattern, seeds: int):
    """The groups of every match of ``pattern`` in the logs of ``seeds`` fights of ``name``."""
    scen = scenario_mod.load(SCENARIOS / f"{name}.yaml")
    for seed in range(seeds):
        enc = Encounter(scen, "opencore", seed, log=True)
        enc.run()
        for e in enc.log:
            m = pattern.search(e.get("text", ""))
            if m:
                yield m.groups()


def test_a_changed_defense_bonus_names_its_terms_and_adds_up():
    """``vs d100 37 - 35 (45 evade - 30 injuries - 50 stunned) = 2``: Evade (doubled by a
    defense action) with each named term is the bonus, and the roll plus it the total."""
    import re

    pattern = re.compile(r" vs d100 (\d+) ([+-]) (\d+) \((\d+) evade( doubled)?"
                         r"((?: [+-] \d+ [a-z]+)+)?\) = (-?\d+) ->")
    named = set()
    for roll, sign, bonus, evade, doubled, terms, total in logged("neutral_duel", pattern, 60):
        bonus = int(bonus) * (1 if sign == "+" else -1)
        parts = [(1 if s == "+" else -1) * int(n)
                 for s, n, name in re.findall(r" ([+-]) (\d+) ([a-z]+)", terms or "")]
        assert int(evade) + sum(parts) == bonus
        assert int(roll) + bonus == int(total)
        named |= set(re.findall(r"[a-z]+", terms or "")) | ({"doubled"} if doubled else set())
    assert {"injuries", "stunned"} <= named


def test_defense_skill_is_the_sum_of_its_terms():
    enc, a, b = duel(member("A"), {**member("B"), "shield": True}, options={
        "opencore": {"shield_bonus": 10}})
    b.skill_penalty, b.stumbling, b.stun = 30, 5, 2
    evade = b.evade
    assert enc.ruleset.defense_terms(b, defending=True) == (2 * evade, 30, 5, 50, 10)
    assert enc.ruleset.defense_skill(b, defending=True) == 2 * evade - 30 - 5 - 50 + 10
    assert enc.ruleset.defense_skill(b, defending=False) == evade - 30 - 5 - 50 + 10


def test_a_critical_names_where_its_shift_comes_from():
    from sim.rulesets.opencore.rules import critical_roll_modifier, strike_shift

    for roll, toughness in [(5, 0), (50, 3), (95, 7), (19, 0), (20, 0), (80, 0), (81, 2)]:
        assert critical_roll_modifier(roll, toughness) == strike_shift(roll) - toughness
    assert (strike_shift(19), strike_shift(20), strike_shift(80), strike_shift(81)) == (
        -20, 0, 0, 20)
    enc = Encounter(scenario_mod.load(SCENARIOS / "neutral_duel.yaml"), "opencore", 5,
                    log=True)
    enc.run()
    lines = [e["text"] for e in enc.log if e["type"] == "critical"]
    assert any("(weak strike -20) = " in t for t in lines), lines
    assert any("(strong strike +20) = " in t for t in lines), lines


def test_armor_worn_away_lasts():
    """OpenCore's armor is spent by the hits it stops: harm that lasts for the stand-off."""
    rules = registry.get("opencore")()
    f = duel({"name": "A"}, {"name": "B"})[1]
    assert rules.harm_lasts(f, Harm(worn=2)) and rules.harm_lasts(f, Harm(3))
    assert not rules.harm_lasts(f, Harm())
