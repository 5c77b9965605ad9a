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


def test_bgrade_tactical_declares_an_attack_for_every_set_the_roll_could_hold():
    """B-Grade's extra actions cost nothing: with no defense beside them, tactical (and
    aggressive, which takes its attacks) declares one attack a set the roll could hold,
    where the expected number of sets says one (one attack lost the duel more often:
    docs/ai.md "How well tactical chooses")."""
    for profile in ("tactical", "aggressive"):
        enc, a, b = duelists(profile, "bgrade")
        enc.advisor.extra_attacks = lambda *_: 0  # the expectation: one attack
        enc.advisor.attack_and_defend = lambda *_: False
        enc.advisor.defense_kind = lambda *_, **__: None
        dice = enc.advisor.dice(enc, a, [b.plain_attack]) + a.bonus
        assert ai.decide(enc, a) == [b.plain_attack] * min(4, dice // 2), a.why
