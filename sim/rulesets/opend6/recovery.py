"""OpenD6 between fights: what a fighter carries into the next one, and rest.

Seed 004, "Damage Systems and Healing": characters recover 1 wound per day of rest (hit
points: 5 per day of rest). Rulings (``docs/rules/opend6.md``, ``docs/campaigns.md``):
- ``rest: long`` is a day of rest: 1 wound (or 5 HP, at most the starting HP) healed;
  ``short`` and ``none`` heal nothing (OpenD6's notes have no first aid).
- Character points and fate points spent stay spent: they come back at the end of an
  adventure, and a campaign is one adventure.
- An empty reload weapon is reloaded at any rest; with no rest it stays as it was.
- A stun lasts its round only, so it never carries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.combatant import Status
from sim.rulesets.opend6.rules import WoundStatus

if TYPE_CHECKING:
    from sim.rulesets.opend6.fighter import D6Fighter
    from sim.rulesets.opend6.ruleset import D6Ruleset

# ``carry``, ``recover`` and ``fit`` of the OpenD6 rulesets, which call them with themselves:
# the ruleset supplies ``heal_day`` (a wound, or hit points, by its health measure) and
# ``level_of`` (the wound level its health gives under this fight's options).


def carry(rules: D6Ruleset, old: D6Fighter, new: D6Fighter) -> None:
    """Wounds or hit points, the points left and an empty crossbow carry over."""
    new.wounds, new.hp, new.hp_max = old.wounds, old.hp, old.hp_max
    new.level = rules.level_of(new)  # under this fight's options (its wound limit)
    new.cp, new.fate = min(old.cp, new.cp), min(old.fate, new.fate)
    new.loaded = old.loaded


def recover(rules: D6Ruleset, f: D6Fighter, rest: str) -> list[str]:
    """Reload at any rest; a long rest heals a day's worth.

    Says what the rest healed, or why nothing (no rest; a short rest heals nothing
    without first aid; nothing to heal), and the health it leaves.
    """
    said = []
    if rest != "none" and not f.loaded:
        f.loaded = True
        said.append(f"reloads the {f.weapon.name}")
    healed = rules.heal_day(f) if rest == "long" else None
    if healed:
        said.append(f"a day's rest heals {healed}, now {f.state()}")
    elif not _heal_day_would_heal(f):
        said.append(f"nothing to heal: {f.state()}")
    else:
        why = ("no rest" if rest == "none"
               else "a short rest heals nothing (OpenD6 has no first aid: only a day of "
                    "rest heals)")
        said.append(f"{why}: still {f.state()}")
    return said


def _heal_day_would_heal(f: D6Fighter) -> bool:
    """Whether ``f`` has anything a day's rest would heal (wounds, or hit points lost)."""
    return bool(f.wounds) if not f.hp_max else f.hp < f.hp_max


def fit(rules: D6Ruleset, f: D6Fighter) -> bool:
    """Alive by its wounds under this fight's options (the wound limit may differ)."""
    return f.status is not Status.DEAD and rules.level_of(f) is not WoundStatus.DEAD
