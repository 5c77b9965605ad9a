"""Tactics: the cautious and tactical profiles, doctrines, retreat, morale, the mirror match.

Hand-built situations check the decisions; the mirror match (scenarios/mirror.yaml, both
side assignments) checks that tactical beats basic and that cautious dies less, each with a
95% Wilson interval clear of the threshold. ``bench/tactics.py`` runs the full figures.
"""

from __future__ import annotations

from collections import Counter

import pytest
import yaml
from builders import ARCHER, FIELD_MAP, SOLDIER, on_field
from helpers import ROOT, act, any_ruleset, scenario, support
from helpers import hurt as wound

from sim.ai import profiles as ai
from sim.ai import screening, tactics
from sim.batch.runner import BatchSpec, run_batch
from sim.core import targets
from sim.core.actions import Attack, Defend, Move, Retreat, Yield
from sim.core.combatant import Status
from sim.core.doctrine import effective, policy
from sim.core.engine import Encounter
from sim.results.stats import wilson
from sim.rulesets import registry
from sim.scenario import Doctrine, parse
from sim.scenario.errors import ScenarioError

RULESETS = registry.names()  # every registered ruleset: a new one is tested too
def hurt(enc, f, share):
    """Wound ``f`` so that ``Ruleset.threat`` reads about ``share`` (its ruleset's support)."""
    wound(enc, f, share)
    assert enc.advisor.threat(f) == pytest.approx(share, abs=0.1)


# ---------------------------------------------------------------------------- doctrines
def test_profile_defaults_fill_what_the_scenario_leaves_out():
    assert effective(Doctrine("cautious")) == Doctrine(
        "cautious", focus="nearest", retreat_at=0.5, morale=0.5)
    assert effective(Doctrine("tactical")) == Doctrine("tactical", focus="weakest")
    assert effective(Doctrine("basic")).morale is None
    kept = effective(Doctrine("cautious", retreat_at=0.3, focus="most_dangerous"))
    assert (kept.retreat_at, kept.focus, kept.morale) == (0.3, "most_dangerous", 0.5)
    enc = on_field(any_ruleset(), [{"name": "A", "ai": "cautious"}], [{"name": "B"}])
    assert enc.sides["a"][0].doctrine.retreat_at == 0.5  # combatants carry the filled one


@pytest.mark.parametrize("ai_value, words", [
    ("tacticle", ["unknown AI profile 'tacticle'", "tactical"]),
    ({"profile": "cautios"}, ["cautious"]),
    ({"profile": "tactical", "focus": "weakets"}, ["focus", "weakest"]),
    ({"profile": "tactical", "retreat_at": 1.5}, ["retreat_at", "1"]),
    ({"profile": "cautious", "prefers": "magic"}, ["prefers", "ranged"]),
])
def test_an_unknown_profile_or_setting_is_a_clear_error(ai_value, words):
    with pytest.raises(ScenarioError) as err:
        scenario({"a": [{"name": "A", "ai": ai_value}], "b": [{"name": "B"}]})
    text = str(err.value)
    assert "sides.a[0].ai" in text
    for word in words:
        assert word in text


def test_every_profile_is_allowed_in_a_scenario():
    for profile in ai.PROFILES:
        scen = scenario({"a": [{"name": "A", "ai": profile}], "b": [{"name": "B"}]})
        assert scen.sides[0].members[0].ai == profile


# ---------------------------------------------------------------------------- morale
def test_cautious_morale_breaks_at_half_its_side_by_default():
    enc = on_field(any_ruleset(), [{"name": "A", "count": 4, "ai": "cautious", "weapon": "sword"}],
                   [{"name": "B", "count": 4, "weapon": "sword"}])
    a = enc.sides["a"]
    enc.take_out(a[0], Status.DEAD)
    enc.check_morale()
    assert all(m.in_fight for m in a[1:])  # 1 of 4: below 0.5
    enc.take_out(a[1], Status.DEAD)
    enc.check_morale()  # 2 of 4: the rest break, a foe in reach: they surrender
    assert [m.status for m in a[2:]] == [Status.SURRENDERED] * 2


