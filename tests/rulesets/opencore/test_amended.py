"""OpenCore under the amended rulings of RULES.md's shared vocabulary.

"Down for a while is not out" (a knockout leaves a helpless fighter in the fight, attacks on
it meet no defense), "Harm that is not meant to kill" (a bare-handed blow leaves 0 HP, no
bleeding; option ``lethal_unarmed``), and actions that find a target (an attack whose foe is
down, or that a stun forbids, is declared anew at the fighter's turn).
"""

from __future__ import annotations

import math

import icepool
import pytest
import yaml
from helpers import SCENARIOS, StubRandom, face
from opencore_helpers import act, attack, d100, duel, member, parse

from sim.core.actions import Attack, Defend
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.opencore.fighter import UNARMED
from sim.rulesets.opencore.health import bleed_for, check_health
from sim.rulesets.opencore.odds import helpless_odds
from sim.rulesets.opencore.rules import (
    HELPLESS_DEFENSE,
    helpless_verdict,
    stabilise_chance,
    ticks_to_stabilise,
)
from sim.rulesets.opencore.ruleset import initiative_now
from sim.rulesets.opencore.strike import no_extra_attack
from sim.rulesets.opencore.tables import Role
from sim.scenario import load


def knocked_out_duel(**b_extra):
    """A hits B with a 1d10 Impact blow whose critical (115) knocks B out for 1 round."""
    enc, a, b = duel(member("A", skills={"melee": 100}, damage="1d10", critical="impact"),
                     member("B", hp=100, abilities={"con": 40}, **b_extra))
    attack(enc, a, b, *d100(90, 50), face(1), *d100(95))
    assert b.knocked_out == 1 and b.in_fight
    return enc, a, b


# ------------------------------------------------------------------ down for a while
def test_an_attack_on_a_knocked_out_fighter_meets_no_defense():
    enc, a, b = knocked_out_duel(skills={"evade": 100})
    # one d100 for the attack, none for the defense: 20 + 100 beats the 0 it counts as
    attack(enc, a, b, *d100(20), face(5), *d100(1))
    assert (a.hits, b.hp) == (2, 84 - 5)


def test_the_knocked_out_roll_no_defender_fumble_and_the_attacker_may_still_fumble():
    assert helpless_verdict(6, -5) == (True, None)  # 6 - 5 = 1 > 0
    assert helpless_verdict(6, -6) == (False, None)  # a tie goes to the defender
    assert helpless_verdict(5, 100) == (False, Role.ATTACKER)  # 01-05 fumbles, whatever
    assert HELPLESS_DEFENSE == 0


@pytest.mark.parametrize("skill", [-200, -60, -6, -5, 0, 30, 100])
def test_helpless_odds_are_exact(skill):
    # icepool: a d100 that is not a fumble (06-100) and whose total beats 0
    exact = icepool.d(100).map(lambda a: a > 5 and a + skill > HELPLESS_DEFENSE
                               ).probability(True)
    assert helpless_odds(skill).hit == pytest.approx(float(exact), abs=1e-12)
    assert helpless_odds(skill).defender_fumble == 0


def test_a_knocked_out_fighter_declares_nothing_and_loses_a_declared_action():
    enc, a, b = knocked_out_duel()
    assert enc.ruleset.declaration_order(enc, [a, b]) == [a]
    act(enc, b, Attack(a))  # declared before the blow: no roll, no attack
    assert b.attacks == 0 and a.hp == a.max_hp


def test_the_fight_goes_on_while_the_last_fighter_is_knocked_out():
    # a single round: B knocked out must not end the fight (the engine's count)
    enc, a, b = knocked_out_duel()
    assert enc.sides_left == 2


def mace_duel():
    data = yaml.safe_load((SCENARIOS / "neutral_duel.yaml").read_text())
    for side in data["sides"].values():
        for m in side:
            m["weapon"] = "mace"
    return parse(data["sides"], max_rounds=20)


def test_no_mace_duel_ends_with_its_loser_knocked_out_above_zero_hp():
    # the check: before the ruling 30 of 200 decided fights did (the Impact
    # critical "unconscious 1 round" took the last fighter out and the engine scored a win)
    sc = mace_duel()
    bad = decided = 0
    for seed in range(150):
        enc = Encounter(sc, "opencore", seed=seed)
        enc.run()
        standing = enc.sides_standing()
        if len(standing) != 1:
            continue
        decided += 1
        losers = [c for c in enc.combatants if c.side not in standing]
        bad += any(c.status is Status.UNCONSCIOUS and c.hp > 0 for c in losers)
    assert decided > 100 and bad == 0


# ------------------------------------------------------------------ harm not meant to kill
def fist_duel(lethal: bool | None = None):
    options = {} if lethal is None else {"options": {"opencore": {"lethal_unarmed": lethal}}}
    return duel(member("A", weapon="unarmed", skills={"hand_to_hand": 100}, damage="1d10"),
                member("B", hp=5, abilities={"con": 40}), **options)


