"""ORE's situation of a roll: the dice off one action beyond its pool.

A called shot, range, cover, visibility and a shot with a foe in reach (RULES.md), by
cause for the log and summed for the planner. B-Grade reads the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.core.actions import Attack
from sim.rulesets.ore.catalog import (
    BAND_NAMES,
    COVER_PENALTY,
    RANGE_PENALTY,
    VISIBILITY_PENALTY,
)
from sim.scenario.vocabulary import Cover, Visibility

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.battlefield import Battlefield, Position
    from sim.rulesets.ore.fighter import OreFighter


CALLED_SHOT_PENALTY = 1  # a called shot sets one die: one die fewer to roll
SHOT_IN_MELEE = 2  # RULES.md "Shooting in melee": -2d with a standing foe in reach


def shot_situation(field: Battlefield, f: OreFighter[Any], pos: Position,
                   target: Position) -> tuple[int, Cover, Visibility]:
    """A shot's range band (0 close, 1 medium, 2 long), the target's cover and visibility."""
    d = field.distance(pos, target)
    ranges = f.weapon.ranges
    assert ranges is not None, "a shot needs a ranged weapon"
    close, medium, _ = ranges
    band = 0 if d <= close else 1 if d <= medium else 2
    return band, field.cover(target), field.visibility(target)


def situation_terms(field: Battlefield, f: OreFighter[Any], pos: Position,
                    intent: Intent, pressed: bool = False) -> tuple[tuple[str, int], ...]:
    """Dice off one action's pool for its situation, by cause: ``(("long range", 2), ...)``.

    A called shot, and for a shot its range band, the target's cover and the visibility
    there (from the battlefield); ``pos`` is where the actor stands; ``pressed``: a foe
    threatens the shooter in melee (RULES.md "Shooting in melee", ``SHOT_IN_MELEE``). Only
    attacks carry a situation. Causes that take nothing off are left out.
    """
    if type(intent) is not Attack:
        return ()
    terms = [("called shot", CALLED_SHOT_PENALTY)] if intent.called else []
    if f.weapon.ranged:
        if pressed:
            terms.append(("a foe in reach", SHOT_IN_MELEE))
        band, cover, seen = shot_situation(field, f, pos, intent.target.pos)
        for label, dice in ((f"{BAND_NAMES[band]} range", RANGE_PENALTY[band]),
                            (f"{Cover(cover).label} cover", COVER_PENALTY[cover]),
                            (f"{Visibility(seen).label.replace('_', ' ')} visibility",
                             VISIBILITY_PENALTY[seen])):
            if dice:
                terms.append((label, dice))
    return tuple(terms)


def situational_penalty(field: Battlefield, f: OreFighter[Any], pos: Position,
                        intent: Intent, pressed: bool = False) -> int:
    """Dice off one action's pool for its situation: what ``situation_terms`` lists, summed.

    Counted straight from the same tables (no labels): the planner asks on every roll.
    """
    if type(intent) is not Attack:
        return 0
    dice = CALLED_SHOT_PENALTY if intent.called else 0
    if f.weapon.ranged:
        band, cover, seen = shot_situation(field, f, pos, intent.target.pos)
        dice += RANGE_PENALTY[band] + COVER_PENALTY[cover] + VISIBILITY_PENALTY[seen]
        if pressed:
            dice += SHOT_IN_MELEE
    return dice
