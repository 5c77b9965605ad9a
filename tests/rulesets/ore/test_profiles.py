"""How the AI profiles differ under ORE's dice pools and B-Grade's reckless attacks."""

from __future__ import annotations

from builders import duelists

from sim.ai import profiles as ai


def test_aggressive_presses_past_basic_under_ore():
    """On a 6-die ORE pool basic makes one plain attack; aggressive takes the declaration
    with the best expectation (a called head shot), which basic never makes."""
    enc, a, b = duelists("basic", "ore")
    assert ai.decide(enc, a) == [b.plain_attack]
    enc, a, b = duelists("aggressive", "ore")
    intents = ai.decide(enc, a)
    assert intents != [b.plain_attack] and any(i.called for i in intents), a.why


def test_aggressive_adds_a_reckless_attack_where_tactical_stops():
    """B-Grade: where the expectation advises one plain attack, aggressive adds a second
    while the first still lands RECKLESS_ODDS of the time; tactical does not."""
    enc, a, b = duelists("tactical", "bgrade")
    enc.advisor.extra_attacks = lambda *_: 0  # the expectation: one attack
    enc.advisor.attack_and_defend = lambda *_: False
    assert ai.decide(enc, a) == [b.plain_attack]
    enc, a, b = duelists("aggressive", "bgrade")
    enc.advisor.extra_attacks = lambda *_: 0
    assert ai.decide(enc, a) == [b.plain_attack, b.plain_attack]
    assert "reckless" in a.why
