"""A shooter's sidearm (RULES.md "Shooting in melee"), under every ruleset.

Drawn as part of a move (``actions.Draw``, ``Ruleset.switch_arms``): the AI takes it up once
a foe threatens it and its bow again once none can close; asking the AI or the menu never
changes the weapon in hand; a sidearm that is never drawn changes nothing in the fight.
"""

from __future__ import annotations

import pytest
from helpers import scenario

from sim import registry
from sim.ai import menu, profiles
from sim.core import space
from sim.core.actions import Attack, Draw
from sim.core.engine import Encounter

RULESETS = registry.names()
ARCHER = {"name": "A", "at": "a", "weapon": "bow", "skills": {"ranged": 3, "melee": 2}}
SWORD = {"name": "S", "at": "b", "weapon": "sword", "skills": {"melee": 3}}
LINE = {"nodes": {"a": {}, "b": {}}, "edges": [["a", "b", 40]]}


def fight(ruleset: str, a: list[dict], b: list[dict], seed: int = 1,
          log: bool = False) -> Encounter:
    return Encounter(scenario({"a": a, "b": b}, map=LINE), ruleset, seed, log=log)


def arms(enc: Encounter, f) -> tuple:
    return tuple(getattr(f, slot) for slot in enc.ruleset.ARMS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_drawing_changes_the_weapon_in_hand_and_back(ruleset):
    enc = fight(ruleset, [{**ARCHER, "sidearm": "knife"}], [SWORD])
    a, _ = enc.combatants
    bow = arms(enc, a)
    assert a.ranged and a.other_arms is not None
    enc.ruleset.switch_arms(a)
    assert not a.ranged and a.reach == space.MELEE_REACH and arms(enc, a) != bow
    enc.ruleset.switch_arms(a)
    assert arms(enc, a) == bow


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_pressed_shooter_draws_and_asking_changes_nothing(ruleset):
    enc = fight(ruleset, [{**ARCHER, "sidearm": "knife"}], [SWORD], log=True)
    a, s = enc.combatants
    s.pos = enc.field.advance(s.pos, a.pos, 39.0)  # a metre from the archer
    bow = arms(enc, a)
    intents = profiles.decide(enc, a)
    assert intents[0] == Draw() and Attack(s) in intents[1:]
    lines = {o.key: o for o in menu.options(enc, a)}
    assert lines[f"draw attack {s.name}"].intents == (Draw(), Attack(s))
    assert arms(enc, a) == bow  # the AI and the menu asked with the knife, and put it back
    enc.minds = {a.name: lambda _e, _c: list(intents)}
    enc.declare(a)
    assert not a.ranged and enc.declared[a] == intents[1:]
    assert any(e["type"] == "draw" and e["weapon"] == "knife" for e in enc.log)
    # with the knife in hand and the swordsman gone far off, it takes up its bow again
    s.pos = enc.field.node("b")
    again = profiles.decide(enc, a)
    assert again[0] == Draw()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_sidearm_never_drawn_changes_nothing(ruleset):
    """Two archers trade shots at range: the same fight, word for word, with a knife."""

    rival = {**ARCHER, "name": "R", "at": "b"}
    plain = fight(ruleset, [ARCHER], [rival], seed=3, log=True)
    armed = fight(ruleset, [{**ARCHER, "sidearm": "knife"}], [rival], seed=3, log=True)
    plain.run()
    armed.run()
    def told(enc):  # the fight, word for word; the roster says the knife
        return [e["text"] for e in enc.log if e["type"] != "combatant"]

    assert told(armed) == told(plain)
    assert any("a knife at its side" in e["text"] for e in armed.log)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_shooter_without_a_sidearm_is_offered_no_draw(ruleset):
    enc = fight(ruleset, [ARCHER], [SWORD])
    a, s = enc.combatants
    s.pos = enc.field.advance(s.pos, a.pos, 39.0)
    assert profiles.decide(enc, a)[0] != Draw()
    assert not [o for o in menu.options(enc, a) if o.key.startswith("draw")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_knife_is_not_drawn_against_a_spear_beyond_its_reach(ruleset):
    """A spearman 3 m off threatens the archer; a knife's 2 m could not strike him back."""
    enc = fight(ruleset, [{**ARCHER, "sidearm": "knife"}], [{**SWORD, "weapon": "spear"}])
    a, s = enc.combatants
    s.pos = enc.field.advance(s.pos, a.pos, 37.0)
    assert space.pressed(enc, a)
    assert profiles.decide(enc, a)[:1] != [Draw()]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_what_lasts_after_a_fight_is_the_main_weapons(ruleset):
    """An empty crossbow put away for a knife is still empty when the fight ends."""
    enc = fight(ruleset, [{**ARCHER, "weapon": "crossbow", "sidearm": "knife"}], [SWORD])
    a, _ = enc.combatants
    a.loaded = False
    enc.ruleset.switch_arms(a)
    assert a.drawn and a.loaded
    enc.ruleset.main_weapon_back(a)
    assert not a.drawn and a.ranged and not a.loaded
