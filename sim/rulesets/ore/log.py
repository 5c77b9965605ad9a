"""ORE's lines of the solo log: a declared intent's name, and a fighter's roll."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.core.actions import Intent
from sim.core.words import IntentWords
from sim.rulesets.ore.body import Body
from sim.rulesets.ore.catalog import TORSO
from sim.rulesets.ore.rules import penalty_text

if TYPE_CHECKING:
    from sim.core.battlefield import Battlefield
    from sim.core.engine import Encounter
    from sim.rulesets.ore.fighter import OreFighter
    from sim.rulesets.ore.rules import RollPlan
    from sim.rulesets.ore.sets import Set


WORDS = IntentWords(attack="attack on {target}", called=" (called shot: {called})",
                    move="move toward {target}", leave="retreat off the field",
                    relocate="move to {place}")
"""How ORE's log (and B-Grade's) names a declared intent: ``attack on X``."""


def given_text(s: Set | None, intent: Intent, owner: str = "",
               field: Battlefield | None = None) -> str:
    """One set given to one intent, for the log: ``2x4 -> attack on X``.

    With no set the action fails, and the log says so at once: ``no set -> attack on X
    (fails)`` (an attack without a set is a miss, ``OreRuleset._commit_one``). ``owner``:
    whose intent it is, in a team's pooled roll (``Bo's ``).
    """
    return f"{s} -> {owner}{WORDS.text(intent, field)}" if s else \
        f"no set -> {owner}{WORDS.text(intent, field)} (fails)"


def log_roll(enc: Encounter, f: OreFighter[Any], intents: list[Intent], p: RollPlan,
             faces: list[int], sets: list[Set], pairs: list[tuple[Intent, Set | None]],
             terms: list[tuple[str, int]]) -> None:
    """The roll of one fighter's round, with each penalty's cause.

    Its declaration was told as it declared (``OreRuleset.declaration``).
    """
    base, dice, skill = p.base, p.dice, p.skill
    special = ("expert" if skill in f.expert else "master" if skill in f.master else "")
    given = "; ".join(given_text(s, i, field=enc.field) for i, s in pairs)
    off = penalty_text(terms)
    enc.emit("roll", who=f.name, dice=sorted(faces, reverse=True),
             sets=[str(s) for s in sets],
             text=f"{f.name} rolls {dice}d ({skill} pool {base}"
                  f"{', ' + off if off else ''}"
                  f"{', ' + special + ' die' if special else ''}):"
                  f" {' '.join(map(str, sorted(faces, reverse=True)))} -> "
                  f"{', '.join(map(str, sets)) or 'no set'}; {given}.")


def spilled_text(wounds: Body, loc: int, killing: int, shock: int) -> str:
    """`` (3 Killing, 1 Shock over into the torso)``: what a hit on a limb passes on, or "".

    The hit marked on a copy of the limbs with an empty torso, by ``Body.take`` itself: what
    reaches that torso is exactly what the limb passed on, before the real torso's own
    boxes (full, Shock turning to Killing) have their say.
    """
    scratch = Body()
    scratch.killing[:TORSO] = wounds.killing[:TORSO]
    scratch.shock[:TORSO] = wounds.shock[:TORSO]
    scratch.take(loc, killing, shock)
    k, s = scratch.killing[TORSO], scratch.shock[TORSO]
    parts = [f"{k} Killing"] * (k > 0) + [f"{s} Shock"] * (s > 0)
    return f" ({', '.join(parts)} over into the torso)" if parts else ""