def _worn_down(seed: int, a_down: int, b_down: int):
    """Two cautious bands of four in melee, ``a_down`` and ``b_down`` of them down."""
    enc = on_field(any_ruleset(), [{"name": "A", "count": 4, "ai": "cautious", "weapon": "sword"}],
                   [{"name": "B", "count": 4, "ai": "cautious", "weapon": "sword"}], seed=seed)
    for side, down in (("a", a_down), ("b", b_down)):
        for m in enc.sides[side][:down]:
            enc.take_out(m, Status.DEAD)
    enc.check_morale()
    return enc


def broke(enc, side: str) -> bool:
    return all(m.fleeing or m.status is Status.SURRENDERED
               for m in enc.sides[side] if m.status is not Status.DEAD)


def test_of_two_bands_worn_down_together_the_one_with_more_down_breaks():
    enc = _worn_down(1, 3, 2)
    assert broke(enc, "a") and not any(m.fleeing or not m.in_fight for m in enc.sides["b"][2:])
    # they surrender to a foe that holds (in reach of them all)
    assert all(m.status is Status.SURRENDERED for m in enc.sides["a"][3:])


def test_two_bands_breaking_together_do_not_surrender_to_each_other():
    """Equal losses: one band holds (drawn by the encounter's generator, so either one
    over many seeds) and the other surrenders to it; never both."""
    held = Counter()
    for seed in range(40):
        enc = _worn_down(seed, 2, 2)
        a, b = broke(enc, "a"), broke(enc, "b")
        assert a != b
        held["b" if a else "a"] += 1
        loser = "a" if a else "b"
        assert all(m.status is Status.SURRENDERED for m in enc.sides[loser][2:])
    assert held["a"] >= 8 and held["b"] >= 8


def test_a_doctrine_morale_overrides_the_profile_default():
    enc = on_field(any_ruleset(), [{"name": "A", "count": 4, "ai": {"profile": "tactical",
                                                            "morale": 0.25}}],
                   [{"name": "B", "count": 4, "at": "far"}])
    enc.take_out(enc.sides["a"][0], Status.DEAD)
    enc.check_morale()
    # no foe in reach: each breaks and flees, in the fight until it gets away (RULES.md
    # "Flight takes time")
    assert all(m.fleeing and m.in_fight for m in enc.sides["a"][1:])
    assert not any(m.fleeing for m in enc.sides["b"])


# ---------------------------------------------------------------------------- decisions
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_shooter_with_a_foe_in_reach_steps_back_or_shoots(ruleset):
    enc = on_field(ruleset, [{"name": "Archer", "at": "wall", "ai": "tactical", **ARCHER}],
                   [{"name": "Sword", "at": "wall", **SOLDIER}])
    archer, sword = enc.combatants
    intents = ai.decide(enc, archer)
    assert type(intents[-1]) is Attack and intents[-1].target is sword
    for intent in intents[:-1]:
        assert type(intent) is Retreat
        assert enc.field.distance(intent.dest, sword.pos) > tactics.MELEE_REACH


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_badly_hurt_cautious_fighter_falls_back_toward_the_edge(ruleset):
    enc = on_field(ruleset, [{"name": "A", "at": "camp", "ai": "cautious", **SOLDIER}],
                   [{"name": "B", "at": "far", **SOLDIER}])
    a = enc.combatants[0]
    a.pos = enc.field.node("field")
    hurt(enc, a, 0.6)
    assert ai.decide(enc, a) == [Retreat(enc.field.node("camp"), leave=True, run=True)]
    assert "falls back to camp" in a.why


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_badly_hurt_cautious_fighter_in_melee_yields(ruleset):
    enc = on_field(ruleset, [{"name": "A", "ai": "cautious", **SOLDIER}],
                   [{"name": "B", **SOLDIER}])
    a = enc.combatants[0]
    hurt(enc, a, 0.6)
    assert ai.decide(enc, a) == [Yield()]  # advice only: still in the fight
    assert a.in_fight
    assert enc.declare(a) == []  # declared: the engine takes it out
    assert a.status is Status.SURRENDERED and enc.sides_left == 1


