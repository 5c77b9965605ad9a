"""OpenCore's answers to the AI, and the damage line of the log.

The odds and expectations the advisor uses are checked against enumeration through the
ruleset's own functions (``opposed_attack``, ``fumble_lookup``, ``roll_damage`` on every
face): exact, no tolerance but float rounding. The cautious decisions are checked on
hand-built situations.
"""

import itertools
from dataclasses import replace

import pytest
from helpers import StubRandom, face
from opencore_helpers import BIG, attack, d100, duel, member, parse

from sim.ai import profiles as ai
from sim.core.actions import Attack, Defend
from sim.core.engine import Encounter
from sim.rulesets.opencore.advisor import attacks_in_window
from sim.rulesets.opencore.odds import damage_distribution, expected_hp_damage, hit_odds
from sim.rulesets.opencore.rules import fumble_lookup, opposed_attack, roll_damage
from sim.rulesets.opencore.tables import WEAPONS, DamageDice, Role

SKILL_PAIRS = [(50, 50), (45, 30), (45, 60), (70, 25), (0, 90), (95, 0), (0, 200), (300, 0)]


# ------------------------------------------------------------------ exact odds
@pytest.mark.parametrize(("att", "dfn"), SKILL_PAIRS)
def test_hit_odds_are_opposed_attack_over_every_pair_of_faces(att, dfn):
    plain = fumbled = 0
    for a, d in itertools.product(range(1, 101), repeat=2):
        out = opposed_attack(a, att, d, dfn)
        plain += out.hit and out.fumbled_by is None
        fumbled += out.hit and out.fumbled_by is Role.DEFENDER
    odds = hit_odds(att, dfn)
    assert (odds.plain, odds.defender_fumble) == (plain / 10_000, fumbled / 10_000)


def test_hit_odds_of_the_sword_duel():
    # skill 45 against Evade 30, and against 60 (doubled by the defense action)
    assert hit_odds(45, 30).hit == pytest.approx(0.626)
    assert hit_odds(45, 60).hit == pytest.approx(0.3635)


@pytest.mark.parametrize(("dice", "str_mod"), [("1d10", 0), ("2d10+STR", 1), ("1d6+STR", -3),
                                               ("3d10+5", 0), ("2d6+STR", 4)])
def test_damage_distribution_is_roll_damage_on_every_face(dice, str_mod):
    parsed = DamageDice.parse(dice)
    fists = WEAPONS["hand_to_hand"]
    weapon = replace(fists, modes=(replace(fists.modes[0], damage=parsed),))
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, parsed.sides + 1), repeat=parsed.dice):
        rng = StubRandom([face(f, parsed.sides) for f in faces])
        value = roll_damage(rng, weapon, str_mod)
        counts[value] = counts.get(value, 0) + 1
    total = parsed.sides ** parsed.dice
    dist = damage_distribution(parsed, str_mod)
    assert [v for v, _ in dist] == sorted(counts)
    assert [p for _, p in dist] == pytest.approx([counts[v] / total for v in sorted(counts)])


@pytest.mark.parametrize(("att", "dfn", "absorb"), [(45, 30, 0), (45, 30, 25), (60, 20, 12)])
def test_expected_hp_damage_by_enumeration(att, dfn, absorb):
    """Every attack and defense face, every fumble chart face, every damage."""
    dist = damage_distribution(DamageDice.parse("2d10+STR"), 1)
    total = 0.0
    for a, d in itertools.product(range(1, 101), repeat=2):
        out = opposed_attack(a, att, d, dfn)
        if not out.hit:
            continue
        charts = (range(1, 101) if out.fumbled_by is Role.DEFENDER else [None])
        for chart in charts:
            mult = 1 if chart is None else fumble_lookup(chart, Role.DEFENDER).damage_multiplier
            weight = 1 / 10_000 / len(charts)
            total += weight * sum(p * max(0, v * mult - absorb) for v, p in dist)
    assert expected_hp_damage(hit_odds(att, dfn), dist, absorb) == pytest.approx(total)


# ------------------------------------------------------------------ attack_worth, defense_worth
SWORD = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3, "dodge": 2},
         "weapon": "sword"}


def melee(a: dict, b: dict, count: int = 2):
    scen = parse({"a": [{"name": "A", "ai": "cautious", **a}],
                  "b": [{"name": "B", "count": count, **b}]})
    enc = Encounter(scen, "opencore", 0)
    return enc, enc.combatants[0], enc.combatants[1:]


def test_attack_and_defense_worth_in_hp_on_unarmored_swordsmen():
    enc, a, foes = melee(SWORD, SWORD)
    adv = enc.advisor
    # skill 45 v Evade 30; 2d10+1 (STR 60): mean 12; a defender's fumble multiplies it
    mean = 12
    fumble_mult = 0.9 + 0.05 * 2 + 0.05 * 3
    dealt = 0.5785 * mean + 0.0475 * fumble_mult * mean
    assert adv.attack_worth(enc, a, foes[0]) == pytest.approx(dealt)
    # the defense action: Evade 30 -> 60 takes 0.2625 off each foe's plain hit chance
    spared = 2 * (0.5785 - 0.3160) * mean
    each = dict.fromkeys(foes, 1.0)  # one attack expected from each foe
    assert adv.defense_worth(enc, a, each, "dodge") == pytest.approx(spared)
    assert adv.defense_worth(enc, a, {foes[0]: 1.0}, "dodge") == pytest.approx(spared / 2)


