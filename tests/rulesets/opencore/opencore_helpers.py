"""Builders shared by the OpenCore tests: scenarios, members, duels and hand-set d100s."""

from helpers import StubRandom, face

from sim import scenario as scenario_mod
from sim.core.actions import Attack, TimedAction
from sim.core.engine import Encounter

BIG = 100_000  # hit points / Toughness that nothing in a test gets through


def parse(sides: dict, **top) -> scenario_mod.Scenario:
    return scenario_mod.parse({"name": "t", "ruleset": "opencore", **top, "sides": sides})


def member(name: str, ai: str = "basic", weapon: str = "sword", **oc) -> dict:
    return {"name": name, "ai": ai, "weapon": weapon, "opencore": oc}


def duel(a: dict, b: dict, **top):
    enc = Encounter(parse({"a": [a], "b": [b]}, **top), "opencore", seed=0)
    return enc, enc.sides["a"][0], enc.sides["b"][0]


def d100(*values: int) -> list[float]:
    return [face(v, 100) for v in values]


def act(enc, f, intent, *rolls: float) -> None:
    """Resolve one action of ``f`` with hand-set rolls (every one of them used)."""
    enc.rng = StubRandom(rolls)
    enc.ruleset.resolve(enc, TimedAction(0.0, f, intent, 0))
    assert not enc.rng.queue, "not every hand-set roll was used"


def attack(enc, f, target, *rolls: float) -> None:
    """Resolve one attack action of ``f`` with hand-set rolls."""
    act(enc, f, Attack(target), *rolls)
