"""OpenCore crossbow: one shot, then an action to reload (RULES.md "Reload weapons").

Hand-set rolls (``StubRandom``, ``face``) check every way a shot spends the bolt, the Reload
action (a dropped weapon is picked up first), the extra attack after a fall, and the AI;
a whole fight checks that a crossbowman never shoots in two rounds running.
"""

import pytest
from helpers import face, scenario
from opencore_helpers import act, d100, duel, member, parse

from sim.ai import profiles as ai
from sim.core.actions import Attack, Reload, TimedAction
from sim.core.engine import Encounter
from sim.rulesets.opencore.tables import CROSSBOW, NATIVE_WEAPONS, NEUTRAL_WEAPONS, WEAPONS


def xbow(name: str = "A", **oc) -> dict:
    return member(name, weapon="crossbow", skills={"archery": 50}, **oc)


def texts(enc) -> list[str]:
    return [e["text"] for e in enc.log]


# ------------------------------------------------------------------ the table
def test_the_crossbow_is_an_archery_row_marked_single_shot():
    assert NEUTRAL_WEAPONS["crossbow"] is NATIVE_WEAPONS["crossbow"] is CROSSBOW
    archery = WEAPONS["archery"]
    assert CROSSBOW.single_shot and not archery.single_shot
    assert (CROSSBOW.weapon_class, CROSSBOW.speed_factor, CROSSBOW.modes) == (
        archery.weapon_class, archery.speed_factor, archery.modes)
    assert not any(w.single_shot for w in WEAPONS.values())  # no seed row reloads


def test_the_native_block_names_the_crossbow_and_round_trips():
    enc, a, _ = duel({"name": "A", "weapon": "bow", "opencore": {"weapon": "crossbow"}},
                     member("B"))
    assert a.weapon.single_shot and a.loaded and a.reach == 150.0
    block = enc.ruleset.native_block_of(a)
    assert block["weapon"] == "crossbow"
    again = Encounter(parse({"a": [{"name": "A", "opencore": block}], "b": [member("B")]}),
                      "opencore", 0).sides["a"][0]
    assert again.weapon == CROSSBOW


# ------------------------------------------------------------------ a shot spends the bolt
@pytest.mark.parametrize(("rolls", "hit"), [
    # 60 + 50 = 110 vs 30 + 0: hit, 1d10 = 4 to HP, critical 01 (no effect)
    ((*d100(60, 30), face(4), *d100(1)), True),
    # 20 + 50 = 70 vs 90: miss
    (d100(20, 90), False),
    # the attacker's 03: a fumble, chart 10: recovers
    (d100(3, 50, 10), False),
])
def test_every_shot_unloads_the_crossbow(rolls, hit):
    enc, a, b = duel(xbow(), member("B"))
    assert a.loaded and not enc.advisor.needs_reload(a)
    act(enc, a, Attack(b), *rolls)
    assert (a.attacks, a.hits) == (1, int(hit))
    assert not a.loaded and a.held and enc.advisor.needs_reload(a)


def test_reload_is_one_action_and_logged():
    enc, a, b = duel(xbow(), member("B"))
    enc.log = []
    act(enc, a, Attack(b), *d100(20, 90))
    enc.round += 1  # (each action at its own round: a crossbow looses 1 shot a round)
    act(enc, a, Reload())
    assert a.loaded and not enc.advisor.needs_reload(a)
    assert "A reloads the crossbow." in texts(enc)
    enc.round += 1
    act(enc, a, Attack(b), *d100(20, 90))  # and it shoots again
    assert (a.attacks, a.loaded) == (2, False)


def test_a_bow_never_unloads():
    enc, a, b = duel(member("A", weapon="bow", skills={"archery": 50}), member("B"))
    for _ in range(3):
        enc.round += 1  # (a round each: a bow looses 2 shots a round at most)
        act(enc, a, Attack(b), *d100(20, 90))
    assert a.attacks == 3 and a.loaded and not enc.advisor.needs_reload(a)


def test_an_attack_with_an_empty_crossbow_reloads_instead():
    # The AI never declares it; an extra attack can empty the crossbow after the declaration.
    enc, a, b = duel(xbow(), member("B"))
    a.loaded = False
    act(enc, a, Attack(b))  # no dice drawn, no attack counted
    assert (a.attacks, a.loaded) == (0, True)


