"""OpenD6 rulesets ``opend6`` and ``opend6-hp``: hit rate vs exact odds, hand-set turns, the
native block, options, and every example scenario.

Hand-set rolls: ``StubRandom`` makes ``sim.rulesets.dice.roll`` show chosen d6 faces; ``roll_code``
draws the normal dice first, then the wild die's throws. An attack draws its attack roll,
then (on a hit) the damage roll, then the target's resistance roll. Every hand-set test
checks that exactly the expected dice were drawn, which is how pool sizes (penalties,
bonuses, points) are checked.
"""

from __future__ import annotations

import icepool
import pytest
from helpers import SCENARIOS, StubRandom, faces
from opend6_helpers import duel, member, parse, turn

from sim import scenario as scenario_mod
from sim.ai import profiles as ai
from sim.core.actions import Aim, Attack, Defend, Move, Reload, TimedAction
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.opend6.dice import DiceCode
from sim.rulesets.opend6.rules import WoundStatus
from sim.scenario.errors import ScenarioError

# ---------------------------------------------------- hit rate of `basic` vs exact odds
EXPLODE_DEPTH = 12  # the reroll tail beyond 12 more sixes weighs 6**-13



# 3 m apart: point blank for a shooter, out of a club's 2 m (no shot in melee, RULES.md)
APART = {"map": {"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 3]]}}

def exact_attack(dice: int) -> icepool.Die:
    """An N-dice roll with the wild die, from the rules text (RULES.md opend6, Dice)."""
    d6 = icepool.d6
    others = dice - 1
    rest = others @ d6 if others else icepool.Die([0])
    # Fumble: the wild die and the highest normal die leave the total.
    fumble = d6.lowest(others, others - 1) if others >= 2 else icepool.Die([0])
    exploded = 6 + d6.explode(depth=EXPLODE_DEPTH) + rest
    return d6.map(lambda w: fumble if w == 1 else exploded if w == 6 else w + rest)


HIT_TOL = 0.01  # absolute; ~90,000 attacks give a standard error <= 0.0017 (6 SE)


@pytest.mark.parametrize(("agility", "melee"), [(1, 1), pytest.param(3, 2, marks=pytest.mark.slow)])
def test_basic_hit_rate_matches_exact_odds(agility: int, melee: int) -> None:
    # A passive dummy at reach, no cover, clear: the difficulty is 10 on every attack, and
    # the dummy (plate, Endurance 5) is rarely wounded, so each fight holds ~30 attacks.
    sc = parse({
        "a": [member("A", agility=agility, melee=melee, traits={"strength": 1})],
        "b": [{"name": "Dummy", "ai": "passive", "armor": "plate",
               "traits": {"endurance": 5}}],
    }, max_rounds=30)
    attacks = hits = 0
    for seed in range(3000):
        a = Encounter(sc, "opend6", seed).run().sides[0]
        attacks += a.attacks
        hits += a.hits
    die = exact_attack(agility + melee)
    p = float(die.probability(">=", 10))
    assert attacks > 80_000
    assert hits / attacks == pytest.approx(p, abs=HIT_TOL)
    # the check can fail: "must beat 10" instead of "meet 10" is outside the tolerance
    assert p - float(die.probability(">=", 11)) > HIT_TOL


# ------------------------------------------------------------------------ wounds and HP
@pytest.mark.parametrize(("resistance", "wounds"), [
    ([2, 2], 3),      # 12 >= 3 x 4
    ([3, 3], 2),      # 12 >= 2 x 6
    ([4, 4], 1),      # 12 >= 8
    ([6, 6, 2], 0),   # the wild die explodes: 14 > 12
    # a resistance roll is no action: its wild 1 counts (2 + 1 = 3: 12 >= 4 x 3); once a
    # fumble left 0, which counts as 1: 12 wounds, capped at 5 = dead (RULES.md, amended)
    ([2, 1], 4),
    ([1, 1], 5),      # 2: 12 >= 6 x 2, capped at 5 = dead
])
def test_wounds_are_multiples_of_the_resistance(resistance, wounds) -> None:
    enc, a, b = duel(member("A", traits={"strength": 2}), member("B"))
    # attack 3D: 12 vs 10 hits; damage STR 2D + club 1D = 3D: 12; resistance END 2D
    turn(enc, a, Attack(b), dice=[4, 4, 4, 4, 4, 4, *resistance])
    assert (a.attacks, a.hits) == (1, 1)
    assert b.wounds == wounds
    assert b.in_fight is (wounds < 5)
    if wounds == 5:
        assert b.status is Status.DEAD


def test_wound_penalties_apply_to_later_rolls_but_not_to_resistance() -> None:
    enc, a, b = duel(member("A", traits={"strength": 2}), member("B", agility=2, melee=1))
    turn(enc, a, Attack(b), dice=[4, 4, 4, 4, 4, 4, 2, 2])  # 3 wounds: severely, -2D
    assert b.level is WoundStatus.SEVERELY_WOUNDED
    turn(enc, b, Attack(a), dice=[4])  # B's 3D attack rolls 1D
    enc.round = 2
    turn(enc, b, Attack(a), dice=[4])  # and still does next round
    # its resistance roll keeps both dice: 12 vs 6 is 2 more wounds, dead
    turn(enc, a, Attack(b), dice=[4, 4, 4, 4, 4, 4, 3, 3])
    assert b.status is Status.DEAD


def test_a_stun_costs_one_die_for_the_rest_of_the_round_only() -> None:
    enc, a, b = duel(member("A", traits={"strength": 2}), member("B"))
    turn(enc, a, Attack(b), dice=[4, 4, 4, 4, 4, 4, 4, 4])  # 1 wound: stunned
    assert b.level is WoundStatus.STUNNED
    turn(enc, b, Attack(a), dice=[2, 2])  # 3D - 1D this round
    enc.round = 2
    turn(enc, b, Attack(a), dice=[2, 2, 2])  # full 3D next round


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_the_stunned_level_reads_stunned_only_while_the_stun_runs(ruleset) -> None:
    """1 wound (14-19 HP) is "stunned" in the round it was dealt; after that round the
    fighter keeps its wound but no penalty, and its state line says "no penalty"."""
    enc, a, b = duel(member("A", traits={"strength": 2}), member("B"), ruleset)
    enc.log = []  # the events, to read the state lines
    if ruleset == "opend6-hp":
        b.hp = 22
    stun = [4, 4, 4, 4, 4, 4, 2, 2] if ruleset == "opend6-hp" else [4] * 8
    turn(enc, a, Attack(b), dice=stun)
    assert b.level is WoundStatus.STUNNED and b.state().endswith("(stunned)")
    assert enc.log[-1]["state"].endswith("(stunned)")  # the hit that stunned says so
    enc.ruleset.end_round(enc)
    enc.round = 2
    assert b.level is WoundStatus.STUNNED  # the wound stays, its penalty does not
    assert b.state().endswith("(no penalty)") and enc.ruleset.health_penalty(enc, b) == 0
    turn(enc, a, Attack(b), dice=[4, 4, 4, 4, 4, 4, 5, 6, 2])  # resistance 13: no harm
    assert enc.log[-1]["type"] == "damage" and enc.log[-1]["state"].endswith("(no penalty)")
    turn(enc, b, Attack(a), dice=[2, 2, 2])  # full 3D: no "stunned -1D" on the roll
    assert "stunned" not in enc.log[-1]["text"]


def test_a_stun_ends_with_the_fight_before_the_roll_call() -> None:
    """The round a fight ends in is over when the fallen are counted: no "stunned" there."""
    enc, a, b = duel(member("A", traits={"strength": 2}), member("B"))
    b.wounds, b.level, b.stun_round = 1, WoundStatus.STUNNED, 1
    enc.ruleset._stunned = (b,)
    enc.ruleset.aftermath(enc, frozenset())
    assert b.stun_round == -1 and b.state() == "1 wound (no penalty)"


def test_wound_level_words_have_one_home() -> None:
    assert [w.label() for w in WoundStatus] == [
        "healthy", "stunned", "wounded", "severely wounded", "mortally wounded", "dead"]
    assert WoundStatus.STUNNED.label(stun_running=False) == "no penalty"
    assert WoundStatus.WOUNDED.label(stun_running=False) == "wounded"


def test_hit_points_thresholds_and_penalties() -> None:
    enc, a, b = duel(member("A", traits={"strength": 2}), member("B"), "opend6-hp")
    b.hp = 22
    hit = [4, 4, 4, 4, 4, 4]  # attack 12 hits, damage 12
    turn(enc, a, Attack(b), dice=[*hit, 2, 2])  # 12 - 4: 8 lost -> 14, stunned
    assert (b.hp, b.level) == (14, WoundStatus.STUNNED)
    turn(enc, b, Attack(a), dice=[2, 2])  # -1D this round
    enc.round = 2
    turn(enc, b, Attack(a), dice=[2, 2, 2])  # stun over
    turn(enc, a, Attack(b), dice=[*hit, 3, 3])  # 6 lost -> 8: severely wounded, -2D
    assert (b.hp, b.level) == (8, WoundStatus.SEVERELY_WOUNDED)
    turn(enc, b, Attack(a), dice=[2])
    turn(enc, a, Attack(b), dice=[*hit, 4, 4])  # 4 lost -> 4: still severely wounded
    assert (b.hp, b.level) == (4, WoundStatus.SEVERELY_WOUNDED)
    turn(enc, a, Attack(b), dice=[*hit, 5, 4])  # 3 lost -> 1: mortally wounded, -3D
    assert (b.hp, b.level) == (1, WoundStatus.MORTALLY_WOUNDED)
    turn(enc, b, Attack(a), dice=[])  # 0D: nothing to roll
    turn(enc, a, Attack(b), dice=[*hit, 5, 6, 2])  # resistance 13 > 12: no damage
    assert b.hp == 1
    turn(enc, a, Attack(b), dice=[*hit, 5, 5])  # 2 lost -> -1: dead
    assert b.status is Status.DEAD


def test_starting_hit_points_and_hp_base_option() -> None:
    sc = parse({"a": [member("A", traits={"endurance": 3})], "b": [member("B")]},
               "opend6-hp", options={"opend6-hp": {"hp_base": 10}})
    rs = Encounter(sc, "opend6-hp", 0).ruleset
    spec = sc.sides[0].members[0]
    pos = Encounter(sc, "opend6-hp", 0).combatants[0].pos
    assert rs.build(spec, pos, StubRandom(faces(5, 5, 5, sides=6))).hp == 10 + 15
    assert rs.build(spec, pos, StubRandom(faces(1, 2, 3, sides=6))).hp == 10 + 10  # average


def test_wounds_limit_option() -> None:
    enc, a, b = duel(member("A", traits={"strength": 2}), member("B"),
                     options={"opend6": {"wounds_limit": 3}})
    turn(enc, a, Attack(b), dice=[4, 4, 4, 4, 4, 4, 2, 2])  # 3 wounds: dead at limit 3
    assert b.status is Status.DEAD


# -------------------------------------------------------------- actions and movement
def test_multiple_actions_cost_a_die_each_on_every_action() -> None:
    enc, a, b = duel(member("A", agility=2, melee=2), member("B"))
    turn(enc, a, Attack(b), Attack(b), dice=[1, 1, 2, 1, 1, 2])  # 4D - 1D, twice: misses
    assert (a.attacks, a.hits) == (2, 0)
    enc2, a2, b2 = duel(member("A", agility=2, melee=2, skills={"dodge": 2}), member("B"))
    turn(enc2, a2, Attack(b2), Attack(b2), Defend("dodge"),
         dice=[1, 2, 1, 2, 1, 2])  # three actions: 2D each
    assert a2.defense == 3


def test_free_move_then_attack_and_extra_moves_need_agility() -> None:
    edges = {"map": {"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 22]]}}
    # a free 10 m, then an extra move: Agility 2D - 1D (two actions) vs 10
    enc, a, b = duel(member("A", at="x"), member("B", at="y"), **edges)
    turn(enc, a, Move(b, 2.0), Move(b, 2.0), Attack(b), dice=[5])  # fails: stays at 12 m
    assert enc.field.distance(a.pos, b.pos) == 12
    assert (a.attacks, a.hits) == (1, 0)  # out of reach: a miss, no roll
    enc, a, b = duel(member("A", at="x"), member("B", at="y"), **edges)
    turn(enc, a, Move(b, 2.0), Move(b, 2.0), Attack(b), dice=[6, 5, 4, 4])
    assert enc.field.distance(a.pos, b.pos) == 2  # 11 >= 10: on to reach, attack at 2D
    enc, a, b = duel(member("A", at="x"), member("B", at="y"), **edges)
    a.pos = enc.field.advance(a.pos, b.pos, 10)
    turn(enc, a, Move(b, 2.0), Attack(b), dice=[1, 1, 2])  # the free move costs no die
    assert enc.field.distance(a.pos, b.pos) == 2


def test_aggressive_ai_hooks() -> None:
    edges = {"map": {"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 12]]}}
    enc, a, b = duel(member("A", "aggressive", at="x"), member("B", at="y"), **edges)
    assert enc.advisor.can_move_and_attack(enc, a)  # 12 m <= 10 m free + 2 m reach
    assert ai.decide(enc, a) == [Move(b, 2.0), Attack(b)]
    enc2, c, d = duel(member("C", at="x"), member("D", at="y"),
                      map={"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 15]]})
    assert not enc2.advisor.can_move_and_attack(enc2, c)
    # extra attacks: 8D nearly always makes 10, so four attacks at 5D pay; 2D takes one
    enc, a, b = duel(member("A", "aggressive", agility=4, melee=4), member("B"))
    assert enc.advisor.extra_attacks(enc, a, b) == 3
    enc, a, b = duel(member("A", "aggressive", agility=1, melee=1), member("B"))
    assert enc.advisor.extra_attacks(enc, a, b) == 0
    assert enc.advisor.called_shot(enc, a, b) is None


def test_aim_called_shot_and_visibility() -> None:
    enc, a, b = duel(member("A"), member("B"))
    turn(enc, a, Aim(b), dice=[])
    enc.round = 2
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2])  # 3D + 1D aimed
    turn(enc, a, Attack(b), dice=[1, 1, 2])  # the aim is used up
    turn(enc, a, Attack(b, "head"), dice=[2])  # called shot: 3D - 2D
    fog = {"map": {"nodes": {"f": {"visibility": "poor"}}}}
    enc, a, b = duel(member("A"), member("B"), **fog)
    turn(enc, a, Attack(b), dice=[5, 5, 4])  # 14 vs 10 + 5: miss
    assert a.hits == 0


# -------------------------------------------------------------------------- ranges
@pytest.mark.parametrize(("metres", "dice"), [(2, 5), (15, 4), (20, 3), (40, 2)])
def test_range_bands_from_map_distances(metres: float, dice: int) -> None:
    # longbow 15/30/50 m: point blank +1D, close 0, medium -1D, long -2D on DEX 2D + 2D
    sides = {"map": {"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", metres]]}}
    archer = member("A", weapon="bow", at="x", skills={"ranged": 2})
    # B shoots too: at 2 m a club would press the archer (RULES.md "Shooting in melee")
    enc, a, b = duel(archer, member("B", at="y", weapon="bow"), **sides)
    turn(enc, a, Attack(b), dice=[1] * (dice - 1) + [2])
    assert (a.attacks, a.hits) == (1, 0)


def test_beyond_long_range_there_is_no_shot() -> None:
    sides = {"map": {"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 70]]}}
    enc, a, b = duel(member("A", weapon="bow", at="x"), member("B", at="y"), **sides)
    assert not enc.advisor.can_attack(enc, a, b)
    turn(enc, a, Move(b, a.reach), Attack(b), dice=[])  # closes 10 m: still out of range
    assert (a.attacks, a.hits) == (1, 0)


# ----------------------------------------------------------------- defenses and cover
def test_defense_roll_replaces_the_difficulty_even_when_lower() -> None:
    enc, a, b = duel(member("A"), member("B", skills={"dodge": 0}))
    turn(enc, b, Defend("dodge"), dice=[2, 3])  # dodge 5
    assert b.defense == 5
    turn(enc, a, Attack(b), dice=[2, 2, 2, 1, 1, 2, 3, 3])  # 6 beats 5 (it would miss 10)
    assert a.hits == 1
    # 5 meets 5: the defense roll replaces the difficulty, so the tie hits (RULES.md)
    turn(enc, a, Attack(b), dice=[1, 2, 2, 1, 1, 2, 3, 3])
    assert a.hits == 2
    turn(enc, a, Attack(b), dice=[1, 1, 2])  # 4 vs 5: a miss
    assert a.hits == 2
    enc.env.run(until=enc.ruleset.seconds_per_round)  # its next turn: the defense lapses
    turn(enc, a, Attack(b), dice=[2, 2, 3])  # 7 vs 10
    assert a.hits == 2


def test_cover_adds_to_a_dodge_but_not_to_a_parry() -> None:
    wall = {"map": {"nodes": {"wall": {"cover": "heavy"}}}}
    enc, a, b = duel(member("A"), member("B"), **wall)
    turn(enc, b, Defend("parry"), dice=[1, 2, 3])  # parry 3D: 6, no cover
    turn(enc, a, Attack(b), dice=[2, 2, 3, 1, 1, 2, 3, 3])  # 7 beats 6
    assert a.hits == 1
    enc, a, b = duel(member("A"), member("B"), **wall)
    turn(enc, b, Defend("dodge"), dice=[3, 3])  # dodge 2D: 6, +15 heavy cover
    turn(enc, a, Attack(b), dice=[5, 5, 5])  # 15 vs 21: miss
    assert a.hits == 0
    enc, a, b = duel(member("A"), member("B"), **wall)
    turn(enc, a, Attack(b), dice=[5, 5, 5])  # 15 vs 10 + 15
    assert a.hits == 0


def test_parry_stops_melee_only_and_block_needs_a_shield() -> None:
    enc, a, b = duel(member("A", weapon="longbow", skills={"ranged": 1}, at="x"),
                     member("B", at="y"), **APART)
    turn(enc, b, Defend("parry"), dice=[6, 6, 6, 5])  # parry 23
    # point blank 4D: 10 vs the base 10, a hit: a parry does not stop arrows
    turn(enc, a, Attack(b), dice=[2, 2, 3, 3, 1, 1, 1, 2, 3, 3])
    assert a.hits == 1
    enc, a, b = duel(member("A"), member("B"))
    turn(enc, b, Defend("block"), dice=[3, 3])  # no shield: a dodge (2D)
    assert b.defense_kind == "dodge"
    enc, a, b = duel(member("A"), member("B", shield=True, skills={"parry": 2}))
    turn(enc, b, Defend("block"), dice=[3, 3, 3, 3])  # Agility 2D + shield 2D
    assert (b.defense_kind, b.defense) == ("block", 12)


def test_being_shot_at_does_not_pin_by_default() -> None:
    # RULES.md: pinned is held in place (grappled, prone, helpless), not shot at.
    archer = member("A", weapon="bow", skills={"ranged": 1}, at="x")
    enc, a, b = duel(archer, member("B", at="y"), **APART)
    assert not enc.ruleset.options.suppressive_fire
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2])  # 5 vs 10: miss
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2])  # 5 vs 10 again: B is not pinned
    assert a.hits == 0 and b.shot_at


@pytest.mark.parametrize("key", ["suppressive_fire", "pinning"])  # the older key still reads
def test_suppressive_fire_pins_a_target_shot_at_until_it_acts(key: str) -> None:
    archer = member("A", weapon="longbow", skills={"ranged": 1}, at="x")
    enc, a, b = duel(archer, member("B", at="y"), options={"opend6": {key: True}}, **APART)
    assert enc.ruleset.options.suppressive_fire
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2])  # 5 vs 10: miss; now B is pinned
    # 5 vs 10 - 5: hit; damage 4D: 5, resistance 2D: 6
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2, 1, 1, 1, 2, 3, 3])
    assert a.hits == 1 and b.shot_at
    turn(enc, b, dice=[])  # its turn, though it does nothing: no longer pinned
    assert not b.shot_at
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2])
    assert a.hits == 1


