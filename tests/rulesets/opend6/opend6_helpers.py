"""Hand-set OpenD6 fights shared by the OpenD6 tests: members, a duel, one turn's dice."""

from __future__ import annotations

from helpers import StubRandom, faces

from sim import scenario as scenario_mod
from sim.core.actions import TimedAction
from sim.core.engine import Encounter


def parse(sides: dict, ruleset: str = "opend6", **top) -> scenario_mod.Scenario:
    return scenario_mod.parse({"name": "t", "ruleset": ruleset, **top, "sides": sides})


def member(name: str, ai_: str = "basic", weapon: str = "club", *, agility: int = 2,
           melee: int = 1, **extra) -> dict:
    traits = {"agility": agility, **extra.pop("traits", {})}
    return {"name": name, "ai": ai_, "weapon": weapon, "traits": traits,
            "skills": {"melee": melee, **extra.pop("skills", {})}, **extra}


def duel(a: dict, b: dict, ruleset: str = "opend6", **top):
    enc = Encounter(parse({"a": [a], "b": [b]}, ruleset, **top), ruleset, seed=0)
    enc.round = 1
    return enc, enc.sides["a"][0], enc.sides["b"][0]


def declaring(enc, f, *intents) -> TimedAction:
    """``f``'s turn, at which it declares ``intents`` (a mind in its AI's place).

    OpenD6 fighters declare at their own turn (``declares_at_turn``): the turn asks.
    """
    enc.minds = {**enc.minds, f.name: lambda _enc, _c: list(intents)}
    return TimedAction(f.offset, f, None, None)


def turn(enc, f, *intents, dice: list[int]) -> None:
    """Resolve one turn of ``f`` with hand-set d6 faces; all of them, and no more, drawn."""
    enc.rng = StubRandom(faces(*dice, sides=6))
    enc.ruleset.resolve(enc, declaring(enc, f, *intents))
    assert not enc.rng.queue, "not every hand-set die was rolled"
    assert enc.rng.drawn == len(dice), f"rolled {enc.rng.drawn} dice, set {len(dice)}"
