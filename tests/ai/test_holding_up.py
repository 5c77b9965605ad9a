"""Tactical's choices that ``bench/regret.py`` found short of the best line, as fixed, and
its variety where its estimates cannot tell lines apart (docs/ai.md "How well tactical
chooses")."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from builders import ARCHER, SOLDIER, duelists, on_field

from sim.ai import profiles as ai
from sim.ai import tactics
from sim.core.actions import Attack, Defend, Move
from sim.core.draws import near_best
from sim.rulesets import registry

RULESETS = registry.names()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_outshot_melee_fighter_goes_for_the_shooters_not_the_nearest_brawler(ruleset):
    """No foe in reach and more foe shooters than its side has: the nearest foe shooter
    (the ambush at the ford: 0.69 of fights won going for the brawler, 0.99 for the archers)."""
    enc = on_field(ruleset, [{"name": "A", "ai": "tactical", "at": "camp", **SOLDIER}],
                   [{"name": "B", "at": "wall", **SOLDIER},
                    {"name": "C", "count": 2, "at": "field", **ARCHER}])
    a = enc.sides["a"][0]
    assert tactics.quarry(enc, a, enc.enemies(a)).name.startswith("C")
    intents = ai.decide(enc, a)
    move = next(i for i in intents if type(i) is Move)
    assert move.target.ranged, (intents, a.why)


def test_a_side_not_outshot_picks_its_foe_as_before():
    enc = on_field(RULESETS[0], [{"name": "A", "ai": "tactical", "at": "camp", **SOLDIER},
                                 {"name": "S", "count": 2, "at": "camp", **ARCHER}],
                   [{"name": "B", "at": "wall", **SOLDIER},
                    {"name": "C", "count": 2, "at": "field", **ARCHER}])
    a = enc.sides["a"][0]
    assert tactics.quarry(enc, a, enc.enemies(a)) is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tactical_keeps_several_attacks_rather_than_one_and_a_defense(ruleset):
    """Where the best declaration makes several attacks, the guard (one attack and a
    defense) does not cut it down: under OpenD6 two attacks won the duel more often."""
    enc, a, b = duelists("tactical", ruleset)
    most = enc.ruleset.max_actions
    if most is not None and most < 2 or not enc.advisor.defense_kind(enc, a, ranged=False):
        pytest.skip("no attack and defense in one round under this ruleset")
    enc.advisor.attack_and_defend = lambda *_: True
    enc.advisor.tactical_attack = lambda *_: ([b.plain_attack, b.plain_attack], "2 attacks")
    assert ai.decide(enc, a) == [b.plain_attack, b.plain_attack], a.why
    enc.advisor.tactical_attack = lambda *_: ([b.plain_attack], "")
    intents = ai.decide(enc, a)
    assert [type(i) for i in intents] == [Attack, Defend], a.why


class _Enc:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)


def test_near_best_draws_among_the_lines_within_the_slack_whatever_their_order():
    lines = [("a", 1.0), ("b", 0.97), ("c", 0.5)]
    for order in (lines, lines[::-1]):
        seen = Counter(near_best(_Enc(s), order, lambda x: x[1], 0.05)[0] for s in range(200))
        assert set(seen) == {"a", "b"} and min(seen.values()) > 60
    enc = _Enc(1)
    state = enc.rng.getstate()
    assert near_best(enc, lines, lambda x: x[1], 0.01)[0] == "a"
    assert enc.rng.getstate() == state  # a lone best draws nothing
    assert near_best(enc, [], lambda x: 0.0, 0.05) is None



@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_holder_whose_charge_is_held_back_does_not_swing_at_a_foe_out_of_reach(ruleset):
    """A spearman holding the bridge keeps to it: a charge its profile declares loses its
    move, and with it the attack on the foe the move was to reach (struck at from the
    bridge, 8 m off, it was a wasted miss, seen in an OpenD6 footbridge log)."""
    from helpers import scenario

    from sim.ai import holding
    from sim.core.engine import Encounter

    spear = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3},
             "weapon": "spear"}
    enc = Encounter(scenario(
        {"spearmen": [{"name": "P", "at": "bridge", "ai": {"profile": "tactical",
                                                            "hold": "bridge"}, **spear}],
         "raiders": [{"name": "R", "at": "east", **spear}]},
        map={"nodes": {"bridge": {"width": 1}, "east": {}},
             "edges": [["bridge", "east", 8]]}), ruleset, 1)
    p, r = enc.combatants
    kept = holding.keep(enc, p, [Move(r, stop_at=2.0), Attack(r)], "bridge")
    assert not any(type(i) in (Attack, Move) for i in kept)  # it holds (or defends)