def test_a_fist_that_takes_hp_below_zero_leaves_zero_hp_and_no_bleeding():
    enc, a, b = fist_duel()
    attack(enc, a, b, *d100(50, 50), face(10), *d100(1))  # 5 - 10 = -5 -> 0
    assert (b.hp, b.status, b.bleeding) == (0, Status.UNCONSCIOUS, False)
    enc.env.run(until=60)
    assert (b.hp, b.status) == (0, Status.UNCONSCIOUS)


def test_lethal_unarmed_lets_a_fist_draw_blood():
    enc, a, b = fist_duel(lethal=True)
    attack(enc, a, b, *d100(50, 50), face(10), *d100(1))
    assert (b.hp, b.status, b.bleeding) == (-5, Status.UNCONSCIOUS, True)


def test_a_weapon_still_takes_hp_below_zero():
    enc, a, b = duel(member("A", skills={"melee": 100}, damage="1d10"),
                     member("B", hp=5, abilities={"con": 40}))
    attack(enc, a, b, *d100(50, 50), face(10), *d100(1))
    assert (b.hp, b.bleeding) == (-5, True)


@pytest.mark.parametrize("weapon", ["claws", "bite", "horns"])
def test_a_beasts_natural_weapon_still_takes_hp_below_zero(weapon):
    # natural weapons are fought hand to hand but meant to kill, as under every other
    # ruleset (their catalogs' ruling): only fists are "harm that is not meant to kill"
    enc, a, b = duel(member("A", weapon=weapon, skills={"hand_to_hand": 100}, damage="1d10"),
                     member("B", hp=5, abilities={"con": 40}))
    attack(enc, a, b, *d100(50, 50), face(10), *d100(1))
    assert (b.hp, b.status, b.bleeding) == (-5, Status.UNCONSCIOUS, True)


def test_a_brawl_kills_nobody_to_the_end_of_the_scene():
    # 3 v 3 fists: 2.56 deaths a fight before the ruling (all of them bled out after it)
    sc = load(SCENARIOS / "brawl.yaml")
    deaths = 0
    for seed in range(100):
        enc = Encounter(sc, "opencore", seed=seed)
        enc.run()  # the aftermath included
        deaths += sum(c.status is Status.DEAD for c in enc.combatants)
    assert deaths / 100 <= 0.5


# ------------------------------------------------------------------ actions that find a target
def test_an_attack_on_a_foe_already_down_goes_to_another_in_reach():
    sides = {"a": [member("A", skills={"melee": 100}, damage="1d10")],
             "b": [member("B1", hp=5), member("B2", hp=100)]}
    enc = Encounter(parse(sides), "opencore", seed=0)
    a, b1, b2 = enc.combatants
    enc.take_out(b1, Status.DEAD)
    act(enc, a, Attack(b1), *d100(50, 50), face(3), *d100(1))
    assert (a.attacks, b2.hp) == (1, 97)


def test_a_fighter_stunned_since_it_declared_defends_instead_of_losing_its_attack():
    enc, a, b = duel(member("A", skills={"melee": 100, "evade": 40}), member("B"))
    a.stun = 1
    act(enc, a, Attack(b))
    assert (a.attacks, a.defending) == (0, True)
    assert isinstance(enc.declared[a][0], Defend)


def test_a_stunned_fighter_declares_no_attack():
    enc, a, b = duel(member("A", skills={"melee": 100, "evade": 40}), member("B"))
    a.stun = 1
    assert not enc.advisor.can_hit(enc, a, b)
    assert [type(i) for i in enc.declare(a)] == [Defend]


# ------------------------------------------------------------------ stabilised by chance
def test_the_stabilising_roll_is_con_over_twenty_or_less_each_tick():
    assert [stabilise_chance(c) for c in (19, 20, 45, 60, 100)] == [0, 1, 2, 3, 5]
    assert ticks_to_stabilise(StubRandom(d100(50, 4, 3)), 60) == 3  # 50, 4 fail; 3 passes
    assert ticks_to_stabilise(StubRandom(), 19) == math.inf  # CON below 20: never


def exact_untended_survival(con: int) -> float:
    """An untended fighter down at -1 HP (no bloodloss) lives if one of its rolls comes up.

    It bleeds 1 HP a round and dies at -CON: con - 2 ticks leave it alive below 0, each with
    a d100 roll against CON // 20 (icepool: at least one success in con - 2 rolls).
    """
    need = con // 20
    success = icepool.d(100).map(lambda r: r <= need)
    return float(((con - 2) @ success).probability(">=", 1))


