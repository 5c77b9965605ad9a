"""Going round a held narrow place (``sim.ai.detour``), under every ruleset."""

from __future__ import annotations

import pytest
from helpers import scenario

from sim import registry
from sim.ai import detour, holding, profiles, rollout
from sim.core import space
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
    second = {**SPEAR, "name": "Second", "at": "west"}
    enc = Encounter(scenario({"holders": [SPEAR, second],
                              "raiders": [{"name": "R", "at": "east", "count": raiders,
                                           **CLUB}]}, map=crossing(ford)), ruleset, 1)
    field = enc.field
    holder, _, *rest = enc.combatants
    front = field.advance(field.node("bridge"), field.node("east"), 3.0)
    behind = field.advance(field.node("bridge"), field.node("east"), 3.0 + 1e-6)
    rest[0].pos = front
    for r in rest[1:]:
        r.pos = behind
    return enc


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_back_of_a_long_queue_goes_round_and_keeps_to_it(ruleset):
    enc = queue(ruleset, ford=40.0, raiders=6)
    _, _, first, *waiting = enc.combatants
    going = [r for r in waiting if (i := profiles.decide(enc, r)) and type(i[0]) is Retreat]
    # the next in line waits a few rounds at most; the fifth behind the front waits 12
    assert 1 <= len(going) <= len(waiting) - 1
    r = going[0]
    foe, place, kept = enc.ai_kept[("detour", r.name)]
    # it goes for the holder it can strike from beyond the bridge's front
    assert (foe, place) == ("Second", "bridge") and kept[-1] == "west" and "bridge" not in kept
    r.pos = enc.field.node("east")  # on its way: it keeps to the way round, no turning back
    again = profiles.decide(enc, r)
    assert type(again[0]) is Retreat and again[0].dest == enc.field.node(kept[1])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_way_round_or_a_long_one_means_waiting(ruleset):
    for ford in (None, 400.0):
        enc = queue(ruleset, ford=ford)
        for r in enc.combatants[3:]:
            intents = profiles.decide(enc, r)
            assert not intents or type(intents[0]) is not Retreat, (ford, r.name, intents)
            assert ("detour", r.name) not in enc.ai_kept


def test_the_queue_order_among_fighters_standing_together_is_drawn_once():
    enc = queue(RULESETS[0], ford=10.0)
    waiting = enc.combatants[3:]
    ahead = sorted(detour._queue_ahead(enc, r, "bridge") for r in waiting)
    assert ahead == [1, 2, 3, 4]  # the first in reach, then each of the others in turn
    assert ahead == sorted(detour._queue_ahead(enc, r, "bridge") for r in waiting)


# ---------------------------------------------------------------------------- choosing to hold
def few_against_many(profile: str, raiders: int = 5, weapon: str = "spear",
                     theirs: str = "club") -> Encounter:
    holders = [{"name": "Ulric", "at": "bridge", "weapon": weapon, "ai": profile},
               {"name": "Wendel", "at": "west", "weapon": weapon, "ai": profile}]
    return Encounter(scenario({"holders": holders,
                               "raiders": [{"name": "R", "at": "east", "count": raiders,
                                            **CLUB, "weapon": theirs}]},
                              map=crossing(40.0)), RULESETS[0], 1)


@pytest.mark.parametrize("profile", ["tactical", "cautious"])
def test_the_few_hold_a_narrow_place_between_them_and_the_many(profile):
    enc = few_against_many(profile)
    for c in enc.sides["holders"]:
        assert holding.place_of(enc, c) == "bridge"
    # the second holder walks up behind the first, never past the bridge toward the foes
    wendel = enc.sides["holders"][1]
    intents = profiles.decide(enc, wendel)
    assert not intents or type(intents[0]) is not Move