# ---------------------------------------------------------------------- turn order
def test_initiative_individual_agility_once_per_fight() -> None:
    sc = parse({"a": [member("A", agility=3), member("A2", agility=2)],
                "b": [member("B", agility=3), member("B2", agility=3)]})
    enc = Encounter(sc, "opend6", 0)
    # each Agility roll is followed by the tie-breaking draw
    enc.rng = StubRandom(faces(3, 3, 3, sides=6) + [0.2] + faces(4, 5, sides=6) + [0.5]
                         + faces(2, 2, 2, sides=6) + [0.5] + faces(3, 3, 3, sides=6) + [0.7])
    enc.ruleset.start(enc)
    a, a2, b, b2 = enc.combatants
    assert [f.initiative for f in enc.combatants] == [9, 9, 6, 9]
    # 9 with 3D before 9 with 2D; equal totals and codes: the higher draw goes first
    assert b2.offset < a.offset < a2.offset < b.offset
    # one turn each, at its offset; each declares as its turn comes (``declares_at_turn``)
    plan = enc.ruleset.plan_round(enc, [(b, []), (a, [])])
    assert [(t.actor, t.offset, t.intent) for t in plan] == [(b, b.offset, None),
                                                            (a, a.offset, None)]


def test_initiative_by_side_option() -> None:
    sc = parse({"a": [member("A"), member("A2")], "b": [member("B")]},
               options={"opend6": {"initiative": "side"}})
    enc = Encounter(sc, "opend6", 0)
    enc.rng = StubRandom(faces(2, 1, 5, 1, sides=6))  # a: d6 2 (+tie draw), b: d6 5
    enc.ruleset.start(enc)
    a, a2, b = enc.combatants
    assert b.offset < a.offset == a2.offset


