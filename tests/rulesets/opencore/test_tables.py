"""OpenCore d100 tables and rules, checked against seed 001's own text.

The seed's tables are pasted below verbatim (whitespace normalised) and parsed here with
small independent parsers, so the expected values come from the seed, not from the code.
"""

from __future__ import annotations

import random
import re

import pytest

from sim.rulesets.dice import roll
from sim.rulesets.opencore.criticals import (
    CRITICAL_TABLES,
    NO_CRITICAL,
    Critical,
    CritTable,
    Injury,
)
from sim.rulesets.opencore.health import HealthStatus, health_status, hp_loss_per_round
from sim.rulesets.opencore.rules import (
    HpRule,
    ability_modifier,
    apply_damage,
    critical_lookup,
    critical_roll_modifier,
    critical_row,
    fumble_lookup,
    hit_points,
    initiative,
    opposed_attack,
    roll_critical,
    roll_damage,
)
from sim.rulesets.opencore.tables import (
    ARMOR,
    NEUTRAL_ARMOR,
    NEUTRAL_WEAPONS,
    WEAPONS,
    FumbleEffect,
    Mode,
    Role,
)

SEED_CRITICALS = """
Slash Critical (blades, claws)
-19 to -10 no extra damage
-9 to 0 no extra damage
0 to 10 no extra damage
11 to 20 no extra damage
21 to 30 no extra damage
31 to 40 no extra damage
41 to 50 +5 damage
51 to 60 +5 damage
61 to 70 +10 damage
71 to 80 +10 damage, bloodloss
81 to 90 +15 damage, bloodloss
91 to 100 +15 damage, stun 1 rounds, bloodloss
101 to 110 +20 damage, stun 2 rounds, bloodlossx2
111 to 120 +20 damage, stun 2 rounds, bloodloss, location severed, -40 to applicable skills
Impact Critical (falls, fists, clubs)
-19 to -10 no extra damage
-9 to 0 no extra damage
0 to 10 no extra damage
11 to 20 no extra damage
21 to 30 no extra damage
31 to 40 no extra damage
41 to 50 no extra damage
51 to 60 no extra damage
61 to 70 +5 damage
71 to 80 +5 damage, stun 1 round
81 to 90 +10 damage, stun 2 rounds
91 to 100 +10 damage, stun 2 rounds, location broken, -30 to applicable skills
101 to 110 +15 damage, stun 3 rounds, location broken, -30 to applicable skills
111 to 120 +15 damage, unconscious 1 round
Puncture Critical (bullets, spears, stakes)
-19 to -10 no extra damage
-9 to 0 no extra damage
0 to 10 no extra damage
11 to 20 no extra damage
21 to 30 no extra damage
31 to 40 no extra damage
41 to 50 no extra damage
51 to 60 +5 damage
61 to 70 +10 damage
71 to 80 +15 damage
81 to 90 +20 damage, bloodloss
91 to 100 +20 damage, bloodloss
101 to 110 +25 damage, bloodloss, stun 1 round
111 to 120 +25 damage, bloodloss, stun 1 round, location damaged, -20 to applicable skills
Shrapnel Critical (grenades, shotguns)
-19 to -10 no extra damage
-9 to 0 no extra damage
0 to 10 no extra damage
11 to 20 +5 damage
21 to 30 +5 damage
31 to 40 +10 damage
41 to 50 +10 damage, bloodloss
51 to 60 +15 damage, bloodloss
61 to 70 +15 damage, bloodloss, stun 1 round
71 to 80 +20 damage, bloodloss, stun 1 round
81 to 90 +20 damage, bloodloss x2, stun 1 round, location damaged -20 to applicable skills
91 to 100 +30 damage, bloodloss x2, stun 2 rounds, location damaged -20 to applicable skills
101 to 110 +40 damage, bloodloss x3, unconscious 1 round, location destroyed -40 to applicable skills
111 to 120 +50 damage, bloodloss x5, unconscious 2 rounds, location destroyed -40 to applicable skills
Burn Critical (fire, electricity, acid)
-19 to -10 no extra damage
-9 to 0 no extra damage
0 to 10 no extra damage
11 to 20 no extra damage
21 to 30 no extra damage
31 to 40 +5 damage
41 to 50 +5 damage
51 to 60 +5 damage
61 to 70 +5 damage, location damaged -20 to applicable skills
71 to 80 +10 damage, location damaged -20 to applicable skills
81 to 90 +10 damage, location severely damaged -30 to applicable skills
91 to 100 +15 damage, location severely damaged -30 to applicable skills
101 to 110 +15 damage, location destroyed -40 to applicable skills
111 to 120 +20 damage, location destroyed -40 to applicable skills
"""  # noqa: E501 (verbatim seed lines)

