"""The interface every ruleset implements, and the small helpers they share.

A ruleset is one module with one ``Ruleset`` subclass, registered by name in
``sim.rulesets.registry``. The engine calls, per encounter:

1. ``build(member, pos, rng)`` for every combatant (neutral traits or a native block);
2. ``start(enc)`` once (initiative, decks, ...);
3. per round: ``declaration_order(enc, fighters)``, then ``plan_round(enc, declared)`` turns
   the AIs' intents into timed actions, each later passed to ``resolve(enc, action)`` at its
   moment; ``end_round(enc)`` closes the round.

Rules live in plain functions inside the ruleset modules, testable without the engine.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict

from sim.actions import Intent, TimedAction

if TYPE_CHECKING:
    from sim.battlefield import Position
    from sim.combatant import Combatant
    from sim.engine import Encounter
    from sim.scenario import MemberSpec


class NoOptions(BaseModel):
    """A ruleset without options: an empty mapping is all that validates."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Ruleset(ABC):
    """Base class of the rulesets.

    Class attributes:
        name: registry name (``ore``).
        summary: one line for ``fray rulesets``.
        seconds_per_round: length of a round in seconds (RULES.md, shared vocabulary).
        native_key: the scenario block it reads (``ore``), or None.
        NativeBlock: pydantic model of that block.
        Options: pydantic model of ``options.<name>`` in a scenario.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    seconds_per_round: ClassVar[float]
    native_key: ClassVar[str | None] = None
    NativeBlock: ClassVar[type[BaseModel] | None] = None
    Options: ClassVar[type[BaseModel]] = NoOptions

    def __init__(self, options: BaseModel | None = None):
        self.options = options if options is not None else self.Options()

    # ---------------------------------------------------------------- building
    @abstractmethod
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> Combatant:
        """Make a combatant from its scenario description."""

    def start(self, enc: Encounter) -> None:
        """Called once before the first round."""

    # ---------------------------------------------------------------- a round
    def declaration_order(self, enc: Encounter, fighters: list[Combatant]) -> list[Combatant]:
        """The order in which combatants declare (later ones see earlier intents)."""
        return fighters

    @abstractmethod
    def plan_round(
        self, enc: Encounter, declared: list[tuple[Combatant, list[Intent]]]
    ) -> list[TimedAction]:
        """Turn the round's declarations into timed actions (offsets in seconds)."""

    @abstractmethod
    def resolve(self, enc: Encounter, action: TimedAction) -> None:
        """Carry out one timed action against the state at this moment."""

    def end_round(self, enc: Encounter) -> None:
        """Called after the last action of a round."""

    # ---------------------------------------------------------------- AI queries
    def can_attack(self, enc: Encounter, actor: Combatant, target: Combatant) -> bool:
        """Whether ``actor`` could attack ``target`` from where both stand."""
        return enc.field.distance(actor.pos, target.pos) <= actor.reach

    def needs_reload(self, actor: Combatant) -> bool:
        """Whether the actor's weapon must be reloaded before it can attack."""
        return False

    def threat(self, actor: Combatant) -> float:
        """How hurt a combatant is, 0 (fresh) to 1 (about to go down); for focus fire."""
        return 0.0

    def called_shot(self, enc: Encounter, actor: Combatant, target: Combatant) -> str | None:
        """The location an aggressive AI should call, or None when a called shot does not pay."""
        return None

    def extra_attacks(self, enc: Encounter, actor: Combatant, target: Combatant) -> int:
        """How many extra attacks an aggressive AI should declare this round (0: just one)."""
        return 0

    def can_move_and_attack(self, enc: Encounter, actor: Combatant) -> bool:
        """Whether moving and attacking in one round is worth declaring for ``actor``."""
        return False
