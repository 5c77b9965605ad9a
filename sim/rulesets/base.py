"""The interface every ruleset implements, and the small helpers they share.

A ruleset is one module with one ``Ruleset`` subclass, registered by name in
``sim.rulesets.registry``. The engine calls, per encounter:

1. ``build(member, pos, rng)`` for every combatant (neutral traits or a native block);
2. ``start(enc)`` once (initiative, decks, ...);
3. per round: ``declaration_order(enc, fighters)``, then ``plan_round(enc, declared)`` turns
   the AIs' intents into timed actions, each later passed to ``resolve(enc, action)`` at its
   moment; ``end_round(enc)`` closes the round.

Rules live in plain functions inside the ruleset modules, testable without the engine.
The AI's questions have defaults here: ``can_attack`` ... ``threat`` for every profile, and
for the cautious and tactical ones ``danger``, ``defense_kind``, ``attack_and_defend``,
``tactical_attack``, ``wait_intents``, ``while_closing``, ``waits_for`` and
``can_step_back_and_attack``; a ruleset answers them in its own ``*_ai`` module.
``move_to`` resolves a ``Retreat`` the same way under every ruleset.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict

from sim.actions import Attack, Intent, Retreat, TimedAction
from sim.battlefield import MELEE_REACH
from sim.combatant import Status

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

    @classmethod
    def options_for(cls, scenario) -> BaseModel | None:
        """The scenario's ``options.<name>`` block for this ruleset (None: defaults)."""
        return scenario.ruleset_options(cls.name)

    # ---------------------------------------------------------------- building
    @abstractmethod
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> Combatant:
        """Make a combatant from its scenario description."""

    def start(self, enc: Encounter) -> None:  # noqa: B027 - an optional hook
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

    def end_round(self, enc: Encounter) -> None:  # noqa: B027 - an optional hook
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

    # ---------------------------------------------------------------- tactics
    # The cautious and tactical profiles (sim.ai) ask these; a ruleset answers from its dice.
    def danger(self, enc: Encounter, actor: Combatant) -> float:
        """Expected damage ``actor`` deals in a round, in the ruleset's own unit.

        Only compared between foes (``focus: most_dangerous`` picks the highest).
        """
        return 1.0

    def defense_kind(self, enc: Encounter, actor: Combatant, ranged: bool) -> str | None:
        """The defense to declare against ``ranged`` (else melee) attacks, or None.

        None when declaring one buys nothing for ``actor`` under this ruleset.
        """
        return "dodge"

    def attack_and_defend(self, enc: Encounter, actor: Combatant, target: Combatant,
                          kind: str) -> bool:
        """Whether attacking ``target`` and defending (``kind``) in one round both still pay."""
        return False

    def tactical_attack(self, enc: Encounter, actor: Combatant,
                        target: Combatant) -> tuple[list[Intent], str]:
        """The attack declaration with the best expectation on ``target`` (in reach), and why.

        Default: the aggressive choices (called shot, extra attacks); the reason is "" for a
        single plain attack.
        """
        called = self.called_shot(enc, actor, target)
        extra = self.extra_attacks(enc, actor, target)
        why = ", ".join(x for x in (f"{extra + 1} attacks" if extra else "",
                                    f"called shot at the {called}" if called else "") if x)
        return [Attack(target, called)] + [Attack(target)] * extra, why

    def wait_intents(self, enc: Encounter, actor: Combatant,
                     foes: list[Combatant]) -> tuple[list[Intent], str]:
        """What a fighter holding its ground with no foe in reach does, and why."""
        return [], "holds its ground"

    def while_closing(self, enc: Encounter, actor: Combatant,
                      target: Combatant) -> list[Intent]:
        """What to declare with a move that does not bring ``target`` into reach (OpenD6: aim)."""
        return []

    def waits_for(self, enc: Encounter, actor: Combatant, target: Combatant) -> bool:
        """Whether letting ``target`` come into reach beats closing the last gap (OpenCore)."""
        return False

    def can_step_back_and_attack(self, enc: Encounter, actor: Combatant) -> bool:
        """Whether a ranged fighter can step out of melee and still shoot this round."""
        return self.can_move_and_attack(enc, actor)

    # ---------------------------------------------------------------- shared resolution
    def move_to(self, enc: Encounter, f: Combatant, intent: Retreat, metres: float) -> None:
        """Resolve a ``Retreat``: walk up to ``metres`` toward its place, maybe leave.

        With ``leave``, a fighter standing at its place once the walk is done, with no foe
        able to reach it in one move (its speed plus melee reach), leaves the field: fled.
        """
        field = enc.field
        before = f.pos
        f.pos = field.advance(f.pos, intent.dest, metres)
        if enc.log is not None and f.pos != before:
            enc.emit("move", who=f.name, to=field.describe(f.pos),
                     text=f"{f.name} moves to {field.describe(f.pos)} ({f.why}).")
        if intent.leave and f.pos == intent.dest and f.in_fight:
            distance = field.distance
            if all(distance(f.pos, e.pos) > e.speed + MELEE_REACH for e in enc.enemies(f)):
                enc.take_out(f, Status.FLED, f"leaves the field at {field.describe(f.pos)}")
