"""Lines side by side, fought on once where they come together (``sim.ai.together``).

The rollouts of one index, every line on the same dice, halt at the start of the rounds
after the moment's; lines in the same state there (``sim.core.state``) are fought on once.
That is only a saving if it changes no number: under every ruleset, on menus where lines
come together (a queue on a footbridge, called shots at a brawl that all miss, arrows at
swordsmen far off), every rollout ends as it does fought out alone, and a weighing gives
the same table either way. Hiding the dice from the state shows that the check can fail.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import ROOT

from sim import scenario as scenario_mod
from sim.ai import rollout, together, whatif
from sim.core import state
from sim.core.engine import Encounter
from sim.rulesets import registry

CASES = (("footbridge", "Raider 1"), ("brawl", "Local 1"), ("charge", "Archer 1"))
ROLLOUTS = 6


class _Stop(Exception):
    pass


def _moment(scenario: str, name: str, ruleset: str, seed: int = 1):
    found = {}

    def mind(enc, c):
        found["m"], found["ch"] = rollout.moment(enc, c), rollout.choices(enc, c)
        raise _Stop

    scen = scenario_mod.load(ROOT / "scenarios" / f"{scenario}.yaml")
    with pytest.raises(_Stop):
        Encounter(scen, ruleset, seed, minds={name: mind}).run()
    return found["m"], found["ch"]


def _alone(m, choices):
    return [[rollout.play_out(m, ch, i) for ch in choices] for i in range(ROLLOUTS)]


def _together(m, choices):
    played = [together.play_out_together(m, choices, i) for i in range(ROLLOUTS)]
    return [outs for outs, _ in played], sum(len(ended) for _, ended in played)


@pytest.mark.parametrize("ruleset", registry.names())
@pytest.mark.parametrize(("scenario", "name"), CASES)
def test_every_rollout_ends_as_it_does_fought_out_alone(scenario, name, ruleset):
    m, choices = _moment(scenario, name, ruleset)
    outs, ended = _together(m, choices)
    assert outs == _alone(m, choices)
    if scenario == "footbridge":  # (the raiders queued behind: some always come together)
        assert ended > 0


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_weighing_gives_the_same_table_with_its_lines_side_by_side(ruleset):
    m, choices = _moment("footbridge", "Raider 1", ruleset)
    # (but for the lines found to be one fight, which only lines side by side can find)
    side_by_side = [replace(w, as_one=()) for w in whatif.weigh(m, choices, 24, workers=1)]
    assert side_by_side == whatif.weigh(m, choices, 24, workers=1, share=False)


def test_hiding_the_dice_from_the_state_ends_rollouts_wrongly(monkeypatch):
    """The check above can fail: with the generator left out of the state, lines that
    drew different dice but stand alike are taken for the same, and end alike."""
    ruleset = registry.names()[0]
    m, choices = _moment("footbridge", "Raider 1", ruleset)
    alone = _alone(m, choices)
    monkeypatch.setattr(state, "NOT_STATE", state.NOT_STATE | {"rng"})
    monkeypatch.setattr(state, "_SLOTS", {})
    monkeypatch.setattr(state, "_KEPT", {})
    assert _together(m, choices)[0] != alone


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_fight_halted_at_every_rounds_start_goes_on_as_it_would_have(ruleset):
    scen = scenario_mod.load(ROOT / "scenarios" / "footbridge.yaml")
    plain = Encounter(scen, ruleset, 5, log=True)
    plain.run()
    enc = Encounter(scen, ruleset, 5, log=True)
    halt, gates = [enc.env.event()], []

    def at_round(e):
        if e.env._queue:  # (an effect due now too: no halt, as ``together`` does)
            return None
        halt[0].succeed()
        gates.append(e.env.event())
        return gates[-1]

    enc.at_round = at_round
    halts = 0
    while not enc.fight_on(halt[0]):
        halts += 1
        gates[-1].succeed()
        halt[0] = enc.env.event()
    enc.ended()
    assert halts > 3
    assert enc.log == plain.log


def test_lines_marked_one_fight_ended_alike_on_every_rollout_and_say_so_of_each_other():
    """``Weighed.as_one`` is exact: two lines marked so ended alike on each rollout both
    had, fought out alone; each names the other; and the footbridge's queue gives such
    lines under some ruleset (two walks a queue stops alike)."""
    marked = 0
    for ruleset in registry.names():
        m, choices = _moment("footbridge", "Raider 1", ruleset)
        weighed = {w.choice.key: w for w in whatif.weigh(m, choices, 10, workers=1)}
        by_key = {ch.key: ch for ch in choices}
        for w in weighed.values():
            for other in w.as_one:
                assert w.choice.key in weighed[other].as_one
                if other < w.choice.key:  # (each pair once)
                    continue
                marked += 1
                both = min(w.planned, weighed[other].planned)
                assert ([rollout.play_out(m, w.choice, i) for i in range(both)]
                        == [rollout.play_out(m, by_key[other], i) for i in range(both)])
    assert marked > 0