@pytest.mark.parametrize("profile, raiders, weapon, theirs", [
    ("basic", 5, "spear", "club"),        # a simple profile goes for the foe
    ("aggressive", 5, "spear", "club"),
    ("tactical", 2, "spear", "club"),     # as many as the foes: no need to
    ("tactical", 5, "bow", "club"),       # a shooter does not hold a bridge with its body
    ("tactical", 5, "spear", "bow"),      # archers shoot over a bridge: holding it is no use
])
def test_no_chosen_hold_otherwise(profile, raiders, weapon, theirs):
    enc = few_against_many(profile, raiders, weapon, theirs)
    assert all(holding.place_of(enc, c) is None for c in enc.sides["holders"])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_nobody_goes_round_to_a_foe_it_could_strike_only_from_the_front(ruleset):
    """A lone holder on the bridge: from the far bank it is the same queue."""
    enc = Encounter(scenario({"holders": [SPEAR],
                              "raiders": [{"name": "R", "at": "east", "count": 6, **CLUB}]},
                             map=crossing(10.0)), ruleset, 1)
    field = enc.field
    holder, *rest = enc.combatants
    rest[0].pos = field.advance(field.node("bridge"), field.node("east"), 3.0)
    for r in rest[1:]:
        r.pos = field.advance(field.node("bridge"), field.node("east"), 3.0 + 1e-6)
    for r in rest[1:]:
        intents = profiles.decide(enc, r)
        assert not intents or type(intents[0]) is not Retreat, (r.name, intents)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_question_aside_keeps_no_way_round_and_draws_nothing(ruleset):
    """A menu's suggestion asks the AI aside (``rollout.aside``): the fight is as it was."""
    enc = queue(ruleset, ford=40.0, raiders=6)
    last = max(enc.combatants[3:], key=lambda r: detour._queue_ahead(enc, r, "bridge"))
    state, kept = enc.rng.getstate(), dict(enc.ai_kept)
    with rollout.aside(enc, last):
        assert type(profiles.decide(enc, last)[0]) is Retreat  # it would go round
    assert enc.rng.getstate() == state and enc.ai_kept == kept


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_flight_does_not_run_past_a_foe_to_the_exit_behind_him(ruleset):
    """The exit beyond the held bridge is barred; the open one is taken, else away."""
    for exits, open_one in ((("west",), None), (("west", "ford"), "ford")):
        map_ = crossing(40.0)
        for name in exits:
            map_["nodes"][name] = {"exit": True}
        enc = Encounter(scenario({"holders": [SPEAR],
                                  "raiders": [{"name": "R", "at": "east", **CLUB}]},
                                 map=map_), ruleset, 1)
        _, raider = enc.combatants
        dest, is_exit = space.way_out(enc, raider)
        if open_one is None:
            assert not is_exit and dest != enc.field.node("west")
        else:
            assert is_exit and dest == enc.field.node(open_one)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_way_round_ends_at_its_last_place_whichever_it_passed(ruleset):
    """A run that passes places of the way (its first one beside it) still ends it there."""
    enc = queue(ruleset, ford=40.0, raiders=6)
    last = max(enc.combatants[3:], key=lambda r: detour._queue_ahead(enc, r, "bridge"))
    assert type(profiles.decide(enc, last)[0]) is Retreat
    _, _, way = enc.ai_kept[("detour", last.name)]
    last.pos = enc.field.node(way[-1])
    assert detour.follow(enc, last) is None and ("detour", last.name) not in enc.ai_kept


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_way_round_keeps_off_another_narrow_place_held_against_it(ruleset):
    """The ford is one man wide too, and a spearman holds it: the queue at the bridge does
    not go round into a second queue; with a long open way as well, it takes that one."""
    def fight(long_way: bool) -> Encounter:
        """``queue``'s six raiders at the bridge, the ford held by a third spearman."""
        warden = {**SPEAR, "name": "Warden", "at": "ford",
                  "ai": {"profile": "tactical", "hold": "ford"}}
        banks = crossing(40.0)
        banks["nodes"]["ford"] = {"width": 1}
        if long_way:
            banks["nodes"]["hill"] = {}
            banks["edges"] += [["east", "hill", 45], ["hill", "west", 45]]
        holders = [SPEAR, {**SPEAR, "name": "Second", "at": "west"}, warden]
        raiders = [{"name": "R", "at": "east", "count": 6, **CLUB}]
        enc = Encounter(scenario({"holders": holders, "raiders": raiders}, map=banks),
                        ruleset, 1)
        field = enc.field
        for k, r in enumerate(enc.combatants[3:]):  # the first in reach, the rest behind
            r.pos = field.advance(field.node("bridge"), field.node("east"),
                                  3.0 if k == 0 else 3.0 + 1e-6)
        return enc

    enc = fight(long_way=False)
    for r in enc.combatants[4:]:
        intents = profiles.decide(enc, r)
        assert not intents or type(intents[0]) is not Retreat, (r.name, intents)
    enc = fight(long_way=True)
    going = [r for r in enc.combatants[4:]
             if (i := profiles.decide(enc, r)) and type(i[0]) is Retreat]
    assert going
    for r in going:
        _, place, kept = enc.ai_kept[("detour", r.name)]
        assert place == "bridge" and "ford" not in kept and "hill" in kept