def test_a_sides_members_declare_in_a_drawn_order_under_side_initiative() -> None:
    # They share the side's turn, each declaring as it acts; a later declarer sees the
    # earlier ones' targets, so the order is drawn (the engine's draw for one instant),
    # never the file's (the first listed used to choose first).
    sc = parse({"a": [member("A"), member("A2"), member("A3")], "b": [member("B")]},
               options={"opend6": {"initiative": "side"}})
    seen = set()
    for seed in range(40):
        enc = Encounter(sc, "opend6", seed, log=True)
        enc.run()
        first = [e["who"] for e in enc.log if e["type"] == "declare" and e["round"] == 1]
        order = tuple(w for w in first if w != "B")
        if len(order) == 3:  # none of them fell to B before the side's turn
            seen.add(order)
    assert len(seen) == 6  # every order of the three, none kept from the file


def test_member_order_gives_no_edge_under_side_initiative() -> None:
    """Two archers, each 20 m from a different foe: whoever declares first picks the target.

    Listed X then Y, or Y then X, the fights must come out alike. Before the draw, 1,000
    fights lasted 1.70 rounds on average one way and 3.89 the other (archers won 1 and 19).
    """
    def archer(name, at):
        return {"name": name, "at": at, "ai": "tactical", "weapon": "bow",
                "traits": {"strength": 2, "endurance": 2, "agility": 2, "dexterity": 3,
                           "perception": 2}, "skills": {"ranged": 3}}

    def foe(name, at, endurance, dexterity, armor=None):
        return {"name": name, "at": at, "ai": "aggressive", "weapon": "bow",
                "traits": {"strength": 2, "endurance": endurance, "agility": 2,
                           "dexterity": dexterity, "perception": 2},
                "skills": {"ranged": 3 if armor else 4}, **({"armor": armor} if armor else {})}

    field = {"nodes": {n: {} for n in "abcd"},
             "edges": [["a", "c", 20], ["a", "d", 30], ["b", "c", 30], ["b", "d", 20]]}
    foes = [foe("Tough", "c", 5, 2, "plate"), foe("Weak", "d", 1, 4)]
    means = []
    for archers in ([archer("X", "a"), archer("Y", "b")], [archer("Y", "b"), archer("X", "a")]):
        sc = parse({"archers": archers, "foes": foes}, max_rounds=30, map=field,
                   options={"opend6": {"initiative": "side"}})
        rounds = [Encounter(sc, "opend6", seed).run().rounds for seed in range(300)]
        means.append(sum(rounds) / len(rounds))
    # the rounds' spread is about 2 (sd), so the means' difference has an SE of about 0.16:
    # 0.65 is 4 SE, and the file-order gap was 2.2
    assert abs(means[0] - means[1]) < 0.65, means