def test_a_dropped_crossbow_is_picked_up_then_reloaded():
    enc, a, b = duel(xbow(), member("B", ai="passive"))  # (no free attack on the shot in reach)
    enc.log = []
    # The attacker's 02, chart 93: drops the crossbow and shoots itself (1d10 = 5 to HP;
    # critical 01 - 20 for the weak roll: nothing).
    hp = a.hp
    act(enc, a, Attack(b), *d100(2, 50, 93), face(5), *d100(1))
    assert (a.held, a.loaded, a.hp) == (False, False, hp - 5)
    assert enc.advisor.needs_reload(a)
    act(enc, a, Reload())  # picking up comes first, and is the whole action
    assert (a.held, a.loaded) == (True, False) and enc.advisor.needs_reload(a)
    act(enc, a, Reload())
    assert (a.held, a.loaded) == (True, True) and not enc.advisor.needs_reload(a)
    log = texts(enc)
    assert log.index("A picks up the crossbow.") < log.index("A reloads the crossbow.")


def test_the_extra_attack_after_a_fall_needs_a_loaded_crossbow():
    enc, sword, bow = duel(member("S", skills={"melee": 50}), xbow("X"))
    # S falls over (chart 85); X shoots at once: 60 + 50 vs 40 + 0, 1d10 = 3, critical 01.
    act(enc, sword, Attack(bow), *d100(3, 50, 85, 60, 40), face(3), *d100(1))
    assert (bow.attacks, bow.hits, bow.loaded) == (1, 1, False)
    act(enc, sword, Attack(bow), *d100(3, 50, 85))  # falls again: X has no bolt
    assert bow.attacks == 1


@pytest.mark.parametrize("profile", ["basic", "aggressive", "cautious", "tactical"])
def test_every_profile_reloads_an_empty_crossbow(profile):
    enc, a, b = duel(xbow(ai=profile), member("B"))
    a.loaded = False
    assert ai.decide(enc, a) == [Reload()]
    assert a.why == "weapon unloaded"


# ------------------------------------------------------------------ a whole fight
def test_a_crossbowman_never_shoots_in_two_rounds_running():
    """Its own shots come every other round, and a reload comes between any two shots.

    A free extra attack (a foe fell over) spends the bolt too; the crossbowman's action of
    that round then reloads, so it is not counted with the shots of its own actions.
    """
    sword = {**member("B", skills={"melee": 40}, hp=60), "count": 2, "at": "y"}
    bow = {**member("Bow", weapon="bow", skills={"archery": 40}, hp=60), "at": "y"}
    scen = parse({"a": [{**xbow("X", hp=500), "ai": "tactical", "at": "x"}],
                  "b": [sword, bow]},
                 max_rounds=16, map={"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 30]]})
    shots = 0
    for seed in range(20):
        enc = Encounter(scen, "opencore", seed, log=True)
        enc.run()
        mine = [e for e in enc.log if e.get("who") == "X" and e["type"] in ("attack", "reload")]
        rounds = [e["round"] for e in mine if e["type"] == "attack" and not e["rules"]["extra"]]
        assert all(b - a >= 2 for a, b in zip(rounds, rounds[1:], strict=False)), rounds
        kinds = [e["type"] for e in mine]
        assert all(a != b for a, b in zip(kinds, kinds[1:], strict=False)), kinds
        assert kinds[0] == "attack"  # loaded at the start
        shots += len(rounds)
    assert shots >= 60  # 16 rounds: about 8 shots a fight


def test_a_shot_whose_target_is_out_of_reach_keeps_the_bolt():
    """Declared, then resolved with the target beyond the crossbow's reach: not loosed.

    It still counts as an attack (a miss), as in every ruleset (moved here from the shared
    reload tests: the payload, an initiative, is OpenCore's own).
    """
    sides = {"a": [{"name": "Crossbow", "weapon": "crossbow", "at": "near",
                    "traits": {"agility": 4, "dexterity": 4}, "skills": {"ranged": 4}}],
             "b": [{"name": "Target", "ai": "passive", "at": "far"}]}
    scen = scenario(sides, map={"nodes": {"near": {}, "far": {}},
                                "edges": [["near", "far", 1000]]})
    enc = Encounter(scen, "opencore", 1, log=True)
    enc.ruleset.start(enc)
    shooter, target = enc.combatants
    enc.ruleset.resolve(enc, TimedAction(0.0, shooter, Attack(target), 10))
    assert "out of reach" in enc.log[-1]["text"]
    assert shooter.loaded and shooter.attacks == 1