def bleed_out_untended(seed: int, con: int, log: bool = False, **options):
    top = {"options": {"opencore": options}} if options else {}
    enc, a, b = duel(member("A"), member("B", hp=10, abilities={"con": con}), **top)
    enc.seed = seed  # each sample its own stream of rolls
    if log:
        enc.log = []
    enc.fight_over = True
    b.hp = -1
    check_health(enc, b, "")
    if log:
        enc.env.run(until=5 * (con + 2))
    else:
        bleed_for(enc, b, math.inf)
    return enc, b


def test_untended_fallen_are_stabilised_by_chance_at_the_exact_odds():
    con, n = 45, 4000
    exact = exact_untended_survival(con)
    assert exact == pytest.approx(1 - 0.98 ** 43, abs=1e-12)  # 0.580
    alive = sum(bleed_out_untended(seed, con)[1].status is not Status.DEAD
                for seed in range(n))
    se = math.sqrt(exact * (1 - exact) / n)  # 0.0078
    assert abs(alive / n - exact) < 4.5 * se, (alive / n, exact)


def test_a_stabilised_fighter_stops_bleeding_and_the_log_says_so():
    for seed in range(50):
        enc, b = bleed_out_untended(seed, 45, log=True)
        if b.status is not Status.DEAD:
            break
    assert (b.bleeding, b.bloodloss) == (False, 0) and -45 < b.hp < 0
    assert any(e["type"] == "stabilised" for e in enc.log)


def test_without_the_option_every_untended_fallen_bleeds_to_death():
    assert all(bleed_out_untended(seed, 45, stabilise=False)[1].status is Status.DEAD
               for seed in range(30))


# ------------------------------------------------------------------ details (issue 31)
def test_a_dropped_weapon_leaves_initiative_to_the_hands():
    enc, a, b = duel(member("A"), member("B"))
    sword, fists = a.weapon.speed_factor, UNARMED.speed_factor
    assert (sword, fists) == (20, 30)
    assert initiative_now(a) == a.init_bonus
    a.held = False  # a fumble dropped it
    assert initiative_now(a) == a.init_bonus - 20 + 30
    enc.rng = StubRandom([face(10, 20)])
    enc.ruleset.plan_round(enc, [(a, [Attack(b)])])
    assert a.init == 10 + a.init_bonus + 10


def test_a_fall_over_with_no_foe_in_reach_says_there_is_no_extra_attack():
    sides = {"a": [{**member("A", weapon="bow", skills={"archery": 50}), "at": "west"}],
             "b": [{**member("B"), "at": "east"}]}
    sc = parse(sides, map={"nodes": {"west": {}, "east": {}},
                           "edges": [["west", "east", 30]]})
    enc = Encounter(sc, "opencore", seed=0, log=True)
    a, b = enc.combatants
    attack(enc, a, b, *d100(3, 50, 85))  # A fumbles, chart 85: falls over
    assert b.attacks == 0
    said = [e["text"] for e in enc.log if e["type"] == "no_extra_attack"]
    assert said == ["B gets no extra attack on A: A is out of its reach."]


def test_the_fall_over_of_a_helpless_foe_gives_no_extra_attack():
    enc, a, b = knocked_out_duel()
    assert no_extra_attack(enc, b, a, 0) == "it is knocked out"


def test_a_walker_knocked_out_by_a_free_attack_goes_nowhere(monkeypatch):
    """RULES.md "Leaving melee" with OpenCore's knock-out, which leaves a fighter in the fight
    but helpless, unable to move: a free attack that knocks out the walker leaves it where
    it stood (``moving.walk``)."""
    from helpers import scenario

    from sim.core import moving
    from sim.core.engine import Encounter
    from sim.rulesets.opencore.fighter import knock_out

    sword = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3},
             "weapon": "sword"}
    line = {"nodes": {"a": {}, "b": {}}, "edges": [["a", "b", 20]]}
    enc = Encounter(scenario({"a": [{"name": "W", "at": "b", **sword}],
                              "b": [{"name": "G", "at": "b", "ai": "basic", **sword}]},
                             map=line), "opencore", 1)
    w, _ = enc.combatants
    w.pos = start = enc.field.advance(enc.field.node("b"), enc.field.node("a"), 1.0)
    monkeypatch.setattr(enc.ruleset, "free_attack",
                        lambda enc, f, target: knock_out(enc, target, 1))
    assert moving.walk(enc, w, enc.field.node("a"), 10.0) == start
    assert w.in_fight and w.helpless()


def test_a_runners_halved_evade_reads_halved_not_doubled():
    """The log said "7 evade doubled" for a runner whose Evade of 14 was halved."""
    from sim.rulesets.opencore.log import defense_words

    target = type("T", (), {"evade": 14})()
    assert defense_words(target, (7, 0, 0, 0, 0)) == " (7 evade halved (ran))"
    assert defense_words(target, (28, 0, 0, 0, 0)) == " (28 evade doubled)"
    assert defense_words(target, (14, 0, 0, 0, 0)) == ""