def test_a_full_fight_takes_turns_in_initiative_order() -> None:
    sc = parse({"a": [member("A", agility=4), member("A2", agility=1)],
                "b": [member("B", agility=2)]})
    enc = Encounter(sc, "opend6", 7, log=True)
    enc.run()
    by_name = {f.name: f for f in enc.combatants}
    first = [by_name[e["who"]] for e in enc.log if e["type"] == "declare" and e["round"] == 1]
    assert len(first) == 3
    assert [f.offset for f in first] == sorted(f.offset for f in first)
    assert [f.initiative for f in first] == sorted((f.initiative for f in first), reverse=True)


# ---------------------------------------------------------------- crossbow and points
def test_crossbow_must_be_reloaded() -> None:
    enc, a, b = duel(member("A", weapon="crossbow", skills={"ranged": 2}, at="x"),
                     member("B", at="y"), **APART)
    assert not enc.advisor.needs_reload(a)
    turn(enc, a, Attack(b), dice=[1, 1, 1, 1, 2])  # point blank 5D: 6, miss
    assert enc.advisor.needs_reload(a)
    assert enc.advisor.extra_attacks(enc, a, b) == 0
    turn(enc, a, Attack(b), dice=[])  # not loaded: an attack that cannot hit
    assert (a.attacks, a.hits) == (2, 0)
    assert ai.decide(enc, a) == [Reload()]
    turn(enc, a, Reload(), dice=[])
    assert not enc.advisor.needs_reload(a)


