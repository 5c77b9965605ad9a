"""``fray play`` under OpenCore: the menu's odds count every pair of d100, bide is offered, one
defense is one line."""

from __future__ import annotations

import pytest
from builders import menu as menu_of

from sim.ai import menu as menus
from sim.core.actions import Bide
from sim.rulesets import registry
from sim.rulesets.opencore.rules import opposed_attack


def test_opencore_menu_odds_count_every_pair_of_d100():
    enc, a, b, menu = menu_of("opencore", skills={"melee": 3}, weapon="sword")
    skill = enc.ruleset.attack_skill(enc, a, b)
    evade = enc.ruleset.defense_skill(b)
    hits = sum(opposed_attack(x, skill, y, evade).hit
               for x in range(1, 101) for y in range(1, 101))
    assert menus.find(menu, "attack B").odds == pytest.approx(hits / 10_000)


def test_a_group_of_one_is_listed_as_its_option():
    """One defense, no "defend..." line (the two-step menu: tests/rulesets/ore/test_play.py)."""
    enc, a, b, menu = menu_of("opencore", skills={"melee": 3}, weapon="sword")
    assert not any(isinstance(e, menus.Group) for e in menus.top(menu))
    assert menus.find_top(menus.top(menu), menu, "defend") is menus.find(menu, "defend dodge")


def test_bide_is_offered():
    """OpenCore's bide: +20 initiative next round (offered where a ruleset supports it:
    tests/cli/test_play.py)."""
    assert Bide in registry.get("opencore").supports