def test_worth_counts_only_what_gets_past_armor_and_toughness():
    enc, a, foes = melee(SWORD, {**SWORD, "armor": "leather"})
    adv = enc.advisor
    full = adv.attack_worth(enc, a, foes[0])
    # 2d10+1 never gets through leather's 25 but on a defender's fumble (x2, x3)
    assert 0 < full < 0.1
    foes[0].armor_left = 0
    foes[0].toughness = BIG
    assert adv.attack_worth(enc, a, foes[0]) == 0


def test_worth_is_nothing_while_the_weapon_needs_reloading_or_stunned():
    enc, a, b = duel(member("A", weapon="crossbow", skills={"archery": 50}), member("B"))
    adv = enc.advisor
    assert adv.attack_worth(enc, a, b) > 0
    a.loaded = False
    assert adv.attack_worth(enc, a, b) == 0
    a.loaded, a.stun = True, 1
    assert adv.attack_worth(enc, a, b) == 0


def test_attacks_in_window_halves_reload_weapons():
    enc, xbow, sword = duel(member("X", weapon="crossbow"), member("S"))
    assert attacks_in_window(sword) == 1 and attacks_in_window(xbow) == 0.5
    xbow.loaded = False
    assert attacks_in_window(xbow) == 0.5  # reloads now, shoots next round
    xbow.held = sword.held = False
    assert attacks_in_window(xbow) == 0 and attacks_in_window(sword) == 0.5
    sword.held, sword.stun = True, 1
    assert attacks_in_window(sword) == 0
    # and defense_worth weighs each foe by it
    enc, a, foes = melee(SWORD, {**SWORD, "weapon": "crossbow", "skills": {"ranged": 3}})
    one = enc.advisor.defense_worth(enc, a, {foes[0]: 1.0}, "dodge")
    foes[0].weapon = foes[1].weapon = WEAPONS["archery"]
    half = enc.advisor.defense_worth(enc, a, {foes[0]: 1.0}, "dodge")
    assert one == pytest.approx(half / 2)


PLATE_KNIGHT = {"traits": {"strength": 4, "endurance": 4, "agility": 3, "dexterity": 3},
                "skills": {"melee": 3, "dodge": 2}, "weapon": "sword", "armor": "plate"}
KNIFE_MAN = {"traits": {"strength": 2, "endurance": 2}, "skills": {"melee": 2},
             "weapon": "knife"}
BRUTE = {"traits": {"strength": 5, "endurance": 4}, "skills": {"melee": 5},
         "weapon": "greatsword"}
DODGER = {"traits": {"strength": 1, "agility": 5, "dexterity": 5}, "skills": {"dodge": 5},
          "weapon": "unarmed"}


def test_a_cautious_knight_strikes_at_knife_men_who_cannot_hurt_it():
    enc, a, foes = melee(PLATE_KNIGHT, KNIFE_MAN)
    a.hp = a.max_hp * 8 // 10
    each = dict.fromkeys(foes, 1.0)
    assert enc.advisor.defense_worth(enc, a, each, "dodge") == 0  # 1d10-1 v plate 75
    intents = ai.decide(enc, a)
    assert [type(i) for i in intents] == [Attack] and intents[0].target in foes
    assert "striking does more" in a.why and "2 foes in reach" in a.why


def test_a_cautious_dodger_defends_against_two_brutes():
    enc, a, foes = melee(DODGER, BRUTE)
    a.hp = a.max_hp * 6 // 10
    spared = enc.advisor.defense_worth(enc, a, dict.fromkeys(foes, 1.0), "dodge")
    assert spared > 10 * enc.advisor.attack_worth(enc, a, foes[0])
    assert ai.decide(enc, a) == [Defend("dodge")]
    assert "defending spares more" in a.why


# ------------------------------------------------------------------ the damage line
def damage_line(enc) -> dict:
    (line,) = [e for e in enc.log if e["type"] == "damage"]
    return line


@pytest.mark.parametrize(("damage", "armor", "toughness", "fields", "text"), [
    (10, "leather_armor", 0, (10, 15, 0, 0, 0),
     "deals 10 to B: armor takes 10 (15 left), stopped by the armor (HP 40/40)."),
    (30, "leather_armor", 10, (25, 0, 5, 5, 0),
     "deals 30 to B: armor takes 25 (0 left), Toughness takes 5 (5 left), stopped by the "
     "armor and Toughness (HP 40/40)."),
    (8, None, 10, (0, 0, 8, 2, 0),
     "deals 8 to B: Toughness takes 8 (2 left), stopped by Toughness (HP 40/40)."),
    (50, "leather_armor", 10, (25, 0, 10, 0, 15),
     "deals 50 to B: armor takes 25 (0 left), Toughness takes 10 (0 left), 15 to HP "
     "(HP 25/40)."),
    (7, None, 0, (0, 0, 0, 0, 7), "deals 7 to B: 7 to HP (HP 33/40)."),
])
def test_the_damage_line_says_what_armor_and_toughness_took(damage, armor, toughness,
                                                           fields, text):
    b = {"hp": 40, "abilities": {"con": 40}, "toughness": toughness}
    if armor:
        b["armor"] = armor
    enc, a, bb = duel(member("A", skills={"melee": 100}, damage="1d100"), member("B", **b))
    enc.log = []
    crit = d100(1) if fields[4] else []  # a critical is rolled only when HP is reached
    attack(enc, a, bb, *d100(50, 50, damage), *crit)
    line = damage_line(enc)
    rules = line["rules"]
    got = tuple(rules[k] for k in ("to_armor", "armor_left", "to_toughness", "toughness_left",
                                   "hp_damage"))
    assert got == fields
    assert rules["stopped"] == (fields[4] == 0)
    assert line["text"] == f"A's Sword (1d100) {text}"
