"""ORE's tactics: exact set odds, the called head shot, and a late declarer (high Sense)
that defends against the attacks declared on it."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from builders import SOLDIER, on_field

from sim.core.actions import Attack
from sim.core.engine import Encounter
from sim.rulesets.ore.odds import expected_value, p_sets, widest


# ---------------------------------------------------------------------------- ORE odds
def _enumerate(n: int, faces: int = 10):
    for throw in itertools.product(range(1, faces + 1), repeat=n):
        yield Counter(throw)


@pytest.mark.parametrize("n", range(6))
def test_ore_set_odds_are_exact(n):
    counts = [sum(w >= 2 for w in c.values()) for c in _enumerate(n)]
    for k in range(4):
        assert p_sets(n, k) == pytest.approx(sum(s >= k for s in counts) / 10**n, abs=1e-12)
    best = Counter()
    for c in _enumerate(n):
        sets = sorted(((w, h) for h, w in c.items() if w >= 2), reverse=True)
        best[sets[0] if sets else (0, 0)] += 1
    assert {(w, h): p for w, h, p in widest(n)} == pytest.approx(
        {k: v / 10**n for k, v in best.items()}, abs=1e-12)


def test_ore_called_head_shot_odds():
    head_only = [[0.0] * 10 + [1.0 if w >= 2 else 0.0] for w in range(11)]
    assert expected_value(head_only, 5, 1) == pytest.approx(1 - 0.9**4)  # a 10 among 4
    assert expected_value(head_only, 5, 0) == pytest.approx(sum(
        p for w, h, p in widest(5) if h == 10))


def test_a_kept_expected_worth_is_the_worth_worked_out():
    """A tuple table's worths are kept by its identity: each is the one a list gives (never
    kept), for two tables alike but for their worths, asked in turn."""
    tables = [tuple(tuple(scale * (w + h) / 21 for h in range(11)) for w in range(11))
              for scale in (0.5, 1.0)]
    for dice, called in itertools.product(range(0, 11), range(3)):
        for table in tables + tables:  # found, then kept
            want = expected_value([list(row) for row in table], dice, called)
            assert expected_value(table, dice, called) == want


def test_ore_tactical_calls_the_head_when_it_pays():
    enc = on_field("ore", [{"name": "A", "ai": "tactical", **SOLDIER}], [{"name": "B", **SOLDIER}])
    a, b = enc.combatants
    intents, why = enc.advisor.tactical_attack(enc, a, b)
    assert intents == [Attack(b, "head")] and "called shot" in why
    weak = on_field("ore", [{"name": "A", "ai": "tactical", "traits": {"strength": 1,
                                                                      "endurance": 1},
                             "skills": {"melee": 1}, "weapon": "sword"}], [{"name": "B"}])
    a, b = weak.combatants
    assert weak.advisor.tactical_attack(weak, a, b)[0] == [Attack(b)]  # 2 dice: plain


def test_a_late_declarer_defends_against_attacks_declared_on_it():
    from helpers import scenario as make

    from sim.ai.profiles import decide
    from sim.core.actions import Attack, Defend

    scen = make({"a": [{"name": "Knight", "ai": "cautious", "weapon": "sword",
                        "traits": {"perception": 4}, "skills": {"melee": 3, "dodge": 2}}],
                 "b": [{"name": "Archer", "count": 2, "weapon": "bow", "at": "hill",
                        "skills": {"ranged": 2}}]},
                map={"nodes": {"road": {}, "hill": {}}, "edges": [["road", "hill", 20]]})
    enc = Encounter(scen, "ore", 0)
    knight, a1, a2 = enc.combatants
    assert enc.ruleset.declaration_order(enc, [knight, a1, a2])[-1] is knight  # Sense 4
    enc.declared = {a1: [Attack(knight)]}
    assert not any(type(i) is Defend for i in decide(enc, knight))
    enc.declared = {a1: [Attack(knight)], a2: [Attack(knight)]}
    intents = decide(enc, knight)
    assert any(type(i) is Defend for i in intents), intents
    assert "2 attacks declared on it" in knight.why
