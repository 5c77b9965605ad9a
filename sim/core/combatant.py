"""The state every ruleset's combatant shares: who, where, which side, and in the fight or not.

Rulesets subclass ``Combatant`` to add their own bookkeeping (wound boxes, hit points,
pools). The engine and the AI read only what is defined here.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

import simpy

from sim.core.actions import Attack
from sim.core.doctrine import effective, policy
from sim.core.space import RATE_OF_FIRE, melee_reach
from sim.scenario.vocabulary import carried

if TYPE_CHECKING:
    from collections.abc import Generator

    from sim.core.battlefield import Position
    from sim.scenario.specs import MemberSpec


class Effect(simpy.Process):
    """An ongoing effect's SimPy process (bleeding, stun), tied to its fighter.

    Interrupted when the fighter is taken out, or only when it dies if ``persistent``
    (``Encounter.take_out``).
    """

    def __init__(self, env: simpy.Environment, generator: Generator[simpy.Event, Any, Any],
                 persistent: bool):
        super().__init__(env, generator)
        self.persistent = persistent


class Status(Enum):
    """Where a combatant stands; anything but ``OK`` is out of the fight."""

    OK = "ok"
    UNCONSCIOUS = "unconscious"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"
    FLED = "fled"
    SURRENDERED = "surrendered"

    def phrase(self, already: bool = False) -> str:
        """The status as words after a name: ``is dead``, ``has fled`` (``has already fled``)."""
        verb, rest = (("has", self.value) if self in (Status.FLED, Status.SURRENDERED)
                      else ("is", "standing" if self is Status.OK else self.value))
        return f"{verb} {'already ' if already else ''}{rest}"


class Combatant:
    """A fighter in one encounter. Mutable: it lives and dies within a single fight.

    Attributes:
        name: unique within the encounter.
        side: the side's name.
        spec: the scenario's description it was built from.
        pos: where it stands on the battlefield.
        reach: metres within which it can attack now (melee 2 m, 3 with a spear; a ranged weapon's
            longest band).
        ranged: whether its weapon shoots.
        speed: metres per move action.
        status: see ``Status``; ``in_fight`` mirrors ``status is Status.OK`` for speed.
        attacks, hits: attack actions resolved and those that succeeded.
        damaging_hits: hits that dealt damage (armor did not stop them whole).
        damage: damage dealt by its hits, in the ruleset's own unit (ORE boxes of Shock and
            Killing after armor, OpenD6 wounds or hit points, OpenCore hit points, B-Grade
            wounds and Shock).
        out_round: the round it was taken out in (0 while in the fight).
        plain_attack, called_attacks: attacks on it, plain and by called location, each
            made once (``actions.attack_on``).
        reach_kept: the last answer of ``space.in_reach`` on each target, and what it
            was for (the two places and the reach).
        other_arms: the weapon not in hand (a sidearm), or None; drawn: the sidearm is in
            hand.
        throws_left: thrown weapons it still carries (None: its weapon is not thrown).
    """

    __slots__ = (
        "name", "side", "spec", "ai", "doctrine", "policy", "pos", "reach", "ranged", "speed",
        "status", "in_fight", "attacks", "hits", "damaging_hits", "damage", "out_round",
        "effects", "why", "plain_attack", "called_attacks", "reach_kept", "fleeing",
        "other_arms", "drawn", "throws_left", "fire_rate",
    )

    def __init__(self, spec: MemberSpec, pos: Position):
        self.spec = spec
        self.name = spec.name
        self.side = spec.side
        self.ai = spec.ai
        self.doctrine = effective(spec.doctrine)  # the profile's defaults filled in
        self.policy = policy(spec.ai)  # what the rules may spend on its behalf
        self.pos = pos
        self.reach = melee_reach(spec.weapon)  # a ranged weapon's range: its ruleset's
        self.ranged = False
        self.speed = 10.0
        self.status = Status.OK
        self.in_fight = True
        self.attacks = 0
        self.hits = 0
        self.damaging_hits = 0
        self.damage = 0
        self.out_round = 0
        self.effects: list[Effect] = []  # SimPy processes of ongoing effects (bleeding, stun)
        self.why = ""  # the AI's last reason, for the solo log
        self.plain_attack = Attack(self)
        self.called_attacks: dict[str, Attack] = {}
        self.reach_kept: dict[Combatant, tuple[Position, Position, float, bool]] = {}
        self.fleeing = False  # running for the way out (RULES.md "Flight takes time")
        # the weapon not in hand, as its ruleset's ``ARMS`` slots (a shooter's sidearm, or
        # its bow once the sidearm is drawn); None: one weapon only (``Ruleset.switch_arms``)
        self.other_arms: tuple[object, ...] | None = None
        self.drawn = False  # its sidearm in hand, its main weapon put away
        # javelins and throwing knives still carried: one spent a throw (``arms.thrown``)
        self.throws_left = carried(spec.weapon, spec.carry)
        # shots a round at most with its main weapon (RULES.md "Rate of fire"; a sidearm is
        # never ranged): by the neutral weapon, or a native block's, which its ruleset sets
        self.fire_rate = RATE_OF_FIRE.get(spec.weapon)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} ({self.side}) {self.status.value}>"

    def helpless(self) -> bool:
        """Down for a while but in the fight (RULES.md); rulesets with such states override."""
        return False

    def describe(self) -> str:
        """The fighter's numbers for the log's roster; rulesets override."""
        return self.status.value

    def state(self) -> str:
        """Its health now, for the log ("2 wounds (wounded)", "HP 12/27"); rulesets override."""
        return self.status.value
