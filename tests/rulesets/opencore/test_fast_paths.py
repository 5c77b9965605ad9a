"""OpenCore's fast paths give what the plain paths give.

- A member's numbers kept from its first conversion (``converted``) are the numbers the
  conversion (``convert``) makes, for every member of every bundled scenario; fighters
  made from them share no mutable state.
- Bleeding with the quiet ticks taken at once (``bleed_for``) ends as ``bleed_once`` tick
  by tick does.
- Without a log, the fallen bleeding on the encounter's list (``health.Fallen``) end every
  fight as a SimPy process each does.
- The cover and visibility penalties kept by map and place (``fighter.place_penalties``) are
  the map's own at that place.
- A fighter's timed action, made once and given each round's intent (``OpenCoreFighter.turn``),
  plans and fights as an action made anew each round.
"""

import math

import pytest
from helpers import SCENARIOS, fighter_slots

from sim import scenario as scenario_mod
from sim.core.actions import TimedAction
from sim.core.battlefield import Position
from sim.core.combatant import Status
from sim.core.engine import Encounter, battlefield_for
from sim.rulesets.opencore import health
from sim.rulesets.opencore.fighter import (
    COVER_PENALTY,
    VISIBILITY_PENALTY,
    OpenCoreFighter,
    convert,
    converted,
    place_penalties,
)
from sim.rulesets.opencore.health import bleed_for, bleed_once
from sim.rulesets.opencore.ruleset import OpenCoreRuleset

SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
SCENE = scenario_mod.load(SCENARIOS / "duel.yaml")
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_a_copied_fighter_is_a_converted_one(path):
    scen = scenario_mod.load(path)
    for side in scen.sides:
        for m in side.members:
            kept = converted(m)  # the template, made on first use
            assert converted(m) is kept
            assert kept == convert(m), m.name
            one, other = (OpenCoreFighter(m, "here", kept, 10) for _ in range(2))
            assert fighter_slots(one) == fighter_slots(other), m.name
            # a fighter shares no mutable state with the template or another fighter
            assert one.abilities is not kept.abilities and one.skills is not kept.skills
            assert one.abilities is not other.abilities
            assert one.injuries is not other.injuries


def settled(f) -> dict:
    """A fighter's slots, its SimPy processes told by whether they run (not by identity)."""
    state = fighter_slots(f)
    state["effects"] = [p.is_alive for p in f.effects]
    state["bleeder"] = None if f.bleeder is None else f.bleeder.is_alive
    return state


@pytest.mark.parametrize("status", [Status.UNCONSCIOUS, Status.FLED, Status.SURRENDERED])
@pytest.mark.parametrize("bleeding", [True, False])
@pytest.mark.parametrize("ticks", [1, 2, 3, 7, math.inf])
def test_bleeding_out_at_once_is_tick_by_tick(status, bleeding, ticks):
    """``bleed_for`` leaves each fighter as ``bleed_once`` tick by tick does (no log)."""
    for hp in (*range(-12, 13), 37):
        for con, bloodloss in ((1, 0), (1, 1), (10, 1), (10, 3), (40, 2)):
            if hp <= -con or (bloodloss == 0 and hp >= 0):
                continue  # dead already, or not losing blood: never bled out
            ends = []
            for way in ("ticks", "at once"):
                enc = Encounter(SCENE, "opencore", 1)
                enc.fight_over = True
                f = enc.combatants[0]
                f.hp, f.con, f.bloodloss, f.bleeding = hp, con, bloodloss, bleeding
                enc.take_out(f, status)
                if way == "ticks":
                    left = ticks
                    while left and bleed_once(enc, f):
                        left -= 1
                else:
                    bleed_for(enc, f, ticks)
                ends.append((settled(f), enc.standing, enc.rng.random()))
            assert ends[0] == ends[1], (hp, con, bloodloss)


def test_fallen_bleed_as_processes_do(monkeypatch):
    """Every bundled scenario, 100 seeds, no log: the fallen's list on, then off (a process
    each, as with a log): the same results, HP and status; both ways the list goes back to
    processes (in a fight and after it) are taken."""
    back = []
    keep_time = health.Fallen.keep_time

    def counted(self, enc):
        back.append(enc.fight_over)
        keep_time(self, enc)

    monkeypatch.setattr(health.Fallen, "keep_time", counted)
    start = OpenCoreRuleset.start
    for path in SCENARIO_FILES:
        scen = scenario_mod.load(path)
        for seed in range(100):
            ends = []
            for on in (True, False):
                monkeypatch.setattr(OpenCoreRuleset, "start",
                                    start if on else lambda self, enc: None)
                enc = Encounter(scen, "opencore", seed)
                ends.append((enc.run(), [(c.hp, c.status) for c in enc.combatants]))
            assert ends[0] == ends[1], (path.stem, seed)
    assert set(back) == {False, True}


def test_kept_place_penalties_are_the_maps():
    """Every bundled map, each node and points along each edge, asked twice and map after
    map (the same place on two maps has two answers): the map's own cover and visibility."""
    fields = [battlefield_for(scenario_mod.load(path).map) for path in SCENARIO_FILES]
    places = {(i, i, 0.0) for f in fields for i in range(f.size)}
    places |= {(a, b, x * length) for f in fields for (a, b), length in f.edge_len.items()
               for x in (0.25, 0.5, 0.75)}
    seen = set()
    for _ in range(2):
        for pos in sorted(places):
            for field in fields:
                at = Position(*pos)
                if max(at.a, at.b) >= field.size or (at.a != at.b
                                                     and (at.a, at.b) not in field.edge_len):
                    continue
                want = (COVER_PENALTY[field.cover(at)], VISIBILITY_PENALTY[field.visibility(at)])
                assert place_penalties(field, at) == want, (field.names, at)
                seen.add(want)
    assert len(seen) > 2  # the maps differ: a key that forgot the map would fail


def test_a_kept_turn_is_a_fresh_one(monkeypatch):
    """Every bundled scenario, 20 seeds, with a log: each planned action is what a fresh one
    would be (its fighter, first intent, initiative, not done); made anew each round instead
    (each fighter's turn dropped before planning), the same results and the same logs."""
    plan_round = OpenCoreRuleset.plan_round

    def checked(self, enc, declared):
        actions = plan_round(self, enc, declared)
        fresh = [TimedAction(a.offset, f, intents[0] if intents else None, f.init)
                 for (f, intents), a in zip(
                     [(f, i) for f, i in declared if i or f.defending or f.stumbling],
                     actions, strict=True)]
        assert actions == fresh
        assert len({id(a) for a in actions}) == len(actions)
        return actions

    def anew(self, enc, declared):
        for f, _ in declared:
            f.turn = None
        return plan_round(self, enc, declared)

    for path in SCENARIO_FILES:
        scen = scenario_mod.load(path)
        for seed in range(20):
            ends = []
            for plan in (checked, anew):
                monkeypatch.setattr(OpenCoreRuleset, "plan_round", plan)
                enc = Encounter(scen, "opencore", seed, log=True)
                ends.append((enc.run(), enc.log))
            assert ends[0] == ends[1], (path.stem, seed)