@pytest.mark.parametrize(("ai_", "dice", "cp", "fate"), [
    # 3D + a character point before the roll: [1, 1, 1] wild 2 = 5 misses the 10 it sees;
    # then a fate point doubles the pool: 4 more dice, 5 + 4 = 9, still a miss
    ("aggressive", [1, 1, 1, 2] + [1, 1, 1, 1], 4, 0),
    ("basic", [1, 1, 2], 5, 1),  # basic never spends
])
def test_points_when_the_foe_is_one_wound_from_death(ai_, dice, cp, fate) -> None:
    enc, a, b = duel(member("A", ai_), member("B"))
    b.wounds, b.level = 4, WoundStatus.MORTALLY_WOUNDED
    turn(enc, a, Attack(b), dice=dice)
    assert (a.cp, a.fate, a.hits) == (cp, fate, 0)


def test_points_only_when_a_hit_would_take_the_foe_out() -> None:
    enc, a, b = duel(member("A", "aggressive"), member("B"))
    turn(enc, a, Attack(b), dice=[1, 1, 2])  # a fresh foe: no points
    assert (a.cp, a.fate) == (5, 1)
    # 3 wounds, and STR 5D + great sword 3D averages 4 x B's 2D resistance: a CP, no fate
    enc, a, b = duel(member("A", "aggressive", "greatsword", traits={"strength": 5}),
                     member("B"))
    b.wounds, b.level = 3, WoundStatus.SEVERELY_WOUNDED
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2])
    assert (a.cp, a.fate) == (4, 1)
    # hit points: 2 HP left is mortally wounded: a CP (4D: 5), then a fate point (+4D: 9)
    enc, a, b = duel(member("A", "aggressive"), member("B"), "opend6-hp")
    b.hp, b.level = 2, WoundStatus.MORTALLY_WOUNDED
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2] + [1, 1, 1, 1])
    assert (a.cp, a.fate) == (4, 0)


