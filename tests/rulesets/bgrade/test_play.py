"""``fray play`` under B-Grade: menu odds with a difficulty, and a charge whose move would get
no set."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, fray, scenario

from sim.ai import menu as menus
from sim.core.engine import Encounter

AMBUSH = str(SCENARIOS / "ambush.yaml")


def play(capsys, monkeypatch, answers: str, *args: str):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(answers))
    return fray(capsys, "play", *args)


def test_bgrade_menu_odds_with_a_difficulty_count_every_roll():
    """Difficulty 6: a pair must be 7+, three of a kind of anything beats it. 5 dice, all
    100,000 rolls counted by brute force (the menu showed only pairs over 6 before)."""
    import itertools
    from collections import Counter

    scen = scenario({"a": [{"name": "A", "traits": {"strength": 2}, "skills": {"melee": 3},
                            "weapon": "sword"}], "b": [{"name": "B"}]},
                    ruleset="bgrade", options={"bgrade": {"difficulty": 6}})
    enc = Encounter(scen, "bgrade", 0)
    a = enc.combatants[0]
    menu = menus.options(enc, a)
    assert enc.advisor.dice(enc, a, [menu[0].intents[0]]) == 5
    good = sum(1 for roll in itertools.product(range(1, 11), repeat=5)
               if any(n >= 3 or (n == 2 and h > 6) for h, n in Counter(roll).items()))
    assert menus.find(menu, "attack B").odds == pytest.approx(good / 10**5)


def test_a_charge_warns_when_its_move_would_get_no_set(capsys, monkeypatch):
    """Wolfman charges Bandit 1 (12 m off): the roll's one set on the attack leaves the move
    without one, and the choice says the attack then cannot reach."""
    result = play(capsys, monkeypatch, "charge Bandit 1\n\n\n\n", AMBUSH, "--as", "Wolfman",
                  "--ruleset", "bgrade", "--seed", "5")
    assert result.code == 0, result.err
    warned = [line for line in result.out.splitlines() if "cannot reach" in line]
    assert warned and all("no set -> move toward Bandit 1, 2x5 -> attack" in w for w in warned)
