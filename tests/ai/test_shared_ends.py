"""Lines that come to the same state are fought on once (``rollout.play_out``'s ``ends``).

A rollout reads the fight's state at the start of the rounds after the moment's
(``sim.core.state``); one that reaches a state another line's rollout on the same dice
reached ends as that one did. That is only a saving if it changes no number: under every
ruleset, on menus where lines come together (a queue on a footbridge, called shots at a
brawl that all miss, arrows at swordsmen far off), every rollout ends as it does fought out
in full, and a weighing gives the same table either way. Hiding a place from the state
shows that the check can fail.
"""

from __future__ import annotations

import pytest
from helpers import ROOT

from sim import scenario as scenario_mod
from sim.ai import rollout, whatif
from sim.core import state
from sim.core.engine import Encounter
from sim.rulesets import registry

CASES = (("footbridge", "Raider 1"), ("brawl", "Local 1"), ("charge", "Archer 1"))


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


def _outcomes(m, choices, rollouts: int, ends):
    """Every line's rollouts, line after line, sharing ``ends`` (None: each fought out)."""
    return [[rollout.play_out(m, ch, i, ends=ends) for i in range(rollouts)]
            for ch in choices]


class _Counted(rollout._Known):  # noqa: SLF001 (a rollout ended as another did)
    ended = 0

    def __init__(self, outcome):
        super().__init__(outcome)
        _Counted.ended += 1


@pytest.mark.parametrize("ruleset", registry.names())
@pytest.mark.parametrize(("scenario", "name"), CASES)
def test_a_rollout_ends_as_it_does_fought_out_in_full(scenario, name, ruleset, monkeypatch):
    m, choices = _moment(scenario, name, ruleset)
    monkeypatch.setattr(rollout, "_Known", _Counted)
    _Counted.ended = 0
    shared = _outcomes(m, choices, 6, {})
    assert shared == _outcomes(m, choices, 6, None)
    if scenario != "charge":  # (the footbridge's queue, the brawl's misses: some always)
        assert _Counted.ended > 0


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_weighing_gives_the_same_table_with_its_lines_fought_once(ruleset):
    m, choices = _moment("footbridge", "Raider 1", ruleset)
    assert (whatif.weigh(m, choices, 24, workers=1)
            == whatif.weigh(m, choices, 24, workers=1, share=False))


def test_hiding_a_place_from_the_state_ends_rollouts_wrongly(monkeypatch):
    """The check above can fail: with the fighters' places left out of the state, a
    walk and a stand are taken for the same, and some rollout ends as the other did."""
    ruleset = registry.names()[0]
    m, choices = _moment("footbridge", "Raider 1", ruleset)
    fought = _outcomes(m, choices, 6, None)
    monkeypatch.setattr(state, "NOT_STATE", state.NOT_STATE | {"pos"})
    monkeypatch.setattr(state, "_SLOTS", {})
    monkeypatch.setattr(state, "_KEPT", {})
    assert _outcomes(m, choices, 6, {}) != fought
