"""The small fights tests set up, in one place (the rulesets' folders' tests and others).

``with_hero``/``carried``: a hero and a foe, and the hero built again for the next fight (what
lasts between fights); ``duel``: a fighter and a swordsman a given distance apart; ``menu``:
a fighter's menu beside a plain foe.
"""

from __future__ import annotations

from typing import Any

from helpers import scenario

from sim.ai import menu as menus
from sim.core.engine import Encounter

HERO = {"name": "Hero", "traits": {"strength": 3, "endurance": 3, "agility": 3},
        "skills": {"melee": 3, "dodge": 1}, "weapon": "crossbow", "armor": "leather"}
FOE = {"name": "Foe", "weapon": "club"}


def with_hero(ruleset: str, member: dict | None = None, **top: Any) -> tuple[Encounter, Any]:
    """An encounter of ``HERO`` (or ``member``) against ``FOE``, and the hero."""
    enc = Encounter(scenario({"red": [member or HERO], "blue": [FOE]}, **top), ruleset, 1)
    return enc, enc.sides["red"][0]


def carried(ruleset: str, old: Any, **top: Any) -> tuple[Encounter, Any]:
    """The hero built again for the next fight, taking what lasts from ``old``."""
    scen = scenario({"red": [HERO], "blue": [FOE]}, **top)
    enc = Encounter(scen, ruleset, 2, carried={"Hero": old})
    return enc, enc.sides["red"][0]


SWORD = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3}, "weapon": "sword"}


def duel(ruleset: str, apart: float = 0.0, **a: Any) -> tuple[Encounter, Any, Any]:
    """A (``a``'s fields) against a swordsman B, ``apart`` metres away (0: side by side)."""
    top: dict[str, Any] = {}
    if apart:
        top = {"map": {"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", apart]]}}
        a = {**a, "at": "x"}
    b = {"name": "B", **({"at": "y"} if apart else {}), **SWORD}
    enc = Encounter(scenario({"a": [{"name": "A", **a}], "b": [b]}, ruleset=ruleset, **top),
                    ruleset, 0)
    return enc, enc.combatants[0], enc.combatants[1]


def menu(ruleset: str, **a: Any) -> tuple[Encounter, Any, Any, list[menus.Option]]:
    """A (``a``'s fields) beside a plain B, and A's menu: ``(enc, a, b, options)``."""
    scen = scenario({"a": [{"name": "A", **a}], "b": [{"name": "B"}]}, ruleset=ruleset)
    enc = Encounter(scen, ruleset, 0)
    return enc, enc.combatants[0], enc.combatants[1], menus.options(enc, enc.combatants[0])


BEAST = {"name": "Beast", "traits": {"strength": 4, "agility": 3},
         "skills": {"brawl": 3, "melee": 0}}


def beast(ruleset: str, weapon: str) -> Any:
    """``BEAST`` armed with a natural ``weapon`` (claws, bite, horns), as its ruleset builds it."""
    scen = scenario({"beasts": [{**BEAST, "weapon": weapon}], "men": [{"name": "Man"}]})
    return Encounter(scen, ruleset, 1).sides["beasts"][0]


# a camp, a wall in medium cover, an open field and a far end: room to hold, shoot and close
FIELD_MAP = {"nodes": {"camp": {}, "wall": {"cover": "medium"}, "field": {}, "far": {}},
             "edges": [["camp", "wall", 6], ["wall", "field", 8], ["field", "far", 30]]}
SOLDIER = {"traits": {"strength": 3, "endurance": 3},
           "skills": {"melee": 3, "dodge": 2, "parry": 2}, "weapon": "sword", "armor": "leather"}
ARCHER = {"traits": {"agility": 3, "dexterity": 3}, "skills": {"ranged": 3, "dodge": 2},
          "weapon": "bow"}


def on_field(ruleset: str, a: list[dict], b: list[dict], seed: int = 1) -> Encounter:
    """An encounter of side ``a`` against side ``b`` (lists of member dicts) on FIELD_MAP."""
    return Encounter(scenario({"a": a, "b": b}, map=FIELD_MAP), ruleset, seed)


def duelists(profile: str, ruleset: str, **skills: int) -> tuple[Encounter, Any, Any]:
    """Two swordsmen face to face (``A`` plays ``profile``), the round begun."""
    sword = {"traits": {"strength": 3, "endurance": 3, "agility": 3},
             "skills": {"melee": 3, "parry": 2, "dodge": 2, **skills}, "weapon": "sword"}
    enc = Encounter(scenario({"a": [{"name": "A", "ai": profile, **sword}],
                              "b": [{"name": "B", **sword}]}), ruleset, 1)
    enc.ruleset.start(enc)
    enc.round = 1
    a, b = enc.combatants
    return enc, a, b


THROWER = {"name": "J", "at": "a", "weapon": "javelin", "skills": {"ranged": 3}}
THROW_TARGET = {"name": "P", "at": "b", "ai": "passive", "weapon": "sword",
                "traits": {"endurance": 5, "strength": 5}}
THROW_LINE = {"nodes": {"a": {}, "b": {}}, "edges": [["a", "b", 15]]}


def throwing(ruleset: str, weapon: str) -> Encounter:
    """A thrower with ``weapon`` 15 m from a passive swordsman (the rulesets' thrown tests)."""
    return Encounter(scenario({"a": [{**THROWER, "weapon": weapon}], "b": [THROW_TARGET]},
                              map=THROW_LINE), ruleset, 1)


# (weapon on the member, weapon in its native block, what the refusal says): the rulesets
# whose blocks name weapons check each (their test_thrown.py)
THROWN_DISAGREEING = [
    ("sword", "javelin", "write weapon: javelin on the member"),
    ("javelin", "sword", "cannot put 'sword', a weapon kept in hand"),
    ("javelin", "throwing_knife", "not the member's thrown weapon 'javelin'"),
]


def native_thrown_refused(key: str, weapon: str, native: str, says: str) -> None:
    """A member with ``weapon`` and a ``key:`` block naming ``native`` is refused at load,
    naming the block's field; the same thrown weapon in both loads, counted as the member
    says (``vocabulary.thrown_disagrees``)."""
    import pytest

    from sim.scenario import parse
    from sim.scenario.errors import ScenarioError

    a = {"name": "A", "weapon": weapon, key: {"weapon": native}}
    doc = {"name": "t", "sides": {"a": [a], "b": [{"name": "B"}]}}
    with pytest.raises(ScenarioError) as info:
        parse(doc)
    assert f"sides.a[0].{key}.weapon" in str(info.value) and says in str(info.value)
    a.update(weapon="javelin", carry=2, **{key: {"weapon": "javelin"}})
    assert parse(doc).sides[0].members[0].carry == 2
