"""The nearest-foe searches shared by one round's declarations, and kept to the next round's.

``Encounter.nearest`` answers a fighter from a search made for another fighter at the same
place, or in an earlier round when nobody has moved, fallen or got up since. Every answer it
gives must be the search made afresh at that moment.
"""

from __future__ import annotations

import pytest
from helpers import ROOT

from sim.core import space
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.scenario import load

SCENARIOS = sorted(p.stem for p in (ROOT / "scenarios").glob("*.yaml"))


# the searches are shared while everyone declares at the round's start: not under a ruleset
# whose fighters declare at their own turns (OpenD6), when fighters move between declarations
SHARING = [n for n in registry.names() if not registry.get(n).declares_at_turn]


@pytest.mark.parametrize("ruleset", SHARING)
def test_every_kept_search_is_the_search_made_now(ruleset, monkeypatch):
    fresh = space._nearest_foes
    kept_answers = 0

    def checked(enc, c):
        nonlocal kept_answers
        kept = enc.nearest.get((c.pos, c.side)) if enc.nearest is not None else None
        if kept is not None:
            kept_answers += 1
            assert kept == fresh(enc, c.pos, c.side), (enc.seed, enc.round, c.name)
        return nearest_enemy(enc, c)

    nearest_enemy = space.nearest_enemy
    monkeypatch.setattr(space, "nearest_enemy", checked)
    for name in SCENARIOS:  # every bundled scenario
        scen = load(ROOT / "scenarios" / f"{name}.yaml")
        for seed in range(15):
            Encounter(scen, ruleset, seed).run()
    assert kept_answers > 100  # the check ran on kept answers, not only on fresh searches