SEED_FUMBLES = """
01-60 Attacker/defender recovers from fumble.
61-80 Attacker/defender stumbles, -20 to defense until next turn
81-90 Attacker/defender falls over - opponent gets an immediate extra attack
91-95 Attacker drops weapon and injures self with it
Defender zigs when he should have zagged - takes double damage
96-100 Attacker drops weapon and injures self with it - double damage
Defender zigs when he should have zagged - takes triple damage
"""

SEED_ARMOR = """
Leather Armor 25 -5 Leather, either thick or hardened.
Chain Mail 40 -10 Small, linked chain woven together to form a shirt, or coif, or similar.
Metal Plate 75 -30 Solid plate shaped to fit the body, jointed at appropriate places.
Kevlar Vest 50 -5 "Bullet proof" vest.
Plated Vest 85 -10 A vest sewn with light, hardened plates.
Police Riot Gear 100 -15 Heavy bullet-proof body armor, boots, gloves & helmet.
Military PPE 150 -20 Personal Protection Equipment - similar to riot gear but stronger.
"""

SEED_WEAPONS = """
Weapon Class Speed Factor Damage
Hand to Hand 30 1d6+STR
Thrown weapons 25 Per weapon
Archery 15 1d10
Knife 25 1d10+STR
Sword 20 2d10+STR
Small Club 25 2d6+STR
Large Club 20 2d10+STR
Small Handgun 35 1d10+5
Large Handgun 20 2d10+5
Rifle 15 3d10
Assault Rifle 10 3d10 single
3d10+10 burst
3d10+20 full auto
Shotgun 15 3d10+5
Portable AT 0 5d10+30
Gunnery 5 5d10+30
"""


class FixedRng(random.Random):
    """A Random whose ``random()`` returns given values, to set dice by hand."""

    def __init__(self, *values: float) -> None:
        super().__init__(0)
        self._values = list(values)

    def random(self) -> float:
        return self._values.pop(0)


def faces(*rolls: tuple[int, int]) -> FixedRng:
    """An rng whose successive dice show the given (face, sides) pairs."""
    return FixedRng(*((face - 0.5) / sides for face, sides in rolls))


def snake(name: str) -> str:
    return re.sub(r"\W+", "_", name.strip().lower())


# --------------------------------------------------------------------------- criticals

INJURY_WORDS = {
    "damaged": Injury.DAMAGED,
    "severely damaged": Injury.SEVERELY_DAMAGED,
    "broken": Injury.BROKEN,
    "severed": Injury.SEVERED,
    "destroyed": Injury.DESTROYED,
}


def parse_effects(text: str) -> Critical:
    """The seed's wording of one row -> the effects it names."""

    def number(pattern: str, default: int = 0) -> int:
        match = re.search(pattern, text)
        return int(match.group(1)) if match else default

    bloodloss = 0
    if "bloodloss" in text:
        bloodloss = number(r"bloodloss\s*x\s*(\d+)", 1)
    injury = re.search(r"location (severely damaged|damaged|broken|severed|destroyed)", text)
    return Critical(
        extra_damage=number(r"\+(\d+) damage"),
        stun_rounds=number(r"stun (\d+) round"),
        bloodloss=bloodloss,
        unconscious_rounds=number(r"unconscious (\d+) round"),
        injury=INJURY_WORDS[injury.group(1)] if injury else None,
        skill_penalty=number(r"-(\d+) to applicable skills"),
    )


