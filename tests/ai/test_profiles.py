"""AI profiles: what a fighter declares and the reason it gives (``sim/ai/profiles.py``)."""

from __future__ import annotations

import pytest
from builders import duelists
from helpers import scenario

from sim.ai import profiles as ai
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.report.panel import situation
from sim.rulesets import registry


@pytest.mark.parametrize("profile", ["basic", "aggressive", "cautious", "tactical"])
@pytest.mark.parametrize("ruleset", registry.names())
def test_with_every_foe_out_a_fighter_says_so_not_an_old_reason(ruleset, profile):
    """Under OpenD6's side initiative the last foe can fall within the side's own turn: a
    later member declared nothing with the last reason it had, naming a foe already dead."""
    enc = Encounter(scenario({"a": [{"name": "A", "ai": profile}],
                              "b": [{"name": "B"}]}), ruleset, 1)
    a, b = enc.combatants
    a.why = "B in reach"  # what it said last round
    enc.take_out(b, Status.DEAD)
    assert ai.decide(enc, a) == []
    assert a.why == ai.NO_FOE


@pytest.mark.parametrize("ruleset", registry.names())
def test_the_panel_says_what_the_attacks_on_a_fighter_are(ruleset):
    """Declared at the round's start, they are still to come; declared at each turn
    (OpenD6), they were made by the faster fighters already."""
    enc = Encounter(scenario({"a": [{"name": "A"}], "b": [{"name": "B"}]}), ruleset, 1)
    a, b = enc.combatants
    enc.declared = {b: [a.plain_attack]}
    text = situation(enc, a)
    said = ("attacks on you this round so far: B (1)" if enc.ruleset.declares_at_turn
            else "attacks already declared on you: B (1)")
    assert said in text


# ---------------------------------------------------------------------------- how they differ
@pytest.mark.parametrize("ruleset", registry.names())
def test_tactical_adds_a_defense_when_both_pay_aggressive_never(ruleset):
    from sim.core.actions import Defend

    enc, a, b = duelists("tactical", ruleset)
    if not enc.advisor.defense_kind(enc, a, ranged=False) or enc.ruleset.max_actions == 1:
        pytest.skip("no defense beside an attack under this ruleset")
    enc.advisor.attack_and_defend = lambda *_: True
    enc.advisor.tactical_attack = lambda e, c, t: ([t.plain_attack], "")
    enc.declared = {b: [a.plain_attack]}
    intents = ai.decide(enc, a)
    assert intents[0] == b.plain_attack and type(intents[-1]) is Defend, a.why
    enc, a, b = duelists("aggressive", ruleset)
    enc.advisor.attack_and_defend = lambda *_: True
    enc.declared = {b: [a.plain_attack]}
    assert not any(type(i) is Defend for i in ai.decide(enc, a))