def test_each_declares_at_its_own_turn_seeing_what_the_faster_did() -> None:
    # RULES.md: actions are "declared at the start of the turn". B1 falls before A's turn:
    # A's AI, asked at the turn, goes for B2; nobody declared at the round's start.
    sc = parse({"a": [member("A")], "b": [member("B1"), member("B2")]})
    enc = Encounter(sc, "opend6", 0)
    enc.round = 1
    a, b1, b2 = enc.combatants
    enc.take_out(b1, Status.DEAD)
    enc.rng = StubRandom(faces(1, 1, 2, sides=6))
    enc.ruleset.resolve(enc, TimedAction(a.offset, a, None, None))
    assert a.attacks == 1 and enc.declared[a] == [Attack(b2)]


def test_a_slower_fighter_strikes_a_foe_that_closed_in_before_its_turn() -> None:
    """Quick closes to 2 m in round 1; Slow, asked at its turn, attacks (it used to walk 0 m:
    its round-start plan was a move). Under every seed Slow attacks in round 1."""
    field = {"nodes": {"west": {}, "east": {}}, "edges": [["west", "east", 12]]}
    sc = parse({"quick": [member("Quick", weapon="sword", agility=4, at="west")],
                "slow": [member("Slow", weapon="sword", agility=1, at="east")]},
               map=field, max_rounds=1)
    for seed in range(20):
        enc = Encounter(sc, "opend6", seed, log=True)
        enc.run()
        quick, slow = enc.combatants
        assert slow.attacks == 1, [e["text"] for e in enc.log]
        assert quick.attacks == 0