def parse_criticals() -> dict[CritTable, list[tuple[int, int, Critical]]]:
    tables: dict[CritTable, list[tuple[int, int, Critical]]] = {}
    rows: list[tuple[int, int, Critical]] = []
    for line in SEED_CRITICALS.strip().splitlines():
        heading = re.match(r"^(\w+) Critical", line)
        if heading:
            rows = tables.setdefault(CritTable(heading.group(1).lower()), [])
            continue
        low, high, text = re.match(r"^(-?\d+) to (-?\d+) (.*)$", line).groups()
        rows.append((int(low), int(high), parse_effects(text)))
    return tables


SEED_CRIT_ROWS = parse_criticals()


def row_bounds(table: CritTable) -> list[tuple[int, int, Critical]]:
    """The seed's rows with the one overlap resolved: "-9 to 0" keeps 0, "0 to 10" is 1-10."""
    out = []
    for low, high, effect in SEED_CRIT_ROWS[table]:
        if out and low == out[-1][1]:
            low += 1
        out.append((low, high, effect))
    return out


def test_the_seed_text_has_five_tables_of_fourteen_rows():
    assert set(SEED_CRIT_ROWS) == set(CritTable)
    assert all(len(rows) == 14 for rows in SEED_CRIT_ROWS.values())
    assert all(len(rows) == 14 for rows in CRITICAL_TABLES.values())


@pytest.mark.parametrize("table", list(CritTable))
def test_critical_rows_first_and_last_values(table):
    for low, high, expected in row_bounds(table):
        assert critical_lookup(table, low) == expected, (table, low)
        assert critical_lookup(table, high) == expected, (table, high)
        assert (critical_row(table, low).low, critical_row(table, high).high) == (low, high)


@pytest.mark.parametrize("table", list(CritTable))
def test_zero_is_no_extra_damage_whichever_row_owns_it(table):
    # The seed prints 0 in two rows; both must read "no extra damage" for the ruling to be moot.
    rows_with_zero = [e for lo, hi, e in SEED_CRIT_ROWS[table] if lo <= 0 <= hi]
    assert len(rows_with_zero) == 2
    assert rows_with_zero == [NO_CRITICAL, NO_CRITICAL]
    assert critical_lookup(table, 0) == NO_CRITICAL


@pytest.mark.parametrize("table", list(CritTable))
def test_critical_edges_below_minus_19_and_above_120(table):
    top = SEED_CRIT_ROWS[table][-1][2]
    assert critical_row(table, -20) is None
    assert critical_lookup(table, -20) == NO_CRITICAL
    assert critical_lookup(table, -500) == NO_CRITICAL
    assert critical_row(table, -19).low == -19
    assert critical_lookup(table, 120) == top
    assert critical_lookup(table, 121) == top
    assert critical_row(table, 121).high == 120
    assert critical_lookup(table, 1000) == top


def test_critical_effects_read_from_the_seed_wording():
    # Spot checks against the printed lines, in case the parser and the table agree wrongly.
    assert critical_lookup(CritTable.SLASH, 105) == Critical(20, 2, 2)
    assert critical_lookup(CritTable.SLASH, 115) == Critical(20, 2, 1, 0, Injury.SEVERED, 40)
    assert critical_lookup(CritTable.IMPACT, 111) == Critical(15, unconscious_rounds=1)
    assert critical_lookup(CritTable.SHRAPNEL, 120) == Critical(50, 0, 5, 2, Injury.DESTROYED, 40)
    assert critical_lookup(CritTable.BURN, 81) == Critical(
        10, injury=Injury.SEVERELY_DAMAGED, skill_penalty=30
    )


@pytest.mark.parametrize(
    ("attack_roll", "toughness", "shift"),
    [
        (1, 0, -20),
        (19, 0, -20),
        (20, 0, 0),
        (50, 0, 0),
        (80, 0, 0),
        (81, 0, 20),
        (100, 0, 20),
        (50, 7, -7),
        (19, 5, -25),
        (90, 5, 15),
    ],
)
def test_critical_roll_modifier(attack_roll, toughness, shift):
    assert critical_roll_modifier(attack_roll, toughness) == shift


