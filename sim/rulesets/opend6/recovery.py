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

if TYPE_CHECKING:
    import random

    from sim.rulesets.opend6.fighter import D6Fighter


class BetweenFights:
    """``carry`` and ``recover`` of the OpenD6 rulesets (mixed into ``OpenD6Ruleset``).

    The ruleset supplies ``_heal_day`` (a wound, or hit points, by its health measure).
    """

    def _heal_day(self, f: D6Fighter) -> str | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def carry(self, old: D6Fighter, new: D6Fighter) -> None:
        """Wounds or hit points, the points left and an empty crossbow carry over."""
        new.wounds, new.hp, new.hp_max, new.level = old.wounds, old.hp, old.hp_max, old.level
        new.cp, new.fate = min(old.cp, new.cp), min(old.fate, new.fate)
        new.loaded = old.loaded

    def recover(self, f: D6Fighter, rest: str, rng: random.Random) -> list[str]:
        """Reload at any rest; a long rest heals a day's worth."""
        said = []
        if rest != "none" and not f.loaded:
            f.loaded = True
            said.append(f"reloads the {f.weapon.name}")
        if rest == "long":
            healed = self._heal_day(f)
            if healed:
                said.append(f"a day's rest heals {healed}")
        return said
