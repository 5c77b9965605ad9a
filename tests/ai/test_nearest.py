"""The nearest-foe searches kept while nobody moves, falls or gets up.

``Encounter.nearest_kept`` answers a fighter from a search made for another fighter at the
same place, earlier in the round's declarations, at an earlier turn or in an earlier round,
when nobody has moved (``Encounter.place``), fallen or got up since. Every answer it gives
must be the search made afresh at that moment, under every ruleset (OpenD6's fighters move
between their turns' declarations).
"""

from __future__ import annotations

import pytest
from helpers import ROOT

from sim.core import space
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.scenario import load

SCENARIOS = sorted(p.stem for p in (ROOT / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("ruleset", registry.names())
def test_every_kept_search_is_the_search_made_now(ruleset, monkeypatch):
    fresh = space._nearest_foes
    kept_answers = 0

    def checked(enc, c):
        nonlocal kept_answers
        kept = enc.nearest_kept.get((c.pos, c.side))
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


def test_a_move_drops_the_kept_searches():
    """A foe that walks up is the nearest at once (without ``place`` dropping the kept
    search, the fighter would still see the foe that stood nearer before)."""
    scen = load(ROOT / "scenarios" / "mirror.yaml")
    enc = Encounter(scen, registry.names()[0], 0)
    c = enc.sides["west"][0]
    far = space.nearest_enemy(enc, c)
    assert far is not None and enc.nearest_kept
    other = next(e for e in enc.foes_of(c.side) if e is not far)
    enc.place(other, c.pos)
    assert not enc.nearest_kept
    assert space.nearest_enemy(enc, c) is other


@pytest.mark.parametrize("ruleset", registry.names())
def test_who_presses_a_deciding_shooter_is_asked_once_and_right(ruleset, monkeypatch):
    """``space.pressed`` keeps its answer for the fighter whose AI decides
    (``Encounter.deciding``): every kept answer is the one asked afresh."""
    pressed = space.pressed
    kept_answers = 0

    def checked(enc, c):
        nonlocal kept_answers
        if c is enc.deciding and enc.deciding_pressed is not None:
            kept_answers += 1
            assert enc.deciding_pressed == bool(space.threatened_in_melee(enc, c, c.pos))
        return pressed(enc, c)

    monkeypatch.setattr(space, "pressed", checked)
    for name in SCENARIOS:
        scen = load(ROOT / "scenarios" / f"{name}.yaml")
        for seed in range(8):
            enc = Encounter(scen, ruleset, seed)
            enc.run()
            assert enc.deciding is None
    assert kept_answers > 0  # the check ran on kept answers