def test_roll_critical_applies_the_shift_before_the_lookup():
    # d100 shows 50; a strong strike (+20) lands on Slash 61-70: +10 damage.
    result = roll_critical(faces((50, 100)), CritTable.SLASH, unmodified_attack_roll=90)
    assert (result.roll, result.modified_roll) == (50, 70)
    assert result.effect == Critical(10)
    # d100 shows 1, weak strike (-20), Toughness 5 left: -24 is below -19, nothing.
    weak = roll_critical(faces((1, 100)), CritTable.SHRAPNEL, 10, toughness=5)
    assert (weak.modified_roll, weak.effect) == (-24, NO_CRITICAL)


# --------------------------------------------------------------------------- fumbles


def test_the_seed_fumble_chart_ranges():
    ranges = [tuple(map(int, m)) for m in re.findall(r"^(\d+)-(\d+)", SEED_FUMBLES, re.M)]
    assert ranges == [(1, 60), (61, 80), (81, 90), (91, 95), (96, 100)]


@pytest.mark.parametrize("d100", [1, 60])
@pytest.mark.parametrize("role", list(Role))
def test_fumble_01_60_recovers(d100, role):
    fumble = fumble_lookup(d100, role)
    assert fumble.effect is FumbleEffect.RECOVERS
    assert (fumble.defense_penalty, fumble.foe_extra_attack, fumble.drops_weapon) == (
        0,
        False,
        False,
    )
    assert (fumble.self_damage_multiplier, fumble.damage_multiplier) == (0, 1)


@pytest.mark.parametrize("d100", [61, 80])
@pytest.mark.parametrize("role", list(Role))
def test_fumble_61_80_stumbles_minus_20_defense(d100, role):
    fumble = fumble_lookup(d100, role)
    assert (fumble.effect, fumble.defense_penalty) == (FumbleEffect.STUMBLES, 20)
    assert not fumble.foe_extra_attack


@pytest.mark.parametrize("d100", [81, 90])
@pytest.mark.parametrize("role", list(Role))
def test_fumble_81_90_falls_over_and_the_foe_attacks_again(d100, role):
    fumble = fumble_lookup(d100, role)
    assert (fumble.effect, fumble.foe_extra_attack) == (FumbleEffect.FALLS_OVER, True)
    assert fumble.defense_penalty == 0


@pytest.mark.parametrize(
    ("low", "high", "self_mult", "zig_mult"), [(91, 95, 1, 2), (96, 100, 2, 3)]
)
def test_fumble_top_rows_by_role(low, high, self_mult, zig_mult):
    for d100 in (low, high):
        attacker = fumble_lookup(d100, Role.ATTACKER)
        assert (attacker.effect, attacker.drops_weapon) == (FumbleEffect.DROPS_WEAPON, True)
        assert attacker.self_damage_multiplier == self_mult
        defender = fumble_lookup(d100, Role.DEFENDER)
        assert (defender.effect, defender.damage_multiplier) == (FumbleEffect.ZIGS, zig_mult)
        assert not defender.drops_weapon


@pytest.mark.parametrize("d100", [0, 101])
def test_fumble_roll_outside_1_100_is_an_error(d100):
    with pytest.raises(ValueError, match="1-100"):
        fumble_lookup(d100, Role.ATTACKER)


# --------------------------------------------------------------------------- weapons, armor


def parse_weapons() -> dict[str, dict[Mode, str | None]]:
    weapons: dict[str, dict[Mode, str | None]] = {}
    speeds: dict[str, int] = {}
    last = ""
    for line in SEED_WEAPONS.strip().splitlines()[1:]:  # skip the header line
        more = re.match(r"^(\d+d\d+\+\d+) (burst|full auto)$", line)
        if more:
            weapons[last][Mode(more.group(2).replace(" ", "_"))] = more.group(1)
            continue
        name, speed, damage = re.match(r"^(.+?) (\d+) (.+?)(?: single)?$", line).groups()
        last = snake(name)
        speeds[last] = int(speed)
        weapons[last] = {Mode.SINGLE: None if damage == "Per weapon" else damage}
    return {k: {"speed": speeds[k], **v} for k, v in weapons.items()}


SEED_WEAPON_ROWS = parse_weapons()


