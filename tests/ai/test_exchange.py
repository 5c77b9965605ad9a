"""The hopeless exchange (RULES.md "A hopeless exchange"; ``Encounter.tally_exchange``).

A round counts toward a fighter's broken morale only when its side took harm that lasts,
did none, and the fighter could have struck back: raiders walking up to archers under
their arrows are not routed by the rounds of the walk.
"""

from __future__ import annotations

import pytest
from helpers import scenario

from sim.ai import morale, standoff
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.core.harm import Harm
from sim.rulesets import registry

FIELD = {"nodes": {"ford": {}, "rise": {}}, "edges": [["ford", "rise", 40]]}
RAIDER = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3},
          "weapon": "sword", "armor": "leather", "ai": {"profile": "aggressive", "morale": 0.9}}
ARCHER = {"traits": {"agility": 3, "dexterity": 4}, "skills": {"ranged": 4},
          "weapon": "bow", "ai": "tactical"}


def field(ruleset: str) -> Encounter:
    """Three raiders at the ford, one of them down; two archers on the rise, 40 m off."""
    sides = {"raiders": [{"name": "Raider", "count": 3, "at": "ford", **RAIDER}],
             "archers": [{"name": "Archer", "count": 2, "at": "rise", **ARCHER}]}
    enc = Encounter(scenario(sides, map=FIELD), ruleset, 1)
    enc.ruleset.start(enc)
    enc.take_out(enc.sides["raiders"][2], Status.DEAD)  # one down: the rule may apply
    return enc


def shot_at(enc: Encounter, rounds: range) -> None:
    """The archers wound a raider every round of ``rounds``; the raiders do nothing."""
    archer, raider = enc.sides["archers"][0], enc.sides["raiders"][0]
    for rnd in rounds:
        enc.round = rnd
        enc.record_hit(archer, raider, Harm(1))
        enc.tally_exchange()
        morale.check(enc)


@pytest.mark.parametrize("ruleset", registry.names())
def test_rounds_spent_walking_up_under_arrows_do_not_count(ruleset):
    enc = field(ruleset)
    walker = enc.sides["raiders"][0]
    ford = walker.pos
    walker.pos = enc.sides["archers"][0].pos  # the exchange began (a melee won, say) ...
    enc.round = 1
    assert standoff.contact(enc, "raiders") == 1
    walker.pos = ford  # ... and the raiders walk up to the archers again from the ford
    shot_at(enc, range(2, 2 + 2 * morale.HOPELESS_ROUNDS))
    assert standoff.unanswered(enc, walker) == 0
    assert walker.in_fight and not walker.fleeing


@pytest.mark.parametrize("ruleset", registry.names())
def test_rounds_hurt_with_a_foe_in_reach_count_until_morale_breaks(ruleset):
    enc = field(ruleset)
    near, far = enc.sides["raiders"][:2]
    near.pos = enc.sides["archers"][0].pos  # it reached the archers: it could strike
    shot_at(enc, range(1, morale.HOPELESS_ROUNDS))
    assert standoff.unanswered(enc, near) == morale.HOPELESS_ROUNDS - 1
    assert standoff.unanswered(enc, far) == 0  # still out of reach: nothing counts for it
    assert near.in_fight and not near.fleeing
    shot_at(enc, range(morale.HOPELESS_ROUNDS, morale.HOPELESS_ROUNDS + 1))
    assert not near.in_fight or near.fleeing  # yields to the archer at its side, or flees
    assert far.in_fight and not far.fleeing


def test_harm_done_starts_every_count_again():
    enc = field(registry.default())
    near = enc.sides["raiders"][0]
    near.pos = enc.sides["archers"][0].pos
    shot_at(enc, range(1, 3))
    assert standoff.unanswered(enc, near) == 2
    enc.round = 3
    enc.record_hit(near, enc.sides["archers"][0], Harm(1))  # it hurts back
    enc.tally_exchange()
    assert standoff.unanswered(enc, near) == 0