def test_a_fighter_that_declares_nothing_still_has_its_turn_and_is_unpinned() -> None:
    enc, a, b = duel(member("A"), member("B", "passive"), options={
        "opend6": {"suppressive_fire": True}})
    b.shot_at = True
    enc.ruleset.resolve(enc, TimedAction(b.offset, b, None, None))
    assert not b.shot_at and enc.declared[b] == []
    plan = enc.ruleset.plan_round(enc, [(a, []), (b, [])])
    assert [t.actor for t in plan] == [a, b]  # a turn each, declared or not


# ---------------------------------------------------------------- scenario block
def test_native_block_overrides_the_neutral_conversion() -> None:
    spec = member("A", "basic", "sword", agility=3, melee=2, armor="chain", shield=True,
                  traits={"strength": 4, "endurance": 3},
                  opend6={"attributes": {"agility": "4D+1"}, "skills": {"sword": "2D+2"},
                          "character_points": 2, "fate_points": 0})
    enc, a, _ = duel(spec, member("B"))
    assert a.attrs["agility"] == DiceCode(4, 1) and a.attrs["strength"] == DiceCode(4)
    assert a.attack_code == DiceCode(6, 3)
    assert a.damage_code == DiceCode(6, 1)  # STR 4D + sword 2D+1
    assert a.resist_code == DiceCode(5, 2)  # END 3D + mail 2D + shield +2
    assert (a.cp, a.fate) == (2, 0)
    enc, b, _ = duel(member("B", weapon="unarmed", skills={"brawl": 3}), member("X"))
    assert b.attack_code == DiceCode(5) and b.skills["brawling"] == DiceCode(3)


@pytest.mark.parametrize(("block", "path", "says"), [
    ({"attributes": {"agility": "3X"}}, "opend6.attributes.agility", "not a dice code"),
    ({"attributes": {"agility": "2D+3"}}, "opend6.attributes.agility", "write 3D"),
    ({"attributes": {"agility": 3}}, "opend6.attributes.agility", "must be text"),
    ({"skills": {"swrod": "2D"}}, "opend6.skills", "did you mean 'sword'"),
    ({"fate_points": -1}, "opend6.fate_points", "from 0"),
])
def test_native_block_errors_name_the_field(block, path, says) -> None:
    with pytest.raises(ScenarioError) as info:
        parse({"a": [member("A", opend6=block)], "b": [member("B")]})
    text = str(info.value)
    assert path in text and says in text


