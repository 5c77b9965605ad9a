"""Solo-log text of OpenD6 turns and attacks (built only when an encounter keeps a log).

The rolls print as :class:`~sim.rulesets.opend6.rules.RollResult` does: the normal dice, the
wild die's throws separately, the pips, the total, and a fumble or an explosion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import DEFENDS, Intent
from sim.core.words import IntentWords
from sim.rulesets.opend6.dice import DiceCode
from sim.rulesets.opend6.rules import (
    AIM_DICE,
    BASE_DIFFICULTY,
    BLINDED_DICE,
    CALLED_SHOT_DICE,
    COVER_DIFFICULTY,
    PINNED_DIFFICULTY,
    SHOT_IN_MELEE_DICE,
    VISIBILITY_DIFFICULTY,
    RangeBand,
)
from sim.scenario.vocabulary import Cover, Visibility

if TYPE_CHECKING:
    from sim.core.engine import Encounter
    from sim.rulesets.opend6.dice import RollResult
    from sim.rulesets.opend6.fighter import D6Fighter


WORDS = IntentWords(attack="attacks {target}", called=" (called shot)",
                    move="moves toward {target}", leave="falls back off the field",
                    relocate="moves to {place}", defenses=DEFENDS, other="{kind}s",
                    others={"aim": "aims at {target}"})
"""How OpenD6's log names a declared intent: ``attacks X``, ``dodges``."""


def log_turn(enc: Encounter, f: D6Fighter, intents: list[Intent], count: int,
             penalty: int) -> None:
    """The start of a turn: initiative, what the combatant does, the multiple-action cost."""
    what = " then ".join(WORDS.text(i, enc.field) for i in intents) or "does nothing"
    extra = f" ({count} actions, {penalty}D each)" if penalty else ""
    enc.emit("declare", who=f.name,
             text=f"{f.name} (initiative {f.init_text}) {what}{extra} - {f.why}.")


def modifier_notes(band: RangeBand | None, *, blinded: bool, called: bool,
                   aimed: bool, pressed: bool = False) -> list[str]:
    """The words for an attack's dice modifiers: ``medium -1D``, ``blinded -2D``, ``aimed +1D``."""
    mods = []
    if band is not None and band.dice:  # point blank, medium, long; none out of range
        mods.append((band.name.lower().replace("_", " "), band.dice))
    if pressed:
        mods.append(("a foe in reach", SHOT_IN_MELEE_DICE))
    if blinded:
        mods.append(("blinded", BLINDED_DICE))
    if called:
        mods.append(("called shot", CALLED_SHOT_DICE))
    if aimed:
        mods.append(("aimed", AIM_DICE))
    return [f"{what} {n:+d}D" for what, n in mods]


def tn_reasons(cover: Cover, visibility: Visibility, *, pinned: bool, parry: bool,
               extra: int) -> str:
    """What moved the target number: ``light cover +5, poor visibility +5, pinned -5``."""
    parts = []
    if cover and not parry:
        parts.append(f"{cover.label} cover +{COVER_DIFFICULTY[cover]}")
    if visibility:
        parts.append(f"{visibility.label.replace('_', ' ')} visibility "
                     f"+{VISIBILITY_DIFFICULTY[visibility]}")
    if pinned:
        parts.append(f"pinned {PINNED_DIFFICULTY}")
    if extra:
        parts.append(f"weapon {extra:+d}")
    return ", ".join(parts)


def log_attack(enc: Encounter, f: D6Fighter, target: D6Fighter, *, dice: int,
               notes: list[str], r: RollResult, defense: int | None, parry: bool, tn: int,
               hit: bool, penalty: int, health: int, why: str) -> None:
    """Log an attack roll.

    The pool and its modifiers, the dice, the total against the difficulty or the defense
    roll (with what changed it), hit or miss.
    """
    if penalty:
        notes.insert(0, f"multiple actions {penalty}D")
    if health:
        notes.insert(0, f"{f.level.label()} {health}D")  # a penalty: the stun runs
    against = (f"{target.name}'s {'parry' if parry else target.defense_kind} {defense}"
               if defense is not None else f"difficulty {BASE_DIFFICULTY}")
    if why:
        against += f" ({why}) -> {tn}"
    mods = (f", {', '.join(notes)} -> {DiceCode(max(dice, 0), f.attack_code.pips)}"
            if notes else "")
    enc.emit("attack", who=f.name, target=target.name, total=r.total, wild=list(r.wild),
             fumble=r.fumble, exploded=r.exploded, target_number=tn, hit=hit,
             text=f"{f.name} attacks {target.name} with the {f.weapon.name} "
                  f"({f.attack_code}{mods}): {r} vs {against}: {'HIT' if hit else 'miss'}.")