def test_every_seed_weapon_is_transcribed():
    assert set(WEAPONS) == set(SEED_WEAPON_ROWS)
    for key, row in SEED_WEAPON_ROWS.items():
        weapon = WEAPONS[key]
        assert weapon.speed_factor == row["speed"], key
        modes = {
            m: str(weapon.mode(m).damage) if weapon.mode(m).damage else None
            for m in (fm.mode for fm in weapon.modes)
        }
        assert modes == {m: d for m, d in row.items() if m != "speed"}, key


# RULES.md "Crit table by weapon": hand-to-hand and clubs Impact; knife and sword Slash;
# archery, thrown, handguns and rifles Puncture; shotgun, assault-rifle burst/auto,
# portable AT and gunnery Shrapnel.
EXPECTED_CRIT = {
    ("hand_to_hand", Mode.SINGLE): CritTable.IMPACT,
    ("small_club", Mode.SINGLE): CritTable.IMPACT,
    ("large_club", Mode.SINGLE): CritTable.IMPACT,
    ("knife", Mode.SINGLE): CritTable.SLASH,
    ("sword", Mode.SINGLE): CritTable.SLASH,
    ("archery", Mode.SINGLE): CritTable.PUNCTURE,
    ("thrown_weapons", Mode.SINGLE): CritTable.PUNCTURE,
    ("small_handgun", Mode.SINGLE): CritTable.PUNCTURE,
    ("large_handgun", Mode.SINGLE): CritTable.PUNCTURE,
    ("rifle", Mode.SINGLE): CritTable.PUNCTURE,
    ("assault_rifle", Mode.SINGLE): CritTable.PUNCTURE,
    ("assault_rifle", Mode.BURST): CritTable.SHRAPNEL,
    ("assault_rifle", Mode.FULL_AUTO): CritTable.SHRAPNEL,
    ("shotgun", Mode.SINGLE): CritTable.SHRAPNEL,
    ("portable_at", Mode.SINGLE): CritTable.SHRAPNEL,
    ("gunnery", Mode.SINGLE): CritTable.SHRAPNEL,
}


def test_crit_table_by_weapon():
    actual = {(w.key, fm.mode): fm.crit_table for w in WEAPONS.values() for fm in w.modes}
    assert actual == EXPECTED_CRIT


def test_every_seed_armor_is_transcribed():
    for line in SEED_ARMOR.strip().splitlines():
        name, rating, penalty = re.match(r"^(.+?) (\d+) -(\d+) ", line).groups()
        armor = ARMOR[snake(name)]
        assert (armor.damage_rating, armor.initiative_penalty) == (int(rating), int(penalty))
    assert len(ARMOR) == len(SEED_ARMOR.strip().splitlines())


def test_neutral_names_cover_the_catalog():
    from sim.scenario import vocabulary

    assert set(NEUTRAL_WEAPONS) == set(vocabulary.WEAPONS)  # every neutral name, no other
    assert set(NEUTRAL_ARMOR) == set(vocabulary.ARMORS)
    # The names with an exact seed entry map to it.
    exact = {
        "unarmed": "hand_to_hand",
        "knife": "knife",
        "sword": "sword",
        "rifle": "rifle",
        "shotgun": "shotgun",
        "bow": "archery",
    }
    assert all(NEUTRAL_WEAPONS[n] is WEAPONS[k] for n, k in exact.items())
    assert NEUTRAL_ARMOR["leather"].damage_rating == 25
    assert NEUTRAL_ARMOR["chain"].damage_rating == 40
    assert NEUTRAL_ARMOR["plate"].damage_rating == 75
    assert NEUTRAL_ARMOR["kevlar"].damage_rating == 50
    none = NEUTRAL_ARMOR["none"]
    assert (none.damage_rating, none.initiative_penalty) == (0, 0)
    # The seed's Puncture table names spears.
    assert NEUTRAL_WEAPONS["spear"].mode().crit_table is CritTable.PUNCTURE


# --------------------------------------------------------------------------- abilities, HP


@pytest.mark.parametrize(
    ("score", "modifier"), [(1, -5), (49, -1), (50, 0), (59, 0), (60, 1), (100, 5)]
)
def test_ability_modifier_is_floor_of_score_minus_50_over_10(score, modifier):
    assert ability_modifier(score) == modifier


def test_hit_points_default_is_con():
    assert hit_points(32) == 32
    assert hit_points(32, "con") == 32
    assert hit_points(32, HpRule.CON, random.Random(1)) == 32