def test_options_are_validated() -> None:
    with pytest.raises(ScenarioError, match="initiative"):
        parse({"a": [member("A")], "b": [member("B")]},
              options={"opend6": {"initiative": "group"}})
    with pytest.raises(ScenarioError, match="hp_base"):
        parse({"a": [member("A")], "b": [member("B")]},
              options={"opend6": {"hp_base": 30}})


def test_encumbrance_option_hampers_dodges_and_runs() -> None:
    plate = member("B", armor="plate")
    enc, _, b = duel(member("A"), plate, options={"opend6": {"encumbrance": True}})
    turn(enc, b, Defend("dodge"), dice=[4, 4])
    assert b.defense == 4  # 8 - 4
    enc, _, b = duel(member("A"), plate)
    turn(enc, b, Defend("dodge"), dice=[4, 4])
    assert b.defense == 8


def test_encumbrance_option_hampers_every_agility_roll() -> None:
    plate = member("B", armor="plate")
    on = {"options": {"opend6": {"encumbrance": True}}}
    enc, a, b = duel(member("A"), plate, **on)
    turn(enc, b, Defend("parry"), dice=[4, 4, 2])  # Agility 2D + club 1D
    assert b.defense == 6  # a parry is an Agility roll too: 10 - 4
    # a melee attack by the armored fighter needs 10 + 4
    assert enc.ruleset.combat.target_number(enc, b, a, None, False) == 14
    assert enc.ruleset.combat.target_number(enc, a, b, None, False) == 10
    enc.rng = StubRandom(faces(3, 3, sides=6) + [0.5] + faces(3, 3, sides=6) + [0.5])
    enc.ruleset.start(enc)
    assert (a.initiative, b.initiative) == (6, 2)


def test_native_gear_size_and_blindness() -> None:
    gear = {"weapon": "war_hammer", "armor": "banded", "shield": "tower_shield", "size": 1,
            "skills": {"war_hammer": "3D"}}
    enc, a, b = duel(member("A", opend6=gear, traits={"strength": 3, "endurance": 2}),
                     member("B", opend6={"weapon": "improvised", "blinded": True}))
    assert a.weapon.name == "war_hammer" and str(a.damage_code) == "5D+2"  # STR 3D + 2D+2
    assert str(a.attack_code) == "5D"  # Agility 2D + war hammer 3D
    assert str(a.resist_code) == "4D"  # Endurance 2D + banded 1D + tower shield 1D
    assert str(b.damage_code) == "1D"  # improvised: 1D, Strength does not add (RULES.md)
    assert a.size == 1 and b.blinded
    # blinded: -2D on the attack roll (club 1D + Agility 2D = 3D -> 1D: one die drawn)
    turn(enc, b, Attack(a), dice=[3])


def test_native_gear_names_are_checked() -> None:
    from sim.scenario.errors import ScenarioError

    with pytest.raises(ScenarioError, match="unknown OpenD6 weapon 'warhammer' "
                                            r"\(did you mean 'war_hammer'\?\)"):
        duel(member("A", opend6={"weapon": "warhammer"}), member("B"))


def test_solo_log_shows_the_wild_die_and_the_damage() -> None:
    sc = scenario_mod.load(SCENARIOS / "duel.yaml")
    enc = Encounter(sc, "opend6", 3, log=True)
    enc.run()
    attacks = [e for e in enc.log if e["type"] == "attack"]
    damage = [e for e in enc.log if e["type"] == "damage"]
    assert attacks and damage
    assert all("wild [" in e["text"] and " vs " in e["text"] for e in attacks)
    assert all("resistance" in e["text"] for e in damage)
    assert Encounter(sc, "opend6", 3).log is None


def test_opend6_options_also_set_the_hp_variant() -> None:
    sc = parse({"a": [member("A")], "b": [member("B")]},
               options={"opend6": {"initiative": "side", "complication": True}})
    assert Encounter(sc, "opend6-hp", 0).ruleset.options.initiative == "side"
    own = parse({"a": [member("A")], "b": [member("B")]},
                options={"opend6": {"initiative": "side"}, "opend6-hp": {"hp_base": 25}})
    hp = Encounter(own, "opend6-hp", 0).ruleset.options
    assert hp.initiative == "individual" and hp.hp_base == 25  # its own block wins whole