PLATE_KNIGHT = {"traits": {"strength": 4, "endurance": 4, "agility": 3, "dexterity": 3},
                "skills": {"melee": 3, "dodge": 2, "parry": 3}, "weapon": "sword",
                "armor": "plate"}
KNIFE_MAN = {"traits": {"strength": 2, "endurance": 2}, "skills": {"melee": 2},
             "weapon": "knife"}
BRUTE = {"traits": {"strength": 5, "endurance": 4, "agility": 3, "dexterity": 3},
         "skills": {"melee": 5}, "weapon": "greatsword"}
DODGER = {"traits": {"strength": 1, "endurance": 2, "agility": 5, "dexterity": 5},
          "skills": {"dodge": 5, "parry": 5}, "weapon": "unarmed"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cautious_under_pressure_strikes_when_the_foes_can_barely_hurt_it(ruleset):
    """Two knife-men on a knight in plate: defending spares little, striking does more."""
    enc = on_field(ruleset, [{"name": "A", "ai": "cautious", **PLATE_KNIGHT}],
                   [{"name": "B", "count": 2, **KNIFE_MAN}])
    a = enc.combatants[0]
    hurt(enc, a, 0.2)
    intents = ai.decide(enc, a)
    assert any(type(i) is Attack for i in intents), a.why
    if enc.advisor.defense_kind(enc, a, ranged=False) is not None:  # weighed striking
        assert "2 foes in reach" in a.why, a.why  # against defending, and said why


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cautious_under_pressure_defends_when_that_spares_more(ruleset):
    """Two brutes with greatswords on a hurt, nimble, unarmed fighter: it defends."""
    enc = on_field(ruleset, [{"name": "A", "ai": "cautious", **DODGER}],
                   [{"name": "B", "count": 2, **BRUTE}])
    a = enc.combatants[0]
    hurt(enc, a, 0.25)  # below the 0.5 at which a cautious fighter falls back
    kind = enc.advisor.defense_kind(enc, a, ranged=False)
    intents = ai.decide(enc, a)
    if kind is None:  # the ruleset says a defense buys nothing for this fighter
        assert [type(i) for i in intents] == [Attack], a.why
    else:
        assert Defend(kind) in intents, a.why
        assert "2 foes in reach" in a.why, a.why


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cautious_crowds_fight_rather_than_all_defend(ruleset):
    """Three cautious swordsmen a side: each foe is expected to strike one of three, so a
    defense spares a third of what it would against three; they fight. (Summing every foe
    in reach, they all parried forever: 400 draws in 400 fights under ORE and B-Grade.)
    """
    scen = scenario({side: [{"name": side.upper(), "count": 3, "ai": "cautious", **SOLDIER}]
                     for side in "ab"}, max_rounds=30)
    draws = sum(Encounter(scen, ruleset, seed).run().winner is None for seed in range(40))
    assert draws <= 12, f"{ruleset}: {draws} draws in 40"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cautious_knights_win_the_fight_they_are_favoured_in(ruleset):
    """Two cautious knights in plate against four knife-men fight, and mostly win.

    Under the old rule (two foes in reach: only defend) they made no attack at all in 400
    fights under ORE (every fight a draw) and lost every fight under B-Grade.
    """
    scen = scenario({"knights": [{"name": "Knight", "count": 2, "ai": "cautious",
                                  **PLATE_KNIGHT}],
                     "knives": [{"name": "Knife", "count": 4, **KNIFE_MAN}]}, max_rounds=30)
    wins = attacks = 0
    n = 60
    for seed in range(n):
        result = Encounter(scen, ruleset, seed).run()
        wins += result.winner == "knights"
        attacks += result.sides[0].attacks
    assert attacks > 0
    assert wins / n > 0.5, f"{ruleset}: knights won {wins} of {n}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_focus_fire_picks_the_foe_nearest_to_going_down(ruleset):
    enc = on_field(ruleset, [{"name": "A", "ai": "tactical", **SOLDIER}],
                   [{"name": "B", "count": 3, **SOLDIER}])
    a, b1, b2, b3 = enc.combatants
    hurt(enc, b3, 0.2)
    hurt(enc, b2, 0.4)
    intents = ai.decide(enc, a)
    assert {i.target for i in intents if type(i) is Attack} == {b2}
    assert "focus fire: B 2" in a.why
    # basic takes the nearest: all three stand as near, so the encounter's generator draws
    # one (never the first listed every time)
    picked = set()
    for seed in range(40):
        basic = on_field(ruleset, [{"name": "A", **SOLDIER}],
                         [{"name": "B", "count": 3, **SOLDIER}], seed=seed)
        hurt(basic, basic.combatants[2], 0.4)
        picked.add(ai.decide(basic, basic.combatants[0])[0].target.name)
    assert picked == {"B 1", "B 2", "B 3"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_most_dangerous_picks_the_biggest_expected_damage(ruleset):
    enc = on_field(ruleset, [{"name": "A", "ai": {"profile": "basic", "focus": "most_dangerous"},
                              **SOLDIER}],
                   [{"name": "Knife", "weapon": "knife"}, {"name": "Brute", **SOLDIER}])
    a, knife, brute = enc.combatants
    assert enc.advisor.danger(enc, brute) > enc.advisor.danger(enc, knife)
    assert ai.decide(enc, a) == [Attack(brute)]


@pytest.mark.parametrize("profile", ["basic", "tactical"])
def test_a_shooter_that_prefers_melee_closes_in(profile):
    enc = on_field(any_ruleset(), [{"name": "A", "at": "camp", "ai": {"profile": profile,
                                                                "prefers": "melee"}, **ARCHER}],
                   [{"name": "B", "at": "field", **SOLDIER}])
    a, b = enc.combatants
    assert enc.advisor.can_attack(enc, a, b)  # in range, yet it walks up
    assert ai.decide(enc, a)[0] == Move(b, stop_at=tactics.MELEE_REACH,
                                        run=ai.runs(enc, a, b))


def test_a_tactical_shooter_takes_cover():
    enc = on_field(any_ruleset(), [{"name": "A", "at": "camp", "ai": "tactical", **ARCHER}],
                   [{"name": "B", "at": "far", **ARCHER}])
    a = enc.combatants[0]
    assert ai.decide(enc, a) == [Retreat(enc.field.node("wall"))]
    assert a.why == "takes cover at wall"


def _screening(foes_first: str, brute_at: float, weakling_at: float, seed: int):
    """A tactical guard 20 m from its archer, two foes at the archer's side (the metres
    from the archer's node, each on an edge of its own): what the guard declares."""
    foes = {"Brute": {"name": "Brute", "at": "x", "weapon": "greatsword",
                      "traits": {"strength": 4, "endurance": 4}, "skills": {"melee": 3}},
            "Weakling": {"name": "Weakling", "at": "y", "weapon": "knife",
                         "traits": {"strength": 1, "endurance": 1}, "skills": {"melee": 0}}}
    order = ["Brute", "Weakling"] if foes_first == "Brute" else ["Weakling", "Brute"]
    enc = Encounter(scenario(
        {"us": [{"name": "Bow", "at": "camp", "ai": "tactical", **ARCHER},
                {"name": "Guard", "at": "far", "ai": "tactical", **SOLDIER}],
         "them": [foes[name] for name in order]},
        map={"nodes": {"camp": {}, "x": {}, "y": {}, "far": {}},
             "edges": [["camp", "x", 10], ["camp", "y", 10], ["camp", "far", 20]]}),
        any_ruleset(), seed)
    field, by = enc.field, {c.name: c for c in enc.combatants}
    for name, metres in (("Brute", brute_at), ("Weakling", weakling_at)):
        by[name].pos = field.advance(field.node("camp"), by[name].pos, metres)
    enc.declared = {}
    intents = ai.decide(enc, by["Guard"])
    assert type(intents[0]) is Move and "protects Bow" in by["Guard"].why
    return intents[0].target.name


@pytest.mark.parametrize("listed_first", ["Brute", "Weakling"])
def test_a_guard_meets_the_nearest_foe_at_its_shooters_side_never_the_first_listed(
        listed_first):
    """Two foes at the archer's side: the guard went for the one its foes' side lists first,
    every time; now the nearer, and of two as near, a draw."""
    assert {_screening(listed_first, 1.0, 1.5, seed) for seed in range(20)} == {"Brute"}
    assert {_screening(listed_first, 1.5, 1.0, seed) for seed in range(20)} == {"Weakling"}
    drawn = Counter(_screening(listed_first, 1.5, 1.5, seed) for seed in range(200))
    # binomial(200, 1/2): 100 +- 7; 65-135 is five standard deviations
    assert 65 <= drawn["Brute"] <= 135, drawn


def test_policies_spend_as_the_profiles_say():
    """DESIGN: passive and basic never spend; the others may; a passive dummy never reacts."""
    assert [policy(p).spends for p in ("passive", "basic", "aggressive", "cautious",
                                       "tactical")] == [False, False, True, True, True]
    assert not policy("passive").reacts and policy("basic").reacts


# ---------------------------------------------------------------------------- retreat
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_resolves_a_retreat_and_leaves_at_the_edge(ruleset):
    """A flight walks as a move does, leaves by an exit, and lasts while foes are near."""
    enc = on_field(ruleset, [{"name": "A", "at": "wall"}], [{"name": "B", "at": "far"}])
    a = enc.combatants[0]
    rs = enc.ruleset
    rs.start(enc)
    act(enc, a, Retreat(enc.field.node("camp"), leave=True))
    assert enc.field.distance(a.pos, enc.field.node("wall")) == pytest.approx(
        min(a.speed, 6.0))
    assert a.in_fight  # camp is no exit: reaching it ends nothing
    exits = {"nodes": {**FIELD_MAP["nodes"], "camp": {"exit": True}}, "edges": FIELD_MAP["edges"]}
    out = Encounter(scenario({"a": [{"name": "A", "at": "wall"}],
                              "b": [{"name": "B", "at": "far"}]}, map=exits), ruleset, 1)
    a = out.combatants[0]
    out.ruleset.start(out)
    act(out, a, Retreat(out.field.node("camp"), leave=True, run=True))
    assert a.status is Status.FLED  # 6 m to an exit: every ruleset's move gets there
    near = on_field(ruleset, [{"name": "A", "at": "camp"}], [{"name": "B", "at": "wall"}])
    a, b = near.combatants
    b.pos = near.field.advance(a.pos, b.pos, 4.0)  # within every ruleset's move and reach
    act(near, a, Retreat(a.pos, leave=True))
    near.escapes()
    assert a.in_fight  # a foe 4 m away: not got away


# ---------------------------------------------------------------------------- whole fights
def mirror(west, east):
    data = yaml.safe_load((ROOT / "scenarios" / "mirror.yaml").read_text())
    for side, profile in (("west", west), ("east", east)):
        for member in data["sides"][side]:
            member["ai"] = profile
    return parse(data, "mirror.yaml")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_solo_log_states_why(ruleset):
    enc = Encounter(mirror("tactical", "cautious"), ruleset, 3, log=True)
    enc.run()
    declared = [e["text"] for e in enc.log if e["type"] == "declare"]
    assert any("takes cover at west_wall" in t for t in declared)
    assert all(("(" in t and t.rstrip().endswith(").")) or " - " in t for t in declared)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_bundled_scenario_runs_under_the_new_profiles(ruleset):
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        for k, members in enumerate(data["sides"].values()):
            for m in members:
                m["ai"] = ("cautious", "tactical")[k % 2]
        scen = parse(data, str(path))
        attacks = 0
        for seed in range(2):
            result = Encounter(scen, ruleset, seed).run()
            assert result.winner in (*scen.side_names, None)
            attacks += sum(side.attacks for side in result.sides)
        assert attacks > 0, path.stem  # they fight, not only posture


def duel(profile, against, ruleset, n):
    """``profile`` v ``against`` in the mirror, ``n`` encounters each side assignment."""
    wins = deaths = members = 0
    for seed, (west, east, mine) in enumerate(((profile, against, "west"),
                                               (against, profile, "east")), start=1):
        s = run_batch(BatchSpec(mirror(west, east), ruleset, n, seed=seed, workers=1), None)
        wins += s["outcomes"].get(mine, 0)
        deaths += s["sides"][mine]["deaths"]
        members += s["sides"][mine]["members"] * n
    return wins, deaths, members


def known_short(target: str) -> list:
    """``RULESETS``, each marked as an expected failure where its test folder says it misses
    ``target`` (``support(ruleset).KNOWN_SHORT``: docs/ai.md, "Known gaps")."""
    out = []
    for r in RULESETS:
        why = getattr(support(r), "KNOWN_SHORT", {}).get(target)
        out.append(pytest.param(r, marks=pytest.mark.xfail(reason=why, strict=False))
                   if why else r)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", known_short("tactical beats basic"))
def test_tactical_beats_basic(ruleset):
    n = 250  # a side assignment; bench/tactics.py runs 2,000
    wins, _, _ = duel("tactical", "basic", ruleset, n)
    assert wilson(wins, 2 * n)[0] > 0.6, wins / (2 * n)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", known_short("cautious dies less"))
def test_cautious_dies_less_than_basic(ruleset):
    """Fewer of a cautious side die than of a basic one in its place: apart by their
    intervals, or, where almost nobody dies (B-Grade's armor), by the count alone."""
    n = 250
    _, died, members = duel("cautious", "basic", ruleset, n)
    _, base_died, base_members = duel("basic", "basic", ruleset, n)
    apart = wilson(died, members)[1] < wilson(base_died, base_members)[0]
    assert died < base_died and (apart or base_died < 20), (
        died / members, base_died / base_members)


# ---------------------------------------------------------------------------- the screen's cover
FRONT_MAP = {"nodes": {"camp": {}, "wall": {"cover": "medium"}, "field": {}, "far": {}},
             "edges": [["camp", "wall", 6], ["wall", "field", 8], ["field", "far", 20]]}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_screen_holds_the_cover_in_front_of_its_shooter_only_if_it_gets_there_first(ruleset):
    """The wall 6 m in front of the archers is the screen's to hold while the foe is far;
    with the foe nearer the wall than the screen (wolves out of a thicket), it is not."""
    enc = Encounter(scenario({"a": [{"name": "Sword", "at": "camp", "weapon": "sword"},
                                    {"name": "Archer", "at": "camp", **ARCHER}],
                              "b": [{"name": "Foe", "at": "far", "weapon": "sword"}]},
                             map=FRONT_MAP), ruleset, 1)
    sword, archer, foe = enc.combatants
    wall = enc.field.node("wall")
    assert screening.front(enc, sword, archer.pos, [foe]) == wall
    foe.pos = enc.field.advance(wall, enc.field.node("field"), 4.0)  # 4 m from it: first there
    assert screening.front(enc, sword, archer.pos, [foe]) is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_shooters_focus_fire_goes_for_the_foe_its_shot_harms_most(ruleset):
    """Two foes unhurt at the same place: a tactical archer shoots the one in leather, not
    the one in chain with a shield, even when an ally has declared on the armoured one."""
    enc = Encounter(scenario({"a": [{"name": "Archer", "at": "camp", **ARCHER},
                                    {"name": "Friend", "at": "camp", **ARCHER}],
                              "b": [{"name": "Mailed", "at": "far", "weapon": "sword",
                                     "armor": "chain", "shield": True},
                                    {"name": "Bare", "at": "far", "weapon": "sword",
                                     "armor": "leather"}]},
                             map={"nodes": {"camp": {}, "far": {}},
                                  "edges": [["camp", "far", 12]]}), ruleset, 1)
    archer, friend, mailed, bare = enc.combatants
    assert enc.advisor.attack_worth(enc, archer, bare) > enc.advisor.attack_worth(
        enc, archer, mailed)
    enc.declared = {friend: [mailed.plain_attack]}  # an ally's shot declared on the mailed
    assert targets.allies_on(enc, "a", mailed) == 1
    for _ in range(10):
        assert targets.pick_target(enc, archer, [mailed, bare], "weakest") is bare
