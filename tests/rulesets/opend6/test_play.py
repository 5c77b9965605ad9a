"""``fray play`` under OpenD6: the wild die's exact odds, character and fate points."""

from __future__ import annotations

import json

import pytest
from builders import menu as menu_of
from helpers import SCENARIOS, fray

from sim.ai import menu as menus
from sim.core.actions import Bide
from sim.rulesets import registry


def play(capsys, monkeypatch, answers: str, *args: str):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(answers))
    return fray(capsys, "play", *args)


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_opend6_menu_odds_are_the_exact_wild_die_chance(ruleset):
    """A 7D attack (agility 4 + sword 3) against the base difficulty of 10: icepool's odds."""
    from helpers import TRUNCATION_MASS, opend6_exact_roll

    enc, a, b, menu = menu_of(ruleset, traits={"agility": 4}, skills={"melee": 3},
                            weapon="sword")
    assert str(a.attack_code) == "7D"
    exact = opend6_exact_roll(7, 0).probability(">=", 10)
    assert menus.find(menu, "attack B").odds == pytest.approx(exact, abs=10 * TRUNCATION_MASS)


def test_an_empty_answer_takes_the_ai_choice_and_no_question_follows_the_script(
        capsys, monkeypatch, tmp_path):
    record = tmp_path / "r.json"
    # the declaration, then the character point before the first of the AI's 4 attacks
    result = play(capsys, monkeypatch, "\n\n", str(SCENARIOS / "neutral_duel.yaml"), "--as",
                  "Ilse", "--ruleset", "opend6", "--seed", "2", "--record", str(record))
    assert result.code == 0, result.err
    assert "the player takes its profile's choice (basic)" in result.out
    assert "Ilse> \n" in result.out  # a script's answers are echoed, the empty one too
    assert json.loads(record.read_text())["answers"] == ["", ""]
    after = result.out.split("End of the player's answers", 1)[1]
    assert "?\n  1. " not in after and "Ilse> " not in after


def test_no_fate_point_question_on_a_roll_that_already_surely_hits(capsys, monkeypatch):
    result = play(capsys, monkeypatch, "attack Gorm twice\n\n\n\n\n\n",
                  str(SCENARIOS / "neutral_duel.yaml"),
                  "--as", "Ilse", "--ruleset", "opend6", "--seed", "2")
    assert result.code == 0, result.err
    assert "= 19 vs difficulty 10: HIT" in result.out  # Ilse's first attack, sure to hit
    assert "spend a character point" in result.out and "spend a fate point" not in result.out
    # the count is what there is to spend, not what is left after: "5 left" read as after
    assert "spend a character point (+1D; 5 to spend)?" in result.out


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_no_bide_where_initiative_is_rolled_once(ruleset):
    """OpenD6 rolls initiative once per fight: "act later, first next round" would change
    nothing, so it is not offered (tests/cli/test_play.py)."""
    assert Bide not in registry.get(ruleset).supports