def test_hit_points_seed_rule_is_1d100_minus_con():
    # The seed's own example: Buck rolls 96, CON 32 -> 64 HP.
    assert hit_points(32, "seed", faces((96, 100))) == 64
    # 10 - 50 is below 1: floored at 1.
    assert hit_points(50, HpRule.SEED, faces((10, 100))) == 1


def test_hit_points_errors():
    with pytest.raises(ValueError):
        hit_points(40, "seed")
    with pytest.raises(ValueError):
        hit_points(40, "bogus", random.Random(1))


def test_initiative_is_d20_plus_dex_mod_plus_speed_minus_armor():
    # d20 shows 11; DEX 80 -> +3; Sword speed 20; Chain Mail -10.
    assert initiative(faces((11, 20)), 80, 20, 10) == 11 + 3 + 20 - 10
    assert initiative(faces((11, 20)), 80, 20, 10, bide=True) == 11 + 3 + 20 - 10 + 20
    assert initiative(faces((1, 20)), 1, 0, 30) == 1 - 5 + 0 - 30


@pytest.mark.parametrize(
    ("hp", "status"),
    [
        (40, HealthStatus.ACTIVE),
        (1, HealthStatus.ACTIVE),
        (0, HealthStatus.UNCONSCIOUS),
        (-1, HealthStatus.BLEEDING),
        (-39, HealthStatus.BLEEDING),
        (-40, HealthStatus.DEAD),
        (-41, HealthStatus.DEAD),
    ],
)
def test_health_status_with_con_40(hp, status):
    assert health_status(hp, con=40) is status
    assert status.in_fight == (hp > 0)


def test_hp_loss_per_round():
    assert hp_loss_per_round(10, 0) == 0
    assert hp_loss_per_round(0, 0) == 0
    assert hp_loss_per_round(-1, 0) == 1
    assert hp_loss_per_round(10, 2) == 2
    assert hp_loss_per_round(-3, 2) == 3


# --------------------------------------------------------------------------- damage


def test_roll_damage_adds_the_str_modifier_only_where_the_seed_says_str():
    sword = WEAPONS["sword"]  # 2d10+STR
    assert roll_damage(faces((3, 10), (7, 10)), sword, str_mod=2) == 12
    bow = WEAPONS["archery"]  # 1d10
    assert roll_damage(faces((4, 10)), bow, str_mod=5) == 4
    pistol = WEAPONS["small_handgun"]  # 1d10+5
    assert roll_damage(faces((4, 10)), pistol, str_mod=5) == 9


def test_roll_damage_assault_rifle_modes():
    rifle = WEAPONS["assault_rifle"]
    dice = ((1, 10), (2, 10), (3, 10))
    assert roll_damage(faces(*dice), rifle, 0, Mode.SINGLE) == 6
    assert roll_damage(faces(*dice), rifle, 0, Mode.BURST) == 16
    assert roll_damage(faces(*dice), rifle, 0, Mode.FULL_AUTO) == 26
    with pytest.raises(ValueError):
        roll_damage(faces(*dice), WEAPONS["sword"], 0, Mode.BURST)


def test_roll_damage_floor_and_missing_damage():
    # 1d6 showing 1 with STR modifier -5: the ruling floors a hit at 1.
    assert roll_damage(faces((1, 6)), WEAPONS["hand_to_hand"], -5) == 1
    with pytest.raises(ValueError, match="Per weapon"):
        roll_damage(random.Random(1), WEAPONS["thrown_weapons"], 0)


@pytest.mark.parametrize(
    ("damage", "armor", "toughness", "hp", "expected"),
    [
        # armor alone soaks it and is worn down
        (10, 25, 5, 40, (15, 5, 40, 0)),
        # exactly the armor: armor used up, nothing further
        (25, 25, 5, 40, (0, 5, 40, 0)),
        # through the armor into Toughness
        (30, 25, 10, 40, (0, 5, 40, 0)),
        # through armor and Toughness into HP
        (50, 25, 10, 40, (0, 0, 25, 15)),
        # armor already used up: Toughness first
        (8, 0, 5, 40, (0, 0, 37, 3)),
        # nothing left to soak: below zero HP
        (7, 0, 0, 5, (0, 0, -2, 7)),
    ],
)
def test_apply_damage_order_armor_then_toughness_then_hp(damage, armor, toughness, hp, expected):
    result = apply_damage(damage, armor, toughness, hp)
    assert (result.armor_left, result.toughness_left, result.hp, result.hp_damage) == expected
    assert result.reached_hp == (expected[3] > 0)


