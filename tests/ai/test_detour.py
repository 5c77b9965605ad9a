"""Going round a held narrow place (``sim.ai.detour``), under every ruleset."""

from __future__ import annotations

import pytest
from helpers import scenario

from sim import registry
from sim.ai import detour, holding, profiles
from sim.core.actions import Move, Retreat
from sim.core.engine import Encounter

RULESETS = registry.names()
CLUB = {"weapon": "club", "skills": {"melee": 2}, "ai": "aggressive"}
SPEAR = {"name": "Holder", "at": "bridge", "weapon": "spear", "skills": {"melee": 3},
         "ai": {"profile": "tactical", "hold": "bridge"}}


def crossing(ford: float | None) -> dict:
    """Two banks joined by a one-man bridge (8 m a side), and a ford ``ford`` m a side."""
    edges = [["east", "bridge", 8], ["bridge", "west", 8]]
    if ford is not None:
        edges += [["east", "ford", ford], ["ford", "west", ford]]
    nodes = {"east": {}, "bridge": {"width": 1}, "west": {}}
    if ford is not None:
        nodes["ford"] = {}
    return {"nodes": nodes, "edges": edges}


def queue(ruleset: str, ford: float | None, raiders: int = 5) -> Encounter:
    """``raiders`` at the bridge's foot: the first in its holder's reach, the rest behind."""
    enc = Encounter(scenario({"holders": [SPEAR],
                              "raiders": [{"name": "R", "at": "east", "count": raiders,
                                           **CLUB}]}, map=crossing(ford)), ruleset, 1)
    field = enc.field
    holder, *rest = enc.combatants
    front = field.advance(field.node("bridge"), field.node("east"), 3.0)
    behind = field.advance(field.node("bridge"), field.node("east"), 3.0 + 1e-6)
    rest[0].pos = front
    for r in rest[1:]:
        r.pos = behind
    return enc


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_back_of_a_long_queue_goes_round_and_keeps_to_it(ruleset):
    enc = queue(ruleset, ford=40.0, raiders=6)
    _, first, *waiting = enc.combatants
    going = [r for r in waiting if (i := profiles.decide(enc, r)) and type(i[0]) is Retreat]
    # the next in line waits a few rounds at most; the fifth behind the front waits 12
    assert 1 <= len(going) <= len(waiting) - 1
    r = going[0]
    kept = list(enc.ai_kept[("detour", r.name)])
    assert "bridge" not in kept and kept[-1] in ("west", "ford")
    r.pos = enc.field.node("east")  # on its way: it keeps to the way round, no turning back
    again = profiles.decide(enc, r)
    assert type(again[0]) is Retreat and again[0].dest == enc.field.node(kept[1])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_way_round_or_a_long_one_means_waiting(ruleset):
    for ford in (None, 400.0):
        enc = queue(ruleset, ford=ford)
        for r in enc.combatants[2:]:
            intents = profiles.decide(enc, r)
            assert not intents or type(intents[0]) is not Retreat, (ford, r.name, intents)
            assert ("detour", r.name) not in enc.ai_kept


def test_the_queue_order_among_fighters_standing_together_is_drawn_once():
    enc = queue(RULESETS[0], ford=10.0)
    waiting = enc.combatants[2:]
    ahead = sorted(detour._queue_ahead(enc, r, "bridge") for r in waiting)
    assert ahead == [1, 2, 3, 4]  # the first in reach, then each of the others in turn
    assert ahead == sorted(detour._queue_ahead(enc, r, "bridge") for r in waiting)


# ---------------------------------------------------------------------------- choosing to hold
def few_against_many(profile: str, raiders: int = 5, weapon: str = "spear") -> Encounter:
    holders = [{"name": "Ulric", "at": "bridge", "weapon": weapon, "ai": profile},
               {"name": "Wendel", "at": "west", "weapon": weapon, "ai": profile}]
    return Encounter(scenario({"holders": holders,
                               "raiders": [{"name": "R", "at": "east", "count": raiders,
                                            **CLUB}]}, map=crossing(40.0)), RULESETS[0], 1)


@pytest.mark.parametrize("profile", ["tactical", "cautious"])
def test_the_few_hold_a_narrow_place_between_them_and_the_many(profile):
    enc = few_against_many(profile)
    for c in enc.sides["holders"]:
        assert holding.place_of(enc, c) == "bridge"
    # the second holder walks up behind the first, never past the bridge toward the foes
    wendel = enc.sides["holders"][1]
    intents = profiles.decide(enc, wendel)
    assert not intents or type(intents[0]) is not Move


@pytest.mark.parametrize("profile, raiders, weapon", [
    ("basic", 5, "spear"),        # a simple profile goes for the foe
    ("aggressive", 5, "spear"),
    ("tactical", 2, "spear"),     # as many as the foes: no need to
    ("tactical", 5, "bow"),       # a shooter does not hold a bridge with its body
])
def test_no_chosen_hold_otherwise(profile, raiders, weapon):
    enc = few_against_many(profile, raiders, weapon)
    assert all(holding.place_of(enc, c) is None for c in enc.sides["holders"])
