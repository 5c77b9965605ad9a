"""Small helpers for the words of a log: counts that read right, intents in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sim.core.actions import Aim, Attack, Defend, Move, Retreat

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.battlefield import Battlefield


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun, singular for 1: ``count(1, "die", "dice")`` is ``1 die``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


RUNNING = ", running"  # a move or a retreat at a run (RULES.md "Running"), in any grammar


@dataclass(frozen=True)
class IntentWords:
    """How a ruleset's log words a declared intent: one template per kind of intent.

    The one home of what an intent says (its target, a called shot, where a move goes);
    each ruleset gives only its grammar ("attack on X", "attacks X", "an attack on X").
    Templates take ``{target}`` (the foe's name), ``{called}`` (a called location),
    ``{place}`` (where a move goes) and ``{kind}`` (a defense's or another intent's name).
    """

    attack: str
    called: str  # added to ``attack`` for a called shot
    move: str  # toward a foe
    leave: str  # a retreat off the field
    relocate: str  # a move to a place
    defend: str = "{kind}"
    defenses: Mapping[str, str] = field(default_factory=dict)  # a defense's name by kind
    other: str = "{kind}"  # any other intent; ``{kind}``: its class name in lower case
    others: Mapping[str, str] = field(default_factory=dict)  # by that name, over ``other``

    def text(self, intent: Intent | None, place: Battlefield | None = None) -> str:
        """``intent`` in words; with ``place``, where a move to a place goes.

        Without it (a player's menu labels, which recorded answers are matched by) a move
        to a place reads "a new place".
        """
        if type(intent) is Attack:
            called = self.called.format(called=intent.called) if intent.called else ""
            return self.attack.format(target=intent.target.name) + called
        if type(intent) is Move:
            return self.move.format(target=intent.target.name) + (
                RUNNING if intent.run else "")
        if type(intent) is Retreat:
            if intent.leave:
                return self.leave
            where = place.describe(intent.dest) if place is not None else "a new place"
            return self.relocate.format(place=where) + (RUNNING if intent.run else "")
        if type(intent) is Defend:
            return self.defend.format(kind=self.defenses.get(intent.kind, intent.kind))
        kind = type(intent).__name__.lower()
        target = intent.target.name if type(intent) is Aim else ""
        return self.others.get(kind, self.other).format(kind=kind, target=target)