# --------------------------------------------------------------------------- to hit


def test_attacker_fumble_misses_whatever_the_defender_rolled():
    for att_roll in (1, 5):
        for def_roll in (1, 5, 50, 100):
            outcome = opposed_attack(att_roll, 500, def_roll, 0)
            assert (outcome.hit, outcome.fumbled_by) == (False, Role.ATTACKER)


def test_defender_fumble_is_hit_whatever_the_totals():
    outcome = opposed_attack(6, 0, 5, 500)
    assert (outcome.hit, outcome.fumbled_by) == (True, Role.DEFENDER)
    outcome = opposed_attack(6, 0, 1, 500)
    assert (outcome.hit, outcome.fumbled_by) == (True, Role.DEFENDER)


def test_no_fumble_from_06():
    outcome = opposed_attack(6, 0, 6, 0)
    assert (outcome.hit, outcome.fumbled_by) == (False, None)  # 6 vs 6: a tie


def test_ties_go_to_the_defender_and_higher_total_hits():
    tie = opposed_attack(50, 30, 40, 40)
    assert (tie.attack_total, tie.defense_total, tie.hit, tie.fumbled_by) == (80, 80, False, None)
    win = opposed_attack(51, 30, 40, 40)
    assert (win.attack_total, win.hit, win.attack_roll) == (81, True, 51)
    lose = opposed_attack(49, 30, 40, 40)
    assert not lose.hit


def exact_hit_count(att_skill: int, def_skill: int) -> int:
    """Hits over all 100 x 100 roll pairs, by the seed's rule (written here from its text)."""
    hits = 0
    for a in range(1, 101):
        for d in range(1, 101):
            if a <= 5:
                continue  # attacker fumble: miss
            if d <= 5 or a + att_skill > d + def_skill:
                hits += 1
    return hits


def test_exact_hit_counts_match_hand_derivations():
    # Equal skills: the attacker needs a >= 6 and d < a (d <= 5 is inside d < a for a >= 6):
    # sum over a = 6..100 of (a - 1) = 5 + ... + 99 = 4940.
    assert exact_hit_count(50, 50) == 4940
    # Skill 0 vs 100: only a defender fumble (5 faces) against a non-fumbling attacker (95).
    assert exact_hit_count(0, 100) == 95 * 5
    # Skill 100 vs 0: every non-fumbling attack hits.
    assert exact_hit_count(100, 0) == 95 * 100


@pytest.mark.parametrize(("att_skill", "def_skill"), [(50, 50), (70, 40), (30, 60), (0, 100)])
def test_opposed_attack_agrees_with_exact_enumeration(att_skill, def_skill):
    hits = sum(
        opposed_attack(a, att_skill, d, def_skill).hit for a in range(1, 101) for d in range(1, 101)
    )
    assert hits == exact_hit_count(att_skill, def_skill)


@pytest.mark.parametrize(("att_skill", "def_skill"), [(50, 50), (70, 40), (30, 60)])
def test_monte_carlo_hit_rate_matches_exact_odds(att_skill, def_skill):
    # 200,000 samples: the standard error is at most 0.0011, so 0.005 is > 4 sigma.
    samples, tolerance = 200_000, 0.005
    rng = random.Random(20240601)
    hits = sum(
        opposed_attack(roll(rng, 100), att_skill, roll(rng, 100), def_skill).hit
        for _ in range(samples)
    )
    exact = exact_hit_count(att_skill, def_skill) / 10_000
    assert abs(hits / samples - exact) < tolerance


def test_a_neutral_ability_is_capped_at_100():
    from sim.rulesets.opencore.fighter import neutral_ability

    assert [neutral_ability(n) for n in range(1, 6)] == [30, 45, 60, 75, 90]
    assert neutral_ability(7) == 100  # min(100, 120)
